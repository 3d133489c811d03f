// Writes a brotli (.br) and a gzip (.gz) copy beside each compressible file of the build, once, at the
// highest levels (the time is spent at build, never per request): server/http/static.ts sends the copy the
// browser takes. A copy that would not be smaller is not written; fonts and images are compressed already.
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|xml|webmanifest)$/i;

interface Precompressed {
  /** The file's path inside the directory, with forward slashes. */
  file: string;
  size: number;
  /** The copies' sizes, or null when that copy was not smaller. */
  br: number | null;
  gzip: number | null;
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

/** Compresses every compressible file under `dir` (what is there, the copies aside). */
export async function precompressDir(dir: string): Promise<Precompressed[]> {
  const files = (await filesUnder(dir)).filter((file) => COMPRESSIBLE.test(file)).sort();
  return Promise.all(
    files.map(async (file) => {
      const bytes = await readFile(file);
      const [br, gz] = await Promise.all([
        brotli(bytes, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
          },
        }),
        gzipAsync(bytes, { level: constants.Z_BEST_COMPRESSION }),
      ]);
      const write = async (copy: Buffer, suffix: string): Promise<number | null> => {
        if (copy.length >= bytes.length) return null;
        await writeFile(file + suffix, copy);
        return copy.length;
      };
      return {
        file: path.relative(dir, file).split(path.sep).join('/'),
        size: (await stat(file)).size,
        br: await write(br, '.br'),
        gzip: await write(gz, '.gz'),
      };
    }),
  );
}

/**
 * The Vite plugin: runs over the output directory once everything (public/ included) is written; `under` a
 * folder of it, for a build that writes only there (the families' app, beside the staff's files).
 */
export function precompress(options: { under?: string } = {}): Plugin {
  let outDir = '';
  return {
    name: 'hermes:precompress',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir, options.under ?? '');
    },
    async writeBundle() {
      await precompressDir(outDir);
    },
  };
}
