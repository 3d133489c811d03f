import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { precompress } from './build/precompress';
import { shell } from './build/shell';
import { REACT_19_ALIASES } from './build/aliases';

// The staff SPA. The families' app is its own build (vite.family.config.ts), so neither shares a chunk.
// The API runs in its own Node process; in `npm run dev` Vite forwards /api to it.
const apiTarget = process.env.HERMES_API_ORIGIN ?? 'http://localhost:3000';

const LOGIN_MODULES = [
  /[\\/]src[\\/]views[\\/]pages[\\/]session[\\/]login-page\.tsx$/,
  /[\\/]src[\\/]views[\\/]layout[\\/]locale-select\.tsx$/,
  /[\\/]src[\\/]views[\\/]ui[\\/](button|card|field|input|label|native-select)\.tsx$/,
  /[\\/]src[\\/]views[\\/]lib[\\/]utils\.ts$/,
  /[\\/]src[\\/]i18n[\\/]session[\\/]es-CL\.json$/,
  /[\\/]node_modules[\\/](clsx|tailwind-merge|class-variance-authority)[\\/]/,
  /[\\/]node_modules[\\/]@radix-ui[\\/]react-(slot|label|primitive|compose-refs)[\\/]/,
];
const isLoginModule = (id: string): boolean => LOGIN_MODULES.some((pattern) => pattern.test(id));
/** The `login` group's chunk, as the build names it (`assets/login-<hash>.js`). */
const isLoginChunk = (file: string): boolean => /^assets\/login-[\w-]{8}\.js$/.test(file);

export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
    // The service worker that keeps the app shell: what the login form needs comes from the cache.
    shell({
      worker: 'src/services/shell/service-worker.ts',
      // The login screen and its texts (with the single sign-on buttons' section it loads after its first
      // frame), the toaster (it comes with the first toast, which may come offline),
      // and what the login screen loads while the user types (the layout and its texts, the inbox and its
      // texts, the other screens' routes).
      firstScreen: [
        'src/views/pages/session/login-page.tsx',
        'src/i18n/session/es-CL.json',
        'src/i18n/session/es-MX.json',
        'src/views/pages/session/sso-section.tsx',
        'src/i18n/session/sso/es-CL.json',
        'src/i18n/session/sso/es-MX.json',
        'src/views/layout/toaster.tsx',
        'src/views/layout/app-layout.tsx',
        'src/i18n/layout/es-CL.json',
        'src/i18n/layout/es-MX.json',
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
  resolve: { alias: REACT_19_ALIASES },
  server: { proxy: { '/api': { target: apiTarget, changeOrigin: false } } },
  build: {
    target: 'es2022',
    sourcemap: false,
    modulePreload: {
      // A dynamic import of the login form's chunk also adds a <link rel="modulepreload"> for it, which the
      // loader appends as the import is made: its own `import()` runs in a microtask, so the entry's one
      // (first-screen.ts) would otherwise go out only once the whole entry has run, ~300 ms later on a phone.
      // index.html is left as it is: the entry starts this download, not the page.
      resolveDependencies: (file, deps, { hostType }) => (hostType === 'js' && isLoginChunk(file) ? [...deps, file] : deps),
    },
    rolldownOptions: {
      output: {
        // The login form is one chunk, with its texts and the UI base that every screen shares (class names,
        // Radix's Slot and Label): split by module it was ~10 files that a phone asks for only once the entry
        // has run, more than a browser's 6 connections. Only these modules: their dependencies already in
        // the entry stay there (bench (a) and (t)).
        codeSplitting: { groups: [{ name: 'login', test: isLoginModule, includeDependenciesRecursively: false }] },
      },
    },
  },
});
