import { describe, expect, it } from 'vitest';
import { idlePhase, latestActivity, warningPeriodMs } from './idle-timer';

const MINUTE = 60_000;

describe('idlePhase', () => {
  const idle = 30 * MINUTE;

  it('is active until the warning period before the interval ends', () => {
    expect(idlePhase(29 * MINUTE - 1, 0, idle)).toEqual({ phase: 'active' });
  });

  it('warns during the last minute, counting whole seconds down', () => {
    expect(idlePhase(29 * MINUTE, 0, idle)).toEqual({ phase: 'warning', secondsLeft: 60 });
    expect(idlePhase(30 * MINUTE - 1500, 0, idle)).toEqual({ phase: 'warning', secondsLeft: 2 });
  });

  it('expires when the interval has passed without activity', () => {
    expect(idlePhase(30 * MINUTE, 0, idle)).toEqual({ phase: 'expired' });
  });

  it('warns for half the interval at most when the interval is short', () => {
    expect(warningPeriodMs(MINUTE)).toBe(30_000);
    expect(idlePhase(29_000, 0, MINUTE)).toEqual({ phase: 'active' });
    expect(idlePhase(30_000, 0, MINUTE)).toEqual({ phase: 'warning', secondsLeft: 30 });
  });
});

describe('latestActivity', () => {
  it('takes activity in another tab into account', () => {
    expect(latestActivity(1000, '5000')).toBe(5000);
    expect(latestActivity(5000, '1000')).toBe(5000);
  });

  it('ignores a missing or malformed stored value', () => {
    expect(latestActivity(1000, null)).toBe(1000);
    expect(latestActivity(1000, 'soon')).toBe(1000);
  });
});
