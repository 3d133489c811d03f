// Builds the app shell's service worker (src/services/shell/service-worker.ts) into dist/sw.js with this
// build's list of files: index.html, the entry chunk with every chunk it imports and their styles, and
// the chunks of the modules the first screen needs (`firstScreen`: the login page and its texts), with
// theirs. The worker is a classic script (a module worker is not supported everywhere yet), so the
// module's one export is turned into a plain function and called with the list. The families' app
// (vite.family.config.ts) builds its own worker the same way, under /familia, from its rules module and its
// worker module: their imports of each other are dropped, as both end up in the one script.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { transformWithOxc, type Plugin } from 'vite';

interface ChunkLike {
  type: 'chunk';
  fileName: string;
  isEntry: boolean;
  imports: string[];
  moduleIds: string[];
  viteMetadata?: { importedCss: Set<string>; importedAssets: Set<string> };
}

type Output = ChunkLike | { type: 'asset'; fileName: string; source: string | Uint8Array };

interface ShellOptions {
  /** The worker's source module(s), relative to the project root, in the order the script needs them. */
  worker: string | string[];
  /** Modules (paths relative to the root) whose chunks the first screen needs, kept with the entry. */
  firstScreen: string[];
  /** Public files kept too (the icon). */
  publicFiles: string[];
  /** Where the build is served ('' for the root, '/familia'): its index.html and the worker live there. */
  base?: string;
  /** Every chunk and stylesheet of the build, not only the first screen's (a small app read offline). */
  allChunks?: boolean;
  /** The worker module's function that the script calls with the list. */
  install?: string;
}

/** A module's code as part of a classic script: its exports plain, its imports (of the other parts) gone. */
const asScriptPart = (code: string): string =>
  code
    .replace(/^import\s[\s\S]*?from\s*['"][^'"]+['"];?[ \t]*$/gm, '')
    .replace(/^export\s+(?=function|const|interface|async\s+function)/gm, '')
    .replace(/^export\s*\{\s*\};?\s*$/gm, '');

/** The chunk files `start` needs: itself, what it imports statically, and their CSS. */
function closure(bundle: Record<string, Output>, start: string[]): Set<string> {
  const files = new Set<string>();
  const queue = [...start];
  while (queue.length > 0) {
    const fileName = queue.pop();
    if (fileName === undefined || files.has(fileName)) continue;
    files.add(fileName);
    const output = bundle[fileName];
    if (output?.type !== 'chunk') continue;
    queue.push(...output.imports);
    for (const css of output.viteMetadata?.importedCss ?? []) files.add(css);
  }
  return files;
}

export function shell(options: ShellOptions): Plugin {
  let root = '';
  return {
    name: 'hermes:shell',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      root = config.root;
    },
    async generateBundle(_, output) {
      // Rollup's bundle type, read through the fields this plugin uses.
      const bundle: Record<string, Output> = output as Record<string, Output>;
      const base = options.base ?? '';
      const chunks = Object.values(bundle).filter((o): o is ChunkLike => o.type === 'chunk');
      const wanted = options.firstScreen.map((file) => path.resolve(root, file));
      const starts = chunks
        .filter((c) => options.allChunks || c.isEntry || c.moduleIds.some((id) => wanted.includes(id)))
        .map((c) => c.fileName);
      const found = wanted.filter((id) => !chunks.some((c) => c.moduleIds.includes(id)));
      if (found.length > 0) this.error(`shell: ningún chunk contiene ${found.join(', ')}`);

      const indexFile = `${base}/index.html`;
      const files = [indexFile, ...options.publicFiles, ...[...closure(bundle, starts)].sort().map((f) => `/${f}`)];
      const index = bundle[indexFile.slice(1)];
      const hash = createHash('sha256');
      for (const file of files) hash.update(`${file}\n`);
      if (index?.type === 'asset') hash.update(index.source);
      const version = hash.digest('hex').slice(0, 16);

      const parts: string[] = [];
      for (const worker of [options.worker].flat()) {
        const source = await readFile(path.resolve(root, worker), 'utf8');
        const { code } = await transformWithOxc(source, worker, { lang: 'ts' });
        parts.push(asScriptPart(code));
      }
      this.emitFile({
        type: 'asset',
        fileName: `${base.slice(1)}${base ? '/' : ''}sw.js`,
        source: `${parts.join('\n')}\n${options.install ?? 'installShellWorker'}(self, ${JSON.stringify({ version, files })});\n`,
      });
    },
  };
}
