// @vitest-environment node
// The signed events API's checks one by one (issue 27, defect 11): a request signed as the `pusher` SDK signs
// it passes, and each part changed on its own (key, version, timestamp, body checksum, signature) is refused.
import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { eventsApiAllowed, PusherApiError, verifySignedRequest } from './events-api';

const config = { key: 'app-key', secret: '6f1c9a2e7d4b8053a1e6c9f2d7b4a8e1' };
const path = '/apps/macula/events';
const body = JSON.stringify({ name: 'treatment.modified', channel: 'private-clinic-1', data: '{}' });
const NOW = 1_790_000_000;

/** The query the SDK sends for `body` at `timestamp`, signed with `secret`. */
function signedQuery(overrides: Record<string, string> = {}, secret = config.secret, signedBody = body): Record<string, string> {
  const query: Record<string, string> = {
    auth_key: config.key,
    auth_timestamp: String(NOW),
    auth_version: '1.0',
    body_md5: createHash('md5').update(signedBody).digest('hex'),
    ...overrides,
  };
  const text = Object.keys(query).sort().map((name) => `${name}=${query[name]}`).join('&');
  return { ...query, auth_signature: createHmac('sha256', secret).update(`POST\n${path}\n${text}`).digest('hex') };
}

const check = (query: Record<string, string>, sent = body, now = NOW) => () => verifySignedRequest(config, { method: 'POST', path, query, body: sent }, now);

function refusal(run: () => void): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(PusherApiError);
    expect((error as PusherApiError).status).toBe(401);
    return (error as Error).message;
  }
  throw new Error('the request was taken');
}

describe('a signed events request', () => {
  it('is taken as the SDK signs it, within 600 seconds either way', () => {
    expect(check(signedQuery())).not.toThrow();
    expect(check(signedQuery(), body, NOW + 600)).not.toThrow();
    expect(check(signedQuery(), body, NOW - 600)).not.toThrow();
  });

  it('is refused for another app key, even signed', () => {
    expect(refusal(check(signedQuery({ auth_key: 'other-key' })))).toBe('Unknown auth_key');
  });

  it('is refused for another auth_version, even signed', () => {
    expect(refusal(check(signedQuery({ auth_version: '2.0' })))).toBe('auth_version must be 1.0');
  });

  it('is refused more than 600 seconds early or late, or without a timestamp', () => {
    expect(refusal(check(signedQuery(), body, NOW + 601))).toMatch(/^Timestamp expired/);
    expect(refusal(check(signedQuery(), body, NOW - 601))).toMatch(/^Timestamp expired/);
    expect(refusal(check(signedQuery({ auth_timestamp: 'soon' })))).toMatch(/^Timestamp expired/);
  });

  it('is refused when the body is not the one its body_md5 names, though the signature fits the query', () => {
    expect(refusal(check(signedQuery(), body.replace('private-clinic-1', 'private-clinic-2')))).toBe('body_md5 does not match the body');
  });

  it('is refused with a signature of another secret, or of other query values', () => {
    expect(refusal(check(signedQuery({}, 'another-secret-of-twenty-chars')))).toBe('Invalid signature');
    const query = signedQuery();
    expect(refusal(check({ ...query, auth_timestamp: String(NOW + 1) }))).toBe('Invalid signature');
    expect(refusal(check({ ...query, auth_signature: query.auth_signature.slice(0, -1) }))).toBe('Invalid signature');
    expect(refusal(check({ ...query, auth_signature: '' }))).toBe('Invalid signature');
  });
});

describe('where the events API answers', () => {
  const request = (remoteAddress: string, headers: Record<string, string> = {}) => ({ headers, socket: { remoteAddress } }) as never;

  it('by default only straight from this machine, never through a proxy', () => {
    const allowed = eventsApiAllowed(['loopback']);
    expect(allowed(request('127.0.0.1'))).toBe(true);
    expect(allowed(request('::1'))).toBe(true);
    expect(allowed(request('203.0.113.5'))).toBe(false);
    expect(allowed(request('10.0.0.7'))).toBe(false);
    // nginx on the same machine passing /apps/ on: the proxy's headers give it away.
    expect(allowed(request('127.0.0.1', { 'x-forwarded-for': '203.0.113.5' }))).toBe(false);
    expect(allowed(request('127.0.0.1', { forwarded: 'for=203.0.113.5' }))).toBe(false);
  });

  it('from the networks the deployment names (REALTIME_EVENTS_API_FROM)', () => {
    const allowed = eventsApiAllowed(['10.0.0.0/8']);
    expect(allowed(request('10.1.2.3'))).toBe(true);
    expect(allowed(request('127.0.0.1'))).toBe(false);
  });
});
