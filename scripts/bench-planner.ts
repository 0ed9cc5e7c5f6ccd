// npm run bench:planner — how smooth the planning canvas is: the frame time while the macula grid (≈ 2,000 spots)
// is dragged across the screen in Debian's Chromium.
//
// A reference server of its own (a free port, demo clinic, the SPA as `npm run build` makes it) plans a demo
// session through the API up to the grid, with the spacing that gives the closest to TARGET_SPOTS spots. The
// page opens step 2 zoomed in, and the mouse drags the image (and with it the grid) in circles. Two figures:
// - frame time: the main thread's work per frame that moved: handling the pointer moves (the canvas takes the
//   new view at once), React's render and commit that follow, and drawing the canvas layers (the canvas and
//   the viewer set User Timing marks when `__MP_PROFILE__` is set); the wait for the next frame is not work;
// - pointer to pixels: from the pointer move to its frame's canvas drawn (includes the wait for the frame);
// - frame interval: the time between animation frames during the drag (16.7 ms at 60 Hz when none is dropped).
// Chromium runs with --disable-gpu, as in CI: the canvas is drawn by the CPU.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import type { Treatment } from '../generated/model/treatment';
import { retinaFrame } from '../src/domain/planning/frames';
import { gridSurroundings, layOutGrid, type GridSettings } from '../src/domain/planning/macula-grid';
import { spawnServer, stopServer, until } from '../tests/server/server-process';

const PHYSICIAN = { email: 'physician@clinic.example', password: 'Demo-Clinic-2026!' };
const TARGET_SPOTS = 2000;
const SYSTEM_CHROMIUM = '/usr/bin/chromium';

const { values } = parseArgs({ options: { moves: { type: 'string', default: '600' }, runs: { type: 'string', default: '3' } } });
const MOVES = Math.max(60, Number(values.moves) || 600);
const RUNS = Math.max(1, Number(values.runs) || 3);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

/** The reference server as `npm start` runs it, with the demo clinic, on a free port; set by main. */
let ORIGIN = '';

async function api<T>(token: string, method: string, url: string, body?: unknown): Promise<T> {
  const answer = await fetch(`${ORIGIN}/api${url}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!answer.ok) throw new Error(`${method} ${url} answered ${answer.status}: ${await answer.text()}`);
  return ((await answer.json()) as { data: T }).data;
}

/** A demo session planned through the API up to the grid, with about TARGET_SPOTS spots. */
async function sessionWithGrid(token: string): Promise<{ id: string; spots: number; settings: GridSettings }> {
  const patients = await api<{ id: string }[]>(token, 'GET', '/patients?search=Schneider');
  const sessions = await api<{ id: string }[]>(token, 'GET', `/patients/${patients[0].id}/treatments`);
  const treatment = await until('the demo session to be processed', async () => {
    const read = await api<Treatment>(token, 'GET', `/treatments/${sessions[0].id}`);
    return read.planStatus === 'planning' ? read : null;
  });
  const zones = treatment.plan.exclusionZones!;
  const shape = (zone: typeof zones.faz) => ({ center: zone.center, radiusXPx: zone.radiusXPx, radiusYPx: zone.radiusYPx, rotationDeg: zone.rotationDeg });
  const plan = await api<Treatment['plan']>(token, 'POST', `/treatments/${treatment.id}/plan/exclusion-zones`, {
    revision: treatment.plan.revision,
    faz: shape(zones.faz),
    onh: shape(zones.onh),
  });
  // The spacing whose layout comes closest to the target: fewer spots the wider the spacing.
  const surroundings = gridSurroundings(retinaFrame(plan.fovea!, plan.scale!.umPerPixel), [plan.exclusionZones!.faz, plan.exclusionZones!.onh], plan.imagedField!);
  const count = (spacing: number) => layOutGrid({ ...plan.gridSettings!, spacing }, surroundings).length;
  let [low, high] = [0.5, 4];
  for (let k = 0; k < 30; k++) {
    const middle = (low + high) / 2;
    if (count(middle) > TARGET_SPOTS) low = middle;
    else high = middle;
  }
  const spacing = Math.round(high * 100) / 100;
  const settings = { ...plan.gridSettings!, spacing };
  await api(token, 'POST', `/treatments/${treatment.id}/plan/macula-grid`, { revision: plan.revision, settings });
  return { id: treatment.id, spots: count(spacing), settings };
}

interface DragFigures {
  frameTimes: number[];
  draws: number[];
  latencies: number[];
  intervals: number[];
}

async function dragOnce(token: string, treatmentId: string): Promise<DragFigures> {
  const browser = await chromium.launch({
    executablePath: SYSTEM_CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 1000 }, locale: 'en-GB' });
    await context.addInitScript(() => {
      (globalThis as { __MP_PROFILE__?: boolean }).__MP_PROFILE__ = true;
    });
    const page = await context.newPage();
    await page.goto(`${ORIGIN}/sign-in`);
    await page.evaluate((value) => localStorage.setItem('token', value), token);
    await page.goto(`${ORIGIN}/physician/planning?treatmentId=${treatmentId}&step=2`);
    const frame = page.locator('.mp-viewer-frame');
    await page.locator('.mp-spot-count strong').waitFor();
    await page.waitForFunction(() => !document.querySelector('.mp-viewer-placeholder'), undefined, { timeout: 30_000 });
    // Zoomed in twice (fit cannot pan), so that a drag moves the image and the grid.
    await frame.focus();
    for (let k = 0; k < 3; k++) await page.keyboard.press('+');
    await sleep(300);
    const box = (await frame.boundingBox())!;
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height / 2;
    // In-page code as text: tsx would otherwise wrap its functions in a helper the page does not have.
    await page.evaluate(`(() => {
      window.__inputs = [];
      window.__frames = [];
      window.__stop = false;
      performance.clearMarks();
      window.addEventListener('pointermove', () => window.__inputs.push(performance.now()), true);
      const loop = (time) => {
        window.__frames.push(time);
        if (!window.__stop) requestAnimationFrame(loop);
      };
      requestAnimationFrame(loop);
    })()`);
    await page.mouse.move(cx, cy);
    await page.mouse.down();
    const radius = Math.min(box.width, box.height) / 5;
    for (let k = 1; k <= MOVES; k++) {
      const angle = (k / 60) * 2 * Math.PI;
      await page.mouse.move(cx + radius * Math.cos(angle) - radius, cy + radius * Math.sin(angle));
    }
    await page.mouse.up();
    await sleep(200);
    return await page.evaluate<DragFigures>(`(() => {
      window.__stop = true;
      const times = (name) => performance.getEntriesByName(name).map((entry) => entry.startTime);
      const starts = times('mp:draw-start');
      const ends = times('mp:draw-end');
      const applied = times('mp:view-applied');
      // Layers drawn in one animation frame follow each other within a few milliseconds.
      const frames = [];
      for (let k = 0; k < starts.length; k++) {
        const last = frames[frames.length - 1];
        if (last && starts[k] - last.end < 4) {
          last.draw += ends[k] - starts[k];
          last.end = ends[k];
        } else frames.push({ start: starts[k], end: ends[k], draw: ends[k] - starts[k] });
      }
      // The main thread's work for a frame: the pointer moves handled since the last frame (the canvas takes
      // the new view at once), React's render and commit that follow (zoom figure, scale bar, handles), and
      // drawing the layers. The wait for the next frame is not work.
      const inputStarts = times('mp:input-start');
      const inputEnds = times('mp:input-end');
      const renders = times('mp:render-start');
      const frameTimes = [];
      const draws = [];
      const latencies = [];
      let previousEnd = -Infinity;
      for (const frame of frames) {
        const within = (time) => time > previousEnd && time <= frame.start;
        let handling = 0;
        let firstInput = Infinity;
        inputStarts.forEach((time, k) => {
          if (!within(time)) return;
          handling += inputEnds[k] - time;
          firstInput = Math.min(firstInput, time);
        });
        if (firstInput !== Infinity) latencies.push(frame.end - firstInput);
        for (const time of applied) {
          if (!within(time)) continue;
          const render = renders.filter((r) => r <= time && r > previousEnd).pop();
          if (render !== undefined) handling += time - render;
        }
        if (handling > 0) {
          frameTimes.push(handling + frame.draw);
          draws.push(frame.draw);
        }
        previousEnd = frame.end;
      }
      const start = window.__inputs[0];
      const stop = window.__inputs[window.__inputs.length - 1];
      const during = window.__frames.filter((time) => time >= start && time <= stop);
      const intervals = during.slice(1).map((time, k) => time - during[k]);
      return { frameTimes, intervals, draws, latencies };
    })()`);
  } finally {
    await browser.close();
  }
}

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'macula-planner-bench-'));
  // The demo clinic is seeded outside production.
  const server = await spawnServer(dataDir, { NODE_ENV: '', LOG_LEVEL: 'warn' }, 90_000);
  ORIGIN = server.url;
  try {
    const signIn = await fetch(`${ORIGIN}/api/sign-in`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(PHYSICIAN) });
    const token = ((await signIn.json()) as { data: { token: string } }).data.token;
    const session = await sessionWithGrid(token);
    console.log(`Planning canvas, step 2: ${session.spots} spots (spacing ${session.settings.spacing}), ${MOVES} pointer moves per drag, ${RUNS} runs, Chromium --disable-gpu`);
    const p95s: number[] = [];
    for (let run = 1; run <= RUNS; run++) {
      const { frameTimes, intervals, draws, latencies } = await dragOnce(token, session.id);
      const drawn = [...draws].sort((a, b) => a - b);
      const lags = [...latencies].sort((a, b) => a - b);
      const times = [...frameTimes].sort((a, b) => a - b);
      const gaps = [...intervals].sort((a, b) => a - b);
      p95s.push(quantile(times, 0.95));
      console.log(
        `run ${run}: frame time p50 ${quantile(times, 0.5).toFixed(1)} ms, p95 ${quantile(times, 0.95).toFixed(1)} ms, max ${times[times.length - 1].toFixed(1)} ms over ${times.length} frames; ` +
          `of which drawing p50 ${quantile(drawn, 0.5).toFixed(1)} ms, p95 ${quantile(drawn, 0.95).toFixed(1)} ms; ` +
          `pointer to pixels p50 ${quantile(lags, 0.5).toFixed(1)} ms, p95 ${quantile(lags, 0.95).toFixed(1)} ms; ` +
          `frame interval p50 ${quantile(gaps, 0.5).toFixed(1)} ms, p95 ${quantile(gaps, 0.95).toFixed(1)} ms`,
      );
    }
    const median = [...p95s].sort((a, b) => a - b)[Math.floor(p95s.length / 2)];
    console.log(`frame time p95, median of ${RUNS} runs: ${median.toFixed(1)} ms (target ≤ 16 ms)`);
  } finally {
    await stopServer(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
