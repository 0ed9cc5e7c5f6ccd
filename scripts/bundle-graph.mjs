// @ts-check
/**
 * The pure part of the bundle report (scripts/bundle-report.mjs): which chunks a first visit to a route
 * downloads, read from Vite's build manifest (`dist/.vite/manifest.json`), and which source modules are code
 * of the signed-in areas.
 *
 * A first visit to a route downloads the entry chunk (the script of index.html) with its static imports, then
 * the route's lazy modules (for a nested route the layout's and the page's) with their static imports: Vite
 * preloads a dynamic import's static imports together with it. What those chunks import dynamically loads
 * only when used ("on demand") and is not part of a route's figures.
 *
 * Signed-in code (what /sign-in must not load) is every source module that
 *   1. a signed-in route loads, a signed-in route being one rendered inside src/app/signed-in-layout.tsx,
 *   2. the entry does not load (the entry is shared by every page anyway),
 *   3. lies under src/app/ or src/features/, but not in the feature folder of a public route's module
 *      (today auth, errors, legal: e.g. the layout's sign-out button may come from src/features/auth).
 * Shared code (src/components, src/lib, src/domain, generated/, locales/, packages) is never signed-in code,
 * so /sign-in may share e.g. the generated profile hooks or the language switch with the signed-in areas.
 */

/**
 * One entry of Vite's manifest, keyed by its source path (`src/…`, `index.html`) or, for a chunk that only
 * bundles shared code, by `_<name>-<hash>.js`.
 * @typedef {object} ManifestChunk
 * @property {string} file output file, relative to the build directory
 * @property {string} [src]
 * @property {boolean} [isEntry]
 * @property {boolean} [isDynamicEntry]
 * @property {string[]} [imports] keys of statically imported chunks
 * @property {string[]} [dynamicImports] keys of dynamically imported chunks
 * @property {string[]} [css] CSS files the chunk needs
 */
/** @typedef {Record<string, ManifestChunk>} Manifest */

/**
 * A route of the app: its URL path and the lazy modules a first visit loads, outermost layout first.
 * @typedef {{ path: string, modules: string[] }} Route
 */

/**
 * @typedef {object} RouteLoad
 * @property {string} path
 * @property {string[]} modules the route's lazy modules
 * @property {boolean} signedIn
 * @property {string[]} chunks manifest keys of everything a first visit downloads, each once
 */

/**
 * @typedef {object} BundleAnalysis
 * @property {string[]} entryChunks the entry chunk and its static imports
 * @property {RouteLoad[]} routes
 * @property {{ module: string, chunks: string[] }[]} onDemand dynamic imports that are no route, each with the
 *   chunks it adds to the entry's
 * @property {string[]} signedInCode sorted
 * @property {{ path: string, modules: string[] }} guard the guarded route and the signed-in code it loads
 */

/** The layout every signed-in area renders in; a route that loads it is a signed-in route. */
export const SIGNED_IN_LAYOUT = 'src/app/signed-in-layout.tsx';
/** The module whose dynamic imports are the routes' lazy modules. */
export const ROUTER = 'src/app/router.tsx';

/**
 * @param {Manifest} manifest
 * @returns {string} the key of the one entry chunk
 */
export function entryKey(manifest) {
  // The shell's entry; the entry of the prerendered pages (src/main-after-paint.ts) only imports it later.
  const entries = Object.keys(manifest).filter((key) => manifest[key].isEntry && key.endsWith('.html'));
  if (entries.length !== 1) throw new Error(`expected one entry chunk in the manifest, found ${entries.length}`);
  return entries[0];
}

/**
 * @param {Manifest} manifest
 * @param {string[]} keys
 * @returns {string[]} `keys` and every chunk they import statically, directly or not, each once
 */
export function staticClosure(manifest, keys) {
  /** @type {Set<string>} */
  const seen = new Set();
  /** @param {string} key */
  const visit = (key) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in the build manifest`);
    seen.add(key);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  keys.forEach(visit);
  return [...seen];
}

/**
 * @param {string[]} chunks manifest keys
 * @param {Map<string, string[]>} modulesOf chunk key → root-relative source modules (from the sourcemaps)
 * @returns {Set<string>}
 */
export function modulesIn(chunks, modulesOf) {
  return new Set(chunks.flatMap((key) => modulesOf.get(key) ?? []));
}

/**
 * The router's lazy modules: what the chunk holding src/app/router.tsx imports dynamically from src/.
 * Other dynamic imports that land in the same chunk (e.g. Blueprint's icon loaders) are no routes.
 * @param {Manifest} manifest
 * @param {Map<string, string[]>} modulesOf
 * @returns {string[]}
 */
export function lazyRouteModules(manifest, modulesOf) {
  const routerChunk = [...modulesOf].find(([, modules]) => modules.includes(ROUTER))?.[0];
  if (!routerChunk) throw new Error(`no chunk's sourcemap lists ${ROUTER}: is build.sourcemap on?`);
  const ourModules = (/** @type {string} */ key) =>
    (modulesOf.get(key) ?? []).filter((module) => module.startsWith('src/'));
  const lazy = (manifest[routerChunk].dynamicImports ?? []).filter(
    (key) => key.startsWith('src/') || ourModules(key).length > 0,
  );
  // A lazy module that other chunks import statically may end up in a shared chunk, keyed `_<name>-<hash>.js`:
  // no route table row can name that.
  const shared = lazy.find((key) => !key.startsWith('src/'));
  if (shared) {
    const modules = ourModules(shared).join(', ');
    throw new Error(
      `the router lazy-loads ${shared}, a chunk shared with static imports (${modules}): lazy-load a route module of its own`,
    );
  }
  return lazy;
}

/**
 * A route table that no longer matches the router fails the report rather than report stale figures.
 * @param {Route[]} routes
 * @param {string[]} lazyModules
 * @returns {string[]} one message per mismatch; empty when the table is current
 */
export function routeTableProblems(routes, lazyModules) {
  const listed = new Set(routes.flatMap((route) => route.modules));
  const lazy = new Set(lazyModules);
  const unlisted = lazyModules.filter((module) => !listed.has(module));
  const gone = [...listed].filter((module) => !lazy.has(module));
  return [
    ...unlisted.map((module) => `${module} is lazy-loaded by the router but no route lists it`),
    ...gone.map((module) => `${module} is listed but the router does not lazy-load it`),
  ];
}

/**
 * @param {Route} route
 * @returns {boolean}
 */
export function isSignedInRoute(route) {
  return route.modules.includes(SIGNED_IN_LAYOUT);
}

/** @param {string} module @returns {string | undefined} the feature folder of a module under src/features/ */
function featureOf(module) {
  return /^src\/features\/([^/]+)\//.exec(module)?.[1];
}

/**
 * Signed-in code, by the rule in this file's header.
 * @param {{ signedInModules: Set<string>, entryModules: Set<string>, publicRouteModules: string[] }} loads
 *   what the signed-in routes load, what the entry loads, the public routes' lazy modules
 * @returns {string[]} sorted
 */
export function signedInCode({ signedInModules, entryModules, publicRouteModules }) {
  const publicFeatures = new Set(publicRouteModules.map(featureOf).filter(Boolean));
  const isAppCode = (/** @type {string} */ module) =>
    module.startsWith('src/app/') || (module.startsWith('src/features/') && !publicFeatures.has(featureOf(module)));
  return [...signedInModules].filter((module) => !entryModules.has(module) && isAppCode(module)).sort();
}

/**
 * Everything the report prints, without sizes.
 * @param {{ manifest: Manifest, modulesOf: Map<string, string[]>, routes: Route[], guardedPath: string }} build
 *   the manifest, each chunk's source modules, the route table, and the route that must load no signed-in code
 * @returns {BundleAnalysis}
 */
export function analyseBundle({ manifest, modulesOf, routes, guardedPath }) {
  const lazyModules = lazyRouteModules(manifest, modulesOf);
  const problems = routeTableProblems(routes, lazyModules);
  if (problems.length > 0) throw new Error(`the route table is stale:\n  ${problems.join('\n  ')}`);

  const entry = entryKey(manifest);
  const entryChunks = staticClosure(manifest, [entry]);
  const routeLoads = routes.map((route) => ({
    ...route,
    signedIn: isSignedInRoute(route),
    chunks: staticClosure(manifest, [entry, ...route.modules]),
  }));

  const lazy = new Set(lazyModules);
  const entrySet = new Set(entryChunks);
  const onDemand = Object.keys(manifest)
    .filter((key) => manifest[key].isDynamicEntry && !lazy.has(key))
    .map((module) => ({ module, chunks: staticClosure(manifest, [module]).filter((key) => !entrySet.has(key)) }));

  const signedInChunks = routeLoads.filter((route) => route.signedIn).flatMap((route) => route.chunks);
  const code = signedInCode({
    signedInModules: modulesIn(signedInChunks, modulesOf),
    entryModules: modulesIn(entryChunks, modulesOf),
    publicRouteModules: routeLoads.filter((route) => !route.signedIn).flatMap((route) => route.modules),
  });
  const guarded = routeLoads.find((route) => route.path === guardedPath);
  if (!guarded) throw new Error(`the route table has no ${guardedPath}`);
  const guardedModules = modulesIn(guarded.chunks, modulesOf);

  return {
    entryChunks,
    routes: routeLoads,
    onDemand,
    signedInCode: code,
    guard: { path: guardedPath, modules: code.filter((module) => guardedModules.has(module)) },
  };
}

/**
 * @typedef {object} Budget the most a first visit to a route may download, gzip bytes
 * @property {string} path
 * @property {number} jsGzip
 * @property {number} cssGzip
 */

/**
 * What breaks a budget, one line each (empty when every route keeps within its budget).
 * @param {{ path: string, js: { gzip: number }, css: { gzip: number } }[]} routes the report's routes
 * @param {Budget[]} budgets
 * @returns {string[]}
 */
export function budgetProblems(routes, budgets) {
  /** @param {number} bytes */
  const kB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;
  return budgets.flatMap((budget) => {
    const route = routes.find((candidate) => candidate.path === budget.path);
    if (!route) return [`${budget.path}: no such route in the report`];
    const problems = [];
    if (route.js.gzip > budget.jsGzip) problems.push(`${budget.path}: JS ${kB(route.js.gzip)} gzip, budget ${kB(budget.jsGzip)}`);
    if (route.css.gzip > budget.cssGzip) problems.push(`${budget.path}: CSS ${kB(route.css.gzip)} gzip, budget ${kB(budget.cssGzip)}`);
    return problems;
  });
}
