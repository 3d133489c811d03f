import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { precompress } from './build/precompress';
import { shell } from './build/shell';

// The API runs in its own Node process; in `npm run dev` Vite forwards /api to it.
const apiTarget = process.env.HERMES_API_ORIGIN ?? 'http://localhost:3000';

export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
    // The service worker that keeps the app shell: what the login form needs comes from the cache.
    shell({
      worker: 'src/services/shell/service-worker.ts',
      // The login screen and its texts, the toaster every screen mounts, and what the login screen loads
      // while the user types (the layout, the inbox and its texts, the other screens' routes).
      firstScreen: [
        'src/views/pages/session/login-page.tsx',
        'src/i18n/session/es-CL.json',
        'src/i18n/session/es-MX.json',
        'src/views/layout/toaster.tsx',
        'src/views/layout/app-layout.tsx',
        'src/views/pages/messages/folder-page.tsx',
        'src/i18n/messages/es-CL.json',
        'src/i18n/messages/es-MX.json',
        'src/views/other-screens.tsx',
      ],
      publicFiles: ['/favicon.svg'],
    }),
    // Last: compresses what every other plugin wrote.
    precompress(),
  ],
  resolve: {
    // React 19 has useSyncExternalStore: the shim that @xstate/react and wouter import for React 17 is not
    // downloaded (bench section (a)).
    alias: [
      { find: /^use-sync-external-store\/shim\/with-selector(\.js)?$/, replacement: 'use-sync-external-store/with-selector.js' },
      { find: /^use-sync-external-store\/shim(\/index\.js)?$/, replacement: 'react' },
    ],
  },
  server: { proxy: { '/api': { target: apiTarget, changeOrigin: false } } },
  build: { target: 'es2022', sourcemap: false },
});
