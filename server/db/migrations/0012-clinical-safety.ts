// Clinical safety (issue 26): a laser profile per device (what it can deliver: wavelength, modes, power, pulse
// and duty-cycle ranges, spot sizes), the micropulse duty cycle of a session, and the device chosen to treat
// it when it is not the one the exam came from. Plain SQL that runs unchanged on PGlite and PostgreSQL.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table devices add column laser_profile jsonb`.execute(db);
  await sql`alter table treatments add column duty_cycle_percent numeric`.execute(db);
  await sql`alter table treatments add column treatment_device_id uuid references devices (id) on delete set null`.execute(db);
}
