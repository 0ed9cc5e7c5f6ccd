import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { aliases } from './vite.config.ts';

/*
 * Two projects:
 * - unit: tests beside the code (src/, scripts/, server/). The environment is jsdom, because the SPA's
 *   tests need it. Vitest 4 has no per-glob environment any more (environmentMatchGlobs is gone, project
 *   names must be unique and `--project unit` matches exactly), so a test that must run in plain Node
 *   (scripts/, server/) starts with the docblock `// @vitest-environment node`.
 * - contract: tests/contract, which start Prism; one file at a time, generous timeouts.
 */
export default defineConfig({
  plugins: [react()],
  resolve: { alias: aliases },
  test: {
    // No test files yet in some projects; drop this once every project has tests.
    passWithNoTests: true,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'],
          environment: 'jsdom',
        },
      },
      {
        extends: true,
        test: {
          // The reference server: its pure units and the HTTP suites of tests/server, on PGlite or, with
          // DATABASE_URL, on PostgreSQL.
          name: 'server',
          include: ['server/**/*.test.ts', 'tests/server/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'contract',
          include: ['tests/contract/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
