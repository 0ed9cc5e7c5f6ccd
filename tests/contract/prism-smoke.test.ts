// @vitest-environment jsdom
// @vitest-environment-options { "url": "http://127.0.0.1:4020/" }
//
// Contract smoke test: Prism serves the contract's examples; the SPA's own generated fetchers call it
// through the real mutator (same origin, as in the browser) and every answer must satisfy the
// generated zod schema of its operation.
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, request, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { getClinicSettings } from '../../generated/hooks/clinic/clinic';
import { getClinicSettingsResponse } from '../../generated/zod/clinic/clinic.zod';
import { signIn, logout } from '../../generated/hooks/auth/auth';
import { logoutResponse, signInResponse } from '../../generated/zod/auth/auth.zod';
import { getProfile } from '../../generated/hooks/profile/profile';
import { getProfileResponse } from '../../generated/zod/profile/profile.zod';
import { listUsers } from '../../generated/hooks/users/users';
import { listUsersResponse } from '../../generated/zod/users/users.zod';
import { listNotifications } from '../../generated/hooks/notifications/notifications';
import { listNotificationsResponse } from '../../generated/zod/notifications/notifications.zod';
import { listPatients } from '../../generated/hooks/patients/patients';
import { listPatientsResponse } from '../../generated/zod/patients/patients.zod';
import { getTreatment } from '../../generated/hooks/treatments/treatments';
import { getTreatmentResponse } from '../../generated/zod/treatments/treatments.zod';
import { getPlan } from '../../generated/hooks/planning/planning';
import { getPlanResponse } from '../../generated/zod/planning/planning.zod';
import { authorizeBroadcasting } from '../../generated/hooks/realtime/realtime';
import { authorizeBroadcastingResponse } from '../../generated/zod/realtime/realtime.zod';
import { ApiError, setUnauthorizedHandler } from '../../src/lib/api-client';
import { getToken, setToken } from '../../src/lib/auth-storage';

const PROXY_PORT = 4020;
const PRISM_PORT = 4021;
const TREATMENT_ID = '7e2d4c91-3b5a-4f68-a1c0-9d8e6f2b4a73';

let prism: ChildProcess;
let proxy: Server;

// Prism ignores the contract's `/api` server path; in the browser the dev proxy strips it, here too.
function startStripProxy(): Promise<Server> {
  const server = createServer((incoming, outgoing) => {
    const path = (incoming.url ?? '/').replace(/^\/api(?=\/|$)/, '') || '/';
    const forward = request(
      { host: '127.0.0.1', port: PRISM_PORT, path, method: incoming.method, headers: incoming.headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forward.on('error', () => outgoing.writeHead(502).end());
    incoming.pipe(forward);
  });
  return new Promise((resolve) => server.listen(PROXY_PORT, '127.0.0.1', () => resolve(server)));
}

async function waitForPrism(deadline = Date.now() + 45_000): Promise<void> {
  while (Date.now() < deadline) {
    try {
      await fetch(`http://127.0.0.1:${PRISM_PORT}/user/profile`);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  throw new Error('Prism did not start within 45 s');
}

beforeAll(async () => {
  // Paths from the project root (vitest's working directory): under jsdom, import.meta.url is no file URL.
  const bin = join(process.cwd(), 'node_modules/.bin/prism');
  const contract = join(process.cwd(), 'generated/openapi.yaml');
  prism = spawn(bin, ['mock', contract, '--host', '127.0.0.1', '--port', String(PRISM_PORT)], {
    stdio: 'ignore',
  });
  proxy = await startStripProxy();
  await waitForPrism();
});

afterAll(async () => {
  prism?.kill('SIGTERM');
  await new Promise((resolve) => proxy?.close(resolve));
});

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  setUnauthorizedHandler(vi.fn());
});

describe('each tag answers through the generated fetchers', () => {
  it('auth: signIn', async () => {
    const answer = await signIn({ email: 'physician@clinic.example', password: 'Demo-Clinic-2026!', remember: true });
    const { data } = signInResponse.parse(answer);
    // Prism answers the first example: a session, not a second-factor challenge.
    expect('profile' in data && data.profile.role).toBe('clinic_physicians');
  });

  it('auth: logout (secured)', async () => {
    setToken('mock-token', true);
    expect(logoutResponse.parse(await logout()).status).toBe('Success');
  });

  it('profile: getProfile', async () => {
    setToken('mock-token', false);
    expect(getProfileResponse.parse(await getProfile()).data.lang).toMatch(/^(en|de)$/);
  });

  it('users: listUsers', async () => {
    setToken('mock-token', true);
    const answer = listUsersResponse.parse(await listUsers({ page: 1, perPage: 20, role: ['nurse', 'clinic_physicians'] }));
    expect(answer.meta.page).toBe(1);
    expect(answer.data.length).toBeGreaterThan(0);
  });

  it('clinic: getClinicSettings', async () => {
    setToken('mock-token', true);
    expect(getClinicSettingsResponse.parse(await getClinicSettings()).data.password_strength).toBeDefined();
  });

  it('notifications: listNotifications', async () => {
    setToken('mock-token', true);
    const answer = listNotificationsResponse.parse(await listNotifications());
    expect(answer.data.some((n) => n.read) && answer.data.some((n) => !n.read)).toBe(true);
  });

  it('patients: listPatients', async () => {
    setToken('mock-token', true);
    const answer = listPatientsResponse.parse(await listPatients({ status: 'active', birthdayFrom: '1940-01-01' }));
    expect(answer.data.length).toBeGreaterThan(0);
  });

  it('treatments: getTreatment', async () => {
    setToken('mock-token', true);
    expect(getTreatmentResponse.parse(await getTreatment(TREATMENT_ID)).data.images.length).toBeGreaterThan(0);
  });

  it('planning: getPlan', async () => {
    setToken('mock-token', true);
    expect(getPlanResponse.parse(await getPlan(TREATMENT_ID)).data.stepIndex).toBeGreaterThanOrEqual(0);
  });

  it('realtime: authorizeBroadcasting', async () => {
    setToken('mock-token', true);
    const answer = await authorizeBroadcasting({ socket_id: '1234.5678', channel_name: 'private-user.5d0c8f3e' });
    expect(authorizeBroadcastingResponse.parse(answer).auth).toContain(':');
  });
});

describe('Prism enforces the contract', () => {
  it('answers a request that breaks the contract with 422', async () => {
    const bad = signIn({ email: 42, remember: 'yes' } as never);
    await expect(bad).rejects.toBeInstanceOf(ApiError);
    await expect(bad).rejects.toMatchObject({ status: 422 });
  });

  it('answers a secured call without a token with 401, and the client logs out', async () => {
    const onUnauthorized = vi.fn();
    setUnauthorizedHandler(onUnauthorized);
    sessionStorage.setItem('token', '');
    await expect(getProfile()).rejects.toMatchObject({ status: 401 });
    expect(onUnauthorized).toHaveBeenCalledOnce();
    expect(getToken()).toBeNull();
  });
});
