// What the server reads of a body, and when (issue 27, defect 2): each operation at most its own limit (exam
// uploads 100 MB, forms with an avatar 3 MB and a little, every other body 64 KiB), and an operation that is
// not public reads nothing before it knows who calls and that their role may. Requests go over a raw socket,
// so that a test sees the answer arrive while the body has not been sent.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSON_BODY_LIMIT } from '../../server/http/request-bodies';
import { createClinic, createUser, sessionFor } from './fixtures';
import { startServer, type TestServer } from './helper';

let server: TestServer;
let nurse: string;
let physician: string;

beforeAll(async () => {
  server = await startServer();
  const clinicId = await createClinic(server.db);
  nurse = await sessionFor(server.db, (await createUser(server.db, { clinicId, role: 'clinic_nurses' })).id);
  physician = await sessionFor(server.db, (await createUser(server.db, { clinicId, role: 'clinic_physicians' })).id);
});
afterAll(() => server.close());

interface Exchange {
  /** The answer's first line and what followed it, as far as it came. */
  text: string;
  /** Body bytes written before the answer arrived. */
  sent: number;
  elapsedMs: number;
}

/**
 * Writes `head`, then (if given) `bodyBytes` of body in 256 KiB chunks, each as soon as the socket takes it,
 * and stops writing once an answer arrives.
 */
function exchange(head: string, options: { bodyBytes?: number; chunked?: boolean; waitMs?: number } = {}): Promise<Exchange> {
  const { hostname, port } = new URL(server.url);
  const started = Date.now();
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let text = '';
    let sent = 0;
    let answered = false;
    const finish = () => {
      clearTimeout(limit);
      socket.destroy();
      resolve({ text, sent, elapsedMs: Date.now() - started });
    };
    const limit = setTimeout(finish, options.waitMs ?? 5000);
    socket.on('data', (chunk) => {
      text += chunk.toString('utf8');
      answered = true;
      if (/\r\n\r\n[\s\S]*\}/.test(text)) finish();
    });
    socket.on('close', finish);
    socket.on('error', finish);
    socket.write(head);
    const chunk = Buffer.alloc(256 * 1024, 'a');
    const pump = () => {
      while (!answered && sent < (options.bodyBytes ?? 0)) {
        const frame = options.chunked ? Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]) : chunk;
        sent += chunk.length;
        if (!socket.write(frame)) return socket.once('drain', pump);
      }
    };
    pump();
  });
}

const MB = 1024 * 1024;

describe('a body larger than its operation takes', () => {
  it('a declared 50 MB JSON body to /sign-in answers 413 at once, before any of it is sent', async () => {
    const answer = await exchange(`POST /api/sign-in HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${50 * MB}\r\n\r\n`);
    expect(answer.text).toMatch(/^HTTP\/1\.1 413/);
    expect(answer.text).toContain('"code":"request.too_large"');
    expect(answer.elapsedMs).toBeLessThan(2000);
  });

  it('a 50 MB JSON body sent in chunks to /sign-in answers 413 once 64 KiB have come, with the server\'s memory flat', async () => {
    const before = process.memoryUsage().rss;
    const answer = await exchange(`POST /api/sign-in HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`, {
      bodyBytes: 50 * MB,
      chunked: true,
    });
    expect(answer.text).toMatch(/^HTTP\/1\.1 413/);
    // Sockets buffer a few MB on the way; the server stopped long before 50 MB.
    expect(answer.sent).toBeLessThan(16 * MB);
    expect(process.memoryUsage().rss - before).toBeLessThan(64 * MB);
  });

  it('a JSON body over 64 KiB to a signed-in operation answers 413; one just under it is read', async () => {
    const body = (bytes: number) => JSON.stringify({ name: 'x'.repeat(bytes), secondName: 'Test', birthday: '1960-01-01', gender: 'female' });
    const over = await server.call('POST', '/patients', { token: physician, body: body(JSON_BODY_LIMIT), headers: { 'Content-Type': 'application/json' } });
    expect(over.status).toBe(413);
    const under = await server.call('POST', '/patients', { token: physician, body: body(JSON_BODY_LIMIT - 200), headers: { 'Content-Type': 'application/json' } });
    expect(under.status).toBe(422);
  });

  it('an avatar over 3 MB is refused as it arrives (413), and a form declared over its limit at once', async () => {
    const form = new FormData();
    form.append('avatar', new Blob([new Uint8Array(3 * MB + 100 * 1024)], { type: 'image/png' }), 'me.png');
    const big = await server.call('POST', '/user/profile', { token: nurse, form });
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ code: 'avatar.too_large' });
    const declared = await exchange(
      `POST /api/user/profile HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${nurse}\r\nContent-Type: multipart/form-data; boundary=x\r\nContent-Length: ${4 * MB}\r\n\r\n`,
    );
    expect(declared.text).toMatch(/^HTTP\/1\.1 413/);
    expect(declared.text).toContain('"code":"avatar.too_large"');
  });

  it('an exam upload may still be large: its limit is MAX_UPLOAD_MB (100 MB)', async () => {
    const answer = await exchange(
      `POST /api/treatments HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${physician}\r\nContent-Type: multipart/form-data; boundary=x\r\nContent-Length: ${60 * MB}\r\n\r\n`,
      { waitMs: 1500 },
    );
    // Not refused for its size: the server waits for the body.
    expect(answer.text).toBe('');
  });
});

describe('who calls, before any body is read', () => {
  it('an operation that is not public answers 401 without a session while the body is still to come', async () => {
    const answer = await exchange(`POST /api/patients HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 30000\r\n\r\n`);
    expect(answer.text).toMatch(/^HTTP\/1\.1 401/);
    expect(answer.elapsedMs).toBeLessThan(2000);
  });

  it('a role the operation does not allow answers 403 while the body is still to come', async () => {
    const answer = await exchange(
      `POST /api/clinic/forceResetPassword HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${nurse}\r\nContent-Type: application/json\r\nContent-Length: 30000\r\n\r\n`,
    );
    expect(answer.text).toMatch(/^HTTP\/1\.1 403/);
    expect(answer.elapsedMs).toBeLessThan(2000);
  });
});
