// How a staff member is named in records and answers, read from their account.
import type { Queryable } from '../db/tables';
import { staffName } from '../../src/domain/staff/display-name';

/** The user's display name (physician name, else first and last name); null when the account is gone. */
export async function userDisplayName(db: Queryable, userId: string): Promise<string | null> {
  const user = await db.selectFrom('users').select(['first_name', 'last_name', 'physician_name']).where('id', '=', userId).executeTakeFirst();
  return user ? staffName({ physicianName: user.physician_name, firstName: user.first_name, lastName: user.last_name }) : null;
}
