// `npm run bench:lists`: how fast the administration lists answer on the embedded database (PGlite) with a large
// clinic: the staff list (listUsers) with 2,000 users, the devices (listDevices) with 200, and the notifications
// (listNotifications) of one user with 20,000, each read by the demo clinic's IT admin at 64 connections.
// For each list: page 1, the last page (the deepest OFFSET), a random page of every sort order the contract
// offers, and a search or a filter. Prints a table with the time of one request alone (the server's cost without
// a queue) and, at 64 connections, requests per second, p50, p99 and errors; and the
// EXPLAIN ANALYZE of each list's queries at its deepest page (`--explain`), so that the time can be placed.
// `--root <checkout>` measures another checkout's server (e.g. a worktree of an earlier commit), for before/after
// figures. Loopback only; stops by itself.
import autocannon from 'autocannon';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type RawBuilder, sql } from 'kysely';
import { openConfiguredDatabase } from '../server/db/database';
import type { Database } from '../server/db/tables';
import { DEMO_LOGINS, startReferenceServer } from './contract-check/reference-server';

const { values } = parseArgs({
  options: {
    staff: { type: 'string', default: '2000' },
    devices: { type: 'string', default: '200' },
    notifications: { type: 'string', default: '20000' },
    // The share of notifications that name a patient (a deletion request): a list page that shows one is a read
    // of patient data, recorded in the access log. 0 measures the list without those records.
    named: { type: 'string', default: '0.33' },
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '64' },
    // Only the scenarios whose name contains this (e.g. "staff", "sort=-email").
    only: { type: 'string', default: '' },
    explain: { type: 'boolean', default: false },
    root: { type: 'string', default: process.cwd() },
  },
});
const STAFF = Number(values.staff);
const DEVICES = Number(values.devices);
const NOTIFICATIONS = Number(values.notifications);
const NAMED = Number(values.named);
const SECONDS = Number(values.seconds);
const CONNECTIONS = Number(values.connections);
const PER_PAGE = 20;
const PORT = 8098;

// Names as a German clinic has them: umlauts, ß, accents, double names, so that the search is measured on them.
const FIRST = ['Jürgen', 'Zoë', 'Ömer', 'Anna-Lena', 'José', 'Björn', 'Käthe', 'Luis', 'Søren', 'Maria', 'Çelik', 'Hélène', 'Uwe', 'Eva'];
const LAST = ['Müller', 'Schröder', 'Weiß', 'Bäcker', 'García', 'Özdemir', 'Nowak', 'Groß', 'Le Blanc', 'Keller', 'Dvořák', 'Roth'];
const ROLES = ['clinic_nurses', 'clinic_nurses', 'clinic_physicians', 'clinic_physicians', 'clinic_it_admins'];
// Of every 50 users: most active, some deactivated, invited (open or expired), archived, drafts and deleting.
const STATUS_MIX = [
  ...Array<string>(35).fill('active'),
  ...Array<string>(5).fill('deactivated'),
  ...Array<string>(4).fill('pending'),
  ...Array<string>(2).fill('invite_expired'),
  ...Array<string>(2).fill('archived'),
  'creation_in_progress',
  'deleting',
];
const CAMERAS = ['Topcon TRC-50DX', 'Zeiss Visucam 524', 'Canon CR-2 AF', 'Optos California'];
const DAY = 24 * 60 * 60 * 1000;

const USER_SORTS = ['name', 'email', 'role', 'status', 'createdAt'].flatMap((key) => [key, `-${key}`]);

interface Scenario {
  name: string;
  paths: string[];
}

/** The scenarios, with each list's last page as the server counts it (`lastPage(path)`). */
async function scenarios(lastPage: (path: string) => Promise<number>): Promise<Scenario[]> {
  const staff = `/users?perPage=${PER_PAGE}`;
  const devices = `/clinic/devices?perPage=${PER_PAGE}`;
  const notifications = `/notifications?perPage=${PER_PAGE}`;
  const [staffPages, devicePages, notificationPages, unreadPages, categoryPages, filteredStaffPages] = await Promise.all([
    lastPage(staff),
    lastPage(devices),
    lastPage(notifications),
    lastPage(`${notifications}&unread=true`),
    lastPage(`${notifications}&category=team_members`),
    lastPage(`${staff}&role=clinic_nurses&status=active`),
  ]);
  const everyPage = (count: number, query: string) => Array.from({ length: count }, (_, i) => `${query}&page=${i + 1}`);
  return [
    // For scale: a signed-in request that reads nothing (the floor of what a list can cost on this machine).
    { name: 'for scale: realtime settings', paths: ['/realtime/settings'] },
    { name: 'staff page 1', paths: [staff] },
    { name: `staff last page (${staffPages})`, paths: [`${staff}&page=${staffPages}`] },
    ...USER_SORTS.map((sort) => ({ name: `staff sort=${sort}, random page`, paths: everyPage(staffPages, `${staff}&sort=${sort}`) })),
    { name: 'staff search (names)', paths: [...FIRST, ...LAST].map((name) => `${staff}&search=${encodeURIComponent(name.slice(0, 4).toLowerCase())}`) },
    { name: 'staff role and status, random page', paths: everyPage(filteredStaffPages, `${staff}&role=clinic_nurses&status=active`) },
    { name: 'devices page 1', paths: [devices] },
    { name: `devices last page (${devicePages})`, paths: [`${devices}&page=${devicePages}`] },
    { name: 'devices random page', paths: everyPage(devicePages, devices) },
    { name: 'devices search', paths: ['süd', 'nord', 'zeiss', 'lx-01', 'kopf'].map((term) => `${devices}&search=${encodeURIComponent(term)}`) },
    { name: 'notifications page 1', paths: [notifications] },
    { name: `notifications last page (${notificationPages})`, paths: [`${notifications}&page=${notificationPages}`] },
    { name: 'notifications random page', paths: everyPage(notificationPages, notifications) },
    { name: 'notifications unread, random page', paths: everyPage(unreadPages, `${notifications}&unread=true`) },
    { name: 'notifications category, random page', paths: everyPage(categoryPages, `${notifications}&category=team_members`) },
  ].filter((scenario) => scenario.name.includes(values.only));
}

type Figures = { alone: number; rps: number; p50: number; p99: number; errors: number; answered: number };

/** The median time of `count` requests one after the other: what one request costs the server, without a queue. */
async function alone(origin: string, paths: string[], headers: Record<string, string>, count = 7): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const path = paths[Math.floor(Math.random() * paths.length)]!;
    const started = performance.now();
    await (await fetch(`${origin}/api${path}`, { headers })).arrayBuffer();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(count / 2)]!;
}

/** `paths` at random (one each request), after a short warm-up; the first and last path must answer 200. */
async function measure(origin: string, paths: string[], headers: Record<string, string>): Promise<Figures> {
  for (const path of new Set([paths[0], paths.at(-1)])) {
    const answer = await fetch(`${origin}/api${path}`, { headers });
    if (answer.status !== 200) throw new Error(`GET /api${path} answered ${answer.status}: ${await answer.text()}`);
  }
  const single = await alone(origin, paths, headers);
  const pick = (request: { path: string }) => ({ ...request, path: `/api${paths[Math.floor(Math.random() * paths.length)]}` });
  const requests = [{ method: 'GET' as const, path: `/api${paths[0]}`, headers, setupRequest: pick }];
  await autocannon({ url: origin, requests, connections: 8, duration: 1 });
  const result = await autocannon({ url: origin, requests, connections: CONNECTIONS, duration: SECONDS });
  // Requests still queued when the run ends are answered before the next row's first request (PGlite answers in
  // order): that request waits for them, so no row inherits another's queue.
  return {
    alone: single,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    answered: result.requests.total,
  };
}

/** The demo clinic's staff, devices and its IT admin's notifications, as many as asked, written straight to the database. */
async function seed(db: Database): Promise<void> {
  const admin = await db.selectFrom('users').select(['id', 'clinic_id']).where('email', '=', DEMO_LOGINS.clinic_it_admins.email).executeTakeFirstOrThrow();
  const clinicId = admin.clinic_id;
  const now = Date.now();
  const batch = 500;
  for (let start = 0; start < STAFF; start += batch) {
    const rows = Array.from({ length: Math.min(batch, STAFF - start) }, (_, i) => {
      const n = start + i;
      const status = STATUS_MIX[n % STATUS_MIX.length]!;
      const accepted = ['active', 'deactivated', 'archived', 'deleting'].includes(status);
      const created = new Date(now - ((n * 7919) % 1000) * DAY);
      return {
        clinic_id: clinicId,
        email: `staff.${n}@bench.example`,
        first_name: FIRST[n % FIRST.length]!,
        last_name: `${LAST[(n * 7) % LAST.length]!}${n % 3 === 0 ? `-${LAST[n % LAST.length]!}` : ''}`,
        physician_name: n % 5 === 2 ? `Dr. ${LAST[n % LAST.length]!}` : null,
        role: ROLES[n % ROLES.length]!,
        status,
        invite_status: accepted ? 'accepted' : status === 'pending' ? 'pending' : status === 'invite_expired' ? 'invite_expired' : 'creation_in_progress',
        previous_status: status === 'archived' || status === 'deleting' ? 'active' : null,
        password_changed_at: accepted ? new Date(now - ((n * 31) % 400) * DAY) : null,
        last_sign_in_at: accepted ? new Date(now - (n % 30) * DAY) : null,
        created_at: created,
        updated_at: created,
      };
    });
    const inserted = await db.insertInto('users').values(rows).returning(['id', 'status']).execute();
    // An invited user has an open link (expiring within the week) or one that ran out.
    const invites = inserted
      .filter((user) => user.status === 'pending' || user.status === 'invite_expired')
      .map((user, i) => ({
        user_id: user.id,
        kind: 'invite' as const,
        token_hash: `bench-${start}-${i}`,
        expires_at: new Date(now + (user.status === 'pending' ? 3 : -3) * DAY),
      }));
    if (invites.length) await db.insertInto('user_tokens').values(invites).execute();
  }
  await db
    .insertInto('devices')
    .values(
      Array.from({ length: DEVICES }, (_, n) => ({
        clinic_id: clinicId,
        device_id: `LX-${String(n).padStart(4, '0')}`,
        optical_head_id: `Kopf-${(n * 37) % 1000}`,
        camera: CAMERAS[n % CAMERAS.length]!,
        description: `Laserraum ${['Süd', 'Nord', 'Ost', 'West'][n % 4]} ${n}`,
        sync_app_status: n % 10 < 7 ? 'RUNNING' : 'CONNECTION_FAILED',
        last_seen_at: new Date(now - (n % 48) * 3_600_000),
      })),
    )
    .execute();
  const patient = await db.selectFrom('patients').select('id').where('clinic_id', '=', clinicId).executeTakeFirst();
  for (let start = 0; start < NOTIFICATIONS; start += 2000) {
    await db
      .insertInto('notifications')
      .values(
        Array.from({ length: Math.min(2000, NOTIFICATIONS - start) }, (_, i) => {
          const n = start + i;
          // Every third a deletion request (naming a patient) at the default share; the others alternate.
          const kind = (n % 100) / 100 < NAMED ? 2 : n % 2;
          const params =
            kind === 0
              ? { name: `${FIRST[n % FIRST.length]} ${LAST[n % LAST.length]}` }
              : kind === 1
                ? { date: new Date(now + (n % 14) * DAY).toISOString().slice(0, 10) }
                : { requester: 'Dr. Anna Keller', patient: 'Erika Schmitt', reason: 'duplicate record', ...(patient && { patientId: patient.id }) };
          return {
            clinic_id: clinicId,
            user_id: admin.id,
            category: ['team_members', 'system', 'patients'][kind]!,
            event: ['invite_accepted', 'password_expiring', 'deletion_requested'][kind]!,
            params: JSON.stringify(params),
            link: null,
            read_at: n % 10 < 3 ? null : new Date(now - (n % 400) * 3_600_000),
            created_at: new Date(now - ((n * 7919) % (365 * 24)) * 3_600_000),
          };
        }),
      )
      .execute();
  }
  // Fresh statistics, as autovacuum would gather soon after such an import.
  await sql`analyze`.execute(db);
}

/** The plans of each list's queries as the server runs them at the deepest page, with their times. */
async function explain(db: Database): Promise<void> {
  const admin = await db.selectFrom('users').select(['id', 'clinic_id']).where('email', '=', DEMO_LOGINS.clinic_it_admins.email).executeTakeFirstOrThrow();
  const count = async (table: 'users' | 'devices' | 'notifications') =>
    Number((await db.selectFrom(table).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
  const deepest = (rows: number) => Math.max(0, rows - PER_PAGE);
  const [users, devices, notifications] = [await count('users'), await count('devices'), await count('notifications')];
  const listed = sql`u.clinic_id = ${admin.clinic_id} and u.status not in ('archived', 'archiving', 'deleting')`;
  const queries: [string, RawBuilder<unknown>][] = [
    ['staff: count', sql`select count(*) from users u where ${listed}`],
    [
      'staff: sort=-email, deepest page',
      sql`select u.*, (select max(t.expires_at) from user_tokens t where t.user_id = u.id and t.kind = 'invite' and t.used_at is null and t.revoked_at is null) as invite_expires_at
          from users u where ${listed} order by lower(u.email) desc, u.id limit ${PER_PAGE} offset ${deepest(users)}`,
    ],
    [
      'staff: the invites that ran out (before every read)',
      sql`select id from users where clinic_id = ${admin.clinic_id} and status = 'pending' and not exists (select t.id from user_tokens t where t.user_id = users.id and t.kind = 'invite' and t.used_at is null and t.revoked_at is null and t.expires_at > now())`,
    ],
    ['devices: deepest page', sql`select * from devices where clinic_id = ${admin.clinic_id} order by device_id, id limit ${PER_PAGE} offset ${deepest(devices)}`],
    ['notifications: unread badge', sql`select count(*) from notifications where user_id = ${admin.id} and clinic_id = ${admin.clinic_id} and read_at is null`],
    [
      'notifications: deepest page',
      sql`select * from notifications where user_id = ${admin.id} and clinic_id = ${admin.clinic_id}
          order by read_at is null desc, created_at desc, id desc limit ${PER_PAGE} offset ${deepest(notifications)}`,
    ],
  ];
  for (const [name, query] of queries) {
    const compiled = query.compile(db);
    const plan = await db.executeQuery<{ 'QUERY PLAN': string }>({ ...compiled, sql: `explain analyze ${compiled.sql}` });
    console.log(`\n-- ${name}\n${plan.rows.map((row) => row['QUERY PLAN']).join('\n')}`);
  }
}

async function signInToken(baseUrl: string): Promise<string> {
  const answer = await fetch(`${baseUrl}/api/sign-in`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(DEMO_LOGINS.clinic_it_admins),
  });
  if (answer.status !== 200) throw new Error(`sign-in answered ${answer.status}: ${await answer.text()}`);
  return ((await answer.json()) as { data: { token: string } }).data.token;
}

const ms = (value: number) => `${value.toFixed(value < 10 ? 1 : 0)} ms`;
// No answer within the run: every request took longer than the run (the server was that far behind).
const cells = (f: Figures) =>
  `${ms(f.alone).padStart(10)}${(f.answered ? f.rps.toFixed(0) : '0').padStart(9)}${(f.answered ? ms(f.p50) : '—').padStart(10)}${(f.answered ? ms(f.p99) : `> ${SECONDS} s`).padStart(11)}${String(f.errors).padStart(8)}`;

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'macula-bench-lists-'));
  try {
    console.log(
      `bench:lists — PGlite, ${STAFF.toLocaleString('en')} staff, ${DEVICES} devices, ${NOTIFICATIONS.toLocaleString('en')} notifications of one user; ` +
        `${CONNECTIONS} connections × ${SECONDS} s per row`,
    );
    // First start: migrations and the demo clinic; then the lists' rows with the server stopped (PGlite is one
    // process's), then the server again on the full database.
    const start = { dataDir, root: values.root, readyTimeoutMs: 300_000 };
    let server = await startReferenceServer(PORT, start);
    await server.stop();
    const seeding = performance.now();
    const { db } = await openConfiguredDatabase({ databaseUrl: null, dataDir });
    try {
      await seed(db);
      // Demo sessions the first start left queued would be processed during the measurement (image work on the
      // server's thread): they are left unprocessed, as the lists do not show them (bench:responsiveness
      // measures the lists beside image work).
      const queued = await db.updateTable('jobs').set({ state: 'failed', finished_at: new Date() }).where('state', 'in', ['queued', 'running']).executeTakeFirst();
      console.log(`seeded in ${((performance.now() - seeding) / 1000).toFixed(1)} s (${Number(queued.numUpdatedRows)} demo jobs left queued are not run)`);
      if (values.explain) await explain(db);
    } finally {
      await db.destroy();
    }
    server = await startReferenceServer(PORT, start);
    try {
      const headers = { Authorization: `Bearer ${await signInToken(server.url)}` };
      console.log(`\n${''.padEnd(42)}${'alone'.padStart(10)}${`${CONNECTIONS} connections`.padStart(38)}`);
      console.log(`${'GET, perPage 20'.padEnd(42)}${'p50'.padStart(10)}${'req/s'.padStart(9)}${'p50'.padStart(10)}${'p99'.padStart(11)}${'errors'.padStart(8)}`);
      const lastPage = async (path: string) => {
        const answer = await fetch(`${server.url}/api${path}`, { headers });
        return ((await answer.json()) as { meta: { lastPage: number } }).meta.lastPage;
      };
      for (const scenario of await scenarios(lastPage)) {
        console.log(`${scenario.name.padEnd(42)}${cells(await measure(server.url, scenario.paths, headers))}`);
      }
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
