/** Shared by the tabs of one browser: the last user activity in any of them (epoch ms). */
export const LAST_ACTIVITY_KEY = 'lastActivityAt';

/** The warning shows at most this long before the idle logout, and never for more than half the interval. */
const MAX_WARNING_MS = 60_000;

export type IdlePhase =
  | { phase: 'active' }
  | { phase: 'warning'; secondsLeft: number }
  | { phase: 'expired' };

export const warningPeriodMs = (idleMs: number): number => Math.min(MAX_WARNING_MS, idleMs / 2);

/** Where a session stands `now`, given its last activity and the clinic's idle interval. */
export function idlePhase(now: number, lastActivity: number, idleMs: number): IdlePhase {
  const left = lastActivity + idleMs - now;
  if (left <= 0) return { phase: 'expired' };
  if (left <= warningPeriodMs(idleMs)) return { phase: 'warning', secondsLeft: Math.ceil(left / 1000) };
  return { phase: 'active' };
}

/** The later of two activity times; a missing or malformed stored value counts as no activity. */
export function latestActivity(own: number, stored: string | null): number {
  const shared = Number(stored);
  return Number.isFinite(shared) && shared > own ? shared : own;
}
