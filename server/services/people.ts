// How staff members are named in records and answers (src/domain/staff/display-name.ts, as the SPA names them).
import { staffName } from '../../src/domain/staff/display-name';

/** Display name of a staff member: the physician name when set, else first and last name. */
export const displayName = (user: { physician_name: string | null; first_name: string; last_name: string }) =>
  staffName({ physicianName: user.physician_name, firstName: user.first_name, lastName: user.last_name });
