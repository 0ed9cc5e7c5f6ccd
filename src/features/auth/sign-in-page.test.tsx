import { getSignInMockHandler, getSignInResponseMock } from '@generated/hooks/auth/auth.msw';
import { getGetProfileQueryKey } from '@generated/hooks/profile/profile';
import type { SignInRequest } from '@generated/model/signInRequest';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { navigation } from '@/lib/api-client';
import type { UiLanguage } from '@/lib/i18n';
import { cleanup, click, getByLabel, getByText, renderRoutes, type, waitFor } from '@/testing/render';
import { SignInPage } from './sign-in-page';

const FAILED_EN =
  'Incorrect username or password. Authentication failed. Please check your credentials and try again.';

const server = setupServer();
const requests: SignInRequest[] = [];

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => {
  requests.length = 0;
  // The api client's 401 handling would leave the page; jsdom cannot navigate.
  vi.spyOn(navigation, 'assign').mockImplementation(() => {});
});
afterEach(() => {
  cleanup();
  server.resetHandlers();
  vi.restoreAllMocks();
  localStorage.clear();
  sessionStorage.clear();
});
afterAll(() => server.close());

/** The generated handler, recording the bodies it receives; `respond` overrides the answer. */
function signInAnswers(respond?: () => Response) {
  server.use(
    respond
      ? http.post('*/sign-in', async ({ request }) => {
          requests.push((await request.json()) as SignInRequest);
          return respond();
        })
      : getSignInMockHandler(async ({ request }) => {
          requests.push((await request.json()) as SignInRequest);
          return getSignInResponseMock();
        }),
  );
}

async function renderSignIn(language: UiLanguage = 'en') {
  const rendered = await renderRoutes(
    [
      { path: '/sign-in', element: <SignInPage /> },
      { path: '/', element: <h1>Home</h1> },
    ],
    { path: '/sign-in', language },
  );
  const { container } = rendered;
  const labels = language === 'de' ? ['E-Mail', 'Passwort', 'Angemeldet bleiben', 'Anmelden'] : ['Email', 'Password', 'Remember me', 'Sign in'];
  return {
    ...rendered,
    email: getByLabel(container, labels[0]),
    password: getByLabel(container, labels[1]),
    remember: getByLabel(container, labels[2]),
    submit: getByText(container, 'button', labels[3]),
  };
}

const alertText = (container: HTMLElement) => container.querySelector('[role="alert"]')?.textContent?.trim();

describe('SignInPage', () => {
  it('is a labelled form with a main landmark, one h1, remember me checked and a forgot-password link', async () => {
    const { container, email, password, remember } = await renderSignIn();
    expect(container.querySelector('main')).not.toBeNull();
    expect([...container.querySelectorAll('h1')].map((h) => h.textContent)).toEqual(['Sign in']);
    expect(email.type).toBe('email');
    expect(password.type).toBe('password');
    expect(remember.checked).toBe(true);
    expect(getByText<HTMLAnchorElement>(container, 'a', 'Forgot password?').getAttribute('href')).toBe(
      '/reset-password',
    );
  });

  it('shows the specification texts under both fields for an empty submit, and sends nothing', async () => {
    signInAnswers();
    const { container, submit, email } = await renderSignIn();

    await click(submit);

    await waitFor(() => {
      expect(container.textContent).toContain('Please enter a valid email address');
      expect(container.textContent).toContain('Please enter a valid password');
    });
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(container.ownerDocument.getElementById(email.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      'Please enter a valid email address',
    );
    expect(requests).toEqual([]);
  });

  it('refuses an address that is not an e-mail address', async () => {
    signInAnswers();
    const { container, email, password, submit } = await renderSignIn();
    await type(email, 'anna.keller');
    await type(password, 'secret');
    await click(submit);
    await waitFor(() => expect(container.textContent).toContain('Please enter a valid email address'));
    expect(container.textContent).not.toContain('Please enter a valid password');
    expect(requests).toEqual([]);
  });

  it.each([
    ['en', FAILED_EN],
    [
      'de',
      'Die E-Mail-Adresse oder das Passwort ist falsch. Die Anmeldung ist fehlgeschlagen. Bitte überprüfen Sie Ihre Angaben und versuchen Sie es erneut.',
    ],
  ] as const)('shows the failure text of the specification on 401 (%s)', async (language, expected) => {
    signInAnswers(() =>
      HttpResponse.json({ status: 'Error', message: 'Invalid credentials', code: 'auth.invalid_credentials' }, { status: 401 }),
    );
    const { container, email, password, submit } = await renderSignIn(language);
    await type(email, 'physician@clinic.example');
    await type(password, 'wrong');
    await click(submit);

    await waitFor(() => expect(alertText(container)).toBe(expected));
    expect(localStorage.getItem('token')).toBeNull();
    expect(sessionStorage.getItem('token')).toBeNull();
  });

  it("shows the server's message for other failures", async () => {
    signInAnswers(() =>
      HttpResponse.json(
        { status: 'Error', message: 'Too many attempts. Try again in 60 seconds.', retryAfter: 60 },
        { status: 429 },
      ),
    );
    const { container, email, password, submit } = await renderSignIn();
    await type(email, 'physician@clinic.example');
    await type(password, 'secret');
    await click(submit);
    await waitFor(() => expect(alertText(container)).toBe('Too many attempts. Try again in 60 seconds.'));
  });

  it('shows field errors the server sends with 422 under the fields', async () => {
    signInAnswers(() =>
      HttpResponse.json(
        { status: 'Error', message: 'The given data was invalid.', errors: { email: ['Unknown domain.'] } },
        { status: 422 },
      ),
    );
    const { container, email, password, submit } = await renderSignIn();
    await type(email, 'physician@clinic.example');
    await type(password, 'secret');
    await click(submit);
    await waitFor(() => expect(container.textContent).toContain('Unknown domain.'));
    expect(email.getAttribute('aria-invalid')).toBe('true');
  });

  it('with remember me: keeps the token in localStorage, caches the profile, switches language, goes to /', async () => {
    const answer = getSignInResponseMock();
    answer.data.profile.lang = 'de';
    signInAnswers(() => HttpResponse.json(answer));
    const { container, router, queryClient, i18n, email, password, submit } = await renderSignIn();
    await type(email, '  physician@clinic.example ');
    await type(password, 'secret');
    await click(submit);

    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(requests).toEqual([{ email: 'physician@clinic.example', password: 'secret', remember: true }]);
    expect(localStorage.getItem('token')).toBe(answer.data.token);
    expect(sessionStorage.getItem('token')).toBeNull();
    expect(queryClient.getQueryData(getGetProfileQueryKey())).toEqual({ status: 'Success', data: answer.data.profile });
    expect(i18n.language).toBe('de');
    expect(document.documentElement.lang).toBe('de');
    expect(container.querySelector('h1')?.textContent).toBe('Home');
  });

  it('without remember me: keeps the token in sessionStorage only', async () => {
    signInAnswers();
    const { router, email, password, remember, submit } = await renderSignIn();
    await type(email, 'nurse@clinic.example');
    await type(password, 'secret');
    await click(remember);
    expect(remember.checked).toBe(false);
    await click(submit);

    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(requests[0]).toMatchObject({ remember: false });
    expect(sessionStorage.getItem('token')).toBe(getSignInResponseMock().data.token);
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('still shows the form when a token is already stored', async () => {
    localStorage.setItem('token', 'old');
    const { router, submit } = await renderSignIn();
    expect(router.state.location.pathname).toBe('/sign-in');
    expect(submit).toBeDefined();
  });
});
