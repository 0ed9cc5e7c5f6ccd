// Serving like production: pre-compressed assets by Accept-Encoding, cache rules per kind of file, no
// source maps, compressed API answers above 1 KiB, and binary answers (exam images) left as they are.
// Requests go through node:http, which (unlike fetch) neither asks for nor undoes compression.
import { request } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASSET_CACHE, OTHER_CACHE, PAGE_CACHE } from '../../server/http/serving';
import { smallExam } from './exam-files';
import { createClinic, createUser, sessionFor } from './fixtures';
import { startServer, type TestServer } from './helper';

let server: TestServer;
let admin: string;
const spaDir = mkdtempSync(join(tmpdir(), 'macula-serving-'));
// Large enough to be worth compressing; the pre-compressed files differ from what the server would make
// on the fly (a marker comment), so a test can tell which was sent.
const script = `export const app = ${JSON.stringify('x'.repeat(4000))};\n`;
const brotli = brotliCompressSync(`${script}// from app-abc123.js.br\n`);
const gzip = gzipSync(`${script}// from app-abc123.js.gz\n`);

beforeAll(async () => {
  writeFileSync(join(spaDir, 'index.html'), '<!doctype html><title>Macula Planner</title><div id="root"></div>');
  writeFileSync(join(spaDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  mkdirSync(join(spaDir, 'assets'));
  writeFileSync(join(spaDir, 'assets', 'app-abc123.js'), script);
  writeFileSync(join(spaDir, 'assets', 'app-abc123.js.br'), brotli);
  writeFileSync(join(spaDir, 'assets', 'app-abc123.js.gz'), gzip);
  writeFileSync(join(spaDir, 'assets', 'app-abc123.js.map'), '{"version":3,"sources":["src/main.tsx"],"mappings":""}');
  // The public pages as the build renders them (scripts/prerender.mjs): /sign-in in both languages, /forbidden in
  // English only.
  for (const [language, page, text] of [['en', 'sign-in', 'Sign in'], ['de', 'sign-in', 'Anmelden'], ['en', 'forbidden', 'Forbidden']]) {
    mkdirSync(join(spaDir, 'prerendered', language), { recursive: true });
    writeFileSync(join(spaDir, 'prerendered', language, `${page}.html`), `<!doctype html><html lang="${language}"><div id="root" data-prerendered="${language}"><h1>${text}</h1></div>`);
  }
  server = await startServer({ spaDir });
  const clinicId = await createClinic(server.db);
  admin = await sessionFor(server.db, (await createUser(server.db, { clinicId, role: 'clinic_it_admins' })).id);
  // Enough staff that the list answer is well above the compression threshold.
  for (let i = 0; i < 12; i += 1) await createUser(server.db, { clinicId, role: 'clinic_nurses' });
});
afterAll(async () => {
  await server.close();
  rmSync(spaDir, { recursive: true, force: true });
});

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function get(path: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    // The path goes out as it is (`curl --path-as-is`): a URL string would have `..` resolved first.
    const { hostname, port } = new URL(server.url);
    const req = request({ host: hostname, port, path, method: 'GET', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the SPA assets', () => {
  it('sends the brotli file to a browser that accepts br', async () => {
    const answer = await get('/assets/app-abc123.js', { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe('br');
    expect(answer.headers['content-type']).toContain('javascript');
    expect(answer.headers.vary).toMatch(/accept-encoding/i);
    expect(answer.body.equals(brotli)).toBe(true);
    expect(brotliDecompressSync(answer.body).toString()).toContain('from app-abc123.js.br');
  });

  it('sends the gzip file to a browser that accepts only gzip', async () => {
    const answer = await get('/assets/app-abc123.js', { 'Accept-Encoding': 'gzip' });
    expect(answer.headers['content-encoding']).toBe('gzip');
    expect(answer.headers.vary).toMatch(/accept-encoding/i);
    expect(gunzipSync(answer.body).toString()).toContain('from app-abc123.js.gz');
  });

  it('sends the plain file to a client that accepts no encoding', async () => {
    const answer = await get('/assets/app-abc123.js');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.headers.vary).toMatch(/accept-encoding/i);
    expect(answer.body.toString()).toBe(script);
  });

  it('lets browsers keep hashed assets for a year, in every encoding', async () => {
    for (const encoding of ['br', 'gzip', 'identity']) {
      const answer = await get('/assets/app-abc123.js', { 'Accept-Encoding': encoding });
      expect(answer.headers['cache-control'], encoding).toBe(ASSET_CACHE);
    }
    expect(ASSET_CACHE).toBe('public, max-age=31536000, immutable');
  });

  it('has the page revalidated, on / and on the history fallback', async () => {
    for (const path of ['/', '/sign-in', '/physician/list?page=2']) {
      const answer = await get(path, { 'Accept-Encoding': 'br' });
      expect(answer.status, path).toBe(200);
      expect(answer.headers['content-type'], path).toContain('text/html');
      expect(answer.headers['cache-control'], path).toBe(PAGE_CACHE);
    }
    expect(PAGE_CACHE).toBe('no-cache');
  });

  it('keeps other static files for a short while only', async () => {
    const answer = await get('/favicon.svg');
    expect(answer.status).toBe(200);
    expect(answer.headers['cache-control']).toBe(OTHER_CACHE);
    expect(OTHER_CACHE).toMatch(/^public, max-age=\d{1,4}$/);
  });

  it('never serves a source map, in any encoding or spelling', async () => {
    for (const path of ['/assets/app-abc123.js.map', '/assets/app-abc123.js.map.gz', '/assets/app-abc123.js.m%61p']) {
      for (const encoding of ['br', 'identity']) {
        const answer = await get(path, { 'Accept-Encoding': encoding, Language: 'de' });
        expect(answer.status, path).toBe(404);
        expect(answer.headers['content-type'], path).toContain('application/json');
        const body = JSON.parse(answer.body.toString());
        expect(body).toMatchObject({ status: 'Error', code: 'resource.not_found' });
        expect(body.message).not.toMatch(/not found/i);
      }
    }
  });
});

describe('the public pages the build rendered', () => {
  const heading = (answer: RawAnswer) => /<h1>([^<]*)<\/h1>/.exec(answer.body.toString())?.[1];

  it('are sent in the browser’s language, by Accept-Language', async () => {
    expect(heading(await get('/sign-in', { 'Accept-Language': 'de-DE,de;q=0.9,en;q=0.8' }))).toBe('Anmelden');
    expect(heading(await get('/sign-in', { 'Accept-Language': 'en-GB,en;q=0.9' }))).toBe('Sign in');
    expect(heading(await get('/sign-in', { 'Accept-Language': 'fr-FR, de;q=0.5' }))).toBe('Anmelden');
    // Nothing we ship, or no header at all: English.
    expect(heading(await get('/sign-in', { 'Accept-Language': 'fr-FR' }))).toBe('Sign in');
    expect(heading(await get('/sign-in'))).toBe('Sign in');
  });

  it('are sent in the language the SPA chose, by its cookie, before the browser’s', async () => {
    expect(heading(await get('/sign-in', { 'Accept-Language': 'en-GB', Cookie: 'theme=x; lang=de' }))).toBe('Anmelden');
    expect(heading(await get('/sign-in', { 'Accept-Language': 'de-DE', Cookie: 'lang=en' }))).toBe('Sign in');
    // A cookie that names no language of ours is no choice.
    expect(heading(await get('/sign-in', { 'Accept-Language': 'de-DE', Cookie: 'lang=fr; xlang=en' }))).toBe('Anmelden');
  });

  it('are revalidated, and kept apart by caches per language and encoding; a query and a trailing slash change nothing', async () => {
    const answer = await get('/sign-in/?signedOut=idle', { 'Accept-Language': 'de' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toContain('text/html');
    expect(answer.headers['cache-control']).toBe(PAGE_CACHE);
    expect(answer.headers.vary).toBe('Accept-Encoding, Accept-Language, Cookie');
    expect(heading(answer)).toBe('Anmelden');
  });

  it('fall back to the SPA’s shell where the build rendered no page in that language, or none at all', async () => {
    const shell = (answer: RawAnswer) => answer.status === 200 && answer.body.toString().includes('<div id="root"></div>');
    expect(heading(await get('/forbidden', { 'Accept-Language': 'en' }))).toBe('Forbidden');
    expect(shell(await get('/forbidden', { 'Accept-Language': 'de' }))).toBe(true);
    expect(shell(await get('/physician/list', { 'Accept-Language': 'de' }))).toBe(true);
    expect(shell(await get('/prerendered', { 'Accept-Language': 'de' }))).toBe(true);
    expect(shell(await get('/Sign-In'))).toBe(true);
  });
});

describe('paths that climb out of the SPA folder', () => {
  it.each([
    '/../../../../etc/passwd',
    '/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
    '/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd',
    '/assets/../../server/main.ts',
    '/assets/%2e%2e/%2e%2e/server/main.ts',
    '/assets/..%2f..%2fserver%2fmain.ts',
    '/..',
    '/assets/..',
  ])('%s answers the 400 envelope, never a file from outside nor a 500', async (path) => {
    const answer = await get(path);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body.toString())).toMatchObject({ status: 'Error', code: 'request.malformed' });
  });

  it('answers an API path with one with the 404 envelope: it can only be an id, which names nothing', async () => {
    for (const path of ['/api/treatments/..%2F..%2Fetc%2Fpasswd', '/api/../api/health', '/api/patients/%2e%2e']) {
      const answer = await get(path);
      expect(answer.status, path).toBe(404);
      expect(JSON.parse(answer.body.toString())).toMatchObject({ status: 'Error', code: 'resource.not_found' });
    }
  });

  it('leaves names with two dots in them alone', async () => {
    expect((await get('/patients/a..b/card')).status).toBe(200);
    expect((await get('/assets/app..js')).status).toBe(404);
  });
});

describe('API answers', () => {
  it('are compressed above 1 KiB when the client accepts it', async () => {
    const auth = { Authorization: `Bearer ${admin}` };
    const plain = await get('/api/users?perPage=100', auth);
    expect(plain.status).toBe(200);
    expect(plain.body.length).toBeGreaterThan(1024);
    expect(plain.headers['content-encoding']).toBeUndefined();

    const br = await get('/api/users?perPage=100', { ...auth, 'Accept-Encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(JSON.parse(brotliDecompressSync(br.body).toString())).toEqual(JSON.parse(plain.body.toString()));

    const gz = await get('/api/users?perPage=100', { ...auth, 'Accept-Encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.body.length).toBeLessThan(plain.body.length);
    expect(JSON.parse(gunzipSync(gz.body).toString())).toEqual(JSON.parse(plain.body.toString()));
  });

  it('below 1 KiB go out as they are', async () => {
    const answer = await get('/api/no-such-call', { 'Accept-Encoding': 'br, gzip' });
    expect(answer.status).toBe(404);
    expect(answer.body.length).toBeLessThan(1024);
    expect(answer.headers['content-encoding']).toBeUndefined();
  });

  it('take an upload and send the exam images as plain JPEG (compressed already)', async () => {
    const clinicId = await createClinic(server.db, 'Augenklinik Bilder');
    const physician = await sessionFor(server.db, (await createUser(server.db, { clinicId, role: 'clinic_physicians' })).id);
    const exam = await smallExam({ seed: 5 });
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(exam.bytes)]), 'exam.npt');
    const created = await server.call<{ data: { treatment: { id: string } } }>('POST', '/treatments', {
      token: physician,
      form,
      headers: { 'Accept-Encoding': 'br, gzip' },
    });
    expect(created.status).toBe(201);
    await server.jobsIdle();
    const id = created.body.data.treatment.id;
    const treatment = await get(`/api/treatments/${id}`, { Authorization: `Bearer ${physician}` });
    const { displayUrl } = JSON.parse(treatment.body.toString()).data.images[0];
    const image = await get(displayUrl, { Authorization: `Bearer ${physician}`, 'Accept-Encoding': 'br, gzip' });
    expect(image.status).toBe(200);
    expect(image.headers['content-type']).toBe('image/jpeg');
    expect(image.body.length).toBeGreaterThan(1024);
    expect(image.headers['content-encoding']).toBeUndefined();
    expect([...image.body.subarray(0, 2)]).toEqual([0xff, 0xd8]);
  });
});
