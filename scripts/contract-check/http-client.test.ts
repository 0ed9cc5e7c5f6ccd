// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { curlOf } from './http-client';

describe('curlOf', () => {
  const base = new URL('http://127.0.0.1:8080/api');

  it('repeats the request with its raw path, hides the token and keeps multipart CR LF', () => {
    const curl = curlOf(base, {
      method: 'POST',
      target: '/users/%ff%fe',
      headers: { authorization: 'Bearer mp_secret_token', 'content-type': 'multipart/form-data; boundary=b' },
      body: Buffer.from('--b\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--b--\r\n'),
    }, ['mp_secret_token']);
    expect(curl).toContain("--path-as-is 'http://127.0.0.1:8080/api/users/%ff%fe'");
    expect(curl).toContain('"authorization: Bearer $TOKEN"');
    expect(curl).not.toContain('mp_secret');
    expect(curl).toContain(`--data-binary $'--b\\r\\nContent-Disposition: form-data; name="a"\\r\\n\\r\\n1\\r\\n--b--\\r\\n'`);
  });

  it('keeps made-up credentials visible and names a request without any', () => {
    expect(curlOf(base, { method: 'GET', target: '/patients', headers: { authorization: 'Bearer mp_made-up' } }, ['mp_real_token'])).toContain("'authorization: Bearer mp_made-up'");
    expect(curlOf(base, { method: 'GET', target: '/patients', headers: {} })).toMatch(/ # no Authorization header$/);
  });

  it('shows bytes that are not text as base64', () => {
    const curl = curlOf(base, { method: 'POST', target: '/sign-in', headers: {}, body: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]) });
    expect(curl).toContain('<4 bytes, base64 e//+fQ==…>');
  });
});
