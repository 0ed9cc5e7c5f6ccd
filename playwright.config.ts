import { existsSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';

// Playwright cannot download its browsers on our machines: use Debian's Chromium where it is installed.
const SYSTEM_CHROMIUM = '/usr/bin/chromium';
const launchOptions = existsSync(SYSTEM_CHROMIUM)
  ? {
      executablePath: SYSTEM_CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    }
  : {};

// Ports of their own, so a developer's `npm run dev:mock` (5173) or `npm run mock` (4010) can keep running.
const devPort = process.env.MACULA_E2E_DEV_PORT || '5174';
const mockPort = process.env.MACULA_E2E_MOCK_PORT || '4011';
const baseURL = `http://127.0.0.1:${devPort}`;

export default defineConfig({
  testDir: 'tests/e2e',
  forbidOnly: !!process.env.CI,
  retries: 0,
  reporter: 'list',
  use: {
    baseURL,
    trace: 'retain-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: { ...devices['Desktop Chrome'], launchOptions },
    },
  ],
  webServer: {
    command: 'npm run dev:mock',
    url: baseURL,
    reuseExistingServer: !process.env.CI,
    timeout: 120_000,
    env: { MACULA_DEV_PORT: devPort, MACULA_MOCK_PORT: mockPort },
    stdout: 'pipe',
    stderr: 'pipe',
  },
});
