import { existsSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';
import type { Language } from './generated/model/language';
import type { JourneyOptions } from './tests/e2e/fixtures';
import { REFERENCE_URL } from './tests/e2e/reference-server';

// Playwright cannot download its browsers on our machines: use Debian's where it is installed. The headless shell
// (package chromium-headless-shell) is what Playwright itself runs headless tests in: Chromium without the
// browser around it, which spends less of our two cores than the full browser. `--headed` needs the full one:
// PW_CHROMIUM=/usr/bin/chromium.
const SYSTEM_CHROMIUM = process.env.PW_CHROMIUM ?? ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((file) => existsSync(file));
const launchOptions = SYSTEM_CHROMIUM
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
const chromium = { ...devices['Desktop Chrome'], launchOptions };

// Ports of their own, so a developer's `npm run dev:mock` (5173) or `npm run mock` (4010) can keep running.
const devPort = process.env.MACULA_E2E_DEV_PORT || '5174';
const mockPort = process.env.MACULA_E2E_MOCK_PORT || '4011';
const mockShellURL = `http://127.0.0.1:${devPort}`;

// The journeys on Prism are the files named mock-*.spec.ts.
const MOCK_SPEC = /mock-[^/]*\.spec\.ts$/;
// Journeys that change what every user of the demo clinic meets (e.g. requiring a second factor for a role) run
// alone, once the others are done, as do journeys that time what a user waits: the files named *.alone.spec.ts.
const ALONE_SPEC = /\.alone\.spec\.ts$/;
// The browser's language picks the SPA's first language (src/lib/i18n.ts), so each journey runs in it.
const BROWSER_LOCALES: Record<Language, string> = { en: 'en-GB', de: 'de-DE' };

export default defineConfig<JourneyOptions>({
  testDir: 'tests/e2e',
  forbidOnly: !!process.env.CI,
  // A journey that fails in CI is run once more: on our 2-core CI machine three journeys failed once each in
  // stops 33–35 (a toast or an alert not seen within 10 s) and passed in every one of dozens of reruns. A retried
  // pass is listed as "flaky" with what the page showed at the failure (failure-context-reporter.ts), so it is
  // seen and followed up; a failure that repeats still fails the run. Locally a failure is a failure.
  retries: process.env.CI ? 1 : 0,
  // A journey steps through several screens, each checked with axe: on our 2-core CI machine the longest
  // take 20–30 s, so the default 30 s would fail them by the clock rather than by what they find.
  timeout: 60_000,
  // The reference server processes and registers the exams of the journeys beside this one on the same two
  // cores, and holds its embedded database's queries meanwhile: a page may take longer than Playwright's
  // 5 s default to show what it was asked for (stop 32's CI failure: a patient card not shown after 5 s).
  expect: { timeout: 10_000 },
  // Tests make their own accounts, so they can run side by side, also within a file: one per CPU core
  // (a browser page and its share of the server keep a core busy).
  fullyParallel: true,
  workers: '100%',
  reporter: [['list'], ['./tests/e2e/failure-context-reporter.ts']],
  use: {
    // Recording a trace slows every test by about a third, whether it is kept or not (11 journeys: 242 s of test
    // time with `retain-on-failure`, 163 s without, on our 2-core machine): off, in CI too. A failure still
    // leaves its message, the page's accessibility snapshot (error-context.md) and a screenshot; rerun it
    // with PW_TRACE=1 (or `--trace on`) for a trace.
    trace: process.env.PW_TRACE ? 'retain-on-failure' : 'off',
    screenshot: 'only-on-failure',
  },
  projects: [
    // `npm run dev:mock`: the SPA against Prism's answers from the contract's examples.
    { name: 'mock', testMatch: MOCK_SPEC, use: { ...chromium, baseURL: mockShellURL, locale: BROWSER_LOCALES.en } },
    // The journeys against the reference server (`npm start` with the demo clinic), in each UI language.
    ...(['en', 'de'] as const).map((lang) => ({
      name: `server-${lang}`,
      testIgnore: [MOCK_SPEC, ALONE_SPEC],
      use: { ...chromium, baseURL: REFERENCE_URL, lang, locale: BROWSER_LOCALES[lang] },
    })),
    // One after the other (German after English), so that each has the machine to itself: what they change
    // is clinic-wide, and the physician's timed errand (physician-day) measures waits a user would have.
    ...(['en', 'de'] as const).map((lang) => ({
      name: `server-${lang}-alone`,
      testMatch: ALONE_SPEC,
      dependencies: lang === 'en' ? ['server-en', 'server-de'] : ['server-en-alone'],
      workers: 1,
      use: { ...chromium, baseURL: REFERENCE_URL, lang, locale: BROWSER_LOCALES[lang] },
    })),
  ],
  webServer: [
    {
      command: 'npm run dev:mock',
      url: mockShellURL,
      reuseExistingServer: !process.env.CI,
      timeout: 120_000,
      env: { MACULA_DEV_PORT: devPort, MACULA_MOCK_PORT: mockPort },
      stderr: 'pipe',
    },
    {
      // Never reused: every run starts from a fresh demo clinic (see the script).
      command: 'npx tsx tests/e2e/start-reference-server.ts',
      url: REFERENCE_URL,
      reuseExistingServer: false,
      timeout: 120_000,
      gracefulShutdown: { signal: 'SIGTERM', timeout: 5_000 },
      stderr: 'pipe',
    },
  ],
});
