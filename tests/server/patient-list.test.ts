// The patient list's semantics pinned through HTTP, on PGlite and PostgreSQL: every sort key both ways
// against a model of the order (patients without sessions last, ties broken by name, second name and id),
// paging that neither skips nor repeats a patient, search, birthday range, plan status and status lists,
// and answers that follow every change at once — through the API or straight in the database.
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Patient } from '../../generated/model/patient';
import type { PatientSort } from '../../generated/model/patientSort';
import { versionStamp } from '../../server/db/freshness';
import { nameKey, nameKeyExpanded } from '../../server/db/name-key';
import { createClinic, createUser, sessionFor } from './fixtures';
import { startServer, type TestServer } from './helper';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ jobs: false });
});
afterAll(() => server.close());

type ListBody = { data: Patient[]; meta: { page: number; perPage: number; total: number; lastPage: number } };

async function list(token: string, query = ''): Promise<ListBody> {
  const answer = await server.call<ListBody>('GET', `/patients${query}`, { token });
  expect(answer.status, query).toBe(200);
  return answer.body;
}

/** Every page of a list at `perPage`, joined. */
async function allPages(token: string, query: string, perPage: number): Promise<Patient[]> {
  const first = await list(token, `${query}&perPage=${perPage}&page=1`);
  const rest = [];
  for (let page = 2; page <= first.meta.lastPage; page++) rest.push(...(await list(token, `${query}&perPage=${perPage}&page=${page}`)).data);
  return [...first.data, ...rest];
}

interface Seed {
  name: string;
  secondName: string;
  birthday: string;
  createdAt: string;
  status?: string;
  /** Session dates; the last one is the latest. */
  sessions?: { date: string; processing?: string; step?: string; locked?: boolean }[];
}

// Ties in every key: equal names in other cases, equal birthdays, creation times, session counts and latest
// session dates, and patients without sessions. Names in plain ASCII, so that the model's order is every
// collation's.
const SEEDS: Seed[] = [
  { name: 'Anna', secondName: 'Berger', birthday: '1950-03-01', createdAt: '2026-01-01T08:00:00Z', sessions: [{ date: '2026-05-01T08:00:00Z' }] },
  { name: 'anna', secondName: 'Adler', birthday: '1950-03-01', createdAt: '2026-01-01T08:00:00Z', sessions: [{ date: '2026-05-01T08:00:00Z', step: 'available' }] },
  { name: 'Bernd', secondName: 'Berger', birthday: '1962-11-30', createdAt: '2026-01-02T08:00:00Z', sessions: [{ date: '2026-02-01T08:00:00Z' }, { date: '2026-06-01T08:00:00Z', processing: 'failed' }] },
  { name: 'Carla', secondName: 'Zimmer', birthday: '1971-07-15', createdAt: '2026-01-02T08:00:00Z' },
  { name: 'Dieter', secondName: 'Adler', birthday: '1944-01-20', createdAt: '2026-01-03T08:00:00Z', sessions: [{ date: '2026-03-01T08:00:00Z' }, { date: '2026-04-01T08:00:00Z' }, { date: '2026-06-01T08:00:00Z', processing: 'processing' }] },
  { name: 'Eva', secondName: 'Lang', birthday: '1962-11-30', createdAt: '2026-01-03T08:00:00Z' },
  { name: 'Frank', secondName: 'Lang', birthday: '1980-05-05', createdAt: '2026-01-04T08:00:00Z', sessions: [{ date: '2026-06-01T08:00:00Z', step: 'macula_grid_pattern' }] },
  { name: 'Gisela', secondName: 'Ost', birthday: '1939-09-09', createdAt: '2026-01-04T08:00:00Z', sessions: [{ date: '2026-01-15T08:00:00Z', locked: true }] },
  { name: 'Anna', secondName: 'berger', birthday: '1950-03-01', createdAt: '2026-01-05T08:00:00Z' },
  { name: 'Hans', secondName: 'Quast', birthday: '1955-02-28', createdAt: '2026-01-05T08:00:00Z', sessions: [{ date: '2026-03-01T08:00:00Z' }, { date: '2026-05-01T08:00:00Z' }] },
  { name: 'Ingo', secondName: 'Roth', birthday: '1966-06-06', createdAt: '2026-01-06T08:00:00Z', status: 'archived', sessions: [{ date: '2026-07-01T08:00:00Z' }] },
  { name: 'Jana', secondName: 'Sauer', birthday: '1977-08-08', createdAt: '2026-01-06T08:00:00Z', status: 'deleting' },
];

interface Seeded extends Seed {
  id: string;
  count: number;
  latest: string | null;
}

let token: string;
let admin: string;
let clinicId: string;
const seeded: Seeded[] = [];

beforeAll(async () => {
  clinicId = await createClinic(server.db, 'Augenklinik Sortierung');
  const physician = await createUser(server.db, { clinicId, role: 'clinic_physicians', firstName: 'Rita', lastName: 'Hahn' });
  const itAdmin = await createUser(server.db, { clinicId, role: 'clinic_it_admins' });
  token = await sessionFor(server.db, physician.id);
  admin = await sessionFor(server.db, itAdmin.id);
  for (const seed of SEEDS) {
    const { id } = await server.db
      .insertInto('patients')
      .values({
        clinic_id: clinicId,
        name: seed.name,
        second_name: seed.secondName,
        birthday: seed.birthday,
        gender: 'female',
        status: seed.status ?? 'active',
        created_at: seed.createdAt,
        ...(seed.status === 'deleting' ? { deletion_reason: 'Moved away', deletion_requested_by: physician.id, deletion_requested_at: seed.createdAt } : {}),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const sessions = seed.sessions ?? [];
    for (const [index, session] of sessions.entries()) {
      await server.db
        .insertInto('treatments')
        .values({
          clinic_id: clinicId,
          patient_id: id,
          number: index + 1,
          date: session.date,
          eye: 'OD',
          step: session.step ?? 'initial_exclusion_boundaries',
          processing_state: session.processing ?? 'processed',
          locked: session.locked ?? false,
        })
        .execute();
    }
    seeded.push({ ...seed, id, count: sessions.length, latest: sessions.at(-1)?.date ?? null });
  }
});

// The model: the key's order (patients without sessions last both ways), then name, second name and id.
type Key = 'name' | 'secondName' | 'birthday' | 'latestSessionDate' | 'treatmentsCount' | 'createdAt';
const KEY_OF: Record<Key, (s: Seeded) => string | number | null> = {
  name: (s) => s.name.toLowerCase(),
  secondName: (s) => s.secondName.toLowerCase(),
  birthday: (s) => s.birthday,
  latestSessionDate: (s) => (s.latest ? new Date(s.latest).getTime() : null),
  treatmentsCount: (s) => s.count,
  createdAt: (s) => new Date(s.createdAt).getTime(),
};
const cmp = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);

function modelOrder(patients: Seeded[], sort: PatientSort): string[] {
  const key = sort.replace(/^-/, '') as Key;
  const sign = sort.startsWith('-') ? -1 : 1;
  return [...patients]
    .sort((a, b) => {
      const [x, y] = [KEY_OF[key](a), KEY_OF[key](b)];
      if (x === null || y === null) {
        if (x !== y) return x === null ? 1 : -1;
      } else if (x !== y) return sign * cmp(x, y);
      return cmp(a.name.toLowerCase(), b.name.toLowerCase()) || cmp(a.secondName.toLowerCase(), b.secondName.toLowerCase()) || cmp(a.id, b.id);
    })
    .map((s) => s.id);
}

const active = () => seeded.filter((s) => !s.status);
const SORTS: PatientSort[] = ['name', '-name', 'secondName', '-secondName', 'birthday', '-birthday', 'latestSessionDate', '-latestSessionDate', 'treatmentsCount', '-treatmentsCount', 'createdAt', '-createdAt'];

describe('sorting', () => {
  it.each(SORTS)('sorts by %s with the same tie-breakers, whole and in pages', async (sort) => {
    const expected = modelOrder(active(), sort);
    expect((await list(token, `?sort=${sort}&perPage=100`)).data.map((p) => p.id)).toEqual(expected);
    // Pages of 3 join up to the same order: nothing skipped, nothing twice.
    expect((await allPages(token, `?sort=${sort}`, 3)).map((p) => p.id)).toEqual(expected);
  });

  it('sorts by the latest session first by default, patients without sessions last', async () => {
    const body = await list(token, '?perPage=100');
    expect(body.data.map((p) => p.id)).toEqual(modelOrder(active(), '-latestSessionDate'));
    expect(body.data.slice(-3).map((p) => p.latestSessionDate)).toEqual([null, null, null]);
    const ascending = await list(token, '?perPage=100&sort=latestSessionDate');
    expect(ascending.data.slice(-3).map((p) => p.latestSessionDate)).toEqual([null, null, null]);
  });

  it('sorts the archived and deleting lists of IT admins the same way', async () => {
    for (const status of ['archived', 'deleting']) {
      const expected = modelOrder(seeded.filter((s) => s.status === status), 'name');
      expect((await list(admin, `?status=${status}&sort=name`)).data.map((p) => p.id)).toEqual(expected);
    }
  });
});

describe('filters and paging', () => {
  it('answers the columns of each patient', async () => {
    const byId = new Map((await list(token, '?perPage=100')).data.map((p) => [p.id, p]));
    for (const seed of active()) {
      expect(byId.get(seed.id)).toMatchObject({
        name: seed.name,
        secondName: seed.secondName,
        birthday: seed.birthday,
        treatmentsCount: seed.count,
        latestSessionDate: seed.latest ? new Date(seed.latest).toISOString() : null,
        createdAt: new Date(seed.createdAt).toISOString(),
        status: 'active',
        deletionRequest: null,
      });
    }
    const bernd = seeded.find((s) => s.name === 'Bernd')!;
    expect(byId.get(bernd.id)).toMatchObject({ planStatus: 'no_plan_available', latestSessionFailed: true });
    expect([...byId.values()].filter((p) => p.latestSessionFailed)).toHaveLength(1);
  });

  it('pages with meta, and an empty page past the end', async () => {
    const count = active().length;
    const second = await list(token, '?perPage=4&page=2&sort=name');
    expect(second.meta).toEqual({ page: 2, perPage: 4, total: count, lastPage: Math.ceil(count / 4) });
    expect(second.data.map((p) => p.id)).toEqual(modelOrder(active(), 'name').slice(4, 8));
    const past = await list(token, '?perPage=4&page=9');
    expect(past.data).toEqual([]);
    expect(past.meta.total).toBe(count);
  });

  it('searches names in any case and order, counting the matches only', async () => {
    const annas = await list(token, '?search=ANNA&sort=name');
    expect(annas.data.map((p) => p.id)).toEqual(modelOrder(active().filter((s) => s.name.toLowerCase() === 'anna'), 'name'));
    expect(annas.meta.total).toBe(3);
    expect((await list(token, '?search=berger%20bernd')).data.map((p) => p.name)).toEqual(['Bernd']);
    expect((await list(token, '?search=Roth')).data).toEqual([]); // archived
  });

  it('narrows to one patient by id (a notification\'s link), with the other filters, and refuses what is no id', async () => {
    const bernd = seeded.find((s) => s.name === 'Bernd')!;
    const one = await list(token, `?patientId=${bernd.id}`);
    expect(one.data.map((p) => p.id)).toEqual([bernd.id]);
    expect(one.meta).toMatchObject({ total: 1, lastPage: 1 });
    expect((await list(token, `?patientId=${bernd.id}&search=Zimmer`)).meta.total).toBe(0);
    const archived = seeded.find((s) => s.name === 'Ingo')!;
    expect((await list(token, `?patientId=${archived.id}`)).data).toEqual([]);
    const other = await createClinic(server.db, 'Augenklinik Fremd');
    const { id: stranger } = await server.db
      .insertInto('patients')
      .values({ clinic_id: other, name: 'Fremd', second_name: 'Person', birthday: '1960-01-01', gender: 'male' })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect((await list(token, `?patientId=${stranger}`)).meta.total).toBe(0);
    const invalid = await server.call<{ code: string }>('GET', '/patients?patientId=Becker', { token });
    expect(invalid.status).toBe(422);
    expect(invalid.body.code).toBe('request.invalid');
  });

  it('filters by a birthday range, both ends inclusive, sorted and paged', async () => {
    const inRange = active().filter((s) => s.birthday >= '1950-03-01' && s.birthday <= '1962-11-30');
    const body = await allPages(token, '?birthdayFrom=1950-03-01&birthdayTo=1962-11-30&sort=-birthday', 2);
    expect(body.map((p) => p.id)).toEqual(modelOrder(inRange, '-birthday'));
  });

  it('filters by plan status (in_planning = planning), sorted and paged with its own total', async () => {
    const failed = seeded.find((s) => s.name === 'Bernd')!.id;
    const noPlan = active().filter((s) => !s.sessions || s.sessions.at(-1)!.processing === 'failed');
    const pages = await allPages(token, '?planStatus=no_plan_available&sort=-name', 2);
    expect(pages.map((p) => p.id)).toEqual(modelOrder(noPlan, '-name'));
    expect(pages.find((p) => p.id === failed)?.latestSessionFailed).toBe(true);
    expect((await list(token, '?planStatus=no_plan_available&perPage=2')).meta.total).toBe(noPlan.length);
    for (const planStatus of ['planning', 'in_planning']) {
      expect((await list(token, `?planStatus=${planStatus}`)).data.map((p) => p.name).sort()).toEqual(['Anna', 'Frank', 'Hans']);
    }
    expect((await list(token, '?planStatus=processing')).data.map((p) => p.name)).toEqual(['Dieter']);
    expect((await list(token, '?planStatus=issue_reported')).data.map((p) => p.name)).toEqual(['Gisela']);
    expect((await list(token, '?planStatus=plan_available')).data.map((p) => p.secondName)).toEqual(['Adler']);
    expect((await list(token, '?planStatus=plan_available&search=Zimmer')).meta.total).toBe(0);
  });

  it('shows a deletion request with who asked', async () => {
    const deleting = (await list(admin, '?status=deleting')).data;
    expect(deleting).toHaveLength(1);
    expect(deleting[0].deletionRequest).toMatchObject({ reason: 'Moved away', requestedBy: { name: 'Rita Hahn' } });
  });
});

describe('answers that follow every change', () => {
  // A clinic of its own: these tests change their patients.
  let own: { clinicId: string; token: string; userId: string };
  beforeAll(async () => {
    const id = await createClinic(server.db, 'Augenklinik Wandel');
    const user = await createUser(server.db, { clinicId: id, role: 'clinic_physicians', firstName: 'Lea', lastName: 'Brunner' });
    own = { clinicId: id, token: await sessionFor(server.db, user.id), userId: user.id };
  });
  const ownList = (query = '') => list(own.token, query);

  it('shows a patient added through the API, then a session added, moved, processed and removed in the database', async () => {
    expect((await ownList()).meta.total).toBe(0);
    const created = await server.call<{ data: Patient }>('POST', '/patients', {
      token: own.token,
      json: { name: 'Olga', secondName: 'Wendt', birthday: '1958-04-04', gender: 'female' },
    });
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    expect((await ownList()).data.map((p) => p.id)).toEqual([id]);

    const { id: session } = await server.db
      .insertInto('treatments')
      .values({ clinic_id: own.clinicId, patient_id: id, number: 1, date: '2026-09-01T08:00:00Z', eye: 'OS', step: 'initial_exclusion_boundaries', processing_state: 'processing' })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect((await ownList()).data[0]).toMatchObject({ treatmentsCount: 1, planStatus: 'processing', latestSessionDate: '2026-09-01T08:00:00.000Z' });
    await server.db.updateTable('treatments').set({ processing_state: 'failed' }).where('id', '=', session).execute();
    expect((await ownList()).data[0]).toMatchObject({ planStatus: 'no_plan_available', latestSessionFailed: true });
    expect((await ownList('?planStatus=no_plan_available')).meta.total).toBe(1);
    await server.db.updateTable('treatments').set({ processing_state: 'processed', step: 'available', date: '2026-10-01T08:00:00Z' }).where('id', '=', session).execute();
    expect((await ownList()).data[0]).toMatchObject({ planStatus: 'plan_available', latestSessionFailed: false, latestSessionDate: '2026-10-01T08:00:00.000Z' });
    expect((await ownList('?planStatus=no_plan_available')).meta.total).toBe(0);
    await server.db.deleteFrom('treatments').where('id', '=', session).execute();
    expect((await ownList()).data[0]).toMatchObject({ treatmentsCount: 0, planStatus: 'no_plan_available', latestSessionDate: null });
  });

  it('reads the list again after a change to what it shows of a session, and not after a plan edit at the same step', async () => {
    const { id: patientId } = await server.db
      .insertInto('patients')
      .values({ clinic_id: own.clinicId, name: 'Rita', second_name: 'Voss', birthday: '1949-12-24', gender: 'female' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const { id: session } = await server.db
      .insertInto('treatments')
      .values({ clinic_id: own.clinicId, patient_id: patientId, number: 1, date: '2026-10-05T08:00:00Z', eye: 'OD', step: 'initial_exclusion_boundaries', processing_state: 'processed' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const rita = async () => (await ownList('?search=Voss')).data[0];
    const version = () => versionStamp(server.db, [`patients:${own.clinicId}`]);
    expect(await rita()).toMatchObject({ planStatus: 'planning' });

    const before = await version();
    await server.db.updateTable('treatments').set({ brightness: 0.42, total_spots: 120 }).where('id', '=', session).execute();
    expect(await version()).toBe(before);

    await server.db.updateTable('treatments').set({ step: 'available' }).where('id', '=', session).execute();
    expect(await version()).not.toBe(before);
    expect(await rita()).toMatchObject({ planStatus: 'plan_available' });
    await server.db.updateTable('treatments').set({ locked: true }).where('id', '=', session).execute();
    expect(await rita()).toMatchObject({ planStatus: 'issue_reported' });
    await server.db.updateTable('treatments').set({ date: '2026-10-06T08:00:00Z' }).where('id', '=', session).execute();
    expect(await rita()).toMatchObject({ latestSessionDate: '2026-10-06T08:00:00.000Z' });
  });

  it('follows renames, deletion requests and status changes, and the requester\'s name', async () => {
    const { id } = await server.db
      .insertInto('patients')
      .values({ clinic_id: own.clinicId, name: 'Paul', second_name: 'Kern', birthday: '1970-01-01', gender: 'male' })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect((await ownList('?search=Kern')).data.map((p) => p.name)).toEqual(['Paul']);
    await server.db.updateTable('patients').set({ name: 'Pauline' }).where('id', '=', id).execute();
    expect((await ownList('?search=Kern')).data.map((p) => p.name)).toEqual(['Pauline']);

    const before = (await ownList()).meta.total;
    const requested = await server.call('POST', `/patients/${id}/deletion-request`, { token: own.token, json: { reason: 'Duplicate record' } });
    expect(requested.status).toBe(200);
    expect((await ownList()).meta.total).toBe(before - 1);
    const itAdmin = await createUser(server.db, { clinicId: own.clinicId, role: 'clinic_it_admins' });
    const adminToken = await sessionFor(server.db, itAdmin.id);
    const deleting = async () => (await list(adminToken, '?status=deleting')).data.find((p) => p.id === id)!;
    expect((await deleting()).deletionRequest?.requestedBy?.name).toBe('Lea Brunner');
    await server.db.updateTable('users').set({ last_name: 'Brunner-Falk' }).where('id', '=', own.userId).execute();
    expect((await deleting()).deletionRequest?.requestedBy?.name).toBe('Lea Brunner-Falk');
    await server.db.updateTable('patients').set({ status: 'archived' }).where('id', '=', id).execute();
    expect((await list(adminToken, '?status=deleting')).meta.total).toBe(0);
    expect((await list(adminToken, '?status=archived')).data.map((p) => p.id)).toEqual([id]);
  });

  it('refuses a token at once when its session ends, its user is deactivated or its role changes', async () => {
    const user = await createUser(server.db, { clinicId: own.clinicId, role: 'clinic_nurses' });
    const ended = await sessionFor(server.db, user.id);
    expect((await server.call('GET', '/patients', { token: ended })).status).toBe(200);
    expect((await server.call('POST', '/logout', { token: ended })).status).toBe(200);
    expect((await server.call('GET', '/patients', { token: ended })).status).toBe(401);

    const second = await sessionFor(server.db, user.id);
    expect((await server.call('GET', '/patients', { token: second })).status).toBe(200);
    await server.db.updateTable('auth_sessions').set({ ended_at: new Date(), ended_reason: 'revoked' }).where('user_id', '=', user.id).execute();
    expect((await server.call('GET', '/patients', { token: second })).status).toBe(401);

    const third = await sessionFor(server.db, user.id);
    expect((await server.call('GET', '/patients', { token: third })).status).toBe(200);
    await server.db.updateTable('users').set({ role: 'clinic_it_admins' }).where('id', '=', user.id).execute();
    expect((await server.call('GET', '/patients?status=archived', { token: third })).status).toBe(200);
    await server.db.updateTable('users').set({ status: 'deactivated' }).where('id', '=', user.id).execute();
    expect((await server.call('GET', '/patients', { token: third })).status).toBe(401);
  });

  it('keeps clinics apart', async () => {
    const ids = new Set((await ownList('?perPage=100')).data.map((p) => p.id));
    // The other clinic's list is not empty: it shows its own patients, and none of these.
    expect(ids.size).toBeGreaterThan(0);
    for (const seed of seeded) expect(ids.has(seed.id)).toBe(false);
  });
});

describe('names as a German clinic sorts and searches them', () => {
  const NAMES = [
    ['Hans', 'Schulz'],
    ['Maria', 'Schäfer'],
    ['Emre', 'Özdemir'],
    ['Karl', 'Zimmermann'],
    ['Ute', 'Weiß'],
    ['Jörg', 'Müller'],
    ['Anke', 'Ahrens'],
    ['Zoë', 'Oberländer'],
  ];
  let germanToken: string;
  beforeAll(async () => {
    const germanClinic = await createClinic(server.db, 'Augenklinik Umlaute');
    const physician = await createUser(server.db, { clinicId: germanClinic, role: 'clinic_physicians' });
    germanToken = await sessionFor(server.db, physician.id);
    for (const [name, secondName] of NAMES) {
      await server.db.insertInto('patients').values({ clinic_id: germanClinic, name, second_name: secondName, birthday: '1950-01-01', gender: 'male', status: 'active' }).execute();
    }
  });
  const secondNames = async (query: string) => (await list(germanToken, `${query}&perPage=100`)).data.map((p) => p.secondName);

  it('sorts umlauts as their letter and ß as ss (DIN 5007-1): Schäfer before Schulz, Özdemir among the O', async () => {
    const expected = ['Ahrens', 'Müller', 'Oberländer', 'Özdemir', 'Schäfer', 'Schulz', 'Weiß', 'Zimmermann'];
    expect(await secondNames('?sort=secondName')).toEqual(expected);
    expect(await secondNames('?sort=-secondName')).toEqual([...expected].reverse());
    expect((await list(germanToken, '?sort=name&perPage=100')).data.map((p) => p.name)).toEqual(['Anke', 'Emre', 'Hans', 'Jörg', 'Karl', 'Maria', 'Ute', 'Zoë']);
  });

  it('finds umlauts and ß however they are typed, and the name as the list writes it', async () => {
    expect(await secondNames('?search=Weiss')).toEqual(['Weiß']);
    expect(await secondNames('?search=schae')).toEqual(['Schäfer']);
    expect(await secondNames('?search=Ozdemir')).toEqual(['Özdemir']);
    expect(await secondNames('?search=MUELLER')).toEqual(['Müller']);
    expect(await secondNames('?search=m%C3%BCller')).toEqual(['Müller']);
    expect(await secondNames('?search=Zoe')).toEqual(['Oberländer']);
    expect(await secondNames(`?search=${encodeURIComponent('Schäfer, Maria')}`)).toEqual(['Schäfer']);
    expect(await secondNames(`?search=${encodeURIComponent('Maria Schafer')}`)).toEqual(['Schäfer']);
    expect(await secondNames('?search=Schu')).toEqual(['Schulz']);
  });

  it('folds a search term exactly as the database folds names', async () => {
    const alphabet = [...'aAäÄoOöÖuUüÜßeéÉèçÇñÑøØłŁıiIzZ -'];
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom(...alphabet), { maxLength: 12 }).map((letters) => letters.join('')), async (text) => {
        const { rows } = await sql<{ key: string; expanded: string }>`select patient_name_key(${text}) as key, patient_name_key_expanded(${text}) as expanded`.execute(server.db);
        expect(rows[0]).toEqual({ key: nameKey(text), expanded: nameKeyExpanded(text) });
      }),
      { numRuns: 200 },
    );
  });
});
