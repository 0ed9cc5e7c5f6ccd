// The request edges of issue 10, as an outside probe met them: prototype keys in bodies, wrong content
// types, malformed multipart, stalled and oversized uploads, empty bodies, odd paths and query strings.
// Every answer must be an envelope with a status the contract lists for the operation (`call` checks it).
import { connect } from 'node:net';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createClinic, createUser, sessionFor } from './fixtures';
import { startServer, type TestServer, watchFolder } from './helper';
import { notify } from '../../server/services/notifications';

let server: TestServer;
let clinicId: string;
let physician: { id: string; token: string };
let admin: { id: string; token: string };

async function staff(role: string, clinic = clinicId) {
  const user = await createUser(server.db, { clinicId: clinic, role });
  return { id: user.id, token: await sessionFor(server.db, user.id) };
}

beforeAll(async () => {
  server = await startServer({ env: { MAX_UPLOAD_MB: '1' } });
  clinicId = await createClinic(server.db);
  physician = await staff('clinic_physicians');
  admin = await staff('clinic_it_admins');
});
afterAll(() => server.close());

const UUID = '0b9f6c1e-5a39-4d8e-9c2a-3f1d7e2b8a10';

describe('prototype keys in JSON bodies (defect 1)', () => {
  for (const key of ['constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
    it(`answers an unknown field named ${key} with 422 naming it`, async () => {
      const answer = await server.call<{ errors: Record<string, string[]> }>('POST', '/notifications/read', {
        token: physician.token,
        body: `{"ids":["${UUID}"],"${key}":true}`,
        headers: { 'Content-Type': 'application/json' },
      });
      expect(answer.status).toBe(422);
      expect(Object.keys(answer.body.errors)).toEqual([key]);
      expect(answer.body.errors[key]).toEqual(['This field is not expected here.']);
    });
  }

  it('refuses __proto__ in a body with a listed 4xx envelope', async () => {
    for (const [path, token] of [
      ['/reset-confirmation', null],
      [`/patients/${UUID}`, physician.token],
      ['/notifications/read', physician.token],
    ] as const) {
      const answer = await server.call('POST', path, {
        token,
        body: '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}',
        headers: { 'Content-Type': 'application/json' },
      });
      expect([400, 422]).toContain(answer.status);
      expect(answer.body).toMatchObject({ status: 'Error' });
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('content types (defects 2 and 12)', () => {
  const jsonOperations: [string, string, 'physician' | 'admin' | null][] = [
    ['POST', '/reset-confirmation', null],
    ['POST', '/accept-invite', null],
    ['POST', '/patients', 'physician'],
    ['DELETE', '/patients', 'admin'],
    ['POST', `/patients/${UUID}/deletion-request`, 'physician'],
    ['POST', '/clinic/settings', 'admin'],
    ['POST', '/notifications/settings', 'physician'],
    ['DELETE', '/notifications', 'physician'],
    ['POST', '/users/bulkUpdate', 'admin'],
  ];
  for (const [method, path, who] of jsonOperations) {
    it(`answers ${method} ${path} with a wrong or missing Content-Type with 415`, async () => {
      const token = who === 'physician' ? physician.token : who === 'admin' ? admin.token : null;
      for (const contentType of ['text/plain', 'application/xml', 'application/x-www-form-urlencoded', null]) {
        const headers: Record<string, string> = contentType ? { 'Content-Type': contentType } : {};
        const answer = await server.call('POST' === method ? 'POST' : method, path, { token, body: '{"ids":["x"]}', headers });
        expect(answer.status, `${contentType}`).toBe(415);
        expect(answer.body).toMatchObject({ status: 'Error', code: 'request.unsupported_type' });
      }
    });
  }

  it('answers realtime authorisation sent as text with 415 (it takes a form or JSON)', async () => {
    const answer = await server.call('POST', '/broadcasting/auth', {
      token: physician.token,
      body: 'socket_id=1.2&channel_name=private-x',
      headers: { 'Content-Type': 'text/plain' },
    });
    expect(answer.status).toBe(415);
  });

  it('takes a logout sent with Content-Type: application/json and an empty body, and ends the session', async () => {
    const me = await staff('clinic_nurses');
    const answer = await server.call('POST', '/logout', { token: me.token, body: '', headers: { 'Content-Type': 'application/json' } });
    expect(answer.status).toBe(200);
    expect((await server.call('GET', '/user/profile', { token: me.token })).status).toBe(401);
  });

  it('ignores a body where an operation takes none, whatever its type', async () => {
    for (const [contentType, body] of [
      ['application/json', ''],
      ['application/json', 'not json'],
      ['application/xml', '<a/>'],
      ['multipart/form-data', '--x'],
      ['text/plain', 'hello'],
    ]) {
      const answer = await server.call('POST', `/users/${UUID}/invite`, { token: admin.token, body, headers: { 'Content-Type': contentType } });
      expect(answer.status, contentType).toBe(404);
    }
    const empty = await server.call('DELETE', `/patients/${UUID}`, { token: admin.token, body: '', headers: { 'Content-Type': 'application/json' } });
    expect(empty.status).toBe(404);
  });

  it('answers a multipart body of no bytes with 400, and one of no parts as an empty form', async () => {
    const nurse = await staff('clinic_nurses');
    const noBytes = await server.call('POST', `/users/${nurse.id}`, {
      token: admin.token,
      body: '',
      headers: { 'Content-Type': 'multipart/form-data; boundary=x' },
    });
    expect(noBytes.status).toBe(400);
    const emptyForm = await server.call('POST', '/user/profile', { token: physician.token, form: new FormData() });
    expect(emptyForm.status).toBe(422);
    expect(emptyForm.body).toMatchObject({ code: 'profile.nothing_to_change' });
  });

  it('answers an empty JSON body where one is required with 422, never 500', async () => {
    const answer = await server.call('POST', '/patients', { token: physician.token, body: '', headers: { 'Content-Type': 'application/json' } });
    expect(answer.status).toBe(422);
  });
});

describe('malformed multipart (defect 3)', () => {
  const cases: [string, string, string][] = [
    ['no boundary', 'multipart/form-data', '--x\r\nContent-Disposition: form-data; name="file"; filename="a.npt"\r\n\r\nabc\r\n--x--\r\n'],
    ['a wrong boundary', 'multipart/form-data; boundary=other', '--x\r\nContent-Disposition: form-data; name="file"; filename="a.npt"\r\n\r\nabc\r\n--x--\r\n'],
    ['a body cut before the closing boundary', 'multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="file"; filename="a.npt"\r\n\r\nabc'],
    ['a malformed part header', 'multipart/form-data; boundary=x', '--x\r\nContent-Disposition\r\n\r\nabc\r\n--x--\r\n'],
  ];
  for (const [name, contentType, body] of cases) {
    it(`answers an upload with ${name} with 400`, async () => {
      const answer = await server.call('POST', '/treatments', { token: physician.token, body, headers: { 'Content-Type': contentType } });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ status: 'Error', code: 'request.malformed' });
      const profile = await server.call('POST', '/user/profile', { token: physician.token, body, headers: { 'Content-Type': contentType } });
      expect(profile.status).toBe(400);
    });
  }
});

describe('bodies over the limit (defect 5)', () => {
  it('answers a JSON body over the limit with the 413 envelope', async () => {
    const answer = await server.call('POST', '/sign-in', {
      body: JSON.stringify({ email: 'a@b.example', password: 'x'.repeat(1_200_000) }),
      headers: { 'Content-Type': 'application/json' },
    });
    expect(answer.status).toBe(413);
    expect(answer.body).toMatchObject({ status: 'Error', code: 'request.too_large' });
  });

  it('answers an upload over the limit with the 413 envelope, also in German', async () => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(1_500_000)]), 'big.npt');
    const answer = await server.call('POST', '/treatments', { token: physician.token, form, lang: 'de' });
    expect(answer.status).toBe(413);
    expect(answer.body).toMatchObject({ status: 'Error', code: 'upload.too_large' });
  });

  it('refuses a declared Content-Length over the limit at once, before any body arrives', async () => {
    const reply = await rawRequest(
      `POST /api/treatments HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${physician.token}\r\n` +
        `Content-Type: multipart/form-data; boundary=x\r\nContent-Length: ${150 * 1024 * 1024}\r\n\r\n`,
      { waitMs: 5000 },
    );
    expect(reply.text).toMatch(/^HTTP\/1\.1 413/);
    expect(reply.text).toContain('"code":"upload.too_large"');
    expect(reply.elapsedMs).toBeLessThan(4000);
  });
});

describe('staging (defect 6)', () => {
  const stagingDir = () => join(server.dataDir, 'files', '.staging');
  const staged = () => readdirSync(stagingDir());

  it('leaves no staged file behind when an upload is refused', async () => {
    const watch = watchFolder(stagingDir());
    onTestFinished(() => watch.close());
    const twoFiles = new FormData();
    twoFiles.append('file', new Blob([new Uint8Array(2000)]), 'a.npt');
    twoFiles.append('file', new Blob([new Uint8Array(2000)]), 'b.npt');
    expect((await server.call('POST', '/treatments', { token: physician.token, form: twoFiles })).status).toBe(422);
    const extraField = new FormData();
    extraField.append('file', new Blob([new Uint8Array(2000)]), 'a.npt');
    extraField.append('other', new Blob([new Uint8Array(2000)]), 'b.npt');
    expect((await server.call('POST', '/treatments', { token: physician.token, form: extraField })).status).toBe(422);
    const notNpt = new FormData();
    notNpt.append('file', new Blob([new Uint8Array(2000)]), 'a.npt');
    expect((await server.call('POST', '/treatments', { token: physician.token, form: notNpt })).status).toBe(422);
    // Cut before its closing boundary: busboy answers 400 but may leave the part's stream open, which held its
    // staged file on disk for good (a CI run); the closed response now stops the staging.
    for (let round = 0; round < 5; round += 1) {
      const cut = await server.call('POST', '/treatments', {
        token: physician.token,
        body: `--x\r\nContent-Disposition: form-data; name="file"; filename="a.npt"\r\n\r\n${'a'.repeat(5000)}`,
        headers: { 'Content-Type': 'multipart/form-data; boundary=x' },
      });
      expect(cut.status).toBe(400);
    }
    // Removal follows the answer; on a loaded 2-core machine (the whole suite at once) that took over 3 s.
    await until(() => staged().length === 0, 15_000);
    // The refused uploads were staged here, so the empty folder means they were removed.
    expect(await watch.seen()).not.toEqual([]);
    expect(staged()).toEqual([]);
  });

  it('sweeps at start what a stopped process left', async () => {
    const { mkdirSync, writeFileSync, utimesSync } = await import('node:fs');
    const dir = join(server.dataDir, 'files', '.staging');
    mkdirSync(dir, { recursive: true });
    const left = join(dir, 'left-by-a-crash');
    writeFileSync(left, 'x');
    const old = new Date(Date.now() - 2 * 60 * 60 * 1000);
    utimesSync(left, old, old);
    expect(await server.ctx.files.sweepStaging(server.ctx.config.requestTimeoutMs)).toBe(1);
    expect(staged()).toEqual([]);
  });
});

describe('paths, ids and query strings (defect 13)', () => {
  it('answers very long ids with 404, not 414', async () => {
    const answer = await server.call('GET', `/patients/${'a'.repeat(8000)}`, { token: physician.token });
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ status: 'Error', code: 'resource.not_found' });
  });

  it('answers undecodable percent-escapes in a path with a 404 envelope', async () => {
    for (const path of ['/patients/%ff%fe', '/treatments/%ff%fe/plan', '/users/%c0%af', '/patients/%00', `/treatments/${UUID}%00/plan`]) {
      const answer = await server.call('GET', path, { token: physician.token });
      expect(answer.status, path).toBe(404);
      expect(answer.body).toMatchObject({ status: 'Error' });
    }
  });

  it('takes ids in capitals as the same uuid', async () => {
    const other = await staff('clinic_nurses');
    const answer = await server.call('DELETE', `/users/${other.id.toUpperCase()}`, { token: admin.token });
    expect([200, 409]).toContain(answer.status);
    const read = await server.call('GET', `/users/${other.id.toUpperCase()}`, { token: admin.token });
    expect(read.status).toBe(200);
  });

  it('answers out-of-range and repeated query values with 422', async () => {
    for (const query of ['page=1e400', 'page=99999999999999999999', 'perPage=1e400', 'page=1&page=2', 'search=%00']) {
      const answer = await server.call('GET', `/patients?${query}`, { token: physician.token });
      expect(answer.status, query).toBe(422);
    }
  });

  it('ignores a query parameter the operation does not declare, whatever it holds (issue 27, defect 12)', async () => {
    for (const [path, token] of [
      ['/user/profile', physician.token],
      ['/clinic/settings', admin.token],
      ['/notifications', physician.token],
    ]) {
      for (const query of ['x=%00', 'x=%ff%fe', 'x=%ud800', '__proto__=%00']) {
        const answer = await server.call('GET', `${path}?${query}`, { token });
        expect(answer.status, `${path}?${query}`).toBe(200);
      }
    }
    // A declared one is still checked.
    expect((await server.call('GET', '/patients?search=%00&x=%00', { token: physician.token })).status).toBe(422);
  });

  it('answers a NUL character in a text field with 422 naming the field', async () => {
    const signIn = await server.call<{ errors: Record<string, string[]> }>('POST', '/sign-in', { json: { email: 'a\u0000@b.example', password: 'x' } });
    expect(signIn.status).toBe(422);
    expect(Object.keys(signIn.body.errors)).toEqual(['email']);
    const patient = await server.call('POST', '/patients', {
      token: physician.token,
      json: { name: 'Maria\u0000', secondName: 'Schneider', birthday: '1960-01-01', gender: 'female' },
    });
    expect(patient.status).toBe(422);
    const form = await server.call('POST', '/broadcasting/auth', {
      token: physician.token,
      body: 'socket_id=1.2&channel_name=%00',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(422);
  });

  it('answers half a surrogate pair in a text field with 422, and a body nested beyond any of the contract with 400', async () => {
    const auth = await server.call<{ errors: Record<string, string[]> }>('POST', '/broadcasting/auth', {
      token: physician.token,
      json: { socket_id: '1.2', channel_name: 'private-\ud800' },
      lang: 'de',
    });
    expect(auth.status).toBe(422);
    expect(auth.body.errors.channel_name).toEqual(['Dieser Wert enthält unzulässige Zeichen.']);
    const nested = await server.call('POST', '/sign-in', { body: `${'['.repeat(5000)}${']'.repeat(5000)}`, headers: { 'Content-Type': 'application/json' } });
    expect(nested.status).toBe(400);
  });

  it('answers another user’s or clinic’s notification ids with 404 and changes nothing', async () => {
    const me = await staff('clinic_physicians');
    const foreignClinic = await createClinic(server.db, 'Augenklinik Anderswo');
    const foreigner = await staff('clinic_physicians', foreignClinic);
    await notify(server.ctx, { clinicId: foreignClinic, to: { userIds: [foreigner.id] }, event: 'invite_accepted', params: { name: 'Stefan Krüger' } });
    await notify(server.ctx, { clinicId, to: { userIds: [me.id] }, event: 'invite_accepted', params: { name: 'Stefan Krüger' } });
    const theirs = await server.db.selectFrom('notifications').select('id').where('user_id', '=', foreigner.id).executeTakeFirstOrThrow();
    const mine = await server.db.selectFrom('notifications').select('id').where('user_id', '=', me.id).executeTakeFirstOrThrow();
    const read = await server.call('POST', '/notifications/read', { token: me.token, json: { ids: [mine.id, theirs.id] } });
    expect(read.status).toBe(404);
    const removed = await server.call('DELETE', '/notifications', { token: me.token, json: { ids: [theirs.id] } });
    expect(removed.status).toBe(404);
    const left = await server.db.selectFrom('notifications').select(['id', 'read_at']).where('id', 'in', [mine.id, theirs.id]).execute();
    expect(left).toHaveLength(2);
    expect(left.every((row) => row.read_at === null)).toBe(true);
  });
});

describe('timeouts (defect 4)', () => {
  let slow: TestServer;
  let token: string;
  beforeAll(async () => {
    slow = await startServer({ env: { IDLE_TIMEOUT_SECONDS: '1', REQUEST_TIMEOUT_SECONDS: '3' } });
    const user = await createUser(slow.db, { clinicId: await createClinic(slow.db), role: 'clinic_physicians' });
    token = await sessionFor(slow.db, user.id);
  });
  afterAll(() => slow.close());

  it('closes an upload whose body stops arriving after the idle timeout, leaving nothing staged', async () => {
    const stagingDir = join(slow.dataDir, 'files', '.staging');
    const watch = watchFolder(stagingDir);
    onTestFinished(() => watch.close());
    const reply = await rawRequest(
      `POST /api/treatments HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n` +
        'Content-Type: multipart/form-data; boundary=x\r\nContent-Length: 100000\r\n\r\n' +
        '--x\r\nContent-Disposition: form-data; name="file"; filename="a.npt"\r\n\r\nPK',
      { url: slow.url, waitMs: 8000 },
    );
    expect(reply.closed).toBe(true);
    expect(reply.elapsedMs).toBeLessThan(2500);
    await until(() => readdirSync(stagingDir).length === 0);
    // The upload's first bytes were staged, so the empty folder means they were removed.
    expect(await watch.seen()).not.toEqual([]);
    expect(readdirSync(stagingDir)).toEqual([]);
  });

  it('answers an upload without a sign-in at once and closes, without waiting for its body', async () => {
    const reply = await rawRequest(
      'POST /api/treatments HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=x\r\nContent-Length: 100000\r\n\r\n--x\r\n',
      { url: slow.url, waitMs: 8000 },
    );
    expect(reply.text).toMatch(/^HTTP\/1\.1 401/);
    expect(reply.closed).toBe(true);
    expect(reply.elapsedMs).toBeLessThan(900);
  });

  it('ends a request that trickles on past the request timeout with a 408 envelope', async () => {
    const reply = await rawRequest(
      'POST /api/sign-in HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 50000\r\n\r\n{',
      { url: slow.url, waitMs: 8000, trickle: ' ' },
    );
    expect(reply.closed).toBe(true);
    expect(reply.elapsedMs).toBeLessThan(6500);
    expect(reply.text).toMatch(/^HTTP\/1\.1 408/);
    expect(reply.text).toContain('"status":"Error"');
  });
});

async function until(condition: () => boolean, timeoutMs = 3000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!condition() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 25));
}

/** Writes raw bytes to the server and collects what comes back until it closes or `waitMs` passes. */
function rawRequest(
  head: string,
  options: { url?: string; waitMs: number; trickle?: string },
): Promise<{ text: string; closed: boolean; elapsedMs: number }> {
  const { hostname, port } = new URL(options.url ?? server.url);
  const started = Date.now();
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let text = '';
    let timer: NodeJS.Timeout | undefined;
    const finish = (closed: boolean) => {
      clearTimeout(limit);
      clearInterval(timer);
      socket.destroy();
      resolve({ text, closed, elapsedMs: Date.now() - started });
    };
    const limit = setTimeout(() => finish(false), options.waitMs);
    socket.on('data', (chunk) => (text += chunk.toString('utf8')));
    socket.on('close', () => finish(true));
    socket.on('error', () => finish(true));
    socket.write(head);
    if (options.trickle) timer = setInterval(() => socket.write(options.trickle!), 200);
  });
}
