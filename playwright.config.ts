import { defineConfig, devices } from '@playwright/test';
import { BASE_URL, E2E_HOST, E2E_PORT } from './tests/e2e/support/server';

// Browser tests run against the REAL server (server/main.ts) serving the BUILT app (`npm run test:e2e`
// builds first). tests/e2e/serve.sh gives the server a fresh temp data dir and deletes it on shutdown.
// Chromium comes from Debian (/usr/bin/chromium, see tests/e2e/ensure-chromium.sh): Playwright's own
// browser download needs internet.

const baseURL = BASE_URL;
const CI = Boolean(process.env.CI);

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'test-results',
  fullyParallel: false,
  forbidOnly: CI,
  retries: CI ? 1 : 0,
  workers: 2,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: [['list'], ['html', { outputFolder: 'playwright-report', open: 'never' }]],
  use: {
    baseURL,
    locale: 'es-CL',
    timezoneId: 'America/Santiago',
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    actionTimeout: 10_000,
    navigationTimeout: 15_000,
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        channel: undefined,
        launchOptions: {
          executablePath: '/usr/bin/chromium',
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-dev-shm-usage',
            '--disable-background-networking',
            '--disable-component-update',
            '--no-first-run',
            '--disable-sync',
            '--disable-quic',
          ],
        },
      },
    },
  ],
  webServer: {
    name: 'hermes',
    command: 'bash tests/e2e/serve.sh',
    url: `${baseURL}/api/health`,
    env: { PORT: String(E2E_PORT), HOST: E2E_HOST },
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
  },
});
