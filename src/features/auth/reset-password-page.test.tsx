import { getResetPasswordMockHandler } from '@generated/hooks/auth/auth.msw';
import type { ResetPasswordRequest } from '@generated/model/resetPasswordRequest';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { UiLanguage } from '@/lib/i18n';
import { cleanup, click, getByLabel, getByText, renderRoutes, type, waitFor } from '@/testing/render';
import { ResetPasswordPage } from './reset-password-page';

const server = setupServer();
const requests: ResetPasswordRequest[] = [];

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  cleanup();
  server.resetHandlers();
  requests.length = 0;
});
afterAll(() => server.close());

function answers(respond?: () => Response) {
  server.use(
    respond
      ? http.post('*/reset-password', async ({ request }) => {
          requests.push((await request.json()) as ResetPasswordRequest);
          return respond();
        })
      : getResetPasswordMockHandler(async ({ request }) => {
          requests.push((await request.json()) as ResetPasswordRequest);
          return { status: 'Success', message: 'server text' };
        }),
  );
}

async function renderPage(language: UiLanguage = 'en') {
  const rendered = await renderRoutes([{ path: '/reset-password', element: <ResetPasswordPage /> }], {
    path: '/reset-password',
    language,
  });
  const { container } = rendered;
  const [email, submit] = language === 'de' ? ['E-Mail', 'Link senden'] : ['Email', 'Send link'];
  return { ...rendered, email: getByLabel(container, email), submit: getByText(container, 'button', submit) };
}

describe('ResetPasswordPage', () => {
  it('has one h1, a labelled e-mail field and a link back to sign-in', async () => {
    const { container, email } = await renderPage();
    expect([...container.querySelectorAll('h1')].map((h) => h.textContent)).toEqual(['Reset password']);
    expect(email.type).toBe('email');
    expect(getByText<HTMLAnchorElement>(container, 'a', 'Back to sign in').getAttribute('href')).toBe('/sign-in');
  });

  it('refuses an empty or invalid address with the specification text and sends nothing', async () => {
    answers();
    const { container, email, submit } = await renderPage();
    await click(submit);
    await waitFor(() => expect(container.textContent).toContain('Please enter a valid email address'));
    await type(email, 'anna.keller');
    await click(submit);
    await waitFor(() => expect(email.getAttribute('aria-invalid')).toBe('true'));
    expect(requests).toEqual([]);
  });

  it('sends the trimmed address and shows the same confirmation whatever the answer says', async () => {
    answers();
    const { container, email, submit } = await renderPage();
    await type(email, '  someone@clinic.example ');
    await click(submit);
    await waitFor(() =>
      expect(container.querySelector('[role="status"]')?.textContent).toBe(
        'If an account exists for this address, we have sent a link to reset the password. Please check your inbox.',
      ),
    );
    expect(requests).toEqual([{ email: 'someone@clinic.example' }]);
    expect(container.textContent).not.toContain('server text');
  });

  it('shows the confirmation in German', async () => {
    answers();
    const { container, email, submit } = await renderPage('de');
    expect(container.querySelector('h1')?.textContent).toBe('Passwort zurücksetzen');
    await type(email, 'someone@clinic.example');
    await click(submit);
    await waitFor(() => expect(container.querySelector('[role="status"]')?.textContent).toContain('Posteingang'));
  });

  it('shows server field errors under the field and other failures as an alert', async () => {
    answers(() =>
      HttpResponse.json(
        { status: 'Error', message: 'The given data was invalid.', errors: { email: ['Unknown domain.'] } },
        { status: 422 },
      ),
    );
    const { container, email, submit } = await renderPage();
    await type(email, 'someone@clinic.example');
    await click(submit);
    await waitFor(() => expect(container.textContent).toContain('Unknown domain.'));
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(container.querySelector('[role="alert"]')).toBeNull();

    server.use(
      http.post('*/reset-password', () =>
        HttpResponse.json({ status: 'Error', message: 'Too many attempts.', retryAfter: 60 }, { status: 429 }),
      ),
    );
    await click(submit);
    await waitFor(() => expect(container.querySelector('[role="alert"]')?.textContent).toBe('Too many attempts.'));
  });
});
