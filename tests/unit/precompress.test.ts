// The build's compressed copies (build/precompress.ts): brotli and gzip beside each text file, decoding to
// the same bytes, never for fonts or images, never a copy larger than its file, never a copy of a copy.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { precompressDir } from '../../build/precompress';

let dir = '';
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const SCRIPT = Array.from({ length: 300 }, (_, i) => `export const t${i} = "Reunión de apoderados ${i}";`).join('\n');
const STYLE = `.a{color:red}\n`.repeat(200);

function dist(): string {
  dir = mkdtempSync(path.join(tmpdir(), 'hermes-precompress-'));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'index.html'), `<!doctype html>${'<p>Hermes</p>'.repeat(100)}`);
  writeFileSync(path.join(dir, 'assets', 'index-DYkU40ca.js'), SCRIPT);
  writeFileSync(path.join(dir, 'assets', 'index-DYq_6P5a.css'), STYLE);
  writeFileSync(path.join(dir, 'assets', 'tiny-Ab12Cd34.js'), 'x');
  writeFileSync(path.join(dir, 'assets', 'font-DdeTHZLK.woff2'), Buffer.alloc(4000, 7));
  return dir;
}

describe('precompressDir', () => {
  it('writes .br and .gz beside each text file, and they decode to the file', async () => {
    const root = dist();
    await precompressDir(root);
    for (const [name, text] of [
      ['assets/index-DYkU40ca.js', SCRIPT],
      ['assets/index-DYq_6P5a.css', STYLE],
    ] as const) {
      const br = readFileSync(path.join(root, `${name}.br`));
      const gz = readFileSync(path.join(root, `${name}.gz`));
      expect(brotliDecompressSync(br).toString('utf8'), name).toBe(text);
      expect(gunzipSync(gz).toString('utf8'), name).toBe(text);
      expect(br.length, name).toBeLessThan(text.length / 5);
      expect(gz.length, name).toBeLessThan(text.length / 5);
    }
    expect(existsSync(path.join(root, 'index.html.br'))).toBe(true);
    expect(existsSync(path.join(root, 'index.html.gz'))).toBe(true);
  });

  it('leaves fonts and images alone, and writes no copy larger than its file', async () => {
    const root = dist();
    const report = await precompressDir(root);
    expect(existsSync(path.join(root, 'assets', 'font-DdeTHZLK.woff2.br'))).toBe(false);
    expect(existsSync(path.join(root, 'assets', 'font-DdeTHZLK.woff2.gz'))).toBe(false);
    expect(existsSync(path.join(root, 'assets', 'tiny-Ab12Cd34.js.br'))).toBe(false);
    expect(existsSync(path.join(root, 'assets', 'tiny-Ab12Cd34.js.gz'))).toBe(false);
    expect(report.find((r) => r.file === 'assets/tiny-Ab12Cd34.js')).toEqual({
      file: 'assets/tiny-Ab12Cd34.js',
      size: 1,
      br: null,
      gzip: null,
    });
  });

  it('run twice, compresses the files again and never its own copies', async () => {
    const root = dist();
    await precompressDir(root);
    const again = await precompressDir(root);
    expect(again.map((r) => r.file)).toEqual([
      'assets/index-DYkU40ca.js',
      'assets/index-DYq_6P5a.css',
      'assets/tiny-Ab12Cd34.js',
      'index.html',
    ]);
    expect(existsSync(path.join(root, 'assets', 'index-DYkU40ca.js.br.br'))).toBe(false);
  });
});
