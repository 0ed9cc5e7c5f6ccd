// Test data written straight to the database (the API under test creates its own through HTTP).
import type { Clock } from '../../server/context';
import type { Database } from '../../server/db/tables';
import { YELLOW_LASER_PROFILE } from '../../server/seed/laser-profiles';
import { SAMPLE_DEVICE } from '../../server/seed/sample-exam';
import { hashPassword } from '../../server/security/password-hash';
import { hashToken, newToken } from '../../server/security/tokens';
import type { TestServer } from './helper';

export const PASSWORD = 'Fovea-Ring-2026';

export async function createClinic(db: Database, name = 'Augenklinik Test'): Promise<string> {
  const clinic = await db.insertInto('clinics').values({ name }).returning('id').executeTakeFirstOrThrow();
  await db.insertInto('security_settings').values({ clinic_id: clinic.id }).execute();
  // The laser the sample exams come from, with its profile, so that their plans can be signed off.
  await db
    .insertInto('devices')
    .values({
      clinic_id: clinic.id,
      device_id: SAMPLE_DEVICE.deviceId,
      optical_head_id: SAMPLE_DEVICE.opticalHeadId,
      camera: SAMPLE_DEVICE.camera,
      description: 'Laser room 1',
      sync_app_status: 'RUNNING',
      last_seen_at: new Date(),
      laser_profile: JSON.stringify(YELLOW_LASER_PROFILE),
    })
    .execute();
  return clinic.id;
}

export interface UserFixture {
  clinicId: string;
  role: string;
  email?: string;
  status?: string;
  password?: string;
  firstName?: string;
  lastName?: string;
}

let counter = 0;

export async function createUser(db: Database, user: UserFixture): Promise<{ id: string; email: string }> {
  counter += 1;
  const email = user.email ?? `${user.role}.${counter}.${Date.now()}@clinic.example`;
  const status = user.status ?? 'active';
  const row = await db
    .insertInto('users')
    .values({
      clinic_id: user.clinicId,
      email,
      first_name: user.firstName ?? 'Test',
      last_name: user.lastName ?? `User ${counter}`,
      physician_name: null,
      role: user.role,
      status,
      invite_status: status === 'active' || status === 'deactivated' ? 'accepted' : 'pending',
      previous_status: null,
      password_hash: await hashPassword(user.password ?? PASSWORD),
      password_changed_at: new Date(),
      avatar_path: null,
      avatar_type: null,
      eula_accepted_at: new Date(),
      eula_version: '2026-01',
      privacy_accepted_at: new Date(),
      privacy_version: '2026-01',
      last_sign_in_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, email };
}

export async function signIn(server: TestServer, email: string, password = PASSWORD): Promise<string> {
  const answer = await server.call<{ data: { token: string } }>('POST', '/sign-in', {
    json: { email, password, remember: true },
  });
  if (answer.status !== 200) throw new Error(`sign-in of ${email} failed with ${answer.status}`);
  return answer.body.data.token;
}

export const ALL_ROLES = [
  'clinic_physicians',
  'clinic_nurses',
  'clinic_it_admins',
  'admins',
  'service_engineers',
  'data_scientists',
] as const;

export interface SessionOptions {
  /** Whose time the session starts at: the test server's clock for tests that move it (default: now). */
  clock?: Clock;
  /** How long the session lasts (default one day). */
  days?: number;
}

/**
 * A bearer token for a user without going through sign-in (fast: no password hashing): the one place tests
 * write a row of `auth_sessions`.
 */
export async function sessionFor(db: Database, userId: string, { clock, days = 1 }: SessionOptions = {}): Promise<string> {
  const token = newToken();
  const now = clock?.now() ?? new Date();
  await db
    .insertInto('auth_sessions')
    .values({
      user_id: userId,
      token_hash: hashToken(token),
      remember: true,
      ip: '127.0.0.1',
      user_agent: 'test',
      created_at: now,
      last_seen_at: now,
      expires_at: new Date(now.getTime() + days * 24 * 60 * 60 * 1000),
    })
    .execute();
  return token;
}
