// Whose address the server sees (throttling, the audit, a session's "from where"): the connection's own unless
// TRUST_PROXY names the proxies in front, and then only as many X-Forwarded-For hops as it says: a client
// that adds its own entries in front of the proxy's cannot choose its address (issue 27, defect 6).
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { createClinic, createUser, PASSWORD } from './fixtures';
import { startServer, type TestServer } from './helper';

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

/** The address the server recorded for a sign-in sent with this X-Forwarded-For header. */
async function addressSeen(trustProxy: string, forwardedFor: string): Promise<string | null> {
  server = await startServer({ env: { TRUST_PROXY: trustProxy } });
  const user = await createUser(server.db, { clinicId: await createClinic(server.db), role: 'clinic_physicians' });
  const answer = await server.call('POST', '/sign-in', { json: { email: user.email, password: PASSWORD }, headers: { 'X-Forwarded-For': forwardedFor } });
  expect(answer.status).toBe(200);
  const session = await server.db.selectFrom('auth_sessions').select('ip').where('user_id', '=', user.id).executeTakeFirstOrThrow();
  return session.ip;
}

describe('the client address behind proxies', () => {
  it('is the connection\'s own without TRUST_PROXY: the header is ignored', async () => {
    expect(await addressSeen('0', '203.0.113.9')).toBe('127.0.0.1');
  });

  it('is the entry the one proxy in front added with TRUST_PROXY=1, not one the client put before it', async () => {
    expect(await addressSeen('1', '6.6.6.6, 203.0.113.7')).toBe('203.0.113.7');
  });

  it('goes as many hops back as TRUST_PROXY counts proxies', async () => {
    expect(await addressSeen('2', '6.6.6.6, 198.51.100.1, 10.0.0.2')).toBe('198.51.100.1');
  });

  it('believes only the proxies TRUST_PROXY names by address or network', async () => {
    expect(await addressSeen('127.0.0.1, 10.0.0.0/8', '6.6.6.6, 198.51.100.2, 10.1.2.3')).toBe('198.51.100.2');
    await server!.close();
    // The connection comes from 127.0.0.1, which is not one of the proxies named: its own address counts.
    expect(await addressSeen('10.0.0.0/8', '198.51.100.3')).toBe('127.0.0.1');
  });
});

describe('TRUST_PROXY', () => {
  it('takes 0, a number of proxies or their addresses', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, fd00::/8,loopback' }).trustProxy).toEqual(['10.0.0.0/8', 'fd00::/8', 'loopback']);
  });

  it('refuses to believe every hop, and anything that names no proxy', () => {
    for (const value of ['true', 'yes', '11', '10.0.0.0/33', '10.0.0.1/8/2', 'proxy.example', '10.0.0.1,', '-1']) {
      expect(() => loadConfig({ TRUST_PROXY: value }), value).toThrow('TRUST_PROXY must be 0, the number of proxies in front');
    }
  });
});
