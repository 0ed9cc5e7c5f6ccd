// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ApiError,
  FALLBACK_MESSAGE,
  apiClient,
  apiInstance,
  fetchImageAsDataUrl,
  navigation,
  redirectToSignIn,
  setPasswordChangeRequiredHandler,
  setUnauthorizedHandler,
} from './api-client';
import deCommon from '../../locales/de/common.json';
import enCommon from '../../locales/en/common.json';
import { getApiBaseUrl } from './runtime-config';

// Typed from the instance so the test needs no import of axios itself.
type Adapter = Extract<NonNullable<typeof apiInstance.defaults.adapter>, (...args: never[]) => unknown>;
type SentRequest = Parameters<Adapter>[0];

let sent: SentRequest[];

/** Fakes the server: answers every request with `status` and `body`, rejecting like axios' own adapters. */
function serverResponds(status: number, body: unknown): void {
  apiInstance.defaults.adapter = async (config) => {
    sent.push(config);
    const response = { data: body, status, statusText: '', headers: {}, config, request: {} };
    if (status >= 200 && status < 300) return response;
    throw Object.assign(new Error(`Request failed with status code ${status}`), {
      isAxiosError: true,
      config,
      response,
    });
  };
}

function networkFails(): void {
  apiInstance.defaults.adapter = async (config) => {
    sent.push(config);
    throw Object.assign(new Error('Network Error'), { isAxiosError: true, code: 'ERR_NETWORK', config });
  };
}

const lastRequest = (): SentRequest => {
  const request = sent.at(-1);
  if (!request) throw new Error('no request was sent');
  return request;
};

const rejectionOf = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: unknown) => error,
  );

const getProfile = () => apiClient<unknown>({ url: '/user/profile', method: 'GET' });
const success = { status: 'Success', data: { lang: 'de', role: 'clinic_nurses' } };

/** Minimal XMLHttpRequest double recording what the browser would be asked to send. */
function stubXhr() {
  const record: { sent?: { url: string; headers: Record<string, string>; body: unknown } } = {};
  class FakeXhr {
    status = 0;
    statusText = '';
    readyState = 0;
    responseText = '';
    response: unknown = '';
    responseType = '';
    responseURL = '';
    timeout = 0;
    withCredentials = false;
    onloadend: (() => void) | null = null;
    private url = '';
    private headers: Record<string, string> = {};
    open(_method: string, url: string) {
      this.url = url;
    }
    setRequestHeader(name: string, value: string) {
      this.headers[name] = value;
    }
    getAllResponseHeaders() {
      return 'content-type: application/json';
    }
    addEventListener() {}
    abort() {}
    send(body: unknown) {
      record.sent = { url: this.url, headers: this.headers, body };
      this.readyState = 4;
      this.status = 200;
      this.responseText = JSON.stringify(success);
      queueMicrotask(() => this.onloadend?.());
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  return record;
}

beforeEach(() => {
  sent = [];
  serverResponds(200, success);
});

afterEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  delete window.__MACULA_CONFIG__;
  window.history.replaceState(null, '', '/');
  setUnauthorizedHandler();
  setPasswordChangeRequiredHandler();
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('base address', () => {
  it('uses the runtime-injected base and the /api prefix', async () => {
    window.__MACULA_CONFIG__ = { apiBaseUrl: 'https://api.example.com/' };
    await getProfile();
    expect(lastRequest().baseURL).toBe('https://api.example.com/api');
    expect(lastRequest().url).toBe('/user/profile');
  });

  it('falls back to VITE_API_BASE_URL, then to the same origin', () => {
    vi.stubEnv('VITE_API_BASE_URL', 'http://localhost:8080');
    expect(getApiBaseUrl()).toBe('http://localhost:8080/api');
    vi.stubEnv('VITE_API_BASE_URL', '');
    expect(getApiBaseUrl()).toBe('/api');
  });

  it('treats an injected empty base as same origin even when the build set one', () => {
    vi.stubEnv('VITE_API_BASE_URL', 'http://localhost:8080');
    window.__MACULA_CONFIG__ = { apiBaseUrl: '' };
    expect(getApiBaseUrl()).toBe('/api');
  });
});

describe('request headers', () => {
  it('sends the bearer token from localStorage before sessionStorage', async () => {
    localStorage.setItem('token', 'local-token');
    sessionStorage.setItem('token', 'session-token');
    await getProfile();
    expect(lastRequest().headers.get('Authorization')).toBe('Bearer local-token');
  });

  it('sends the bearer token from sessionStorage when localStorage has none', async () => {
    sessionStorage.setItem('token', 'session-token');
    await getProfile();
    expect(lastRequest().headers.get('Authorization')).toBe('Bearer session-token');
  });

  it('sends no Authorization header without a token', async () => {
    await getProfile();
    expect(lastRequest().headers.has('Authorization')).toBe(false);
  });

  it('never sends the token to another host', async () => {
    localStorage.setItem('token', 'secret');
    serverResponds(200, new Blob(['x'], { type: 'image/png' }));
    await fetchImageAsDataUrl('https://bucket.s3.example.net/fundus.png?signature=abc');
    expect(lastRequest().headers.has('Authorization')).toBe(false);
    await fetchImageAsDataUrl(`${window.location.origin}/api/files/fundus.png`);
    expect(lastRequest().headers.get('Authorization')).toBe('Bearer secret');
  });

  it.each([
    ['de-DE', 'de'],
    ['de', 'de'],
    ['en-GB', 'en'],
    ['fr', 'en'],
    [null, 'en'],
  ])('sends Language for i18nextLng=%s as %s', async (stored, expected) => {
    if (stored) localStorage.setItem('i18nextLng', stored);
    await getProfile();
    expect(lastRequest().headers.get('Language')).toBe(expected);
  });

  it('sends JSON by default with no timeout', async () => {
    await apiClient({ url: '/sign-in', method: 'POST', data: { email: 'a@b.c', password: 'x' } });
    const request = lastRequest();
    expect(request.headers.get('Accept')).toBe('application/json');
    expect(request.headers.get('Content-Type')).toBe('application/json');
    expect(request.data).toBe(JSON.stringify({ email: 'a@b.c', password: 'x' }));
    expect(request.timeout).toBe(0);
  });

  it.each([
    ['with the generated multipart header', { 'Content-Type': 'multipart/form-data' }],
    ['without a header (JSON default)', undefined],
  ])('sends FormData %s untouched and lets the browser set Content-Type', async (_case, headers) => {
    // Through axios' real XHR adapter: it finalises the headers of form uploads after our interceptor.
    const xhr = stubXhr();
    apiInstance.defaults.adapter = 'xhr';
    const form = new FormData();
    form.append('first_name', 'Ada');

    await expect(apiClient({ url: '/user/profile', method: 'POST', headers, data: form })).resolves.toEqual(success);

    expect(xhr.sent?.body).toBe(form);
    expect(Object.keys(xhr.sent?.headers ?? {}).map((name) => name.toLowerCase())).not.toContain('content-type');
    expect(xhr.sent?.headers).toMatchObject({ Accept: 'application/json', Language: 'en' });
  });

  it('does not ask for JSON when the call expects a blob', async () => {
    serverResponds(200, new Blob(['x'], { type: 'image/png' }));
    await apiClient<Blob>({ url: '/users/1/avatar', method: 'GET', responseType: 'blob' });
    expect(lastRequest().headers.get('Accept')).toBe('*/*');
  });

  it('keeps headers set by the call and merges request options', async () => {
    await apiClient(
      { url: '/sign-in', method: 'POST', headers: { 'Content-Type': 'application/json' }, data: {} },
      { headers: { Accept: 'text/plain', Language: 'de' } },
    );
    const request = lastRequest();
    expect(request.headers.get('Accept')).toBe('text/plain');
    expect(request.headers.get('Language')).toBe('de');
    expect(request.headers.get('Content-Type')).toBe('application/json');
  });
});

describe('responses', () => {
  it('resolves to the whole envelope', async () => {
    await expect(getProfile()).resolves.toEqual(success);
  });

  it('rejects a 2xx envelope with status Error, using the nested message', async () => {
    const body = { status: 'Error', message: { message: 'Session is locked' } };
    serverResponds(200, body);
    const error = await rejectionOf(getProfile());
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ message: 'Session is locked', status: 200, body });
  });

  it('rejects other failures with an ApiError carrying the body and field errors', async () => {
    const body = { status: 'Error', message: 'The given data was invalid', errors: { email: ['Required'] } };
    serverResponds(422, body);
    const error = await rejectionOf(getProfile());
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      message: 'The given data was invalid',
      status: 422,
      body,
      errors: { email: ['Required'] },
      response: { data: body },
    });
  });

  it("falls back to 'An error occurred' (English UI) when the body has no message", async () => {
    serverResponds(500, '<html>Bad gateway</html>');
    expect(await rejectionOf(getProfile())).toMatchObject({
      message: 'An error occurred',
      status: 500,
      body: '<html>Bad gateway</html>',
      errors: undefined,
    });
  });

  it('rejects network failures with status 0', async () => {
    networkFails();
    const error = await rejectionOf(getProfile());
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ message: 'An error occurred', status: 0, body: undefined, code: 'ERR_NETWORK' });
  });

  it('says the fallback in the UI language: German for a German UI', async () => {
    localStorage.setItem('i18nextLng', 'de');
    serverResponds(502, '<html>Bad gateway</html>');
    expect(await rejectionOf(getProfile())).toMatchObject({ message: 'Ein Fehler ist aufgetreten.', status: 502 });
    networkFails();
    expect(await rejectionOf(getProfile())).toMatchObject({ message: 'Ein Fehler ist aufgetreten.', status: 0 });
  });

  it("says each language's fallback as its catalogue does (common:request.failed)", () => {
    expect(FALLBACK_MESSAGE).toEqual({ en: enCommon.request.failed, de: deCommon.request.failed });
  });
});

describe('401', () => {
  beforeEach(() => {
    serverResponds(401, { status: 'Error', message: 'Unauthenticated.' });
  });

  it('clears the token everywhere, goes to /sign-in and rejects', async () => {
    const assign = vi.spyOn(navigation, 'assign').mockImplementation(() => {});
    window.history.replaceState(null, '', '/patients');
    localStorage.setItem('token', 'expired');
    sessionStorage.setItem('token', 'expired');

    const error = await rejectionOf(getProfile());

    expect(error).toMatchObject({ status: 401, message: 'Unauthenticated.' });
    expect(localStorage.getItem('token')).toBeNull();
    expect(sessionStorage.getItem('token')).toBeNull();
    expect(assign).toHaveBeenCalledWith('/sign-in');
  });

  it('stays put when already on /sign-in', async () => {
    const assign = vi.spyOn(navigation, 'assign').mockImplementation(() => {});
    window.history.replaceState(null, '', '/sign-in');
    await rejectionOf(apiClient({ url: '/sign-in', method: 'POST', data: {} }));
    expect(assign).not.toHaveBeenCalled();
  });

  it('runs a custom handler instead of the default, after clearing the token', async () => {
    const assign = vi.spyOn(navigation, 'assign').mockImplementation(() => {});
    localStorage.setItem('token', 'expired');
    const handler = vi.fn(() => expect(localStorage.getItem('token')).toBeNull());
    setUnauthorizedHandler(handler);

    await rejectionOf(getProfile());

    expect(handler).toHaveBeenCalledOnce();
    expect(assign).not.toHaveBeenCalled();
  });

  it('tells the handler whether the current session ended or a call was made without a token', async () => {
    const handler = vi.fn();
    setUnauthorizedHandler(handler);

    // Not signed in, e.g. a wrong password on the public sign-in call: nothing to end, other tabs untouched.
    await rejectionOf(apiClient({ url: '/sign-in', method: 'POST', data: {} }));
    localStorage.setItem('token', 'current');
    await rejectionOf(getProfile());

    expect(handler.mock.calls).toEqual([[{ sessionEnded: false }], [{ sessionEnded: true }]]);
  });

  it('keeps a newer session when a request made with an earlier token comes back 401', async () => {
    const handler = vi.fn();
    setUnauthorizedHandler(handler);
    localStorage.setItem('token', 'new-session');

    await rejectionOf(apiClient({ url: '/user/profile', method: 'GET', headers: { Authorization: 'Bearer old' } }));

    expect(handler).not.toHaveBeenCalled();
    expect(localStorage.getItem('token')).toBe('new-session');
  });

  it('exposes the default so a custom handler can still redirect', async () => {
    const assign = vi.spyOn(navigation, 'assign').mockImplementation(() => {});
    window.history.replaceState(null, '', '/users');
    redirectToSignIn();
    expect(assign).toHaveBeenCalledWith('/sign-in');
  });
});

describe('403: a new password first', () => {
  const passwordChangeRequired = { status: 'Error', message: 'Please choose a new password first.', code: 'auth.password_change_required' };

  it('runs the handler on any call so answered, keeps the token and rejects with the server’s message', async () => {
    const handler = vi.fn();
    const unauthorized = vi.fn();
    setPasswordChangeRequiredHandler(handler);
    setUnauthorizedHandler(unauthorized);
    localStorage.setItem('token', 'current');
    serverResponds(403, passwordChangeRequired);

    const error = await rejectionOf(apiClient({ url: '/patients', method: 'GET' }));
    await rejectionOf(apiClient({ url: '/clinic/settings', method: 'POST', data: {} }));

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 403, message: 'Please choose a new password first.' });
    expect(handler).toHaveBeenCalledTimes(2);
    expect(unauthorized).not.toHaveBeenCalled();
    expect(localStorage.getItem('token')).toBe('current');
  });

  it('leaves other refusals alone: another 403 code, the code on another status, a 403 without a body', async () => {
    const handler = vi.fn();
    setPasswordChangeRequiredHandler(handler);
    for (const [status, body] of [
      [403, { status: 'Error', message: 'You do not have permission to do this.', code: 'auth.forbidden' }],
      [403, { status: 'Error', message: 'Set up two-factor authentication first.', code: 'auth.two_factor_required' }],
      [422, passwordChangeRequired],
      [403, undefined],
      [403, 'auth.password_change_required'],
    ] as const) {
      serverResponds(status, body);
      await rejectionOf(getProfile());
    }
    expect(handler).not.toHaveBeenCalled();
  });

  it('does nothing without a handler (none set, or unset again)', async () => {
    const handler = vi.fn();
    setPasswordChangeRequiredHandler(handler);
    setPasswordChangeRequiredHandler();
    serverResponds(403, passwordChangeRequired);
    await expect(getProfile()).rejects.toMatchObject({ status: 403 });
    expect(handler).not.toHaveBeenCalled();
  });
});

describe('cancellation', () => {
  it('passes the abort signal to the transport', async () => {
    const controller = new AbortController();
    await apiClient({ url: '/user/profile', method: 'GET', signal: controller.signal });
    expect(lastRequest().signal).toBe(controller.signal);
  });

  it('rejects an aborted call with a cancellation, not an ApiError, and without logout', async () => {
    const assign = vi.spyOn(navigation, 'assign').mockImplementation(() => {});
    const controller = new AbortController();
    controller.abort();
    const error = await rejectionOf(apiClient({ url: '/user/profile', method: 'GET', signal: controller.signal }));
    expect(error).not.toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ name: 'CanceledError' });
    expect(sent).toHaveLength(0);
    expect(assign).not.toHaveBeenCalled();
  });
});

describe('fetchImageAsDataUrl', () => {
  it('fetches a blob with auth and Language headers and resolves to a data URL', async () => {
    localStorage.setItem('token', 'abc');
    localStorage.setItem('i18nextLng', 'de');
    serverResponds(200, new Blob(['hello'], { type: 'image/png' }));

    await expect(fetchImageAsDataUrl('/treatments/7/images/fundus')).resolves.toBe(
      `data:image/png;base64,${btoa('hello')}`,
    );

    const request = lastRequest();
    expect(request.url).toBe('/treatments/7/images/fundus');
    expect(request.responseType).toBe('blob');
    expect(request.headers.get('Authorization')).toBe('Bearer abc');
    expect(request.headers.get('Language')).toBe('de');
  });

  it("resolves to '' when the response is not a blob", async () => {
    serverResponds(200, { status: 'Success', data: null });
    await expect(fetchImageAsDataUrl('/treatments/7/images/fundus')).resolves.toBe('');
  });

  it('rejects like any other call when the image request fails', async () => {
    serverResponds(404, { status: 'Error', message: 'Not found' });
    expect(await rejectionOf(fetchImageAsDataUrl('/missing.png'))).toMatchObject({ status: 404 });
  });
});
