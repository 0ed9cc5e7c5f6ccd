// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  analyseBundle,
  budgetProblems,
  routeTableProblems,
  signedInCode,
  staticClosure,
  type Manifest,
  type Route,
} from './bundle-graph.mjs';

const SIGN_IN = 'src/features/auth/sign-in-page.tsx';
const LAYOUT = 'src/app/signed-in-layout.tsx';
const PROFILE = 'src/features/profile/profile-page.tsx';
const ICON_LOADER = 'node_modules/icons/loader.js';

/**
 * A small build: the entry (main, router) lazy-loads the sign-in page, the signed-in layout and a profile page
 * nested in it; a package in the entry loads its icons on demand. Shared chunks import each other in a cycle,
 * as Vite's do.
 */
function fakeBuild(): { manifest: Manifest; modulesOf: Map<string, string[]>; routes: Route[] } {
  const manifest: Manifest = {
    'index.html': {
      file: 'assets/index.js',
      isEntry: true,
      imports: ['_vendor.js'],
      dynamicImports: [SIGN_IN, LAYOUT, PROFILE, ICON_LOADER],
    },
    '_vendor.js': { file: 'assets/vendor.js' },
    '_shared.js': { file: 'assets/shared.js', imports: ['_vendor.js', 'index.html'], css: ['assets/shared.css'] },
    [SIGN_IN]: { file: 'assets/sign-in.js', isDynamicEntry: true, imports: ['_shared.js'] },
    [LAYOUT]: { file: 'assets/layout.js', isDynamicEntry: true, imports: ['_shared.js'] },
    [PROFILE]: { file: 'assets/profile.js', isDynamicEntry: true, imports: ['_shared.js', LAYOUT] },
    [ICON_LOADER]: { file: 'assets/loader.js', isDynamicEntry: true, imports: ['_vendor.js', '_icons.js'] },
    '_icons.js': { file: 'assets/icons.js' },
  };
  const modulesOf = new Map([
    ['index.html', ['src/main.tsx', 'src/app/router.tsx', 'src/app/paths.ts']],
    ['_vendor.js', ['node_modules/react/index.js']],
    [
      '_shared.js',
      ['src/components/language-switch.tsx', 'src/features/auth/use-sign-out.ts', 'generated/hooks/profile.ts'],
    ],
    [SIGN_IN, [SIGN_IN]],
    [LAYOUT, [LAYOUT, 'src/app/session-gate.ts']],
    [PROFILE, [PROFILE]],
    [ICON_LOADER, [ICON_LOADER]],
  ]);
  const routes = [
    { path: '/sign-in', modules: [SIGN_IN] },
    { path: '/profile', modules: [LAYOUT, PROFILE] },
  ];
  return { manifest, modulesOf, routes };
}

const analyse = (build = fakeBuild()) => analyseBundle({ ...build, guardedPath: '/sign-in' });

describe('staticClosure', () => {
  it('follows static imports through cycles and lists each chunk once', () => {
    const { manifest } = fakeBuild();
    expect(staticClosure(manifest, [PROFILE, LAYOUT]).sort()).toEqual(
      ['_shared.js', '_vendor.js', 'index.html', LAYOUT, PROFILE].sort(),
    );
  });

  it('fails on a key the manifest does not have', () => {
    expect(() => staticClosure(fakeBuild().manifest, ['_gone.js'])).toThrow('_gone.js is not in the build manifest');
  });
});

describe('analyseBundle', () => {
  it('loads the entry, the route modules (layout and page) and their static imports', () => {
    const { entryChunks, routes } = analyse();
    expect(entryChunks).toEqual(['index.html', '_vendor.js']);
    expect(routes.map(({ path, signedIn, chunks }) => ({ path, signedIn, chunks: chunks.sort() }))).toEqual([
      { path: '/sign-in', signedIn: false, chunks: ['_shared.js', '_vendor.js', 'index.html', SIGN_IN].sort() },
      { path: '/profile', signedIn: true, chunks: ['_shared.js', '_vendor.js', 'index.html', LAYOUT, PROFILE].sort() },
    ]);
  });

  it('counts a package’s dynamic import as on demand, with only what it adds to the entry', () => {
    expect(analyse().onDemand).toEqual([{ module: ICON_LOADER, chunks: [ICON_LOADER, '_icons.js'] }]);
  });

  it('passes when the guarded route shares only shared code and public features with signed-in routes', () => {
    const { signedInCode: code, guard } = analyse();
    expect(code).toEqual([LAYOUT, 'src/app/session-gate.ts', PROFILE].sort());
    expect(guard).toEqual({ path: '/sign-in', modules: [] });
  });

  it('reports signed-in code that reaches the guarded route, e.g. merged into a shared chunk', () => {
    const build = fakeBuild();
    build.modulesOf.get('_shared.js')?.push('src/app/session-gate.ts', 'src/features/profile/avatar.tsx');
    expect(analyse(build).guard.modules).toEqual(['src/app/session-gate.ts', 'src/features/profile/avatar.tsx']);
  });

  it('fails when the route table misses a lazy module or lists one the router does not load', () => {
    const build = fakeBuild();
    build.routes = [{ path: '/sign-in', modules: [SIGN_IN, 'src/features/auth/gone.tsx'] }];
    expect(() => analyse(build)).toThrow(
      [
        'the route table is stale:',
        `  ${LAYOUT} is lazy-loaded by the router but no route lists it`,
        `  ${PROFILE} is lazy-loaded by the router but no route lists it`,
        '  src/features/auth/gone.tsx is listed but the router does not lazy-load it',
      ].join('\n'),
    );
  });

  it('fails when a lazy module ended up in a chunk shared with static imports, which no row can name', () => {
    const build = fakeBuild();
    build.manifest['index.html'].dynamicImports?.push('_shared.js');
    expect(() => analyse(build)).toThrow(
      'the router lazy-loads _shared.js, a chunk shared with static imports ' +
        '(src/components/language-switch.tsx, src/features/auth/use-sign-out.ts)',
    );
  });

  it('fails without sourcemaps, which name the router’s chunk', () => {
    const build = fakeBuild();
    build.modulesOf.delete('index.html');
    expect(() => analyse(build)).toThrow("no chunk's sourcemap lists src/app/router.tsx");
  });

  it('fails when the guarded route is not in the table', () => {
    expect(() => analyseBundle({ ...fakeBuild(), guardedPath: '/nowhere' })).toThrow('the route table has no /nowhere');
  });
});

describe('routeTableProblems', () => {
  it('is empty when every lazy module is listed, once or in several routes', () => {
    const routes = [
      { path: '/a', modules: [LAYOUT, PROFILE] },
      { path: '/b', modules: [LAYOUT, SIGN_IN] },
    ];
    expect(routeTableProblems(routes, [LAYOUT, PROFILE, SIGN_IN])).toEqual([]);
  });
});

describe('signedInCode', () => {
  it('keeps app and non-public feature modules of signed-in routes that the entry does not load', () => {
    const signedInModules = new Set([
      'src/app/router.tsx', // in the entry
      'src/app/area-start-page.tsx',
      'src/features/patients/patient-list.tsx',
      'src/features/legal/legal-links.tsx', // a public route's feature
      'src/components/language-switch.tsx', // shared
      'src/lib/session.ts', // shared
      'generated/hooks/patients.ts', // shared
      'node_modules/react/index.js', // shared
    ]);
    expect(
      signedInCode({
        signedInModules,
        entryModules: new Set(['src/app/router.tsx']),
        publicRouteModules: ['src/features/legal/legal-page.tsx', 'src/app/home-redirect.tsx'],
      }),
    ).toEqual(['src/app/area-start-page.tsx', 'src/features/patients/patient-list.tsx']);
  });
});

describe('budgetProblems', () => {
  const routes = [{ path: '/sign-in', js: { gzip: 150_001 }, css: { gzip: 40_000 } }];

  it('names the route and what it downloads beyond its budget', () => {
    expect(budgetProblems(routes, [{ path: '/sign-in', jsGzip: 150_000, cssGzip: 40_000 }])).toEqual([
      '/sign-in: JS 150.0 kB gzip, budget 150.0 kB',
    ]);
    expect(budgetProblems(routes, [{ path: '/sign-in', jsGzip: 100_000, cssGzip: 30_000 }])).toHaveLength(2);
  });

  it('passes a route within its budget and refuses a budget for a route the report does not know', () => {
    expect(budgetProblems(routes, [{ path: '/sign-in', jsGzip: 150_001, cssGzip: 40_000 }])).toEqual([]);
    expect(budgetProblems(routes, [{ path: '/nowhere', jsGzip: 1, cssGzip: 1 }])).toEqual(['/nowhere: no such route in the report']);
  });
});
