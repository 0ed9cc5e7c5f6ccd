// `/` of the real build: dist/ holds index.html with its pre-compressed .br and .gz beside it (vite build).
// Playwright's journeys wait for `/` before they start, so it must answer the app, whatever the client accepts.
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './helper';

let server: TestServer;
const spaDir = mkdtempSync(join(tmpdir(), 'macula-spa-root-'));
const INDEX = '<!doctype html><title>Macula Planner</title><div id="root"></div>';

beforeAll(async () => {
  writeFileSync(join(spaDir, 'index.html'), INDEX);
  writeFileSync(join(spaDir, 'index.html.br'), brotliCompressSync(INDEX));
  writeFileSync(join(spaDir, 'index.html.gz'), gzipSync(INDEX));
  mkdirSync(join(spaDir, 'assets'));
  server = await startServer({ spaDir });
});
afterAll(async () => {
  await server.close();
  rmSync(spaDir, { recursive: true, force: true });
});

describe('/ of a build with pre-compressed files', () => {
  it.each(['identity', 'gzip', 'br, gzip'])('answers the app to a client accepting %s', async (encoding) => {
    const answer = await fetch(`${server.url}/`, { headers: { 'Accept-Encoding': encoding } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toContain('text/html');
    expect(await answer.text()).toContain('<div id="root">');
  });
});
