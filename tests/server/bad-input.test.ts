// Bad input against every JSON call of this server's areas: malformed or wrongly typed bodies, missing
// and unknown fields, huge strings, SQL and HTML. The answer is a 4xx envelope (never a 5xx) and a
// refused request leaves every table as it was.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClinic, createUser, sessionFor } from './fixtures';
import { contractOperations, exampleRequest, type ContractOperation } from './contract-requests';
import { startServer, type TestServer } from './helper';

const AREAS = ['auth', 'profile', 'users', 'clinic', 'notifications', 'patients', 'realtime', 'annotations'];
const operations = contractOperations().filter(
  (op) => AREAS.includes(op.tag) && op.requestBody && 'application/json' in (op.requestBody.content as object),
);

// Tables whose content a refused request must not change (audit and throttling record attempts).
const TABLES = [
  'clinics',
  'users',
  'user_tokens',
  'security_settings',
  'security_settings_users',
  'devices',
  'notifications',
  'notification_settings',
  'patients',
  'treatments',
  'annotation_labels',
  'annotations',
] as const;

let server: TestServer;
let clinicId: string;

beforeAll(async () => {
  server = await startServer();
  clinicId = await createClinic(server.db);
});
afterAll(() => server.close());

async function snapshot(): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  for (const table of TABLES) {
    const row = await sql<{ digest: string | null }>`
      select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as digest from ${sql.table(table)} t
    `.execute(server.db);
    result[table] = row.rows[0]?.digest ?? '';
  }
  return result;
}

async function tokenFor(operation: ContractOperation): Promise<string | null> {
  const role = operation.roles.find((r) => r !== 'public');
  if (!role) return null;
  const user = await createUser(server.db, { clinicId, role });
  return sessionFor(server.db, user.id);
}

/**
 * A mutation of the operation's example body, and when the server must refuse it: always (a body that is not the
 * object the contract asks for), when the example has something the mutation breaks, or never (text with SQL or
 * HTML in it is valid text). Where it need not, the call may still be refused (an example id that names nothing).
 */
type Mutation = [name: string, body: (example: Record<string, unknown>) => string, mustRefuse: (example: Record<string, unknown>) => boolean];

const always = () => true;
const never = () => false;
const hasStrings = (example: Record<string, unknown>) => Object.values(example).some((value) => typeof value === 'string');
const hasFields = (example: Record<string, unknown>) => Object.keys(example).length > 0;

const HUGE = 'x'.repeat(100_000);
const HOSTILE = `'); drop table users; -- <script>alert(1)</script>`;
const mapValues = (example: Record<string, unknown>, map: (value: unknown) => unknown) =>
  Object.fromEntries(Object.entries(example).map(([key, value]) => [key, map(value)]));

const MUTATIONS: Mutation[] = [
  ['malformed JSON', () => '{"a": ', always],
  ['an array', () => '[]', always],
  ['null', () => 'null', always],
  ['a bare string', () => '"text"', always],
  ['an unknown field', (example) => JSON.stringify({ ...example, notInTheContract: 1 }), always],
  ['huge strings', (example) => JSON.stringify(mapValues(example, (v) => (typeof v === 'string' ? HUGE : v))), hasStrings],
  [
    'wrong types',
    (example) =>
      JSON.stringify(mapValues(example, (v) => (typeof v === 'string' ? 12345 : typeof v === 'number' ? 'twelve' : 'yes'))),
    hasFields,
  ],
  ['SQL and HTML in text', (example) => JSON.stringify(mapValues(example, (v) => (typeof v === 'string' ? HOSTILE : v))), never],
];

describe('the operations under test', () => {
  it('are the JSON calls of every area named', () => {
    expect(new Set(operations.map((op) => op.tag))).toEqual(new Set(AREAS));
  });
});

describe.each(operations.map((op) => [`${op.method} ${op.template} (${op.operationId})`, op] as const))(
  '%s',
  (_name, operation) => {
    it.each(MUTATIONS)('with %s: a 4xx envelope and nothing written', async (_mutation, makeBody, mustRefuse) => {
      const token = await tokenFor(operation);
      const request = exampleRequest(operation);
      const example = (request.json ?? {}) as Record<string, unknown>;
      const before = await snapshot();
      const answer = await server.call(operation.method, request.path, {
        token,
        body: makeBody(example),
        headers: { 'Content-Type': 'application/json' },
      });
      expect(answer.status).toBeLessThan(500);
      if (mustRefuse(example) || answer.status >= 400) {
        expect(answer.status, JSON.stringify(answer.body)).toBeGreaterThanOrEqual(400);
        expect(answer.body).toMatchObject({ status: 'Error' });
        expect(await snapshot()).toEqual(before);
      } else {
        // Accepted: a body the contract allows (nothing to break in an empty one, text that merely looks hostile).
        expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
        expect(answer.body).toMatchObject({ status: 'Success' });
      }
    });
  },
);
