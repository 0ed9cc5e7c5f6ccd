// @ts-check
/**
 * `node scripts/build-spa.mjs` (`npm run build` after the typecheck, and `npm start` before the server): the
 * production build of the SPA, written beside `dist/` and swapped in by renames once it is complete, so a
 * server that serves `dist/` meanwhile never meets a half-written folder (a page answered 404 during a
 * rebuild before). In between:
 * 1. the bundle report (scripts/bundle-report.mjs: routes, budgets, the sign-in rule), which fails the build;
 * 2. the public pages as HTML in each language (scripts/prerender.mjs), which the server sends for their paths;
 * 3. the source maps it read are removed: they are for developers, never served;
 * 4. every compressible file gets a brotli (`.br`, quality 11) and a gzip (`.gz`, level 9) copy beside it,
 *    which the server sends by Accept-Encoding (server/http/serving.ts).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { prerenderInto } from './prerender.mjs';

const root = path.resolve(import.meta.dirname, '..');
const target = path.join(root, 'dist');
const next = path.join(root, `dist.next-${process.pid}`);
const old = path.join(root, `dist.old-${process.pid}`);

/** Text the browser downloads; images and fonts (woff2) are compressed already. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|md|webmanifest|ico)$/;
/** Below this a compressed copy saves less than its headers cost. */
const MIN_BYTES = 1024;

/** @param {string} dir @returns {string[]} every file below `dir` */
function filesIn(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    return entry.isDirectory() ? filesIn(file) : [file];
  });
}

/** @param {string} dir @returns {number} how many files got compressed copies */
export function precompress(dir) {
  let count = 0;
  for (const file of filesIn(dir)) {
    if (!COMPRESSIBLE.test(file) || statSync(file).size < MIN_BYTES) continue;
    const data = readFileSync(file);
    writeFileSync(`${file}.br`, brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
    writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }));
    count += 1;
  }
  return count;
}

/** @param {string} dir @returns {number} how many source maps were removed */
export function removeSourceMaps(dir) {
  const maps = filesIn(dir).filter((file) => file.endsWith('.map'));
  for (const file of maps) rmSync(file);
  return maps.length;
}

/** Puts the finished build in place of `dist/`: two renames, then the old one goes. */
function swapIn() {
  if (existsSync(target)) renameSync(target, old);
  renameSync(next, target);
  rmSync(old, { recursive: true, force: true });
}

async function main() {
  const node = process.execPath;
  try {
    // Vite in a process of its own: it sets NODE_ENV=production in the process it builds in.
    execFileSync(node, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--outDir', next, '--emptyOutDir', '--logLevel', 'warn'], {
      cwd: root,
      stdio: 'inherit',
    });
    execFileSync(node, [path.join(root, 'scripts/bundle-report.mjs'), next], { cwd: root, stdio: 'inherit' });
    const pages = await prerenderInto(next);
    const maps = removeSourceMaps(next);
    const compressed = precompress(next);
    swapIn();
    console.log(`SPA built into dist/ (${pages} pages prerendered, ${compressed} files with .br and .gz beside them, ${maps} source maps left out).`);
  } catch (error) {
    rmSync(next, { recursive: true, force: true });
    console.error(`build failed; dist/ is unchanged${error instanceof Error && 'status' in error ? '' : `: ${error}`}`);
    process.exitCode = 1;
  }
}

if (process.argv[1] === import.meta.filename) await main();
