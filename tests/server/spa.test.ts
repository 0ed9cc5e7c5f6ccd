// One port serves the SPA (with history fallback for its client-side routes), its assets and the API.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './helper';

let server: TestServer;
const spaDir = mkdtempSync(join(tmpdir(), 'macula-spa-'));

beforeAll(async () => {
  writeFileSync(join(spaDir, 'index.html'), '<!doctype html><title>Macula Planner</title><div id="root"></div>');
  mkdirSync(join(spaDir, 'assets'));
  writeFileSync(join(spaDir, 'assets', 'app.js'), 'console.log("app")');
  server = await startServer({ spaDir });
});
afterAll(async () => {
  await server.close();
  rmSync(spaDir, { recursive: true, force: true });
});

const get = (path: string) => fetch(`${server.url}${path}`);

describe('the SPA on the same port as the API', () => {
  it.each(['/', '/sign-in', '/physician/list', '/admin/patient-list/deleting?page=2'])('serves %s as the app', async (path) => {
    const answer = await get(path);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toContain('text/html');
    expect(await answer.text()).toContain('<div id="root">');
  });

  it('serves built assets with their type', async () => {
    const answer = await get('/assets/app.js');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toContain('javascript');
  });

  it('answers a missing asset with 404, not with the app', async () => {
    expect((await get('/assets/missing.js')).status).toBe(404);
  });

  it('keeps unknown API paths as 404 envelopes', async () => {
    const answer = await server.call('GET', '/no-such-call');
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ status: 'Error', code: 'resource.not_found' });
  });
});
