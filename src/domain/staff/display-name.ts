// How a staff member is named in the SPA, in records and in the server's answers: the physician name when set,
// else first and last name.

export interface StaffNames {
  physicianName?: string | null;
  firstName: string;
  lastName: string;
}

/** The physician name when set, else first and last name ('' when all are empty). */
export function staffName(names: StaffNames): string {
  return names.physicianName?.trim() || `${names.firstName} ${names.lastName}`.trim();
}
