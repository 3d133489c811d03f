// For `npm run mutation` only (vitest.mutation.config.ts): a mutant that makes a machine module throw while
// it loads (a target or an `initial` naming no state, `states: {}`) fails the import of every test file that
// uses it, and Stryker's Vitest runner counts a file that failed to load as no test run, so the mutant as
// survived. Here the modules load inside a test, which that mutant fails.
import { expect, it } from 'vitest';

const machineModules = import.meta.glob('../../src/machines/**/*.ts');

it('loads every module of src/machines', async () => {
  for (const [path, load] of Object.entries(machineModules)) await expect(load(), path).resolves.toBeDefined();
});
