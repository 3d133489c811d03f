import path from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { precompress } from './build/precompress';
import { shell } from './build/shell';
import { REACT_19_ALIASES } from './build/aliases';

// The families' app (familia/index.html), built apart from the staff SPA and served under /familia
// (server/http/static.ts): a separate build keeps its download free of the staff's chunks (the staff's
// `login` chunk groups the UI primitives with the staff login form) and leaves the staff build as it was.
// `npm run build` runs it after the staff build, which empties dist/; this one writes only dist/familia/.
// `npm run dev:family` serves it at /familia/ (proxying /api). Its public files (the manifest, the icons)
// are in familia/public/familia/, so they land in dist/familia/ beside its index.html.
const apiTarget = process.env.HERMES_API_ORIGIN ?? 'http://localhost:3000';

/**
 * The shared primitives' `cn` (src/views/lib/utils.ts, clsx + tailwind-merge) replaced by the families'
 * own (src/views/family/class-names.ts, clsx alone) in this build only: tailwind-merge was 8 kB of the
 * first download (bench (a)). Tests and the staff's build keep the shared one.
 */
function familyClassNames(): Plugin {
  const shared = path.resolve(import.meta.dirname, 'src/views/lib/utils.ts');
  const family = path.resolve(import.meta.dirname, 'src/views/family/class-names.ts');
  return {
    name: 'hermes:family-class-names',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (!importer || !source.endsWith('lib/utils')) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return resolved?.id === shared ? family : null;
    },
  };
}

export default defineConfig({
  publicDir: 'familia/public',
  plugins: [
    familyClassNames(),
    react(),
    tailwindcss(),
    // The app's service worker (dist/familia/sw.js, scope /familia/): the whole build is small, so all of
    // it is kept, for opening and rereading offline; push and its notifications.
    shell({
      worker: ['src/services/family/worker-rules.ts', 'src/services/family/service-worker.ts'],
      firstScreen: [],
      publicFiles: ['/familia/icono-192.png'],
      base: '/familia',
      allChunks: true,
      install: 'installFamilyWorker',
    }),
    precompress({ under: 'familia' }),
  ],
  resolve: { alias: REACT_19_ALIASES },
  server: { proxy: { '/api': { target: apiTarget, changeOrigin: false } } },
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    assetsDir: 'familia/assets',
    target: 'es2022',
    sourcemap: false,
    rolldownOptions: { input: 'familia/index.html' },
  },
});
