// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { IDLE_LOGOUT_BOUNDS, periodMs, RENEWAL_BOUNDS, withinBounds } from './setting-bounds';

describe('security setting bounds', () => {
  it('take a renewal from 30 days to 3 years, never in minutes or hours', () => {
    expect(withinBounds(1, 'minutes', RENEWAL_BOUNDS)).toBe(false);
    expect(withinBounds(1000, 'hours', RENEWAL_BOUNDS)).toBe(false);
    expect(withinBounds(29, 'days', RENEWAL_BOUNDS)).toBe(false);
    expect(withinBounds(30, 'days', RENEWAL_BOUNDS)).toBe(true);
    expect(withinBounds(1, 'months', RENEWAL_BOUNDS)).toBe(true);
    expect(withinBounds(3, 'years', RENEWAL_BOUNDS)).toBe(true);
    expect(withinBounds(1096, 'days', RENEWAL_BOUNDS)).toBe(false);
    expect(withinBounds(4, 'years', RENEWAL_BOUNDS)).toBe(false);
    expect(withinBounds(null, 'minutes', RENEWAL_BOUNDS)).toBe(true);
  });

  it('take an idle logout from 5 minutes to 12 hours', () => {
    expect(withinBounds(4, 'minutes', IDLE_LOGOUT_BOUNDS)).toBe(false);
    expect(withinBounds(5, 'minutes', IDLE_LOGOUT_BOUNDS)).toBe(true);
    expect(withinBounds(720, 'minutes', IDLE_LOGOUT_BOUNDS)).toBe(true);
    expect(withinBounds(12, 'hours', IDLE_LOGOUT_BOUNDS)).toBe(true);
    expect(withinBounds(13, 'hours', IDLE_LOGOUT_BOUNDS)).toBe(false);
    expect(withinBounds(1, 'days', IDLE_LOGOUT_BOUNDS)).toBe(false);
    expect(withinBounds(5, 'years', IDLE_LOGOUT_BOUNDS)).toBe(false);
    expect(withinBounds(null, 'years', IDLE_LOGOUT_BOUNDS)).toBe(true);
  });

  it('count months and years as 30 and 365 days, and an unknown period as days', () => {
    expect(periodMs(2, 'months')).toBe(60 * 86_400_000);
    expect(periodMs(1, 'years')).toBe(365 * 86_400_000);
    expect(periodMs(3, 'fortnights')).toBe(3 * 86_400_000);
    expect(periodMs(null, 'days')).toBeNull();
  });
});
