// The access log's chain (migration 0015, server/services/audit-chain.ts), on PGlite and PostgreSQL: the database
// refuses to change or remove entries; concurrent writers extend one unbroken chain; an entry altered or removed by
// someone who can switch the guard off (a superuser) is named by the verifier, which recomputes every hash itself;
// and `npm run audit:verify` says the same with its exit code.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuditRow, insertAuditEntries } from '../../server/repositories/access-log';
import { verifyAuditChain } from '../../server/services/audit-chain';
import { createClinic, createUser, sessionFor } from './fixtures';
import { startServer, type TestServer } from './helper';

let server: TestServer;
let physician: string;
let admin: string;
let patientIds: string[];

beforeAll(async () => {
  server = await startServer({ jobs: false });
  const clinicId = await createClinic(server.db);
  physician = await sessionFor(server.db, (await createUser(server.db, { clinicId, role: 'clinic_physicians' })).id);
  admin = await sessionFor(server.db, (await createUser(server.db, { clinicId, role: 'clinic_it_admins' })).id);
  patientIds = [];
  for (const [name, secondName] of [['Olga', 'Wendt'], ['Paul', 'Kern'], ['Rita', 'Sommer']]) {
    const created = await server.call<{ data: { id: string } }>('POST', '/patients', {
      token: physician,
      json: { name, secondName, birthday: '1958-04-04', gender: 'female' },
    });
    patientIds.push(created.body.data.id);
  }
});
afterAll(() => server.close());

// Ids and sequence numbers as text (PGlite answers bigint as a number, PostgreSQL as text).
const entries = async () =>
  (await server.db.selectFrom('audit_log').select(['id', 'seq', 'action', 'patient_ids']).orderBy('seq').execute()).map((row) => ({
    ...row,
    id: String(row.id),
    seq: String(row.seq),
  }));

/** Switches the append-only guard off as a superuser could, runs `change`, and switches it on again. */
async function asSuperuser(change: () => Promise<unknown>) {
  await sql`alter table audit_log disable trigger audit_log_append_only`.execute(server.db);
  try {
    await change();
  } finally {
    await sql`alter table audit_log enable trigger audit_log_append_only`.execute(server.db);
  }
}

describe('the access log chain', () => {
  it('is unbroken after reads and changes, concurrent ones included, and names their patients', async () => {
    const before = (await entries()).length;
    await Promise.all([
      ...Array.from({ length: 12 }, () => server.call('GET', '/patients?perPage=2', { token: physician })),
      ...patientIds.map((id) => server.call('GET', `/patients/${id}`, { token: physician })),
      server.call('POST', `/patients/${patientIds[0]}`, { token: physician, json: { description: 'Follow-up' } }),
    ]);
    const rows = await entries();
    expect(rows.length).toBe(before + 16);
    expect(rows.map((row) => Number(row.seq))).toEqual(rows.map((_row, index) => index + 1));
    const lists = rows.filter((row) => row.action === 'patient.list');
    expect(lists).toHaveLength(12);
    // A list names the patients of its page (the newest two of three).
    for (const list of lists) expect(list.patient_ids).toHaveLength(2);
    expect(rows.filter((row) => row.action === 'patient.read').map((row) => row.patient_ids[0]).sort()).toEqual([...patientIds].sort());
    const result = await verifyAuditChain(server.db);
    expect(result).toMatchObject({ ok: true, entries: rows.length });
  });

  it('cannot be changed, removed or emptied through the database', async () => {
    const [first] = await entries();
    await expect(server.db.updateTable('audit_log').set({ ip: '203.0.113.9' }).where('id', '=', first!.id).execute()).rejects.toThrow(/append-only/);
    await expect(server.db.deleteFrom('audit_log').where('id', '=', first!.id).execute()).rejects.toThrow(/append-only/);
    await expect(sql`truncate audit_log`.execute(server.db)).rejects.toThrow(/append-only/);
    // The chain's head row stays: without it nothing could be recorded.
    await expect(sql`delete from audit_log_head`.execute(server.db)).rejects.toThrow(/append-only/);
    // Whatever an insert supplies for the chain is replaced by the trigger's.
    await sql`insert into audit_log (action, outcome, seq, prev_hash, hash) values ('probe', 'success', 1, 'x', 'y')`.execute(server.db);
    expect(await verifyAuditChain(server.db)).toMatchObject({ ok: true });
  });

  it('moves its head once per statement, and a failed statement leaves no trace in it (migration 0021)', async () => {
    const head = async () => {
      const row = (await sql<{ seq: string; hash: string }>`select seq::text as seq, hash from audit_log_head`.execute(server.db)).rows[0]!;
      const newest = (await entries()).at(-1)!;
      return { ...row, newest: newest.seq };
    };
    const probe = (action: string): AuditRow => ({
      clinic_id: null, actor_id: null, actor_role: null, action, outcome: 'success', target_type: null, target_id: null, ip: null, detail: {}, patient_ids: [],
    });
    const before = await head();
    await insertAuditEntries(server.db, [probe('probe.many'), probe('probe.many'), probe('probe.many')]);
    const after = await head();
    expect(Number(after.seq)).toBe(Number(before.seq) + 3);
    expect(after.seq).toBe(after.newest);
    // The second entry fails (no action) after the first has passed the chain on: rolled back to the savepoint,
    // the next statement extends the chain from the head the database holds.
    await server.db.transaction().execute(async (trx) => {
      await sql`savepoint probe`.execute(trx);
      // An entry without an action, as no typed caller can write one: the database refuses it.
      const refused = { ...probe('probe.refused'), action: null as unknown as string };
      await expect(insertAuditEntries(trx, [probe('probe.failed'), refused])).rejects.toThrow();
      await sql`rollback to savepoint probe`.execute(trx);
      await insertAuditEntries(trx, [probe('probe.after')]);
    });
    const last = await head();
    expect(Number(last.seq)).toBe(Number(after.seq) + 1);
    expect(last.seq).toBe(last.newest);
    expect((await entries()).filter((row) => row.action === 'probe.failed')).toEqual([]);
    expect(await verifyAuditChain(server.db)).toMatchObject({ ok: true });
  });

  it('keeps the entries of an erased patient, by id, and stays unbroken', async () => {
    const erased = patientIds[2]!;
    await server.call('POST', `/patients/${erased}/deletion-request`, { token: physician, json: { reason: 'Moved away' } });
    expect((await server.call('DELETE', `/patients/${erased}`, { token: admin })).status).toBe(200);
    const about = (await entries()).filter((row) => row.patient_ids.includes(erased)).map((row) => row.action);
    expect(about).toEqual(expect.arrayContaining(['patient.created', 'patient.read', 'patient.deletion_requested', 'patient.erased']));
    expect(await verifyAuditChain(server.db)).toMatchObject({ ok: true });
  });

  it('names the entry a superuser altered, and then the gap a removal left', async () => {
    const rows = await entries();
    const altered = rows[4]!;
    await asSuperuser(() => server.db.updateTable('audit_log').set({ ip: '198.51.100.7' }).where('id', '=', altered.id).execute());
    expect(await verifyAuditChain(server.db)).toMatchObject({ ok: false, entries: 4, broken: { seq: altered.seq, id: altered.id, problem: 'altered' } });

    // The hash recomputed too (as a forger would): the next entry no longer follows it.
    await asSuperuser(() => sql`update audit_log set hash = audit_log_hash(prev_hash, audit_log) where id = ${altered.id}`.execute(server.db));
    expect(await verifyAuditChain(server.db)).toMatchObject({ ok: false, broken: { seq: rows[5]!.seq, problem: 'previous_hash' } });

    await asSuperuser(() => server.db.deleteFrom('audit_log').where('seq', '>=', altered.seq).where('seq', '<=', rows[5]!.seq).execute());
    expect(await verifyAuditChain(server.db)).toMatchObject({ ok: false, entries: 4, broken: { seq: rows[6]!.seq, id: rows[6]!.id, problem: 'missing_before' } });
  });
});

describe.skipIf(Boolean(process.env.DATABASE_URL))('npm run audit:verify', () => {
  const run = (dataDir: string) =>
    promisify(execFile)('npx', ['tsx', 'server/cli/audit-verify.ts'], { env: { ...process.env, DATA_DIR: dataDir, NODE_ENV: 'development' } }).then(
      ({ stdout }) => ({ code: 0, stdout, stderr: '' }),
      (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
    );

  it('exits 0 with the count on an intact log and 1 naming the entry after a change by hand', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'macula-audit-verify-'));
    try {
      const own = await startServer({ dataDir, jobs: false });
      const clinicId = await createClinic(own.db);
      const token = await sessionFor(own.db, (await createUser(own.db, { clinicId, role: 'clinic_nurses' })).id);
      for (let i = 0; i < 3; i++) await own.call('GET', '/patients', { token });
      const count = (await own.db.selectFrom('audit_log').select('id').execute()).length;
      await own.close();

      const intact = await run(dataDir);
      expect(intact.code, intact.stderr).toBe(0);
      expect(intact.stdout).toContain(`audit log intact: ${count} entries`);

      const again = await startServer({ dataDir, jobs: false });
      const second = await again.db.selectFrom('audit_log').select('id').where('seq', '=', sql<string>`2`).executeTakeFirstOrThrow();
      await sql`drop trigger audit_log_append_only on audit_log`.execute(again.db);
      await sql`update audit_log set action = 'patient.created' where seq = 2`.execute(again.db);
      await again.close();

      const broken = await run(dataDir);
      expect(broken.code).toBe(1);
      expect(broken.stderr).toContain(`audit log broken at seq 2 (id ${String(second.id)}): its content was altered`);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
