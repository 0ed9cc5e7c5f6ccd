import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { aliases } from './vite.config.ts';

/*
 * Three projects:
 * - unit: tests beside the code in src/ and scripts/. The environment is jsdom, because the SPA's tests need
 *   it; a test that must run in plain Node starts with the docblock `// @vitest-environment node`.
 * - server: the reference server's pure units (server/) and its HTTP suites (tests/server), in Node, on PGlite
 *   or, with DATABASE_URL, on PostgreSQL.
 * - contract: tests/contract, which start Prism; one file at a time, generous timeouts.
 */
export default defineConfig({
  plugins: [react()],
  resolve: { alias: aliases },
  test: {
    // Every core: Vitest leaves one free by default, which on our 2-core CI machine ran the server suites one
    // file at a time (8.6 min on PGlite with one worker, 4.6 min with two; their HTTP round trips leave a core idle).
    maxWorkers: '100%',
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
          globalSetup: ['tests/server/pglite-template.ts'],
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
