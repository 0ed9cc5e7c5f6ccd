// @ts-check
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import boundaries from './scripts/eslint-boundaries.js';

const root = import.meta.dirname;

// Kysely's query builders: only server/repositories/ (and the database's own modules) call them.
const QUERY_BUILDERS = ['selectFrom', 'insertInto', 'updateTable', 'deleteFrom', 'replaceInto', 'mergeInto', 'selectNoFrom'];
// Browser APIs that must not reach the pure domain code shared with the server.
const BROWSER_GLOBALS = ['window', 'document', 'localStorage', 'sessionStorage', 'navigator'];

export default defineConfig(
  globalIgnores([
    'generated/**',
    'dist/**',
    // The bundled contract checker (npm run build:contract-check).
    'dist-tools/**',
    // Builds in progress: beside dist/, and the prerendered pages' server-side build (scripts/prerender.mjs).
    'dist.next-*/**',
    '.prerender-*/**',
    'node_modules/**',
    'data/**',
    'coverage/**',
    'test-results/**',
    // Mutation runs (npm run test:mutation): sandbox copies and reports.
    '.stryker-tmp/**',
    'reports/**',
    'playwright-report/**',
    '.ci/node24/**',
  ]),

  js.configs.recommended,
  tseslint.configs.recommended,

  {
    files: ['src/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
  },
  {
    files: ['**/*.{js,mjs,cjs}', '*.ts', 'scripts/**', 'mocks/**', 'tests/**', 'server/**'],
    languageOptions: { globals: globals.node },
  },

  {
    plugins: { macula: boundaries },
    rules: {
      'macula/boundaries': ['error', { root }],
    },
  },
  {
    // Blueprint names a dialog's × "Close" and a select's arrow "Open dropdown" in English only: the screens use
    // the wrappers src/components/dialog.tsx and select.tsx, which say it in the user's language or not at all.
    files: ['src/**/*.tsx'],
    ignores: ['src/components/dialog.tsx', 'src/components/select.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@blueprintjs/core',
              importNames: ['Dialog', 'HTMLSelect'],
              message: "[english-only] use Dialog from '@/components/dialog' and Select from '@/components/select': Blueprint's own say 'Close' and 'Open dropdown' in English.",
            },
          ],
        },
      ],
    },
  },
  {
    // Services hold the rules; the queries live in server/repositories/ (issue 28). A service opens a transaction
    // and hands it to repository functions, but builds no query itself.
    files: ['server/services/**/*.ts'],
    ignores: ['server/services/**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: `CallExpression[callee.property.name=/^(${QUERY_BUILDERS.join('|')})$/]`,
          message: '[service-queries] a service builds no query: put it in server/repositories/<area>.ts and call that.',
        },
        {
          selector: "ImportDeclaration[source.value='kysely'] ImportSpecifier[imported.name='sql']",
          message: "[service-queries] a service writes no SQL: put it in server/repositories/<area>.ts and call that.",
        },
      ],
    },
  },
  {
    files: ['src/domain/**'],
    rules: {
      'no-restricted-globals': [
        'error',
        ...BROWSER_GLOBALS.map((name) => ({
          name,
          message: `[domain-impure] src/domain is shared with the server: no '${name}'.`,
        })),
      ],
      'no-restricted-properties': [
        'error',
        ...BROWSER_GLOBALS.map((property) => ({
          object: 'globalThis',
          property,
          message: `[domain-impure] src/domain is shared with the server: no 'globalThis.${property}'.`,
        })),
      ],
    },
  },
);
