import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

// The API runs in its own Node process; in `npm run dev` Vite forwards /api to it.
const apiTarget = process.env.HERMES_API_ORIGIN ?? 'http://localhost:3000';

export default defineConfig({
  plugins: [react(), tailwindcss()],
  server: { proxy: { '/api': { target: apiTarget, changeOrigin: false } } },
  build: { target: 'es2022', sourcemap: false },
});
