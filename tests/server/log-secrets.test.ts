// No log line carries a usable secret: the whole output of a server process at the most talkative level
// (trace, JSON) through an invite, a sign-in, a password reset and calls with bad credentials holds none
// of the one-time tokens, bearer tokens or passwords involved. E-mails are read from the outbox, whose
// file the log names.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createAdminCommand, type ServerProcess, spawnServer, stopServer } from './server-process';

const onPostgres = !!process.env.DATABASE_URL;
const dataDir = mkdtempSync(join(tmpdir(), 'macula-secrets-'));
let server: ServerProcess | null = null;

afterAll(async () => {
  if (server) await stopServer(server, 'SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

const FIRST_PASSWORD = 'Fovea-Ring-2026';
const NEW_PASSWORD = 'Laser-Spot-2027';

function newestMailTo(to: string): { file: string; token: string } {
  const dir = join(dataDir, 'outbox');
  const files = readdirSync(dir).filter((f) => f.endsWith('.eml')).sort().reverse();
  for (const file of files) {
    const text = readFileSync(join(dir, file), 'utf8').replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    if (!text.includes(`To: ${to}`)) continue;
    const token = text.match(/[?&]token=([\w%-]+)/)?.[1];
    if (token) return { file, token: decodeURIComponent(token) };
  }
  throw new Error(`no e-mail with a link to ${to}`);
}

async function call(method: string, path: string, options: { json?: unknown; token?: string } = {}) {
  const headers: Record<string, string> = {};
  if (options.json !== undefined) headers['Content-Type'] = 'application/json';
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  const answer = await fetch(`${server!.url}/api${path}`, {
    method,
    headers,
    body: options.json === undefined ? undefined : JSON.stringify(options.json),
  });
  return { status: answer.status, body: (await answer.json()) as { data?: { token?: string } } };
}

// A server process on its own PGlite directory (on PostgreSQL it would share the public schema).
describe.skipIf(onPostgres)('the server log', () => {
  it('holds no token or password, and names the outbox file of each e-mail', async () => {
    const email = 'it@secrets.example';
    const created = await createAdminCommand(dataDir, ['--clinic', 'Augenklinik Geheim', '--email', email, '--first-name', 'Eva', '--last-name', 'Roth']);
    expect(created.code, created.stderr).toBe(0);
    const invite = newestMailTo(email).token;

    server = await spawnServer(dataDir, { LOG_LEVEL: 'trace', LOG_FORMAT: 'json' });
    expect(server.child.exitCode, server.output()).toBeNull();

    expect((await call('GET', `/user-invites?token=${encodeURIComponent(invite)}`)).status).toBe(200);
    const accepted = await call('POST', '/accept-invite', {
      json: { token: invite, password: FIRST_PASSWORD, passwordConfirmation: FIRST_PASSWORD, acceptEula: true, acceptPrivacyNotice: true },
    });
    expect(accepted.status).toBe(200);
    expect((await call('POST', '/sign-in', { json: { email, password: 'Wrong-Password-1', remember: false } })).status).toBe(401);
    const signedIn = await call('POST', '/sign-in', { json: { email, password: FIRST_PASSWORD, remember: false } });
    expect(signedIn.status).toBe(200);
    const bearer = signedIn.body.data!.token!;
    expect((await call('GET', '/user/profile', { token: bearer })).status).toBe(200);
    expect((await call('GET', '/user/profile', { token: `${bearer.slice(0, -4)}AAAA` })).status).toBe(401);

    expect((await call('POST', '/reset-password', { json: { email } })).status).toBe(200);
    // The reset e-mail is written just after the answer.
    let reset: { file: string; token: string } | null = null;
    for (let i = 0; i < 50 && (!reset || reset.token === invite); i += 1) {
      await new Promise((r) => setTimeout(r, 100));
      reset = newestMailTo(email);
    }
    if (!reset || reset.token === invite) throw new Error('no reset e-mail');
    expect((await call('GET', `/reset-confirmation?token=${encodeURIComponent(reset.token)}`)).status).toBe(200);
    const confirmed = await call('POST', '/reset-confirmation', {
      json: { token: reset.token, password: NEW_PASSWORD, passwordConfirmation: NEW_PASSWORD },
    });
    expect(confirmed.status).toBe(200);
    // Used links and malformed bodies are logged too (as failures).
    expect((await call('POST', '/reset-confirmation', { json: { token: reset.token, password: NEW_PASSWORD, passwordConfirmation: NEW_PASSWORD } })).status).toBe(404);
    await stopServer(server);

    const log = server.output();
    expect(log).toContain('incoming request');
    for (const [name, secret] of Object.entries({ invite, bearer, reset: reset.token, FIRST_PASSWORD, NEW_PASSWORD, encodedInvite: encodeURIComponent(invite) })) {
      expect(log.includes(secret), `${name} in the log`).toBe(false);
    }
    expect(log).toContain(`written to ${join(dataDir, 'outbox', reset.file)}`);
  }, 120_000);
});
