import { afterEach, describe, expect, it, vi } from 'vitest';
import { connectRealtime, realtimeState, socketAddress } from './realtime';

const PAGE = { href: 'https://planner.clinic.example/physician/list' };
const OWN = { key: 'macula-local-key', cluster: 'mt1', host: null, port: null, forceTLS: null };

describe('socketAddress', () => {
  it('puts the own endpoint beside the API: same host and port, the API path as prefix, TLS as the API', () => {
    expect(socketAddress(OWN, '/api', PAGE)).toEqual({ wsHost: 'planner.clinic.example', wsPort: 443, wssPort: 443, wsPath: '/api', forceTLS: true });
    expect(socketAddress(OWN, 'http://127.0.0.1:8080/api', PAGE)).toEqual({ wsHost: '127.0.0.1', wsPort: 8080, wssPort: 8080, wsPath: '/api', forceTLS: false });
  });

  it('uses the external service the settings name (hosted Pusher, soketi)', () => {
    expect(socketAddress({ ...OWN, host: 'ws-mt1.pusher.com', port: 443, forceTLS: true }, '/api', PAGE)).toEqual({
      wsHost: 'ws-mt1.pusher.com',
      wsPort: 443,
      wssPort: 443,
      wsPath: '',
      forceTLS: true,
    });
    expect(socketAddress({ ...OWN, host: 'soketi.internal', port: 6001, forceTLS: false }, '/api', PAGE)).toMatchObject({ wsPort: 6001, forceTLS: false });
  });
});

describe('connectRealtime', () => {
  afterEach(() => vi.restoreAllMocks());
  const options = { settings: OWN, apiBaseUrl: '/api', channels: [], authorize: async () => ({ auth: '' }), onEvent: () => {} };

  it('connects only with a token, and logs (never throws) what stops it: no token, bad token, bad settings', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    connectRealtime({ ...options, token: null })();
    connectRealtime({ ...options, token: 'short' })();
    connectRealtime({ ...options, token: 'x'.repeat(43), settings: { ...OWN, key: '' } })();
    expect(warn.mock.calls.map((call) => call[0])).toEqual(['[realtime] missing token', '[realtime] invalid token format', '[realtime] invalid configuration']);
    expect(realtimeState()).toBe('disconnected');
  });

  it('without a configured service (key null, as on the mock) is off, quietly, and tries no connection', () => {
    const logged = [vi.spyOn(console, 'warn').mockImplementation(() => {}), vi.spyOn(console, 'error').mockImplementation(() => {})];
    const disconnect = connectRealtime({ ...options, token: 'x'.repeat(43), settings: { ...OWN, key: null } });
    expect(realtimeState()).toBe('off');
    expect(logged.flatMap((spy) => spy.mock.calls)).toEqual([]);
    disconnect();
    expect(realtimeState()).toBe('disconnected');
  });
});
