// The access log as a service without HTTP: a range that ends before it starts is refused, the filters hold, and
// every reading is itself recorded with the page and filters it asked for.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClinic, createUser } from '../../tests/server/fixtures';
import { startServer, type TestServer } from '../../tests/server/helper';
import { actorFor, refusal } from '../../tests/server/service-calls';
import type { Actor } from '../actor';
import { audit } from './audit';
import { listAccessLog } from './audit-access-log';

let server: TestServer;
let admin: Actor;
let nurse: Actor;

beforeAll(async () => {
  server = await startServer({ jobs: false });
  const clinicId = await createClinic(server.db);
  admin = actorFor(await createUser(server.db, { clinicId, role: 'clinic_it_admins', firstName: 'Ida', lastName: 'Admin' }), clinicId, 'clinic_it_admins');
  nurse = actorFor(await createUser(server.db, { clinicId, role: 'clinic_nurses', firstName: 'Nora', lastName: 'Nurse' }), clinicId, 'clinic_nurses');
  const otherClinic = await createClinic(server.db, 'Andere Klinik');
  const stranger = actorFor(await createUser(server.db, { clinicId: otherClinic, role: 'clinic_nurses' }), otherClinic, 'clinic_nurses');
  await audit(server.db, nurse, { action: 'patient.read', outcome: 'success' });
  await audit(server.db, stranger, { action: 'patient.read', outcome: 'success' });
});
afterAll(() => server.close());

describe('listAccessLog', () => {
  it('refuses a range that ends where or before it starts', async () => {
    const at = '2026-11-01T10:00:00.000Z';
    expect(await refusal(listAccessLog(server.ctx, admin, { from: at, to: at }))).toMatchObject({ status: 422, fields: { to: ['access_log.range_reversed'] } });
  });

  it('shows the clinic’s own entries, filtered, with the user named, and records each reading', async () => {
    const { data, meta } = await listAccessLog(server.ctx, admin, { actorId: nurse.userId, action: 'patient.read' });
    expect(meta).toMatchObject({ total: 1, page: 1 });
    expect(data[0]).toMatchObject({ action: 'patient.read', actor: { id: nurse.userId, name: 'Nora Nurse', role: 'clinic_nurses' }, patient: null });

    const readings = await server.db.selectFrom('audit_log').select(['actor_id', 'detail']).where('action', '=', 'access_log.read').orderBy('seq').execute();
    const detail = readings.map((r) => (typeof r.detail === 'string' ? JSON.parse(r.detail) : r.detail) as unknown);
    expect(readings.map((r) => r.actor_id)).toEqual([admin.userId]);
    expect(detail).toEqual([{ page: 1, count: 1, actorId: nurse.userId, filterAction: 'patient.read' }]);
  });
});
