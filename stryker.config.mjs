// Mutation testing of the plan's safety code (issue 26): StrykerJS 9 (the line that runs on Node 20) with its
// Vitest runner, over the planning domain that the server runs on every save, sign-off and packing
// (src/domain/planning: invariants, clinical limits, grid, zones, brightness) and the server's part of the
// check (server/services/clinical-safety.ts: the treating device, its profile, the settings checked). The
// handlers that call the check and answer its refusals are tested through HTTP, too slow to run per mutant. On demand, not in CI:
// `npm run test:mutation` (about an hour on two cores); the report lands in reports/mutation/.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'vitest.mutation.config.ts', related: false },
  mutate: ['src/domain/planning/**/*.ts', '!src/domain/planning/**/*.test.ts', '!src/domain/planning/power-colours.ts', 'server/services/clinical-safety.ts'],
  coverageAnalysis: 'perTest',
  ignoreStatic: true,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  thresholds: { high: 90, low: 80, break: null },
  concurrency: 2,
  // A new test runner for every mutant. A reused one (StrykerJS 9.6 with Vitest 4.1) can run the tests against
  // code that no longer sees which mutant is active: ellipse.ts's disc shortcut turned to `true` was reported
  // survived in 3 runs of 3 (the tests' own log showed the mutant set and the code unchanged), killed with this.
  maxTestRunnerReuse: 1,
  // A mutant that loops (a bound turned round) is stopped this long after the tests' own time: it counts as killed.
  timeoutMS: 10000,
  // Results are kept, and committed (stryker-incremental.json): a rerun tests only the mutants in changed code or
  // tests, so a run may be split over sessions by file (`-m src/domain/planning/ellipse.ts`) and then completed.
  incremental: true,
  incrementalFile: 'stryker-incremental.json',
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
