// Interval lengths of the security settings (months and years as 30 and 365 days).
const MINUTE = 60_000;
const LENGTH: Record<string, number> = {
  minutes: MINUTE,
  hours: 60 * MINUTE,
  days: 24 * 60 * MINUTE,
  months: 30 * 24 * 60 * MINUTE,
  years: 365 * 24 * 60 * MINUTE,
};

/** Milliseconds of `interval` periods, or null when the interval is off. */
export function periodMs(interval: number | null, period: string): number | null {
  if (interval === null) return null;
  return interval * (LENGTH[period] ?? LENGTH.days);
}
