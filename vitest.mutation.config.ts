import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

// The model-based suite alone, for `npm run mutation`: Stryker asks how many mutants of src/machines/ the
// model tests kill, so it runs only them (the API and browser suites would cost hours and kill little here),
// without the harness's own test (it checks the harness, not the machines), with one that loads every machine
// module inside a test (tests/model/machines-load.mutation.ts). Paths are planned once, on the
// original machines, by `vitest run --config vitest.mutation.config.ts --mode plan`, and stored in
// reports/mutation/plan/; Stryker's runs (mode `test`) replay them (tests/model/harness.ts, "mutation mode").
export default defineConfig(({ mode }) => ({
  test: {
    environment: 'node',
    include: ['tests/model/**/*.test.ts', 'tests/model/machines-load.mutation.ts'],
    exclude: ['tests/model/harness.test.ts'],
    env: {
      MODEL_PLAN: mode === 'plan' ? 'write' : 'read',
      MODEL_PLAN_DIR: resolve(import.meta.dirname, 'reports/mutation/plan'),
    },
  },
}));
