// @ts-check
/**
 * `node scripts/prerender.mjs <buildDir>` (a step of scripts/build-spa.mjs): the public pages of
 * src/app/prerender.tsx as HTML, one file per page and UI language, written to `<buildDir>/prerendered/<lang>/`.
 * Each is the build's index.html with the page inside #root (marked `data-prerendered="<lang>"`), the page's
 * title and `<html lang>`, and in place of the shell's entry and its module preloads the entry that loads it
 * after the first paint (src/main-after-paint.ts). The server sends it for the page's path in the visitor's language
 * (server/http/serving.ts), the browser paints it before the bundle has loaded, and src/app/start-app.tsx
 * hydrates it.
 *
 * The render runs the SPA's own code: a server-side Vite build of src/app/prerender.tsx into a folder of its own
 * in the project (`.prerender-<pid>`, where Node finds node_modules for the packages it leaves out), removed
 * afterwards.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');

/** The text of the SPA's shell that the prerendered page replaces or fills. */
const ROOT_ELEMENT = '<div id="root"></div>';
const HTML_ELEMENT = /<html lang="[^"]*">/;
const TITLE_ELEMENT = /<title>[^<]*<\/title>/;
const ENTRY_SCRIPT = /<script type="module" crossorigin src="[^"]*"><\/script>/;
const MODULE_PRELOAD = /\s*<link rel="modulepreload" crossorigin href="[^"]*">/g;
/** The key of the prerendered pages' entry in Vite's manifest. */
const AFTER_PAINT_ENTRY = 'src/main-after-paint.ts';

/** @param {string} text */
const escapeHtml = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Where the page of `pagePath` in `language` is written below the build folder. */
export const prerenderedFile = (/** @type {string} */ language, /** @type {string} */ pagePath) => path.join('prerendered', language, `${pagePath.slice(1)}.html`);

/**
 * The shell `index.html` with `page` in it, started by the script at `entry`.
 * @param {string} shell @param {string} language @param {{ html: string, title: string }} page @param {string} entry
 */
export function pageDocument(shell, language, page, entry) {
  for (const [pattern, name] of /** @type {const} */ ([[ROOT_ELEMENT, 'root element'], [HTML_ELEMENT, 'html element'], [TITLE_ELEMENT, 'title'], [ENTRY_SCRIPT, 'entry script']])) {
    if (!(typeof pattern === 'string' ? shell.includes(pattern) : pattern.test(shell))) throw new Error(`index.html has no ${name} to fill`);
  }
  return shell
    .replace(HTML_ELEMENT, `<html lang="${language}">`)
    .replace(TITLE_ELEMENT, () => `<title>${escapeHtml(page.title)}</title>`)
    .replace(ENTRY_SCRIPT, () => `<script type="module" crossorigin src="${entry}"></script>`)
    .replace(MODULE_PRELOAD, '')
    .replace(ROOT_ELEMENT, () => `<div id="root" data-prerendered="${language}">${page.html}</div>`);
}

/** @param {string} buildDir @returns {Promise<number>} how many pages were written */
export async function prerenderInto(buildDir) {
  const serverBuild = path.join(root, `.prerender-${process.pid}`);
  try {
    execFileSync(
      process.execPath,
      [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--ssr', 'src/app/prerender.tsx', '--outDir', serverBuild, '--emptyOutDir', '--sourcemap', 'false', '--logLevel', 'warn'],
      { cwd: root, stdio: 'inherit', env: { ...process.env, VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' } },
    );
    /** @type {{ PRERENDERED_PATHS: readonly string[], LANGUAGES: readonly string[], prerender: (path: string, language: string) => Promise<{ html: string, title: string }> }} */
    const { PRERENDERED_PATHS, LANGUAGES, prerender } = await import(pathToFileURL(path.join(serverBuild, 'prerender.js')).href);
    const shell = readFileSync(path.join(buildDir, 'index.html'), 'utf8');
    /** @type {Record<string, { file: string }>} */
    const manifest = JSON.parse(readFileSync(path.join(buildDir, '.vite', 'manifest.json'), 'utf8'));
    const afterPaint = manifest[AFTER_PAINT_ENTRY];
    if (!afterPaint) throw new Error(`the build has no entry ${AFTER_PAINT_ENTRY} (vite.config.ts, build input)`);
    let count = 0;
    for (const language of LANGUAGES) {
      for (const pagePath of PRERENDERED_PATHS) {
        const file = path.join(buildDir, prerenderedFile(language, pagePath));
        mkdirSync(path.dirname(file), { recursive: true });
        writeFileSync(file, pageDocument(shell, language, await prerender(pagePath, language), `/${afterPaint.file}`));
        count += 1;
      }
    }
    return count;
  } finally {
    rmSync(serverBuild, { recursive: true, force: true });
  }
}

if (process.argv[1] === import.meta.filename) {
  const buildDir = process.argv[2];
  if (!buildDir) throw new Error('usage: node scripts/prerender.mjs <buildDir>');
  console.log(`${await prerenderInto(path.resolve(buildDir))} pages prerendered.`);
}
