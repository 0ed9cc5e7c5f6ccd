import { describe, expect, it } from 'vitest';
import { loadContract, operationsOf } from './contract-loader';

// The customer's call table, as its specification writes it (the contract serves it under /api).
const SPEC_CALLS = [
  'GET /user-invites',
  'POST /accept-invite',
  'POST /sign-in',
  'POST /logout',
  'POST /reset-password',
  'POST /reset-confirmation',
  'GET /patients',
  'GET /patients/{id}',
  'POST /patients/{id}',
  'DELETE /patients/{id}',
  'DELETE /patients',
  'POST /patients/bulkUpdate',
  'GET /user/profile',
  'POST /user/profile',
  'GET /users',
  'GET /users/{id}',
  'POST /users',
  'POST /users/{id}',
  'DELETE /users/{id}',
  'DELETE /users',
  'POST /users/{id}/invite',
  'GET /notifications/settings',
  'POST /notifications/settings',
  'GET /notifications',
  'POST /notifications/read',
  'DELETE /notifications',
  'POST /clinic/forceResetPassword',
  'POST /clinic/settings',
  'POST /clinic/stopRenewPassword',
  'GET /clinic/devices',
  'POST /treatments',
  'DELETE /treatments/{id}',
  'POST /treatments/{id}',
  'POST /treatments/{id}/confirm',
  'POST /treatments/{id}/reports',
  'POST /broadcasting/auth',
];

const ROLES = ['clinic_physicians', 'clinic_nurses', 'clinic_it_admins', 'admins', 'service_engineers', 'data_scientists'];

const contract = loadContract();
const operations = operationsOf(contract);
const key = (op: { method: string; path: string }) => `${op.method} ${op.path}`;

describe('the contract covers the specification', () => {
  it('lists the 36 calls of the customer\'s call table', () => {
    expect(SPEC_CALLS).toHaveLength(36);
    expect(new Set(SPEC_CALLS).size).toBe(36);
  });

  it.each(SPEC_CALLS)('has %s', (call) => {
    expect(operations.map(key)).toContain(call);
  });

  it('serves every call under /api', () => {
    expect((contract as unknown as { servers: { url: string }[] }).servers.map((s) => s.url)).toEqual(['/api']);
  });

  it('marks every call beyond §7 as an addition', () => {
    const additions = operations.filter((op) => !SPEC_CALLS.includes(key(op)));
    expect(additions.length).toBeGreaterThan(0);
    for (const op of additions) expect(op.description, key(op)).toMatch(/^\*\*Addition\.\*\*/);
  });
});

describe.each(operations.map((op) => [key(op), op] as const))('operation %s', (_name, op) => {
  it('has an operationId, one declared tag and a summary', () => {
    expect(op.operationId).toMatch(/^[a-z][A-Za-z]+$/);
    expect(op.tags).toHaveLength(1);
    expect(contract.tags.map((t) => t.name)).toContain(op.tags?.[0]);
    expect(op.summary?.length).toBeGreaterThan(3);
  });

  it('names the roles that may call it', () => {
    const roles = op['x-roles'] ?? [];
    expect(roles.length).toBeGreaterThan(0);
    if (roles.includes('public')) {
      expect(roles).toEqual(['public']);
      expect(op.security).toEqual([]);
    } else if (roles.includes('device')) {
      // A laser's sync app (issue 29): its own credential, never a user's session, and no user role beside it.
      expect(roles).toEqual(['device']);
      expect(op.security).toEqual([{ deviceCredential: [] }]);
    } else {
      for (const role of roles) expect(ROLES).toContain(role);
      expect(op.security).toBeUndefined();
    }
  });

  it('carries an example for every success answer', () => {
    const success = Object.entries(op.responses).filter(([status]) => /^2\d\d$/.test(status));
    expect(success.length).toBeGreaterThan(0);
    for (const [status, response] of success) {
      const media = Object.entries(response.content ?? {});
      expect(media.length, `${status} has content`).toBeGreaterThan(0);
      for (const [type, body] of media) {
        const examples = body.example !== undefined ? [body.example] : Object.values(body.examples ?? {});
        expect(examples.length, `${status} ${type} has an example`).toBeGreaterThan(0);
      }
    }
  });

  it('answers the errors a client can cause as envelopes', () => {
    const statuses = Object.keys(op.responses);
    const roles = op['x-roles'] ?? [];
    // Any secured call may be refused: by role, or while the caller must set a new password.
    if (!roles.includes('public')) expect(statuses).toEqual(expect.arrayContaining(['401', '403']));
    if (op.path.includes('{id}')) expect(statuses).toContain('404');
    if (op.requestBody) expect(statuses).toEqual(expect.arrayContaining(['400', '422']));
  });
});

describe('operation ids', () => {
  it('are unique', () => {
    const ids = operations.map((op) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
