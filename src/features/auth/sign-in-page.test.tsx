import { getSignInMockHandler, getSignInResponseMock } from '@generated/hooks/auth/auth.msw';
import { getGetProfileQueryKey } from '@generated/hooks/profile/profile';
import { getGetProfileResponseMock } from '@generated/hooks/profile/profile.msw';
import type { SignedInResponse } from '@generated/model/signedInResponse';
import type { SignInRequest } from '@generated/model/signInRequest';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { act } from 'react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { navigation } from '@/lib/api-client';
import type { UiLanguage } from '@/lib/i18n';
import { cleanup, click, getByLabel, getByText, renderRoutes, select, type, waitFor } from '@/testing/render';
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
/** The contract's first example: a session (not a second-factor challenge). */
const signedInAnswer = () => getSignInResponseMock() as SignedInResponse;

function signInAnswers(respond?: () => Response) {
  server.use(
    respond
      ? http.post('*/sign-in', async ({ request }) => {
          requests.push((await request.json()) as SignInRequest);
          return respond();
        })
      : getSignInMockHandler(async ({ request }) => {
          requests.push((await request.json()) as SignInRequest);
          return signedInAnswer();
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
    const answer = signedInAnswer();
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
    expect(sessionStorage.getItem('token')).toBe(signedInAnswer().data.token);
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('sends a signed-in user on to / (and from there to the home of their role) instead of the form', async () => {
    localStorage.setItem('token', 'still-valid');
    server.use(http.get('*/user/profile', () => HttpResponse.json(getGetProfileResponseMock())));
    const { router, container } = await renderRoutes(
      [
        { path: '/sign-in', element: <SignInPage /> },
        { path: '/', element: <h1>Home</h1> },
      ],
      { path: '/sign-in' },
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(container.querySelector('form')).toBeNull();
  });

  it('shows the form when the stored token is no longer valid, and forgets it', async () => {
    localStorage.setItem('token', 'old');
    server.use(
      http.get('*/user/profile', () =>
        HttpResponse.json({ status: 'Error', message: 'Unauthenticated.', code: 'auth.unauthenticated' }, { status: 401 }),
      ),
    );
    const { router, container } = await renderRoutes([{ path: '/sign-in', element: <SignInPage /> }], { path: '/sign-in' });
    await waitFor(() => expect(container.querySelector('form')).not.toBeNull());
    expect(router.state.location.pathname).toBe('/sign-in');
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('says why after an idle logout, in the UI language, and says nothing on an ordinary visit', async () => {
    for (const [language, title, text] of [
      ['en', 'Signed out after inactivity', 'not used for longer than your clinic allows'],
      ['de', 'Nach Inaktivität abgemeldet', 'länger nicht benutzt wurde, als Ihre Klinik erlaubt'],
    ] as const) {
      const { container } = await renderRoutes([{ path: '/sign-in', element: <SignInPage /> }], { path: '/sign-in?signedOut=idle', language });
      await waitFor(() => expect(container.querySelector('form')).not.toBeNull());
      const status = container.querySelector('[role="status"]');
      expect(status?.textContent).toContain(title);
      expect(status?.textContent).toContain(text);
      cleanup();
    }
    const { container } = await renderSignIn();
    expect(container.textContent).not.toContain('Signed out after inactivity');
  });

  it('puts the focus in the e-mail field', async () => {
    const { email } = await renderSignIn();
    await waitFor(() => expect(document.activeElement).toBe(email));
  });

  it('keeps a language chosen on the page over the profile\'s, and saves it to the profile', async () => {
    const answer = signedInAnswer();
    answer.data.profile.lang = 'en';
    signInAnswers(() => HttpResponse.json(answer));
    const saved: (string | null)[] = [];
    server.use(
      http.post('*/user/profile', async ({ request }) => {
        saved.push((await request.formData()).get('lang') as string | null);
        return HttpResponse.json({ status: 'Success', data: { ...answer.data.profile, lang: 'de' } });
      }),
    );
    const { container, router, queryClient, i18n, email, password, submit } = await renderSignIn();
    const select = container.querySelector('select')!;
    await act(async () => {
      select.value = 'de';
      select.dispatchEvent(new Event('change', { bubbles: true }));
    });
    expect(i18n.language).toBe('de');
    await type(email, 'physician@clinic.example');
    await type(password, 'secret');
    await click(submit);

    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    await waitFor(() => expect(saved).toEqual(['de']));
    expect(i18n.language).toBe('de');
    expect(queryClient.getQueryData<{ data: { lang: string } }>(getGetProfileQueryKey())?.data.lang).toBe('de');
    // Used up: the next sign-in in this tab follows the profile again.
    expect(sessionStorage.getItem('signInLanguage')).toBeNull();
  });

  it('keeps a language chosen on the page over a reload of the page', async () => {
    const answer = signedInAnswer();
    answer.data.profile.lang = 'en';
    signInAnswers(() => HttpResponse.json(answer));
    server.use(http.post('*/user/profile', () => HttpResponse.json({ status: 'Success', data: { ...answer.data.profile, lang: 'de' } })));
    const first = await renderSignIn();
    await select(first.container.querySelector('select')!, 'de');
    cleanup();

    const { router, i18n, email, password, submit } = await renderSignIn('de');
    await type(email, 'physician@clinic.example');
    await type(password, 'secret');
    await click(submit);
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(i18n.language).toBe('de');
  });
});
