// How staff members are named in records and answers.

/** Display name of a staff member: the physician name when set, else first and last name. */
export const displayName = (user: { physician_name: string | null; first_name: string; last_name: string }) =>
  user.physician_name?.trim() || `${user.first_name} ${user.last_name}`.trim();
