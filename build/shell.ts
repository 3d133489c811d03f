// Builds the app shell's service worker (src/services/shell/service-worker.ts) into dist/sw.js with this
// build's list of files: index.html, the entry chunk with every chunk it imports and their styles, and
// the chunks of the modules the first screen needs (`firstScreen`: the login page and its texts), with
// theirs. The worker is a classic script (a module worker is not supported everywhere yet), so the
// module's one export is turned into a plain function and called with the list.
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
  /** The worker's source module, relative to the project root. */
  worker: string;
  /** Modules (paths relative to the root) whose chunks the first screen needs, kept with the entry. */
  firstScreen: string[];
  /** Public files kept too (the icon). */
  publicFiles: string[];
}

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
      const chunks = Object.values(bundle).filter((o): o is ChunkLike => o.type === 'chunk');
      const wanted = options.firstScreen.map((file) => path.resolve(root, file));
      const starts = chunks.filter((c) => c.isEntry || c.moduleIds.some((id) => wanted.includes(id))).map((c) => c.fileName);
      const found = wanted.filter((id) => !chunks.some((c) => c.moduleIds.includes(id)));
      if (found.length > 0) this.error(`shell: ningún chunk contiene ${found.join(', ')}`);

      const files = ['/index.html', ...options.publicFiles, ...[...closure(bundle, starts)].sort().map((f) => `/${f}`)];
      const index = bundle['index.html'];
      const hash = createHash('sha256');
      for (const file of files) hash.update(`${file}\n`);
      if (index?.type === 'asset') hash.update(index.source);
      const version = hash.digest('hex').slice(0, 16);

      const source = await readFile(path.resolve(root, options.worker), 'utf8');
      const { code } = await transformWithOxc(source, options.worker, { lang: 'ts' });
      const script = code.replace(/^export\s+(?=function|const|interface)/gm, '').replace(/^export\s*\{\s*\};?\s*$/gm, '');
      this.emitFile({
        type: 'asset',
        fileName: 'sw.js',
        source: `${script}\ninstallShellWorker(self, ${JSON.stringify({ version, files })});\n`,
      });
    },
  };
}
