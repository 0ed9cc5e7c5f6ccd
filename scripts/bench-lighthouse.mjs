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
 *
 * Mobile's CPU slowdown is relative to the host: Lighthouse's 4× turns a high-end desktop (benchmark index about
 * 1,500) into the mid-tier phone it means to emulate. Every report records the host's benchmark index; the
 * bench prints it with the slowdown Lighthouse's calculator would choose for it (cpuSlowdownFor), so that
 * figures from two machines can be read side by side. `--cpu-slowdown N` measures with N (default 4, Lighthouse's
 * own); `--cpu-slowdown host` with the calculator's choice, from the desktop runs of /sign-in, which come first.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import lighthouse from 'lighthouse';
import * as constants from 'lighthouse/core/config/constants.js';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import puppeteer from 'puppeteer-core';
import { cpuSlowdownFor } from './cpu-slowdown.mjs';
import { demoPhysicianToken, startDemoServer } from './demo-server.mjs';

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

const { values } = parseArgs({ options: { runs: { type: 'string', default: '1' }, 'cpu-slowdown': { type: 'string', default: '4' } } });
const runs = Math.max(1, Number(values.runs) || 1);
const fixedSlowdown = values['cpu-slowdown'] === 'host' ? null : Number(values['cpu-slowdown']);
if (fixedSlowdown !== null && !(fixedSlowdown >= 1)) throw new Error(`--cpu-slowdown takes "host" or a number of at least 1, not ${values['cpu-slowdown']}`);

/** @param {number[]} values */
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * @param {import('puppeteer-core').Browser} browser
 * @param {string} url
 * @param {'desktop' | 'mobile'} form
 * @param {string | null} token
 * @param {number} run
 * @param {number} cpuSlowdown mobile only
 */
async function audit(browser, url, form, token, run, cpuSlowdown) {
  const page = await browser.newPage();
  if (token) {
    // The SPA reads its bearer token from localStorage (src/lib/auth-storage.ts); Lighthouse keeps it.
    await page.goto(`${ORIGIN}/favicon.svg`);
    await page.evaluate((value) => localStorage.setItem('token', value), token);
  }
  const flags = { output: /** @type {'json'} */ ('json'), onlyCategories: CATEGORIES, disableStorageReset: Boolean(token), logLevel: /** @type {'error'} */ ('error') };
  const config = form === 'desktop' ? desktopConfig : { extends: 'lighthouse:default', settings: { throttling: { ...constants.throttling.mobileSlow4G, cpuSlowdownMultiplier: cpuSlowdown } } };
  const result = await lighthouse(url, flags, config, page);
  await page.close();
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  const { lhr } = result;
  writeFileSync(path.join(REPORTS, `${new URL(url).pathname.slice(1).replaceAll('/', '-')}-${form}-${run + 1}.json`), JSON.stringify(lhr));
  const metrics = Object.fromEntries(METRICS.map(([id]) => [id, lhr.audits[id]?.numericValue ?? NaN]));
  const scores = Object.fromEntries(CATEGORIES.map((id) => [id, Math.round((lhr.categories[id]?.score ?? 0) * 100)]));
  const losing = Object.values(lhr.audits)
    .filter((a) => typeof a.score === 'number' && a.score < 0.9 && a.scoreDisplayMode !== 'informative' && a.scoreDisplayMode !== 'manual')
    .map((a) => `${a.id}${a.displayValue ? ` (${a.displayValue})` : ''}`);
  return { scores, metrics, losing, finalUrl: lhr.finalDisplayedUrl, benchmarkIndex: lhr.environment.benchmarkIndex, warnings: lhr.runWarnings };
}

async function main() {
  const { stop } = await startDemoServer(PORT);
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    args: ['--headless=new', '--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  const results = [];
  /** @type {number | null} */
  let cpuSlowdown = null;
  /** @type {number[]} the host's benchmark index, from every run */
  const benchmarkIndexes = [];
  rmSync(REPORTS, { recursive: true, force: true });
  mkdirSync(REPORTS, { recursive: true });
  try {
    const token = await demoPhysicianToken(ORIGIN);
    /** @type {[string, string | null][]} */
    const pages = [['/sign-in', null], ['/physician/list', token]];
    for (const [name, pageToken] of pages) {
      for (const form of /** @type {const} */ (['desktop', 'mobile'])) {
        // Chosen once, from the desktop runs of /sign-in, which come first; the same for every mobile run.
        cpuSlowdown ??= form === 'mobile' ? (fixedSlowdown ?? cpuSlowdownFor(median(benchmarkIndexes))) : null;
        /** @type {Awaited<ReturnType<typeof audit>>[]} */
        const measured = [];
        for (let run = 0; run < runs; run += 1) measured.push(await audit(browser, `${ORIGIN}${name}`, form, pageToken, run, cpuSlowdown ?? 4));
        benchmarkIndexes.push(...measured.map((m) => m.benchmarkIndex));
        for (const warning of new Set(measured.flatMap((m) => m.warnings))) console.log(`${name} ${form}: Lighthouse warns: ${warning}`);
        const scores = Object.fromEntries(CATEGORIES.map((id) => [id, median(measured.map((m) => m.scores[id]))]));
        const metrics = Object.fromEntries(METRICS.map(([id]) => [id, median(measured.map((m) => m.metrics[id]))]));
        results.push({ page: name, form, scores, metrics, losing: measured[0].losing, finalUrl: measured[0].finalUrl });
      }
    }
  } finally {
    await browser.close();
    await stop();
  }
  console.log(`Lighthouse ${runs > 1 ? `(median of ${runs} runs) ` : ''}on ${ORIGIN}, Chromium ${CHROMIUM}`);
  const slowdownSource = fixedSlowdown === null ? "the calculator's" : values['cpu-slowdown'] === '4' ? "Lighthouse's default" : 'as given';
  const hostIndex = median(benchmarkIndexes);
  console.log(
    `host benchmark index ${Math.round(hostIndex)} (median of ${benchmarkIndexes.length}), for which Lighthouse's calculator suggests a ${cpuSlowdownFor(hostIndex).toFixed(1)}× slowdown; mobile measured at ${cpuSlowdown?.toFixed(1)}× (${slowdownSource})`,
  );
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
