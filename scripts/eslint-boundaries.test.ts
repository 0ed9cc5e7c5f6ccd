// @vitest-environment node
import path from 'node:path';
import { ESLint, RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { boundariesRule, checkImport, resolveSpecifier } from './eslint-boundaries.js';

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

// The files need not exist: the rule only looks at paths.
const root = path.resolve(import.meta.dirname, '..');
const file = (relative: string) => path.join(root, relative);
const options = [{ root }];

const ruleTester = new RuleTester({
  languageOptions: {
    parser: tseslint.parser,
    ecmaVersion: 'latest',
    sourceType: 'module',
  },
});

type Invalid = RuleTester.InvalidTestCase;

/** An invalid case expecting the given boundary rules, in order. */
function invalid(relative: string, code: string, ...messageIds: string[]): Invalid {
  return { filename: file(relative), code, options, errors: messageIds.map((messageId) => ({ messageId })) };
}

function valid(relative: string, code: string): RuleTester.ValidTestCase {
  return { filename: file(relative), code, options };
}

describe('resolveSpecifier', () => {
  it('resolves aliases and relative paths against the importing file', () => {
    expect(resolveSpecifier('@/lib/api-client', 'src/features/auth/sign-in.tsx')).toEqual({
      kind: 'path',
      path: 'src/lib/api-client',
    });
    expect(resolveSpecifier('@generated/hooks/auth', 'src/features/auth/sign-in.tsx')).toEqual({
      kind: 'path',
      path: 'generated/hooks/auth',
    });
    expect(resolveSpecifier('../../patients/x', 'src/features/auth/forms/y.ts')).toEqual({
      kind: 'path',
      path: 'src/features/patients/x',
    });
  });

  it('tells packages, Node builtins and node: modules apart', () => {
    expect(resolveSpecifier('axios/unsafe/core', 'src/x.ts')).toEqual({ kind: 'package', name: 'axios', builtin: false });
    expect(resolveSpecifier('@tanstack/react-query', 'src/x.ts')).toEqual({
      kind: 'package',
      name: '@tanstack/react-query',
      builtin: false,
    });
    expect(resolveSpecifier('fs/promises', 'src/x.ts')).toMatchObject({ builtin: true });
    expect(resolveSpecifier('node:crypto', 'src/x.ts')).toMatchObject({ builtin: true });
  });
});

describe('checkImport', () => {
  it('reports every rule an import breaks', () => {
    const ids = checkImport('src/domain/planning/grid.ts', '../../features/planning/x').map((v) => v.messageId);
    expect(ids).toEqual(['domain-impure', 'shared-imports-feature']);
  });
});

describe('rule: pusher-outside-realtime-client', () => {
  ruleTester.run('macula/boundaries', boundariesRule, {
    valid: [
      valid('src/lib/realtime.ts', "const { default: Pusher } = await import('pusher-js');"),
      valid('src/app/realtime-updates.ts', "import { connectRealtime } from '@/lib/realtime';"),
      valid('tests/server/realtime-client.ts', "import PusherClient from 'pusher-js';"),
      valid('server/realtime/publisher.ts', "import Pusher from 'pusher';"),
    ],
    invalid: [
      invalid('src/app/signed-in-layout.tsx', "import Pusher from 'pusher-js';", 'pusher-outside-realtime-client'),
      invalid('src/features/patients/x.ts', "const p = await import('pusher-js/with-encryption');", 'pusher-outside-realtime-client'),
    ],
  });
});

describe('rule: axios-outside-api-client', () => {
  ruleTester.run('macula/boundaries', boundariesRule, {
    valid: [
      valid('src/lib/api-client.ts', "import axios, { type AxiosError } from 'axios';"),
      valid('src/lib/api-client.test.ts', "import { AxiosError } from 'axios';"),
      valid('src/features/auth/sign-in.tsx', "import { useLogin } from '@generated/hooks/auth/auth';"),
      valid('src/features/auth/x.ts', "import { axiosLike } from './axios';"),
    ],
    invalid: [
      invalid('src/features/auth/sign-in.tsx', "import axios from 'axios';", 'axios-outside-api-client'),
      invalid('src/lib/query-client.ts', "export { AxiosError } from 'axios';", 'axios-outside-api-client'),
      invalid('src/app/router.tsx', "const a = await import('axios');", 'axios-outside-api-client'),
      invalid('server/app.ts', "const a = require('axios/dist/node/axios.cjs');", 'axios-outside-api-client'),
      invalid('tests/e2e/x.spec.ts', "import axios = require('axios');", 'axios-outside-api-client'),
      invalid('scripts/x.ts', 'const a = await import(`axios`);', 'axios-outside-api-client'),
      invalid('src/lib/types.ts', "type A = typeof import('axios');", 'axios-outside-api-client'),
    ],
  });
});

describe('rule: feature-imports-feature', () => {
  ruleTester.run('macula/boundaries', boundariesRule, {
    valid: [
      valid('src/features/patients/list.tsx', "import { Row } from './components/row';"),
      valid('src/features/patients/forms/edit.tsx', "import { schema } from '@/features/patients/schema';"),
      valid('src/features/patients/list.tsx', "import { Page } from '@/components/page';"),
      valid('src/app/router.tsx', "const Patients = lazy(() => import('@/features/patients/routes'));"),
    ],
    invalid: [
      invalid('src/features/patients/list.tsx', "import { x } from '@/features/planning/x';", 'feature-imports-feature'),
      invalid('src/features/patients/forms/edit.tsx', "import { x } from '../../auth/x';", 'feature-imports-feature'),
      invalid('src/features/admin/a.ts', "export * from '../patients/a';", 'feature-imports-feature'),
      invalid('src/features/admin/a.ts', "const m = import('@/features/auth/routes');", 'feature-imports-feature'),
    ],
  });
});

describe('rule: domain-impure', () => {
  ruleTester.run('macula/boundaries', boundariesRule, {
    valid: [
      valid('src/domain/planning/grid.ts', "import { toMicrometres } from './units';"),
      valid('src/domain/npt/reader.ts', "import { z } from 'zod'; import { grid } from '@/domain/planning/grid';"),
      valid('src/domain/npt/reader.ts', "import { unzip } from 'fflate';"),
      valid('src/lib/i18n.ts', "import { initReactI18next } from 'react-i18next';"),
    ],
    invalid: [
      invalid('src/domain/planning/grid.ts', "import { useMemo } from 'react';", 'domain-impure'),
      invalid('src/domain/planning/grid.ts', "import type { FC } from 'react';", 'domain-impure'),
      invalid('src/domain/planning/grid.ts', "import { createRoot } from 'react-dom/client';", 'domain-impure'),
      invalid('src/domain/planning/grid.ts', "import { useQuery } from '@tanstack/react-query';", 'domain-impure'),
      invalid('src/domain/npt/reader.ts', "import { readFile } from 'node:fs/promises';", 'domain-impure'),
      invalid('src/domain/npt/reader.ts', "import { createHash } from 'crypto';", 'domain-impure'),
      invalid('src/domain/npt/reader.ts', "const fs = require('fs');", 'domain-impure'),
      invalid('src/domain/npt/reader.ts', "import { token } from '../../lib/auth-storage';", 'domain-impure'),
      invalid('src/domain/npt/reader.ts', "import { Button } from '@/components/button';", 'domain-impure'),
      invalid('src/domain/npt/reader.ts', "import type { Patient } from '@generated/models';", 'domain-impure'),
      invalid('src/domain/npt/reader.ts', "import type { Patient } from '../../../generated/models';", 'domain-impure'),
      invalid(
        'src/domain/npt/reader.ts',
        "import { x } from '@/features/planning/x';",
        'domain-impure',
        'shared-imports-feature',
      ),
    ],
  });
});

describe('rule: src-imports-server', () => {
  ruleTester.run('macula/boundaries', boundariesRule, {
    valid: [
      valid('server/handlers/treatments.ts', "import { planGrid } from '../../src/domain/planning/grid';"),
      valid('server/handlers/treatments.ts', "import type { Treatment } from '../../generated/models';"),
      valid('tests/contract/x.test.ts', "import { build } from '../../server/app';"),
    ],
    invalid: [
      invalid('src/features/planning/x.ts', "import { db } from '../../../server/db';", 'src-imports-server'),
      invalid('src/app/x.ts', "export { handlers } from '../../server/handlers/auth';", 'src-imports-server'),
    ],
  });
});

describe('rule: shared-imports-feature', () => {
  ruleTester.run('macula/boundaries', boundariesRule, {
    valid: [
      valid('src/lib/query-client.ts', "import { QueryClient } from '@tanstack/react-query';"),
      valid('src/components/page.tsx', "import { t } from '@/lib/i18n';"),
      valid('src/app/router.tsx', "import { routes } from '@/features/auth/routes';"),
    ],
    invalid: [
      invalid('src/lib/realtime.ts', "import { x } from '@/features/planning/x';", 'shared-imports-feature'),
      invalid('src/components/nav.tsx', "import { paths } from '../features/auth/paths';", 'shared-imports-feature'),
    ],
  });
});

describe('rule: imports-app', () => {
  ruleTester.run('macula/boundaries', boundariesRule, {
    valid: [
      valid('src/app/router.tsx', "import { paths } from './paths';"),
      valid('src/main.tsx', "import { startApp } from '@/app/start-app';"),
      valid('src/testing/render.tsx', "import { AppProviders } from '@/app/providers';"),
      valid('src/features/auth/sign-in-page.test.tsx', "import { HomeRedirect } from '@/app/home-redirect';"),
      valid('src/features/auth/sign-in-page.tsx', "import { paths } from '@/config/paths';"),
    ],
    invalid: [
      invalid('src/features/auth/sign-in-page.tsx', "import { paths } from '@/app/paths';", 'imports-app'),
      invalid('src/features/patients/list.tsx', "import { roleHome } from '../../app/role-home';", 'imports-app'),
      invalid('src/lib/session.ts', "import { x } from '@/app/session-gate';", 'imports-app'),
      invalid('src/components/nav.tsx', "import { paths } from '@/app/paths';", 'imports-app'),
      invalid('src/config/paths.ts', "import { x } from '@/app/x';", 'imports-app'),
    ],
  });
});

describe('rule: handler-queries', () => {
  ruleTester.run('macula/boundaries', boundariesRule, {
    valid: [
      valid('server/handlers/users.ts', "import { listStaff } from '../services/users';"),
      valid('server/handlers/users.ts', "import { actorOf } from '../http/actor';"),
      valid('server/repositories/users.ts', "import { sql } from 'kysely';"),
      valid('server/services/users.ts', "import type { Database } from '../db/tables';"),
    ],
    invalid: [
      invalid('server/handlers/users.ts', "import { sql } from 'kysely';", 'handler-queries'),
      invalid('server/handlers/clinic.ts', "import type { Database } from '../db/tables';", 'handler-queries'),
      invalid('server/handlers/clinic.ts', "import { pageMeta } from '../db/listing';", 'handler-queries'),
    ],
  });
});

describe('rule: service-imports-fastify', () => {
  ruleTester.run('macula/boundaries', boundariesRule, {
    valid: [
      valid('server/services/patients.ts', "import type { Actor } from '../actor';"),
      valid('server/services/patients.ts', "import { HttpError } from '../http/errors';"),
      valid('server/handlers/patients.ts', "import type { FastifyRequest } from 'fastify';"),
      valid('server/services/patients.test.ts', "import { buildApp } from '../app';"),
    ],
    invalid: [
      invalid('server/services/patients.ts', "import type { FastifyRequest } from 'fastify';", 'service-imports-fastify'),
      invalid('server/services/avatars.ts', "import multipart from '@fastify/multipart';", 'service-imports-fastify'),
      invalid('server/repositories/patients.ts', "import { actorOf } from '../http/actor';", 'service-imports-fastify'),
      invalid('server/services/patients.ts', "import { buildApp } from '../app';", 'service-imports-fastify'),
    ],
  });
});

describe('messages', () => {
  it('name the rule and the offending import', () => {
    const [violation] = checkImport('src/features/auth/x.ts', 'axios');
    const template = boundariesRule.meta?.messages?.[violation.messageId] ?? '';
    const message = template.replace(/\{\{(\w+)\}\}/g, (_, key: string) => violation.data[key]);
    expect(message).toContain('[axios-outside-api-client]');
    expect(message).toContain("'axios'");
  });
});

describe('files outside the project', () => {
  ruleTester.run('macula/boundaries', boundariesRule, {
    valid: [{ filename: '/elsewhere/src/domain/x.ts', code: "import 'react';", options }],
    invalid: [],
  });
});

describe('eslint.config.js', () => {
  const eslint = new ESLint({ cwd: root });
  const lint = async (relative: string, code: string) => {
    const [result] = await eslint.lintText(code, { filePath: file(relative) });
    return result.messages.map((m) => `${m.ruleId}: ${m.message}`);
  };

  it('runs the boundaries rule on the repository', async () => {
    expect(await lint('src/features/auth/x.ts', "export { default } from 'axios';\n")).toEqual([
      expect.stringMatching(/^macula\/boundaries: \[axios-outside-api-client\] 'axios'/),
    ]);
  });

  it('keeps browser globals out of src/domain', async () => {
    const code = 'export const a = [window, document, localStorage, sessionStorage, navigator, globalThis.document];\n';
    const messages = await lint('src/domain/x.ts', code);
    expect(messages.filter((m) => m.startsWith('no-restricted-globals:'))).toHaveLength(5);
    expect(messages.filter((m) => m.startsWith('no-restricted-properties:'))).toHaveLength(1);
    expect(await lint('src/lib/x.ts', code)).toEqual([]);
  });

  it('keeps queries out of server/services: they call server/repositories/', async () => {
    const code = [
      "import { sql } from 'kysely';",
      'export const a = (db: any) => db.selectFrom(\'users\').selectAll().execute();',
      'export const b = (tx: any) => tx.insertInto(\'jobs\').values({}).execute();',
      'export const c = (tx: any) => tx.updateTable(\'users\').set({}).execute();',
      'export const d = (db: any) => db.deleteFrom(\'users\').execute();',
      'export const e = sql`select 1`;',
      '',
    ].join('\n');
    // (The `any`s of the snippet draw their own warnings: only the rule under test is counted.)
    const queries = async (relative: string, text: string) => (await lint(relative, text)).filter((m) => m.includes('[service-queries]'));
    expect(await queries('server/services/x.ts', code)).toHaveLength(5);
    expect(await queries('server/repositories/x.ts', code)).toEqual([]);
    expect(await queries('server/services/x.test.ts', code)).toEqual([]);
    // A service hands the transaction it opened to a repository.
    expect(await queries('server/services/x.ts', 'export const f = (db: any, save: any) => db.transaction().execute((tx: any) => save(tx));\n')).toEqual([]);
  });
});
