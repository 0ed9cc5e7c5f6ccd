// The permission matrix lives in the contract (x-roles). Every operation of the contract is
// called with its own examples as each of the six roles, as a device and without a token: allowed roles get
// past authorization, other roles get 403 (a device's credential opens only the `device` operations), and a
// call without a token gets 401 (public calls excepted).
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../server/security/tokens';
import { ALL_ROLES, createClinic, createUser, sessionFor } from './fixtures';
import { contractOperations, exampleRequest } from './contract-requests';
import { startServer, type TestServer } from './helper';

// Every area of the contract, treatments and planning included (sign-off, downloads, the plan steps).
const operations = contractOperations();

let server: TestServer;
let clinicId: string;

beforeAll(async () => {
  server = await startServer();
  // As `npm start` does before it serves (the file storage's folder made), so that /health answers 200.
  await server.ctx.files.check();
  clinicId = await createClinic(server.db);
});
afterAll(() => server.close());

// A fresh user and session per call: calls such as logout or forceResetPassword end sessions.
async function tokenFor(role: string): Promise<{ token: string; userId: string }> {
  const user = await createUser(server.db, { clinicId, role });
  return { token: await sessionFor(server.db, user.id), userId: user.id };
}

// A fresh enrolled device per call (the device operations of issue 29, role `device`).
async function deviceCredential(): Promise<string> {
  const credential = `mpd_${randomBytes(32).toString('base64url')}`;
  await server.db
    .insertInto('devices')
    .values({ clinic_id: clinicId, device_id: `NAV-${randomBytes(4).toString('hex')}`, optical_head_id: 'OH', camera: 'CCD', sync_app_status: 'RUNNING', credential_hash: hashToken(credential) })
    .execute();
  return credential;
}

describe.each(operations.map((op) => [`${op.method} ${op.template} (${op.operationId})`, op] as const))(
  '%s',
  (_name, operation) => {
    const isPublic = operation.roles.includes('public');

    it.each(ALL_ROLES.map((role) => [role]))('as %s', async (role) => {
      const { token, userId } = await tokenFor(role);
      // Paths that name a user use the caller, so that an allowed call finds its resource.
      const request = exampleRequest(operation, operation.template.startsWith('/users/{id}') ? { id: userId } : {});
      // Realtime channels are personal: an allowed caller asks for their own.
      if (operation.operationId === 'authorizeBroadcasting') {
        request.body = new URLSearchParams({ socket_id: '1234.5678', channel_name: `private-user.${userId}` }).toString();
      }
      const answer = await server.call(operation.method, request.path, { ...request, token });
      if (isPublic) {
        // A public call's own answers may be 401 (e.g. wrong credentials), never a role refusal.
        expect(answer.status).not.toBe(403);
        expect(answer.status).toBeLessThan(500);
      } else if (operation.roles.includes(role)) {
        expect([401, 403], `${role} must get past authorization`).not.toContain(answer.status);
        expect(answer.status).toBeLessThan(500);
      } else {
        expect(answer.status, `${role} must be refused`).toBe(403);
        expect(answer.body).toMatchObject({ status: 'Error', code: 'auth.forbidden' });
      }
    });

    it('as a device', async () => {
      const request = exampleRequest(operation);
      const answer = await server.call(operation.method, request.path, { ...request, token: await deviceCredential() });
      if (isPublic) {
        expect(answer.status).not.toBe(403);
      } else if (operation.roles.includes('device')) {
        expect([401, 403], 'a device must get past authorization').not.toContain(answer.status);
      } else {
        // A known device is refused by role, as a user is on the device operations.
        expect(answer.status).toBe(403);
      }
      expect(answer.status).toBeLessThan(500);
    });

    it('without a token', async () => {
      const request = exampleRequest(operation);
      const answer = await server.call(operation.method, request.path, request);
      if (isPublic) {
        expect(answer.status).not.toBe(403);
        expect(answer.status).toBeLessThan(500);
      } else {
        expect(answer.status).toBe(401);
      }
    });
  },
);

describe('the matrix', () => {
  it('covers every operation of the contract, each tag of it', () => {
    expect(operations.length).toBeGreaterThanOrEqual(65);
    expect(new Set(operations.map((op) => op.tag))).toEqual(
      new Set(['auth', 'two-factor', 'profile', 'users', 'clinic', 'notifications', 'patients', 'treatments', 'planning', 'annotations', 'realtime', 'system', 'device-sync']),
    );
  });
});
