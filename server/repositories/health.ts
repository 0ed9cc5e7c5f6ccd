// The cheapest question the database can answer: is it there?
import { sql } from 'kysely';
import type { Queryable } from '../db/tables';

export async function pingDatabase(db: Queryable): Promise<void> {
  await sql`select 1`.execute(db);
}
