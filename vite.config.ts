import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import filterRules from 'postcss-filter-rules';
import { defineConfig, loadEnv, type ProxyOptions } from 'vite';
import { mockExamples } from './mocks/mock-examples';
import { mockImages } from './mocks/mock-images';
import { blueprintIconNames } from './scripts/vite-blueprint-icon-names';

/**
 * Aliases shared with tsconfig.app.json (`paths`) and vitest.config.ts. `zod` itself resolves to
 * src/lib/zod.ts, which sets zod's CSP-safe mode before any module (ours or generated/zod) builds a schema.
 */
export const aliases = [
  { find: '@', replacement: fileURLToPath(new URL('./src', import.meta.url)) },
  { find: '@generated', replacement: fileURLToPath(new URL('./generated', import.meta.url)) },
  { find: /^zod$/, replacement: fileURLToPath(new URL('./src/lib/zod.ts', import.meta.url)) },
];

/**
 * React Router 7's package exports name its development build for every condition (remix-run/react-router
 * issues #12532, #14102): a production bundle would carry its dev-only checks and warnings, and a phone would
 * evaluate them on every first load. The production build it ships beside them is what the SPA's build takes.
 */
const reactRouterProduction = [
  { find: /^react-router$/, replacement: fileURLToPath(new URL('./node_modules/react-router/dist/production/index.mjs', import.meta.url)) },
  { find: /^react-router\/dom$/, replacement: fileURLToPath(new URL('./node_modules/react-router/dist/production/dom-export.mjs', import.meta.url)) },
];

/** A selector of Blueprint's dark theme. */
const DARK_THEME = /\.bp6-dark\b|\[data-bp-color-scheme=["']?dark["']?\]/;

/**
 * Where the dev server sends `/api/*`, from the environment (or a `.env` file):
 * - `MACULA_API_PROXY`: target origin; defaults to the reference server on port 8080 (`npm run dev:server` sets it).
 * - `MACULA_API_STRIP_PREFIX=1`: drop the `/api` prefix, because Prism serves `/api/x` at `/x`
 *   (`npm run dev:mock` sets both).
 * - `MACULA_DEV_PORT`: the dev server's port (default 5173).
 */
export default defineConfig(({ command, mode, isSsrBuild }) => {
  const env = { ...loadEnv(mode, process.cwd(), 'MACULA_'), ...process.env };
  const target = env.MACULA_API_PROXY || 'http://127.0.0.1:8080';
  const stripPrefix = ['1', 'true', 'yes'].includes((env.MACULA_API_STRIP_PREFIX ?? '').toLowerCase());
  const port = Number(env.MACULA_DEV_PORT || 5173);

  const apiProxy: ProxyOptions = {
    target,
    changeOrigin: true,
    // Realtime (Pusher protocol) runs over a websocket under /api on the reference server.
    ws: true,
    rewrite: stripPrefix ? (path) => path.replace(/^\/api(?=\/|\?|$)/, '') || '/' : undefined,
  };

  return {
    // On the mock (`npm run dev:mock`), treatment images come from mocks/mock-images.ts instead of Prism, and
    // mocks/mock-examples.ts asks Prism for the example that belongs to the id in the path.
    // blueprintIconNames: Blueprint's table of icon names without change-case (scripts/vite-blueprint-icon-names.ts).
    plugins: [
      react(),
      blueprintIconNames(),
      ...(stripPrefix ? [mockImages(), mockExamples(env.MACULA_MOCK_CONTRACT || 'generated/openapi.yaml', env.MACULA_MOCK_PROFILE || undefined)] : []),
    ],
    resolve: { alias: command === 'build' && !isSsrBuild ? [...aliases, ...reactRouterProduction] : aliases },
    // Blueprint's dark theme applies under a `.bp6-dark` or `[data-bp-color-scheme=dark]` ancestor, which the
    // product never sets (Blueprint's popovers take `.bp6-dark` only from a dark parent). Its selectors are left
    // out of the stylesheet every page parses and matches first (a rule left without selectors goes).
    css: { postcss: { plugins: [filterRules({ filter: (selector: string) => !DARK_THEME.test(selector) })] } },
    server: {
      host: '127.0.0.1',
      port,
      strictPort: true,
      proxy: { '/api': apiProxy },
    },
    preview: {
      host: '127.0.0.1',
      proxy: { '/api': apiProxy },
    },
    build: {
      outDir: 'dist',
      emptyOutDir: true,
      // The bundle report (scripts/bundle-report.mjs) reads the chunk graph from the manifest and each chunk's
      // source modules from the sourcemaps; 'hidden' leaves the bundles without a link to them, and
      // scripts/build-spa.mjs removes them once the report is written: they are never served.
      sourcemap: 'hidden',
      // A lazily loaded route's JS chunks are not preloaded: Vite's helper adds a <link rel="modulepreload"> for each
      // one it has not added itself, also for chunks the entry has long loaded, and each link cost Chromium about
      // 1 ms (4 ms at a phone's pace), some 40 per signed-in route. The browser's module loader fetches what a chunk
      // imports as soon as it has read it. The entry's chunks (in index.html) and every route's CSS are preloaded.
      // Before/after on this 2-core machine: docs/architecture.md, "Where a phone's first load spends its time".
      modulePreload: { resolveDependencies: (_file, deps, { hostType }) => (hostType === 'js' ? deps.filter((dep) => dep.endsWith('.css')) : deps) },
      manifest: true,
      rolldownOptions: {
        // The shell, and the entry of the pages sent as HTML, which loads the shell's entry after the first
        // paint (src/main-after-paint.ts; scripts/prerender.mjs puts it in those pages).
        input: { index: 'index.html', 'after-paint': 'src/main-after-paint.ts' },
        // generated/zod builds every schema of a tag when its file is first imported (43 for `auth`, some
        // 190 ms of a phone's first load of /sign-in, which needs one). Building a schema has no effect
        // beyond its value, so schemas no module uses are left out of the bundle.
        treeshake: { manualPureFunctions: ['zod'] },
      },
    },
  };
});
