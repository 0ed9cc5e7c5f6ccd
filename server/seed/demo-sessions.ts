// The demo clinic's exam sessions, apart from the seed so that the journeys can read them without the server's
// modules (the billing journey counts them by month).

/**
 * The demo's sessions, each uploaded `daysAgo` days before the seed ran (the billing tab counts them there).
 * `signedOff`: planned as proposed and signed off by the physician on the day of the exam (one hour later), its
 * parameter set packed then. `sameEyeAs`: the eye of that earlier session (index), photographed again under
 * `pose` — Maria Schneider's second session shows her first session's treatment on today's image (issue 17).
 */
export const DEMO_SESSIONS: {
  patient: string;
  eye: 'OD' | 'OS';
  daysAgo: number;
  by: 'physician' | 'nurse';
  signedOff?: true;
  sameEyeAs?: { session: number; pose: { rotationDeg: number; scale: number; shiftPx: { x: number; y: number }; gain: number } };
}[] = [
  { patient: 'Maria Schneider', eye: 'OD', daysAgo: 92, by: 'physician', signedOff: true },
  {
    patient: 'Maria Schneider',
    eye: 'OD',
    daysAgo: 2,
    by: 'nurse',
    sameEyeAs: { session: 0, pose: { rotationDeg: -6, scale: 1.04, shiftPx: { x: 38, y: -22 }, gain: 1.08 } },
  },
  { patient: 'Thomas Becker', eye: 'OD', daysAgo: 1, by: 'physician' },
  { patient: 'Elena Fischer', eye: 'OS', daysAgo: 4, by: 'nurse' },
  { patient: 'Klaus Wagner', eye: 'OS', daysAgo: 7, by: 'physician' },
  { patient: 'Günter Schäfer', eye: 'OD', daysAgo: 35, by: 'physician' },
];
