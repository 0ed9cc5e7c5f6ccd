// Bounds of the clinic's security settings (issue 27, defect 9): one setting must not be able to lock out the whole
// clinic. A password renewal shorter than a month, or one counted in minutes or hours, expires every password,
// the IT admin's too, faster than people can change them; an idle logout of years is no idle logout at all.
// - Renewal: 30 days to 3 years. Both NIST SP 800-63B (5.1.1.2) and the BSI IT-Grundschutz (ORP.4.A23) advise
//   against periodic renewal without cause; a clinic that still wants it gets a sensible range (90 days is common).
// - Idle logout: 5 minutes to 12 hours. HIPAA 164.312(a)(2)(iii) asks for automatic logoff after "a predetermined
//   time of inactivity"; 5 minutes keeps a treating physician from being signed out between two spots of a plan,
//   12 hours is a long clinic shift.
// Months and years count as 30 and 365 days (as the server computes expiry).

export type SettingPeriod = 'minutes' | 'hours' | 'days' | 'months' | 'years';

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

export const PERIOD_MS: Record<SettingPeriod, number> = {
  minutes: MINUTE_MS,
  hours: 60 * MINUTE_MS,
  days: DAY_MS,
  months: 30 * DAY_MS,
  years: 365 * DAY_MS,
};

export interface Bounds {
  /** The units the setting is counted in: a renewal in days or more, an idle logout in minutes or hours. */
  periods: readonly SettingPeriod[];
  minMs: number;
  maxMs: number;
}

export const RENEWAL_BOUNDS: Bounds = { periods: ['days', 'months', 'years'], minMs: 30 * DAY_MS, maxMs: 3 * 365 * DAY_MS };
export const IDLE_LOGOUT_BOUNDS: Bounds = { periods: ['minutes', 'hours'], minMs: 5 * MINUTE_MS, maxMs: 12 * 60 * MINUTE_MS };

/** Milliseconds of `interval` periods (an unknown period counts as days), or null when the interval is off. */
export function periodMs(interval: number | null, period: string): number | null {
  if (interval === null) return null;
  return interval * (PERIOD_MS[period as SettingPeriod] ?? DAY_MS);
}

/** True when the interval is off (null), or counted in one of the bounds' units with a length within them. */
export function withinBounds(interval: number | null, period: string, bounds: Bounds): boolean {
  const ms = periodMs(interval, period);
  return ms === null || ((bounds.periods as readonly string[]).includes(period) && ms >= bounds.minMs && ms <= bounds.maxMs);
}
