import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './helper';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

describe('error envelopes', () => {
  it('answers a secured call without a token with 401', async () => {
    const answer = await server.call('GET', '/user/profile');
    expect(answer.status).toBe(401);
    expect(answer.body).toMatchObject({ status: 'Error', code: 'auth.unauthenticated' });
  });

  it('answers an unknown token with 401', async () => {
    const answer = await server.call('GET', '/user/profile', { token: 'x'.repeat(43) });
    expect(answer.status).toBe(401);
  });

  it('answers an unknown API path with a 404 envelope', async () => {
    const answer = await server.call('GET', '/no-such-thing');
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ status: 'Error', code: 'resource.not_found' });
  });

  it('answers malformed JSON with 400 and field errors with 422, in the caller language', async () => {
    const malformed = await server.call('POST', '/sign-in', {
      body: '{"email": ',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    const invalid = await server.call('POST', '/sign-in', { json: { email: 42, extra: true }, lang: 'de' });
    expect(invalid.status).toBe(422);
    expect(invalid.body).toMatchObject({
      message: 'Bitte prüfen Sie die markierten Felder.',
      errors: { password: ['Dieses Feld ist erforderlich'], extra: ['Dieses Feld wird hier nicht erwartet.'] },
    });
  });
});
