// The demo clinic's exam sessions, apart from the seed so that the journeys can read them without the server's
// modules (the billing journey counts them by month).

/** The demo's sessions, each uploaded `daysAgo` days before the seed ran (the billing tab counts them there). */
export const DEMO_SESSIONS: { patient: string; eye: 'OD' | 'OS'; daysAgo: number; by: 'physician' | 'nurse' }[] = [
  { patient: 'Maria Schneider', eye: 'OD', daysAgo: 92, by: 'physician' },
  { patient: 'Maria Schneider', eye: 'OD', daysAgo: 2, by: 'nurse' },
  { patient: 'Thomas Becker', eye: 'OD', daysAgo: 1, by: 'physician' },
  { patient: 'Elena Fischer', eye: 'OS', daysAgo: 4, by: 'nurse' },
  { patient: 'Klaus Wagner', eye: 'OS', daysAgo: 7, by: 'physician' },
  { patient: 'Günter Schäfer', eye: 'OD', daysAgo: 35, by: 'physician' },
];
