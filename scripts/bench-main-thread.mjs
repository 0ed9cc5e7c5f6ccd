// @ts-check
/**
 * `npm run bench:main-thread`: what a phone's first load of /sign-in and of /physician/list (signed in as the
 * demo physician) asks of the browser's main thread, from Chromium's own trace of real loads of the built SPA
 * (reference server of its own on port 8095, demo clinic, fresh data directory). Not part of CI (figures, not
 * a verdict).
 *
 * Why beside `bench:lighthouse`: Lighthouse's mobile TBT on our 2-core machines scatters by a few hundred ms
 * between runs of one build, with the host's speed (its benchmark index went from 2,900 to 1,600 within one
 * session). This bench measures each main-thread task of the load as it ran, without throttling, and adds up
 * what Lighthouse would count as blocking at its 4× slowdown: for each task, 4 × its duration less 50 ms, when
 * positive (Lighthouse's simulation multiplies observed tasks so). It leaves out the navigation's own task
 * (before any script). Each load follows one that warmed the HTTP cache, as Lighthouse's signed-in runs do.
 *
 * `--runs N` loads (default 7) per page and origin, median printed. `--compare ORIGIN` also measures another
 * server of the same demo clinic (e.g. a worktree of an earlier commit on another port), the two taken in turn
 * load by load, so that a change is judged against the same minutes of the host.
 */
import { parseArgs } from 'node:util';
import puppeteer from 'puppeteer-core';
import { demoPhysicianToken, sleep, startDemoServer } from './demo-server.mjs';

const PORT = 8095;
const ORIGIN = `http://127.0.0.1:${PORT}`;
const CHROMIUM = process.env.CHROME_PATH || '/usr/bin/chromium';
/** Lighthouse's mobile CPU slowdown and the part of a task it does not count as blocking. */
const SLOWDOWN = 4;
const BLOCKING_AFTER_MS = 50;

const { values } = parseArgs({ options: { runs: { type: 'string', default: '7' }, compare: { type: 'string' } } });
const runs = Math.max(1, Number(values.runs) || 7);

/** @param {number[]} list */
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];

/**
 * @typedef {{ name: string, ph: string, pid: number, tid: number, ts: number, dur?: number, args?: { name?: string } }} TraceEvent
 * @param {TraceEvent[]} events
 * @returns {{ blocking: number, total: number, longest: number }} ms
 */
function mainThreadTasks(events) {
  const renderers = events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  /** @type {Map<string, number>} events per thread */
  const perThread = new Map();
  for (const e of events) perThread.set(`${e.pid}:${e.tid}`, (perThread.get(`${e.pid}:${e.tid}`) ?? 0) + 1);
  const count = (/** @type {TraceEvent} */ t) => perThread.get(`${t.pid}:${t.tid}`) ?? 0;
  const main = renderers.reduce((best, t) => (count(t) > count(best) ? t : best));
  const onMain = events.filter((e) => e.pid === main.pid && e.tid === main.tid);
  const commits = onMain.filter((e) => e.name === 'DocumentLoader::CommitNavigation');
  const tasks = onMain
    .filter((e) => e.ph === 'X' && e.name === 'RunTask' && e.dur !== undefined)
    .filter((t) => !commits.some((c) => c.ts >= t.ts && c.ts < t.ts + (t.dur ?? 0)))
    .map((t) => (t.dur ?? 0) / 1000);
  return {
    blocking: tasks.reduce((sum, ms) => sum + Math.max(0, SLOWDOWN * ms - BLOCKING_AFTER_MS), 0),
    total: tasks.reduce((sum, ms) => sum + ms, 0),
    longest: Math.max(0, ...tasks),
  };
}

/**
 * @param {import('puppeteer-core').Browser} browser
 * @param {string} origin
 * @param {string} route
 * @param {string | null} token
 */
async function load(browser, origin, route, token) {
  const page = await browser.newPage();
  try {
    await page.setViewport({ width: 412, height: 823, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true });
    await page.goto(`${origin}/favicon.svg`);
    await page.evaluate((value) => (value ? localStorage.setItem('token', value) : localStorage.clear()), token);
    await page.goto(`${origin}${route}`, { waitUntil: 'networkidle0' });
    await page.goto(`${origin}/favicon.svg`);
    await page.tracing.start({ categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] });
    await page.goto(`${origin}${route}`, { waitUntil: 'networkidle0' });
    await sleep(1000);
    const trace = /** @type {{ traceEvents: TraceEvent[] }} */ (JSON.parse(Buffer.from(await page.tracing.stop() ?? []).toString('utf8')));
    return mainThreadTasks(trace.traceEvents);
  } finally {
    await page.close();
  }
}

async function main() {
  const { stop } = await startDemoServer(PORT);
  const browser = await puppeteer.launch({ executablePath: CHROMIUM, args: ['--headless=new', '--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu', '--no-first-run'] });
  const origins = [ORIGIN, ...(values.compare ? [values.compare.replace(/\/$/, '')] : [])];
  try {
    const tokens = new Map(await Promise.all(origins.map(async (origin) => /** @type {const} */ ([origin, await demoPhysicianToken(origin)]))));
    console.log(`main thread of a first load, ${runs} loads per page and origin, medians; blocking = Σ max(0, ${SLOWDOWN} × task − ${BLOCKING_AFTER_MS} ms)`);
    console.log(`${'page'.padEnd(18)}${'origin'.padEnd(26)}${'blocking'.padStart(10)}${'all tasks'.padStart(11)}${'longest'.padStart(10)}   each load's blocking`);
    for (const [route, signedIn] of /** @type {const} */ ([['/sign-in', false], ['/physician/list', true]])) {
      /** @type {Map<string, ReturnType<typeof mainThreadTasks>[]>} */
      const measured = new Map(origins.map((origin) => [origin, []]));
      for (let run = 0; run < runs; run += 1) {
        for (const origin of origins) measured.get(origin)?.push(await load(browser, origin, route, signedIn ? (tokens.get(origin) ?? null) : null));
      }
      for (const [origin, loads] of measured) {
        const ms = (/** @type {number} */ value) => `${Math.round(value)} ms`;
        console.log(
          `${route.padEnd(18)}${origin.padEnd(26)}${ms(median(loads.map((l) => l.blocking))).padStart(10)}${ms(median(loads.map((l) => l.total))).padStart(11)}${`${median(loads.map((l) => l.longest)).toFixed(1)} ms`.padStart(10)}   ${loads.map((l) => Math.round(l.blocking)).join(' ')}`,
        );
      }
    }
  } finally {
    await browser.close();
    await stop();
  }
}

await main();
