// Security headers on the page, the assets and the API: a Content-Security-Policy without inline script,
// no framing, no sniffing, no Referer, a Permissions-Policy; API answers never cached; HSTS exactly when
// PUBLIC_URL is https.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClinic, createUser, PASSWORD } from './fixtures';
import { startServer, type TestServer } from './helper';

const spaDir = mkdtempSync(join(tmpdir(), 'macula-headers-'));
let server: TestServer;
let secure: TestServer;

beforeAll(async () => {
  writeFileSync(join(spaDir, 'index.html'), '<!doctype html><title>Macula Planner</title><div id="root"></div>');
  mkdirSync(join(spaDir, 'assets'));
  writeFileSync(join(spaDir, 'assets', 'app-abc123.js'), 'console.log("app")');
  server = await startServer({ spaDir });
  secure = await startServer({ spaDir, env: { PUBLIC_URL: 'https://planner.klinik.example' } });
});
afterAll(async () => {
  await server.close();
  await secure.close();
  rmSync(spaDir, { recursive: true, force: true });
});

/** The CSP as directive → sources. */
function policyOf(headers: Headers): Record<string, string[]> {
  const csp = headers.get('content-security-policy');
  expect(csp, 'Content-Security-Policy').toBeTruthy();
  return Object.fromEntries(
    csp!
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...sources]) => [name, sources]),
  );
}

describe('every answer', () => {
  it.each(['/', '/sign-in', '/assets/app-abc123.js', '/api/no-such-call', '/assets/missing.js'])('%s carries the security headers', async (path) => {
    const answer = await fetch(`${server.url}${path}`);
    const csp = policyOf(answer.headers);
    expect(csp['default-src']).toEqual(["'self'"]);
    // Scripts from the app's own origin only: no inline script, no eval, no other host.
    expect(csp['script-src']).toEqual(["'self'"]);
    expect(csp['object-src']).toEqual(["'none'"]);
    expect(csp['frame-ancestors']).toEqual(["'none'"]);
    expect(csp['connect-src']).toEqual(["'self'"]);
    expect(csp['img-src']).toEqual(expect.arrayContaining(["'self'", 'blob:', 'data:']));
    expect(csp['base-uri']).toEqual(["'self'"]);
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    expect(answer.headers.get('x-frame-options')).toBe('DENY');
    expect(answer.headers.get('referrer-policy')).toBe('no-referrer');
    expect(answer.headers.get('permissions-policy')).toMatch(/camera=\(\).*microphone=\(\).*geolocation=\(\)/);
    // Plain http (localhost, a test clinic): no HSTS, no upgrade of requests.
    expect(answer.headers.get('strict-transport-security')).toBeNull();
    expect(csp['upgrade-insecure-requests']).toBeUndefined();
  });
});

describe('API answers', () => {
  it('are never cached: account data, errors, public calls', async () => {
    const clinicId = await createClinic(server.db);
    const user = await createUser(server.db, { clinicId, role: 'clinic_physicians' });
    const signedIn = await server.call<{ data: { token: string } }>('POST', '/sign-in', {
      json: { email: user.email, password: PASSWORD, remember: false },
    });
    expect(signedIn.status).toBe(200);
    expect(signedIn.headers.get('cache-control')).toBe('no-store');
    const token = signedIn.body.data.token;
    const answers = [
      await server.call('GET', '/user/profile', { token }),
      await server.call('GET', '/patients', { token }),
      await server.call('GET', '/user/profile'),
      await server.call('POST', '/reset-password', { json: { email: 'nobody@clinic.example' } }),
      await server.call('GET', '/no-such-call'),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 401, 200, 404]);
    for (const answer of answers) expect(answer.headers.get('cache-control')).toBe('no-store');
  });

  it('leave static files to their own cache rules', async () => {
    const answer = await fetch(`${server.url}/assets/app-abc123.js`);
    expect(answer.headers.get('cache-control')).not.toBe('no-store');
  });
});

describe('with PUBLIC_URL on https', () => {
  it.each(['/', '/api/no-such-call'])('%s tells browsers to use https only, for a year', async (path) => {
    const answer = await fetch(`${secure.url}${path}`);
    expect(answer.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    expect(policyOf(answer.headers)['upgrade-insecure-requests']).toEqual([]);
  });
});
