import {
  getAcceptInviteMockHandler,
  getGetUserInviteMockHandler,
  getGetUserInviteResponseMock,
} from '@generated/hooks/auth/auth.msw';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { UiLanguage } from '@/lib/i18n';
import { cleanup, click, getByLabel, getByText, hintState, renderRoutes, type, waitFor } from '@/testing/render';
import { ApproveAccountPage } from './approve-account-page';

const TOKEN = 'invite-token-0123456789abcdef';
const server = setupServer();
const bodies: unknown[] = [];

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => {
  bodies.length = 0;
  server.use(
    getGetUserInviteMockHandler(),
    getAcceptInviteMockHandler(async ({ request }) => {
      bodies.push(await request.json());
      return { status: 'Success', message: 'ok' };
    }),
  );
});
afterEach(() => {
  cleanup();
  server.resetHandlers();
});
afterAll(() => server.close());

async function renderPage(language: UiLanguage = 'en', path = `/approve-account?token=${TOKEN}`) {
  const rendered = await renderRoutes([{ path: '/approve-account', element: <ApproveAccountPage /> }], {
    path,
    language,
  });
  return rendered;
}

async function form(container: HTMLElement) {
  await waitFor(() => getByLabel(container, 'New password'));
  return {
    password: getByLabel(container, 'New password'),
    confirmation: getByLabel(container, 'Confirm password'),
    eula: getByLabel(container, 'I accept the EULA'),
    privacy: getByLabel(container, 'I have read and accept the privacy notice'),
    submit: getByText(container, 'button', 'Activate account'),
  };
}

describe('ApproveAccountPage', () => {
  it('shows who is invited, to which clinic and role, with links to the EULA and privacy notice', async () => {
    const invite = getGetUserInviteResponseMock().data;
    const { container } = await renderPage();
    await form(container);
    expect([...container.querySelectorAll('h1')].map((h) => h.textContent)).toEqual(['Activate your account']);
    const details = container.querySelector('dl')?.textContent ?? '';
    expect(details).toContain(`${invite.firstName} ${invite.lastName}`);
    expect(details).toContain(invite.clinicName);
    expect(details).toContain('Physician');
    expect(details).toContain(invite.email);
    expect(getByText<HTMLAnchorElement>(container, 'a', 'EULA').getAttribute('href')).toBe('/eula');
    expect(getByText<HTMLAnchorElement>(container, 'a', 'privacy notice').getAttribute('href')).toBe('/privacy-policy');
  });

  it('accepts the invite with a good password and both documents accepted', async () => {
    const { container } = await renderPage();
    const { password, confirmation, eula, privacy, submit } = await form(container);
    await type(password, 'Macula2026');
    await type(confirmation, 'Macula2026');
    await click(eula);
    await click(privacy);
    await click(submit);
    await waitFor(() =>
      expect(container.querySelector('[role="status"]')?.textContent).toBe('Your account is active. You can now sign in.'),
    );
    expect(bodies).toEqual([
      { token: TOKEN, password: 'Macula2026', passwordConfirmation: 'Macula2026', acceptEula: true, acceptPrivacyNotice: true },
    ]);
    expect(getByText<HTMLAnchorElement>(container, 'a', 'Go to sign in').getAttribute('href')).toBe('/sign-in');
  });

  it('requires the EULA and the privacy notice', async () => {
    const { container } = await renderPage();
    const { password, confirmation, eula, submit } = await form(container);
    await type(password, 'Macula2026');
    await type(confirmation, 'Macula2026');
    await click(submit);
    await waitFor(() => {
      expect(container.textContent).toContain('You must accept the EULA');
      expect(container.textContent).toContain('You must accept the privacy notice');
    });
    expect(eula.getAttribute('aria-invalid')).toBe('true');
    expect(bodies).toEqual([]);
  });

  it('shows the live hints of the advanced level and refuses a weak password and a mismatch', async () => {
    const answer = getGetUserInviteResponseMock();
    answer.data.passwordStrength = 'advanced';
    server.use(getGetUserInviteMockHandler(answer));
    const { container } = await renderPage();
    const { password, confirmation, eula, privacy, submit } = await form(container);
    expect(container.textContent).toContain('At least 12 characters');
    expect(container.textContent).toContain('A special character');
    await type(password, 'Macula2026');
    await waitFor(() =>
      expect(hintState(container)).toEqual({
        min_length: 'false',
        capital: 'true',
        small: 'true',
        number: 'true',
        special: 'false',
        allowed_characters: 'true',
        not_common: 'true',
      }),
    );
    await type(confirmation, 'Macula2026');
    await click(eula);
    await click(privacy);
    await click(submit);
    await waitFor(() => expect(container.textContent).toContain('Please enter a valid password'));

    await type(password, 'Macula-Grid-2026');
    await type(confirmation, 'Macula-Grid-2027');
    await click(submit);
    await waitFor(() => expect(container.textContent).toContain('Passwords do not match'));
    expect(bodies).toEqual([]);
  });

  it('shows the expired-invite state', async () => {
    const answer = getGetUserInviteResponseMock();
    answer.data.expired = true;
    server.use(getGetUserInviteMockHandler(answer));
    const { container } = await renderPage();
    await waitFor(() => expect(container.textContent).toContain('This invitation has expired.'));
    expect(container.textContent).toContain('IT administrator');
    expect(container.querySelectorAll('input[type="password"]')).toHaveLength(0);
  });

  it('explains an unknown link, and one without a token', async () => {
    server.use(
      http.get('*/user-invites', () =>
        HttpResponse.json({ status: 'Error', message: 'not found', code: 'invite.not_found' }, { status: 404 }),
      ),
    );
    const { container } = await renderPage();
    await waitFor(() => expect(container.querySelector('[role="alert"]')?.textContent).toContain('not valid'));
    cleanup();
    const second = await renderPage('en', '/approve-account');
    expect(second.container.querySelector('[role="alert"]')?.textContent).toContain('not valid');
  });

  it('shows server field errors under the fields (German)', async () => {
    server.use(
      http.post('*/accept-invite', () =>
        HttpResponse.json(
          { status: 'Error', message: 'Ungültig', errors: { password: ['Dieses Passwort ist zu häufig.'] } },
          { status: 422 },
        ),
      ),
    );
    const { container } = await renderPage('de');
    await waitFor(() => getByLabel(container, 'Neues Passwort'));
    expect(container.querySelector('h1')?.textContent).toBe('Konto aktivieren');
    await type(getByLabel(container, 'Neues Passwort'), 'Macula2026');
    await type(getByLabel(container, 'Passwort bestätigen'), 'Macula2026');
    await click(getByText(container, 'button', 'Konto aktivieren'));
    await waitFor(() => {
      expect(container.textContent).toContain('Bitte akzeptieren Sie den Endbenutzer-Lizenzvertrag (EULA)');
    });
    await click(getByLabel(container, 'Ich akzeptiere den Endbenutzer-Lizenzvertrag (EULA)'));
    await click(getByLabel(container, 'Ich habe die Datenschutzerklärung gelesen und akzeptiere sie'));
    await click(getByText(container, 'button', 'Konto aktivieren'));
    await waitFor(() => expect(container.textContent).toContain('Dieses Passwort ist zu häufig.'));
  });
});
