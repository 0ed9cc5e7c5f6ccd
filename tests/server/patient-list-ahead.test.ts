// The list as it opens is read again as soon as a change to the clinic commits, on PGlite (where this process
// learns of each change as it commits): the request that follows the change, typically an open list answering
// the change's realtime event, finds its page read already and answers what changed. Counted at the repository:
// the reads of list pages and of the patients on them. PostgreSQL reads a changed page when it is asked for
// (patient-list.test.ts pins the answers on both databases).
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Patient } from '../../generated/model/patient';
import { createClinic, createUser, sessionFor } from './fixtures';
import { startServer, type TestServer } from './helper';

const reads = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../server/repositories/patients', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../server/repositories/patients')>();
  const counted =
    <A extends unknown[], R>(read: (...args: A) => Promise<R>) =>
    (...args: A) => {
      reads.count += 1;
      return read(...args);
    };
  return {
    ...actual,
    patientListRows: counted(actual.patientListRows),
    orderedPatientIds: counted(actual.orderedPatientIds),
    patientRowsByIds: counted(actual.patientRowsByIds),
  };
});

const onPostgres = !!process.env.DATABASE_URL;

describe.skipIf(onPostgres)('the list as it opens, read ahead after a change', () => {
  let server: TestServer;
  // Each test has a clinic of its own: what is read ahead is per clinic.
  let clinicId: string;
  let token: string;
  beforeAll(async () => {
    server = await startServer({ jobs: false });
  });
  beforeEach(async () => {
    clinicId = await createClinic(server.db, 'Augenklinik Vorlauf');
    const user = await createUser(server.db, { clinicId, role: 'clinic_physicians', firstName: 'Ida', lastName: 'Kern' });
    token = await sessionFor(server.db, user.id);
  });
  afterAll(() => server.close());

  const list = async (query: string) => {
    const answer = await server.call<{ data: Patient[]; meta: { total: number } }>('GET', `/patients${query}`, { token });
    expect(answer.status).toBe(200);
    return answer.body;
  };
  const addPatient = (name: string, db: Pick<TestServer['db'], 'insertInto'> = server.db) =>
    db.insertInto('patients').values({ clinic_id: clinicId, name, second_name: 'Vorlauf', birthday: '1950-01-01', gender: 'female' }).execute();
  /** Waits until no read has started for a while: the reads a change set off are done. */
  const settled = async () => {
    let before = -1;
    while (before !== reads.count) {
      before = reads.count;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  it('answers the next request after a change from a page read as the change committed', async () => {
    await addPatient('Anna');
    expect((await list('?page=1&perPage=20')).meta.total).toBe(1);
    await settled();
    const before = reads.count;
    expect((await list('?page=1&perPage=20')).meta.total).toBe(1);
    expect(reads.count, 'a kept page is read from memory').toBe(before);

    await addPatient('Berta');
    await settled();
    expect(reads.count, 'read once, right after the commit').toBe(before + 1);
    const after = await list('?page=1&perPage=20');
    expect(after.data.map((patient) => patient.name).sort()).toEqual(['Anna', 'Berta']);
    expect(reads.count, 'the request found the page read').toBe(before + 1);
  });

  it('reads ahead only the four pages read last, and no search', async () => {
    await addPatient('Anna');
    for (let page = 1; page <= 5; page++) await list(`?page=${page}&perPage=10`);
    await list('?search=Anna');
    await settled();
    const before = reads.count;

    await addPatient('Clara');
    await settled();
    expect(reads.count - before).toBe(4);
    const searched = reads.count;
    expect((await list('?search=Clara')).meta.total).toBe(1);
    expect(reads.count, 'a search is read when asked for').toBeGreaterThan(searched);
  });

  it('reads a commit of several changes once', async () => {
    await addPatient('Anna');
    await addPatient('Berta');
    await addPatient('Clara');
    await list('?page=1&perPage=20');
    await settled();
    const before = reads.count;
    await server.db.transaction().execute(async (tx) => {
      for (const name of ['Dora', 'Emma', 'Frida']) await addPatient(name, tx);
    });
    await settled();
    expect(reads.count - before).toBe(1);
    expect((await list('?page=1&perPage=20')).meta.total).toBe(6);
    expect(reads.count - before).toBe(1);
  });
});
