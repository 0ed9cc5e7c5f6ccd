// `npm start` and the first-admin command: the demo clinic (seeded once, in one transaction), its
// accounts signing in over HTTP, data surviving a restart (and, on PGlite, closing and reopening the
// data directory), and `npm run create-admin`.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Patient } from '../../generated/model/patient';
import { CommandError, createFirstAdmin, parseAdminArgs } from '../../server/cli/create-admin';
import { DEMO_PASSWORD, isDatabaseEmpty, seedDemo, type DemoSummary } from '../../server/seed/demo';
import { linkFromMail, startServer, type TestServer } from './helper';
import { signIn } from './fixtures';
import { TEST_REALTIME_SECRET } from './server-process';

const run = promisify(execFile);
const onPostgres = !!process.env.DATABASE_URL;

let dataDir: string;
let server: TestServer;
let summary: DemoSummary;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'macula-start-'));
  // As `npm start` does: the demo seed runs its jobs itself before the worker starts (with the worker on, it can
  // claim a job the seed is about to run: stop 36's CI on PostgreSQL, "no queued treatment.process job").
  server = await startServer({ dataDir, jobs: false });
  expect(await isDatabaseEmpty(server.db)).toBe(true);
  summary = await seedDemo(server.ctx);
  await server.restart({ jobs: true });
});
afterAll(async () => {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function signInAs(email: string, password = DEMO_PASSWORD) {
  const answer = await server.call<{ data: { token: string; profile: { role: string; clinicName: string; email: string } } }>(
    'POST',
    '/sign-in',
    { json: { email, password, remember: true } },
  );
  expect(answer.status, email).toBe(200);
  return answer.body.data;
}

describe('the demo clinic', () => {
  it('names the clinic, the password and the accounts to print', () => {
    expect(summary).toEqual({
      clinicName: 'Augenklinik am See',
      password: 'Demo-Clinic-2026!',
      accounts: [
        { role: 'clinic_it_admins', email: 'admin@clinic.example' },
        { role: 'clinic_physicians', email: 'physician@clinic.example' },
        { role: 'clinic_nurses', email: 'nurse@clinic.example' },
        { role: 'clinic_it_admins', email: expect.stringMatching(/@clinic\.example$/) },
      ],
    });
  });

  it('is seeded on an empty database only', async () => {
    expect(await isDatabaseEmpty(server.db)).toBe(false);
  });

  it('lets the demo accounts sign in over HTTP with their roles', async () => {
    for (const account of summary.accounts) {
      const { token, profile } = await signInAs(account.email);
      expect(profile).toMatchObject({ role: account.role, email: account.email, clinicName: 'Augenklinik am See' });
      const me = await server.call<{ data: { role: string } }>('GET', '/user/profile', { token });
      expect(me.body.data.role).toBe(account.role);
    }
  });

  it('has the security settings of the demo: standard strength, no renewal, idle logout after 30 minutes', async () => {
    const settings = await server.db.selectFrom('security_settings').selectAll().executeTakeFirstOrThrow();
    expect(settings).toMatchObject({
      password_strength: 'standard',
      password_renewal_interval: null,
      user_scope: 'all',
      logout_time_interval: 30,
      logout_time_period: 'minutes',
    });
  });

  it('has staff in every status, with a valid invite for the invited one', async () => {
    const users = await server.db.selectFrom('users').select(['id', 'email', 'role', 'status', 'invite_status', 'password_hash']).execute();
    const statuses = new Set(users.map((u) => u.status));
    for (const status of ['active', 'pending', 'invite_expired', 'deactivated', 'creation_in_progress', 'archived']) {
      expect(statuses, status).toContain(status);
    }
    expect(users.filter((u) => u.role === 'clinic_it_admins' && u.status === 'active')).toHaveLength(2);
    const invited = users.find((u) => u.status === 'pending')!;
    expect(invited.password_hash).toBeNull();
    const invite = await server.db.selectFrom('user_tokens').selectAll().where('user_id', '=', invited.id).executeTakeFirstOrThrow();
    expect(invite.expires_at.getTime()).toBeGreaterThan(server.clock.now().getTime());
    // argon2 once, reused: every account that can sign in has the same hash.
    expect(new Set(users.filter((u) => u.password_hash).map((u) => u.password_hash)).size).toBe(1);
  });

  it('has a dozen patients across the lists, the deleting one requested by the nurse', async () => {
    const { token } = await signInAs('admin@clinic.example');
    const active = await server.call<{ data: Patient[]; meta: { total: number } }>('GET', '/patients', { token });
    expect(active.body.meta.total).toBeGreaterThanOrEqual(8);
    const deleting = await server.call<{ data: Patient[] }>('GET', '/patients?status=deleting', { token });
    expect(deleting.body.data).toHaveLength(1);
    expect(deleting.body.data[0].deletionRequest).toMatchObject({ requestedBy: { name: 'Miriam Vogel' } });
    const archived = await server.call<{ data: Patient[] }>('GET', '/patients?status=archived', { token });
    expect(archived.body.data).toHaveLength(1);
    const total = await server.db.selectFrom('patients').select('id').execute();
    expect(total.length).toBeGreaterThanOrEqual(12);
  });

  it('has sessions from generated exam files that reach planning with images and exclusion zones; Maria Schneider’s first is signed off, its treatment on her second’s image', async () => {
    await server.jobsIdle();
    const token = await signIn(server, summary.accounts.find((a) => a.role === 'clinic_physicians')!.email, DEMO_PASSWORD);
    const patients = await server.call<{ data: { id: string; name: string; secondName: string; treatmentsCount: number }[] }>('GET', '/patients?perPage=50', { token });
    const schneider = patients.body.data.find((p) => p.secondName === 'Schneider')!;
    expect(schneider.treatmentsCount).toBe(2);
    const sessions = await server.call<{ data: { id: string; number: number; planStatus: string; thumbnailUrl: string | null }[] }>('GET', `/patients/${schneider.id}/treatments`, { token });
    expect(sessions.body.data.map((session) => session.number).sort()).toEqual([1, 2]);
    for (const session of sessions.body.data) {
      // The first signed off and packed on its day (server/seed/demo-sessions.ts), the second in planning.
      expect(session.planStatus).toBe(session.number === 1 ? 'plan_available' : 'planning');
      expect(session.thumbnailUrl).toMatch(/\/thumbnail$/);
      const treatment = await server.call<{ data: { images: unknown[]; plan: { exclusionZones: unknown } } }>('GET', `/treatments/${session.id}`, { token });
      expect(treatment.body.data.images).toHaveLength(1);
      expect(treatment.body.data.plan.exclusionZones).not.toBeNull();
    }
    // The second is the same eye another day: the first's spots are registered onto it by the vessels.
    const second = sessions.body.data.find((session) => session.number === 2)!;
    await server.call('GET', `/treatments/${second.id}/previous-treatment`, { token });
    await server.jobsIdle();
    const previous = await server.call<{ data: { state: string; registration: { method: string; rotationDeg: number }; spots: unknown[] } }>(
      'GET',
      `/treatments/${second.id}/previous-treatment`,
      { token },
    );
    expect(previous.body.data).toMatchObject({ state: 'registered', registration: { method: 'vessels' } });
    expect(previous.body.data.registration.rotationDeg).toBeCloseTo(-6, 0);
    expect(previous.body.data.spots.length).toBeGreaterThan(100);
    const withSessions = patients.body.data.filter((p) => p.treatmentsCount > 0);
    expect(withSessions.length).toBeGreaterThanOrEqual(5);
  });

  it('has three lasers, enrolled long ago and Offline until a sync app of theirs sends a heartbeat', async () => {
    const devices = await server.db.selectFrom('devices').selectAll().orderBy('device_id').execute();
    expect(devices).toHaveLength(3);
    for (const device of devices) {
      expect(device).toMatchObject({ sync_app_status: 'CONNECTION_FAILED', enrolment_code_hash: null });
      expect(device.credential_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(device.last_seen_at).not.toBeNull();
    }
  });

  it('has read and unread notifications for the admin and the physician', async () => {
    const notes = await server.db
      .selectFrom('notifications as n')
      .innerJoin('users as u', 'u.id', 'n.user_id')
      .select(['u.email', 'n.read_at'])
      .execute();
    for (const email of ['admin@clinic.example', 'physician@clinic.example']) {
      const mine = notes.filter((n) => n.email === email);
      expect(mine.some((n) => n.read_at === null), email).toBe(true);
      expect(mine.some((n) => n.read_at !== null), email).toBe(true);
    }
  });
});

describe('restarts', () => {
  let patientId: string;

  it('keeps everything written before a restart of the server', async () => {
    const { token } = await signInAs('physician@clinic.example');
    const created = await server.call<{ data: Patient }>('POST', '/patients', {
      token,
      json: { name: 'Restart', secondName: 'Probe', birthday: '1970-01-01', gender: 'other', description: 'Written before the restart.' },
    });
    expect(created.status).toBe(201);
    patientId = created.body.data.id;
    await server.restart();
    const read = await server.call<{ data: Patient }>('GET', `/patients/${patientId}`, { token });
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(created.body.data);
  });

  it.skipIf(onPostgres)('keeps everything when the PGlite data directory is closed and opened again', async () => {
    const before = await server.db.selectFrom('patients').select('id').orderBy('id').execute();
    await server.close();
    server = await startServer({ dataDir });
    expect(await isDatabaseEmpty(server.db)).toBe(false);
    expect(await server.db.selectFrom('patients').select('id').orderBy('id').execute()).toEqual(before);
    const { token } = await signInAs('nurse@clinic.example');
    const read = await server.call<{ data: Patient }>('GET', `/patients/${patientId}`, { token });
    expect(read.body.data).toMatchObject({ name: 'Restart', secondName: 'Probe', description: 'Written before the restart.' });
  });
});

describe('npm run create-admin', () => {
  it('reads its arguments and explains what is missing (exit 2)', () => {
    expect(
      parseAdminArgs(['--clinic', 'Augenklinik Nord', '--email', 'it@nord.example', '--first-name', 'Eva', '--last-name', 'Roth', '--lang', 'de']),
    ).toEqual({ clinic: 'Augenklinik Nord', email: 'it@nord.example', firstName: 'Eva', lastName: 'Roth', lang: 'de' });
    const failures: [string[], RegExp][] = [
      [[], /Missing --clinic, --email, --first-name, --last-name/],
      [['--clinic', 'X', '--email', 'nope', '--first-name', 'A', '--last-name', 'B'], /not a valid e-mail/],
      [['--clinic', 'X', '--email', 'a@b.example', '--first-name', 'A', '--last-name', 'B', '--lang', 'fr'], /--lang must be en or de/],
      [['--clinic', 'X', '--unknown'], /Unknown option/],
    ];
    for (const [argv, message] of failures) {
      try {
        parseAdminArgs(argv);
        expect.unreachable(argv.join(' '));
      } catch (error) {
        expect(error).toBeInstanceOf(CommandError);
        expect((error as CommandError).exitCode).toBe(2);
        expect((error as CommandError).message).toMatch(message);
        expect((error as CommandError).message).toContain('Usage: npm run create-admin');
      }
    }
  });

  it('creates the clinic and invites its first IT admin, reusing a clinic of that name', async () => {
    const first = await createFirstAdmin(server.ctx, {
      clinic: 'Augenklinik Nord',
      email: 'Eva.Roth@nord.example',
      firstName: 'Eva',
      lastName: 'Roth',
      lang: 'de',
    });
    expect(first.clinicCreated).toBe(true);
    const user = await server.db.selectFrom('users').selectAll().where('id', '=', first.userId).executeTakeFirstOrThrow();
    expect(user).toMatchObject({ role: 'clinic_it_admins', status: 'pending', invite_status: 'pending', clinic_id: first.clinicId, lang: 'de' });
    // Idle logout is on for a new clinic: 30 minutes, as its security settings show.
    const settings = await server.db.selectFrom('security_settings').selectAll().where('clinic_id', '=', first.clinicId).execute();
    expect(settings).toHaveLength(1);
    expect(settings[0]).toMatchObject({ logout_time_interval: 30, logout_time_period: 'minutes', password_strength: 'standard' });
    const link = linkFromMail(server, 'Eva.Roth@nord.example');
    expect(link.pathname).toBe('/approve-account');
    const invite = await server.call<{ data: { email: string } }>('GET', `/user-invites?token=${encodeURIComponent(link.searchParams.get('token')!)}`);
    expect(invite.status).toBe(200);

    const second = await createFirstAdmin(server.ctx, {
      clinic: 'augenklinik nord',
      email: 'tim.berg@nord.example',
      firstName: 'Tim',
      lastName: 'Berg',
      lang: 'en',
    });
    expect(second).toMatchObject({ clinicCreated: false, clinicId: first.clinicId, resent: false });
  });

  it('refuses an e-mail address in use (exit 1), but sends a lost invite again', async () => {
    await expect(
      createFirstAdmin(server.ctx, { clinic: 'Neue Klinik', email: 'ADMIN@clinic.example', firstName: 'A', lastName: 'B', lang: 'en' }),
    ).rejects.toMatchObject({ exitCode: 1, message: expect.stringContaining('already in use') });
    expect(await server.db.selectFrom('clinics').select('id').where('name', '=', 'Neue Klinik').execute()).toEqual([]);
    const again = await createFirstAdmin(server.ctx, {
      clinic: 'Augenklinik Nord',
      email: 'eva.roth@nord.example',
      firstName: 'Eva',
      lastName: 'Roth',
      lang: 'de',
    });
    expect(again.resent).toBe(true);
  });

  it('runs as a command: usage and exit 2 without arguments', async () => {
    const failure = await run(process.execPath, ['--import', 'tsx', 'server/cli/create-admin.ts'], { cwd: process.cwd() }).catch((e) => e);
    expect(failure.code).toBe(2);
    expect(failure.stderr).toContain('Usage: npm run create-admin');
  });

  it.skipIf(onPostgres)('runs as a command on a fresh data directory and prints the invite link', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'macula-admin-'));
    try {
      const env = { ...process.env, DATA_DIR: dir, NODE_ENV: 'production', PUSHER_APP_SECRET: TEST_REALTIME_SECRET, DATABASE_URL: '', SMTP_URL: '' };
      const args = ['--import', 'tsx', 'server/cli/create-admin.ts', '--clinic', 'Augenklinik Süd', '--email', 'it@sued.example', '--first-name', 'Jana', '--last-name', 'Koch'];
      const { stdout } = await run(process.execPath, args, { cwd: process.cwd(), env });
      expect(stdout).toContain('Created clinic "Augenklinik Süd"');
      expect(stdout).toMatch(/Invite link: http:\/\/localhost:8080\/approve-account\?token=\S+/);
      const other = await run(process.execPath, [...args.slice(0, 4), 'Andere Klinik', ...args.slice(5)], { cwd: process.cwd(), env }).catch((e) => e);
      expect(other.code).toBe(1);
      expect(other.stderr).toContain('already in use');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
