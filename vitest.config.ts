import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// Three projects so `npm run test:model` can run the model-based suite on its own and write its report.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'api',
          environment: 'node',
          include: ['tests/api/**/*.test.ts'],
          globalSetup: ['tests/api/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'unit',
          environment: 'jsdom',
          include: ['tests/unit/**/*.test.{ts,tsx}', 'tests/views/**/*.test.{ts,tsx}'],
        },
      },
      {
        test: {
          name: 'model',
          environment: 'node',
          include: ['tests/model/**/*.test.ts'],
        },
      },
    ],
  },
});
