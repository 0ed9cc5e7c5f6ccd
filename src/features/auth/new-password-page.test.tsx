import {
  getGetResetConfirmationMockHandler,
  getGetResetConfirmationResponseMock,
  getResetConfirmationMockHandler,
} from '@generated/hooks/auth/auth.msw';
import { getGetProfileQueryKey } from '@generated/hooks/profile/profile';
import {
  getChangePasswordMockHandler,
  getGetProfileMockHandler,
  getGetProfileResponseMock,
} from '@generated/hooks/profile/profile.msw';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { act } from 'react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { HomeRedirect } from '@/app/home-redirect';
import { navigation } from '@/lib/api-client';
import { cleanup, click, getByLabel, getByText, hintState, renderRoutes, type, waitFor } from '@/testing/render';
import { NewPasswordPage } from './new-password-page';

const TOKEN = 'reset-token-0123456789abcdef';
const server = setupServer();
const bodies: unknown[] = [];

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => {
  bodies.length = 0;
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

const render = (path: string) =>
  renderRoutes(
    [
      { path: '/new-password', element: <NewPasswordPage /> },
      { path: '/', element: <HomeRedirect /> },
      { path: '/physician/list', element: <h1>Patients</h1> },
    ],
    { path },
  );

describe('NewPasswordPage with a reset link', () => {
  beforeEach(() => {
    server.use(
      getGetResetConfirmationMockHandler(),
      getResetConfirmationMockHandler(async ({ request }) => {
        bodies.push(await request.json());
        return { status: 'Success', message: 'ok' };
      }),
    );
  });

  it('shows live hints for the strength of the link and sets the password', async () => {
    expect(getGetResetConfirmationResponseMock().data.passwordStrength).toBe('standard');
    const { container } = await render(`/new-password?token=${TOKEN}`);
    await waitFor(() => expect(container.querySelector('h1')?.textContent).toBe('Choose a new password'));
    expect(container.textContent).toContain('At least 8 characters');
    const password = getByLabel(container, 'New password');
    const confirmation = getByLabel(container, 'Confirm password');
    expect(password.getAttribute('aria-describedby')).toBeTruthy();

    await type(password, 'macula');
    await waitFor(() =>
      expect(hintState(container)).toEqual({
        min_length: 'false',
        capital: 'false',
        small: 'true',
        number: 'false',
        allowed_characters: 'true',
        not_common: 'true',
      }),
    );
    await type(password, 'Macula2026');
    await waitFor(() => expect(Object.values(hintState(container)).every((met) => met === 'true')).toBe(true));
    await type(confirmation, 'Macula2026');
    await click(getByText(container, 'button', 'Save password'));

    await waitFor(() => expect(container.querySelector('[role="status"]')?.textContent).toContain('Your password has been changed.'));
    expect(bodies).toEqual([{ token: TOKEN, password: 'Macula2026', passwordConfirmation: 'Macula2026' }]);
    expect(getByText<HTMLAnchorElement>(container, 'a', 'Go to sign in').getAttribute('href')).toBe('/sign-in');
  });

  it('refuses a weak password, a mismatch, a missing confirmation and bad characters, and sends nothing', async () => {
    const { container } = await render(`/new-password?token=${TOKEN}`);
    await waitFor(() => getByLabel(container, 'New password'));
    const password = getByLabel(container, 'New password');
    const confirmation = getByLabel(container, 'Confirm password');
    const submit = getByText(container, 'button', 'Save password');

    await click(submit);
    await waitFor(() => {
      expect(container.textContent).toContain('This field is required');
      expect(container.textContent).toContain('Confirm password is required');
    });

    await type(password, 'macula');
    await type(confirmation, 'macula');
    await click(submit);
    await waitFor(() => expect(container.textContent).toContain('Please enter a valid password'));

    await type(password, 'Macula 2026');
    await click(submit);
    await waitFor(() =>
      expect(container.textContent).toContain('Invalid characters. Use only letters, numbers, and !@#$%^&*-_='),
    );

    await type(password, 'Macula2026');
    await type(confirmation, 'Macula2027');
    await click(submit);
    await waitFor(() => expect(container.textContent).toContain('Passwords do not match'));
    expect(bodies).toEqual([]);
  });

  it('shows the server field errors under the fields', async () => {
    server.use(
      http.post('*/reset-confirmation', () =>
        HttpResponse.json(
          { status: 'Error', message: 'The given data was invalid.', errors: { password: ['Too common.'] } },
          { status: 422 },
        ),
      ),
    );
    const { container } = await render(`/new-password?token=${TOKEN}`);
    await waitFor(() => getByLabel(container, 'New password'));
    await type(getByLabel(container, 'New password'), 'Macula2026');
    await type(getByLabel(container, 'Confirm password'), 'Macula2026');
    await click(getByText(container, 'button', 'Save password'));
    await waitFor(() => expect(container.textContent).toContain('Too common.'));
    expect(getByLabel(container, 'New password').getAttribute('aria-invalid')).toBe('true');
  });

  it('explains an invalid or expired link and links to /reset-password', async () => {
    server.use(
      http.get('*/reset-confirmation', () =>
        HttpResponse.json({ status: 'Error', message: 'expired', code: 'reset.invalid_token' }, { status: 410 }),
      ),
    );
    const { container } = await render(`/new-password?token=${TOKEN}`);
    await waitFor(() =>
      expect(container.querySelector('[role="alert"]')?.textContent).toBe(
        'This password reset link is not valid or has expired. Please request a new one.',
      ),
    );
    expect(getByText<HTMLAnchorElement>(container, 'a', 'Request a new link').getAttribute('href')).toBe('/reset-password');
    expect(container.querySelectorAll('input[type="password"]')).toHaveLength(0);
  });

  it('treats no token and no session as an invalid link', async () => {
    const { container } = await render('/new-password');
    expect(container.querySelector('[role="alert"]')?.textContent).toContain('not valid or has expired');
  });
});

describe('NewPasswordPage when the clinic requires a new password', () => {
  const forcedProfile = () => {
    const answer = getGetProfileResponseMock();
    answer.data.passwordChangeRequired = 'forced';
    return answer;
  };

  it('the hub sends such a user to /new-password', async () => {
    localStorage.setItem('token', 'abc');
    server.use(getGetProfileMockHandler(forcedProfile()));
    const { router, container } = await render('/');
    await waitFor(() => expect(router.state.location.pathname).toBe('/new-password'));
    await waitFor(() => expect(container.textContent).toContain('Your clinic requires you to choose a new password'));
  });

  it('changes the password with the current one, refreshes the profile and goes on to /', async () => {
    localStorage.setItem('token', 'abc');
    let profile = forcedProfile();
    server.use(
      getGetProfileMockHandler(() => profile),
      getChangePasswordMockHandler(async ({ request }) => {
        bodies.push(await request.json());
        profile = getGetProfileResponseMock();
        return { status: 'Success', message: 'Your password has been changed.' };
      }),
    );
    const { container, router, queryClient } = await render('/new-password');
    await waitFor(() => getByLabel(container, 'Current password'));
    const submit = getByText(container, 'button', 'Save password');
    await click(submit);
    await waitFor(() => expect(container.textContent).toContain('This field is required'));

    await type(getByLabel(container, 'Current password'), 'Old-secret-1');
    await type(getByLabel(container, 'New password'), 'Macula2026');
    await type(getByLabel(container, 'Confirm password'), 'Macula2026');
    await click(submit);

    await waitFor(() => expect(router.state.location.pathname).toBe('/physician/list'));
    expect(bodies).toEqual([{ currentPassword: 'Old-secret-1', password: 'Macula2026', passwordConfirmation: 'Macula2026' }]);
    expect(
      (queryClient.getQueryData(getGetProfileQueryKey()) as { data: { passwordChangeRequired: unknown } }).data
        .passwordChangeRequired,
    ).toBeNull();
  });

  it('the language chosen there applies at once and asks nothing of the server', async () => {
    localStorage.setItem('token', 'abc');
    const expired = forcedProfile();
    expired.data.passwordChangeRequired = 'expired';
    const posts: string[] = [];
    server.use(
      getGetProfileMockHandler(expired),
      http.post('*', ({ request }) => {
        posts.push(new URL(request.url).pathname);
        return HttpResponse.json({ status: 'Error', message: 'not expected' }, { status: 500 });
      }),
    );
    const { container } = await render('/new-password');
    await waitFor(() => expect(container.textContent).toContain('Your password has expired.'));
    const select = container.querySelector<HTMLSelectElement>('.mp-language-switch select')!;
    await act(async () => {
      select.value = 'de';
      select.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await waitFor(() => expect(container.textContent).toContain('Ihr Passwort ist abgelaufen.'));
    getByLabel(container, 'Neues Passwort');
    expect(posts).toEqual([]);
  });

  it('an expired password just signed in with is not asked again; when the server asks (422), the field appears with its error', async () => {
    localStorage.setItem('token', 'abc');
    const expired = forcedProfile();
    expired.data.passwordChangeRequired = 'expired';
    const sent: Record<string, unknown>[] = [];
    let answer = { status: 'Error', message: 'invalid', errors: { currentPassword: ['This field is required'] } };
    server.use(
      getGetProfileMockHandler(expired),
      http.post('*/user/password', async ({ request }) => {
        sent.push((await request.json()) as Record<string, unknown>);
        return HttpResponse.json(answer, { status: 422 });
      }),
    );
    const { container } = await render('/new-password');
    await waitFor(() => expect(container.textContent).toContain('Your password has expired.'));
    expect(() => getByLabel(container, 'Current password')).toThrow();
    getByText(container, 'button', 'Log out');
    await type(getByLabel(container, 'New password'), 'Macula2026');
    await type(getByLabel(container, 'Confirm password'), 'Macula2026');
    await click(getByText(container, 'button', 'Save password'));
    await waitFor(() => expect(container.textContent).toContain('This field is required'));
    expect(sent).toEqual([{ password: 'Macula2026', passwordConfirmation: 'Macula2026' }]);
    expect(getByLabel(container, 'Current password').getAttribute('aria-invalid')).toBe('true');

    answer = { status: 'Error', message: 'invalid', errors: { currentPassword: ['The current password is not correct.'] } };
    await type(getByLabel(container, 'Current password'), 'wrong');
    await click(getByText(container, 'button', 'Save password'));
    await waitFor(() => expect(container.textContent).toContain('The current password is not correct.'));
    expect(sent[1]).toEqual({ currentPassword: 'wrong', password: 'Macula2026', passwordConfirmation: 'Macula2026' });
  });
});
