import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { precompress } from './build/precompress';
import { REACT_19_ALIASES } from './build/aliases';

// The families' app (familia/index.html), built apart from the staff SPA and served under /familia
// (server/http/static.ts): a separate build keeps its download free of the staff's chunks (the staff's
// `login` chunk groups the UI primitives with the staff login form) and leaves the staff build as it was.
// `npm run build` runs it after the staff build, which empties dist/; this one writes only dist/familia/.
// `npm run dev:family` serves it at /familia/ (proxying /api).
const apiTarget = process.env.HERMES_API_ORIGIN ?? 'http://localhost:3000';

export default defineConfig({
  publicDir: false,
  plugins: [react(), tailwindcss(), precompress({ under: 'familia' })],
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
