// @ts-check
/**
 * `npm run bench:lighthouse`: Lighthouse (12, the newest on Node 20) against the built SPA on a reference server
 * of its own (demo clinic, fresh data directory, port 8093), in Debian's Chromium: /sign-in signed out, and the
 * physician's landing page /physician/list signed in as the demo physician, each with the desktop and the
 * mobile settings. Prints performance, accessibility, best practices and SEO per page, the metrics behind
 * performance (FCP, LCP, TBT, speed index, CLS) and the audits that cost points, and writes the figures to
 * `test-results/lighthouse.json` and each run's full report to `test-results/lighthouse/` (to see where the
 * time went: the main thread's long tasks, the requests before the first paint). Not part of CI (figures,
 * not a verdict).
 * `--runs N` repeats each measurement and prints the median (default 1).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import puppeteer from 'puppeteer-core';

const root = path.resolve(import.meta.dirname, '..');
const PORT = 8093;
const ORIGIN = `http://127.0.0.1:${PORT}`;
const CHROMIUM = process.env.CHROME_PATH || '/usr/bin/chromium';
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
/** The metrics performance is scored on, as Lighthouse names its audits, with the unit printed. */
const METRICS = /** @type {const} */ ([
  ['first-contentful-paint', 'FCP', 's'],
  ['largest-contentful-paint', 'LCP', 's'],
  ['total-blocking-time', 'TBT', 'ms'],
  ['speed-index', 'SI', 's'],
  ['cumulative-layout-shift', 'CLS', ''],
]);
const REPORTS = path.join(root, 'test-results', 'lighthouse');
const PHYSICIAN = { email: 'physician@clinic.example', password: 'Demo-Clinic-2026!' };

const { values } = parseArgs({ options: { runs: { type: 'string', default: '1' } } });
const runs = Math.max(1, Number(values.runs) || 1);

/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function startServer() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'macula-lighthouse-'));
  const server = spawn(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), path.join(root, 'server/main.ts')], {
    cwd: root,
    env: { ...process.env, PORT: String(PORT), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '', NODE_ENV: '', LOG_LEVEL: 'warn', PUBLIC_URL: ORIGIN },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let waited = 0; waited < 60_000; waited += 250) {
    const up = await fetch(`${ORIGIN}/sign-in`).then((r) => r.ok, () => false);
    if (up) return { server, dataDir };
    await sleep(250);
  }
  server.kill('SIGKILL');
  throw new Error(`the reference server did not answer on ${ORIGIN} within 60 s`);
}

async function signInToken() {
  const answer = await fetch(`${ORIGIN}/api/sign-in`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ ...PHYSICIAN, remember: true }),
  });
  if (!answer.ok) throw new Error(`sign-in of the demo physician answered ${answer.status}`);
  return /** @type {{ data: { token: string } }} */ (await answer.json()).data.token;
}

/** @param {number[]} values */
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * @param {import('puppeteer-core').Browser} browser
 * @param {string} url
 * @param {'desktop' | 'mobile'} form
 * @param {string | null} token
 * @param {number} run
 */
async function audit(browser, url, form, token, run) {
  const page = await browser.newPage();
  if (token) {
    // The SPA reads its bearer token from localStorage (src/lib/auth-storage.ts); Lighthouse keeps it.
    await page.goto(`${ORIGIN}/favicon.svg`);
    await page.evaluate((value) => localStorage.setItem('token', value), token);
  }
  const flags = { output: /** @type {'json'} */ ('json'), onlyCategories: CATEGORIES, disableStorageReset: Boolean(token), logLevel: /** @type {'error'} */ ('error') };
  const result = await lighthouse(url, flags, form === 'desktop' ? desktopConfig : undefined, page);
  await page.close();
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  const { lhr } = result;
  writeFileSync(path.join(REPORTS, `${new URL(url).pathname.slice(1).replaceAll('/', '-')}-${form}-${run + 1}.json`), JSON.stringify(lhr));
  const metrics = Object.fromEntries(METRICS.map(([id]) => [id, lhr.audits[id]?.numericValue ?? NaN]));
  const scores = Object.fromEntries(CATEGORIES.map((id) => [id, Math.round((lhr.categories[id]?.score ?? 0) * 100)]));
  const losing = Object.values(lhr.audits)
    .filter((a) => typeof a.score === 'number' && a.score < 0.9 && a.scoreDisplayMode !== 'informative' && a.scoreDisplayMode !== 'manual')
    .map((a) => `${a.id}${a.displayValue ? ` (${a.displayValue})` : ''}`);
  return { scores, metrics, losing, finalUrl: lhr.finalDisplayedUrl };
}

async function main() {
  const { server, dataDir } = await startServer();
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    args: ['--headless=new', '--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  const results = [];
  rmSync(REPORTS, { recursive: true, force: true });
  mkdirSync(REPORTS, { recursive: true });
  try {
    const token = await signInToken();
    /** @type {[string, string | null][]} */
    const pages = [['/sign-in', null], ['/physician/list', token]];
    for (const [name, pageToken] of pages) {
      for (const form of /** @type {const} */ (['desktop', 'mobile'])) {
        /** @type {Awaited<ReturnType<typeof audit>>[]} */
        const measured = [];
        for (let run = 0; run < runs; run += 1) measured.push(await audit(browser, `${ORIGIN}${name}`, form, pageToken, run));
        const scores = Object.fromEntries(CATEGORIES.map((id) => [id, median(measured.map((m) => m.scores[id]))]));
        const metrics = Object.fromEntries(METRICS.map(([id]) => [id, median(measured.map((m) => m.metrics[id]))]));
        results.push({ page: name, form, scores, metrics, losing: measured[0].losing, finalUrl: measured[0].finalUrl });
      }
    }
  } finally {
    await browser.close();
    server.kill('SIGINT');
    await sleep(500);
    rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(`Lighthouse ${runs > 1 ? `(median of ${runs} runs) ` : ''}on ${ORIGIN}, Chromium ${CHROMIUM}`);
  console.log(`${'page'.padEnd(18)}${'form'.padEnd(9)}${CATEGORIES.map((c) => c.padStart(16)).join('')}`);
  for (const r of results) {
    console.log(`${r.page.padEnd(18)}${r.form.padEnd(9)}${CATEGORIES.map((c) => String(r.scores[c]).padStart(16)).join('')}`);
  }
  console.log(`\n${'page'.padEnd(18)}${'form'.padEnd(9)}${METRICS.map(([, label]) => label.padStart(10)).join('')}`);
  for (const r of results) {
    const shown = METRICS.map(([id, , unit]) => {
      const value = r.metrics[id];
      return (unit === 's' ? `${(value / 1000).toFixed(2)} s` : unit === 'ms' ? `${Math.round(value)} ms` : value.toFixed(3)).padStart(10);
    });
    console.log(`${r.page.padEnd(18)}${r.form.padEnd(9)}${shown.join('')}`);
  }
  for (const r of results) if (r.losing.length) console.log(`${r.page} ${r.form} (ended on ${r.finalUrl}) loses points on: ${r.losing.join(', ')}`);
  writeFileSync(path.join(root, 'test-results', 'lighthouse.json'), `${JSON.stringify(results, null, 2)}\n`);
}

await main();
