// The tests Stryker runs against each mutant (stryker.config.mjs): the planning domain's own tests in Node and
// the server's clinical-safety test (PGlite in memory),
// with the property tests at 60 plans each (enough to reach every branch the other tests leave; the CI and
// on-demand runs keep their own counts): every mutant runs the tests that cover it, and the property tests
// cover most of the plan's code.
import { defineConfig } from 'vitest/config';
import { aliases } from './vite.config.ts';

process.env.PLAN_PROPERTY_RUNS ??= '60';

export default defineConfig({
  resolve: { alias: aliases },
  test: {
    include: ['src/domain/planning/**/*.test.ts', 'server/services/clinical-safety.test.ts'],
    environment: 'node',
    testTimeout: 120_000,
  },
});
