import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DeviceApiError, type DeviceApi } from './client';
import { backoffMs, MAX_BACKOFF_MS, SyncApp, type SyncEvent } from './sync-app';

/** A sync app whose waits are recorded instead of waited, stopped after `beats` heartbeats. */
function appWith(answers: (() => unknown)[], beats = 1) {
  const events: SyncEvent[] = [];
  const waits: number[] = [];
  let calls = 0;
  let done = 0;
  const api = {
    heartbeat: async () => {
      const answer = answers[Math.min(calls++, answers.length - 1)]();
      return answer;
    },
  } as unknown as DeviceApi;
  const app = new SyncApp(api, { version: '1.0.0', log: (event) => events.push(event), random: () => 0 });
  app.sleep = async (ms: number) => {
    waits.push(ms);
    if (events.at(-1)?.kind === 'online' || waits.length > 20) {
      done += 1;
      if (done >= beats) app.stop();
    }
  };
  return { app, events, waits };
}

const beat = () => ({ status: 'Success', data: { id: 'd', deviceId: 'NAV-1', syncAppStatus: 'RUNNING', lastSeenAt: '', heartbeatSeconds: 10, offlineAfterSeconds: 30 } });
const unreachable = () => {
  throw new DeviceApiError('connection refused', 0, null, null);
};

describe('back-off', () => {
  it('doubles from 1 s and stays within a minute, half of it random', () => {
    expect([1, 2, 3, 4].map((n) => backoffMs(n, () => 1))).toEqual([1000, 2000, 4000, 8000]);
    expect(backoffMs(3, () => 0)).toBe(2000);
    // What Math.random gives: fc.double also draws NaN unless told not to, and the property failed on it now and then.
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1000 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (failures, random) => {
        const ms = backoffMs(failures, () => random);
        return ms >= 500 && ms <= MAX_BACKOFF_MS;
      }),
    );
  });
});

describe('the sync app', () => {
  it('rides out a server it cannot reach, then reports itself every heartbeatSeconds', async () => {
    const { app, events, waits } = appWith([unreachable, unreachable, beat]);
    expect(await app.run()).toBe('stopped');
    expect(events.map((event) => event.kind)).toEqual(['retrying', 'retrying', 'online']);
    expect(waits).toEqual([500, 1000, 10_000]);
  });

  it('waits as long as the server asks (Retry-After) when it is rate-limited', async () => {
    const limited = () => {
      throw new DeviceApiError('too many', 429, 'device.rate_limited', 7);
    };
    const { app, waits } = appWith([limited, beat]);
    await app.run();
    expect(waits[0]).toBe(7000);
  });

  it('stops when its credential is refused (revoked), without retrying', async () => {
    const revoked = () => {
      throw new DeviceApiError('revoked', 401, 'device.unauthenticated', null);
    };
    const { app, events } = appWith([beat, revoked], 2);
    expect(await app.run()).toBe('refused');
    expect(events.map((event) => event.kind)).toEqual(['online', 'refused']);
  });
});
