import { defineConfig } from 'vitest/config';

// The model-based suite alone, for `npm run mutation`: Stryker asks how many mutants of src/machines/ the
// model tests kill, so it runs only them (the API and browser suites would cost hours and kill little here).
export default defineConfig({
  test: {
    environment: 'node',
    include: ['tests/model/**/*.test.ts'],
  },
});
