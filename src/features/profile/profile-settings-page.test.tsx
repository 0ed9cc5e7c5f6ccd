import {
  getChangePasswordMockHandler,
  getGetProfileMockHandler,
  getGetProfileResponseMock,
  getUpdateProfileMockHandler,
} from '@generated/hooks/profile/profile.msw';
import type { ProfileResponse } from '@generated/model/profileResponse';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { act } from 'react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { SignedInLayout } from '@/app/signed-in-layout';
import { apiInstance, navigation } from '@/lib/api-client';
import type { UiLanguage } from '@/lib/i18n';
import { cleanup, click, getByLabel, getByText, hintState, renderRoutes, type, waitFor } from '@/testing/render';
import { AVATAR_MAX_BYTES } from '@/lib/avatar-file';
import { ProfileSettingsPage } from './profile-settings-page';
import { layoutHandlers } from '@/testing/layout-handlers';

const PNG_HEADER = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const server = setupServer();

/** The multipart bodies the page sent (POST /user/profile), one per request: text fields and files. */
let profilePosts: Record<string, string>[];
let stopRecording: () => void;
let avatarReads: number;
let profile: ProfileResponse;

const profileWith = (changes: Partial<ProfileResponse['data']>): ProfileResponse => {
  const answer = getGetProfileResponseMock();
  return { ...answer, data: { ...answer.data, ...changes } };
};

/** A multipart body as field → value, a file as "file:<name>:<size>". */
function fieldsOf(form: FormData): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of form) fields[name] = typeof value === 'string' ? value : `file:${value.name}:${value.size}`;
  return fields;
}

/*
 * Records the FormData as the API client sends it: msw's XMLHttpRequest interception under jsdom loses a
 * file part's name and bytes, so the body is read before it goes out.
 */
function recordProfilePosts(): () => void {
  const id = apiInstance.interceptors.request.use((config) => {
    if (config.data instanceof FormData) profilePosts.push(fieldsOf(config.data));
    return config;
  });
  return () => apiInstance.interceptors.request.eject(id);
}

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  // jsdom has no object URLs; the page only hands them to <img>.
  let created = 0;
  URL.createObjectURL = () => `blob:avatar-${(created += 1)}`;
  URL.revokeObjectURL = () => {};
  // Nor Blob#stream, which msw needs to pass on an image (responseType 'blob') to its listeners.
  Blob.prototype.stream ??= function stream(this: Blob) {
    const bytes = this.arrayBuffer();
    return new ReadableStream({
      async start(controller) {
        controller.enqueue(new Uint8Array(await bytes));
        controller.close();
      },
    });
  };
});
beforeEach(() => {
  profilePosts = [];
  stopRecording = recordProfilePosts();
  avatarReads = 0;
  profile = getGetProfileResponseMock();
  localStorage.setItem('token', 'demo-token');
  vi.spyOn(navigation, 'assign').mockImplementation(() => {});
  server.use(...layoutHandlers());
  server.use(
    getGetProfileMockHandler(() => profile),
    getUpdateProfileMockHandler(() => {
      const { avatar, removeAvatar, currentPassword, email, ...text } = profilePosts.at(-1) ?? {};
      const picture = avatar ? '/api/users/5d0c8f3e-2b7a-4e61-9f1d-8a3c6b2e4f01/avatar' : profile.data.avatar;
      // As the server does: a new address (sent with the current password) only waits for its confirmation link.
      const newAddress = typeof email === 'string' && email.toLowerCase() !== profile.data.email.toLowerCase();
      expect(newAddress ? currentPassword : undefined).toBe(newAddress ? PASSWORD : undefined);
      profile = profileWith({
        ...profile.data,
        ...text,
        ...(newAddress ? { pendingEmail: email } : typeof email === 'string' ? { email } : {}),
        avatar: removeAvatar === '1' ? null : picture,
      });
      const message = newAddress ? `We have sent a confirmation link to ${email}. Your email address changes when you open it.` : 'Changes added successfully';
      return { ...profile, message };
    }),
    http.get('*/users/:id/avatar', () => {
      avatarReads += 1;
      return new HttpResponse(new Uint8Array([...PNG_HEADER, 0, 0, 0, 13]), { headers: { 'Content-Type': 'image/png' } });
    }),
  );
});
afterEach(() => {
  stopRecording();
  cleanup();
  server.resetHandlers();
  vi.restoreAllMocks();
  localStorage.clear();
  sessionStorage.clear();
});
afterAll(() => server.close());

async function renderPage(language: UiLanguage = 'en') {
  const rendered = await renderRoutes(
    [
      {
        path: '/profile-settings',
        element: <SignedInLayout area="any" />,
        children: [{ index: true, element: <ProfileSettingsPage /> }],
      },
      { path: '/sign-in', element: <h1>Sign in</h1> },
    ],
    { path: '/profile-settings', language },
  );
  await waitFor(() => expect(rendered.container.querySelector('form')).not.toBeNull());
  return rendered;
}

const notificationText = (container: HTMLElement) => container.querySelector('.mp-notifications')?.textContent ?? '';
// Blueprint renders dialogs into a portal on document.body.
const alertDialog = () => document.querySelector<HTMLElement>('[role="alertdialog"]');
const openDialog = () =>
  waitFor(() => {
    const dialog = alertDialog();
    if (!dialog) throw new Error('no dialog open');
    return dialog;
  });

/** The server answers POSTs to `path` with an error envelope. */
const failWith = (path: string, status: number, body: Record<string, unknown>) =>
  server.use(http.post(path, () => HttpResponse.json({ status: 'Error', ...body }, { status })));

/** The general information's section (the password change below has a current password field too). */
const generalSection = (container: HTMLElement) => container.querySelector<HTMLElement>('section')!;

/** Types a new address and the current password and saves; the confirmation dialog opens. */
async function askToChangeEmail(
  container: HTMLElement,
  email: string,
  [emailLabel, saveLabel, passwordLabel] = ['Email', 'Save changes', 'Current password'],
  password = PASSWORD,
) {
  const general = generalSection(container);
  await type(getByLabel(general, emailLabel), email);
  await type(getByLabel(general, passwordLabel), password);
  await click(getByText(general, 'button', saveLabel));
  return openDialog();
}

/** The current password the mocked server takes with a new address. */
const PASSWORD = 'Fovea-Ring-2026';

const PASSWORD_LABELS: Record<UiLanguage, [string, string, string]> = {
  en: ['Current password', 'New password', 'Confirm password'],
  de: ['Aktuelles Passwort', 'Neues Passwort', 'Passwort bestätigen'],
};

/** Fills the password change with `current` and a new password that meets the standard level. */
async function fillPasswordChange(container: HTMLElement, current: string, language: UiLanguage = 'en') {
  const [currentLabel, newLabel, confirmationLabel] = PASSWORD_LABELS[language];
  await type(getByLabel(container, currentLabel), current);
  await type(getByLabel(container, newLabel), 'Laser-Spot-2027');
  await type(getByLabel(container, confirmationLabel), 'Laser-Spot-2027');
}

async function chooseFile(input: HTMLInputElement, file: File) {
  await act(async () => {
    Object.defineProperty(input, 'files', { value: [file], configurable: true });
    input.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

/** A file of `size` bytes that starts like a PNG. */
const pngOf = (size: number, name = 'me.png') => {
  const bytes = new Uint8Array(size);
  bytes.set(PNG_HEADER);
  return new File([bytes], name, { type: 'image/png' });
};

describe('ProfileSettingsPage: general information', () => {
  it('shows one h1, a section per topic and the profile values', async () => {
    const { container } = await renderPage();
    expect([...container.querySelectorAll('h1')].map((h) => h.textContent)).toEqual(['Profile settings']);
    expect([...container.querySelectorAll('section h2')].map((h) => h.textContent)).toEqual([
      'General information',
      'Profile picture',
      'Change password',
      'Two-factor sign-in',
    ]);
    expect(getByLabel(container, 'First name').value).toBe('Anna');
    expect(getByLabel(container, 'Last name').value).toBe('Keller');
    expect(getByLabel(container, 'Physician name').value).toBe('Dr. Anna Keller');
    expect(getByLabel(container, 'Email').value).toBe('physician@clinic.example');
    const facts = container.querySelector('.mp-settings-facts')?.textContent;
    expect(facts).toContain('Augenklinik am See');
    expect(facts).toContain('Physician');
    await waitFor(() => expect(container.querySelector('main img')?.getAttribute('alt')).toBe('Your profile picture'));
    expect(avatarReads).toBe(1);
  });

  it('is translated into German', async () => {
    const { container } = await renderPage('de');
    expect(container.querySelector('h1')?.textContent).toBe('Profileinstellungen');
    expect(getByLabel(container, 'Vorname').value).toBe('Anna');
    expect(getByLabel(container, 'Name auf Plänen und Berichten').value).toBe('Dr. Anna Keller');
    getByLabel(container, 'Aktuelles Passwort');
    getByText(container, 'button', 'Änderungen speichern');
  });

  it('offers the physician name to physicians only', async () => {
    profile = profileWith({ role: 'clinic_nurses', physicianName: null, avatar: null });
    const { container } = await renderPage();
    expect(() => getByLabel(container, 'Physician name')).toThrow();
    expect(container.textContent).toContain('You have no profile picture yet.');
    expect(avatarReads).toBe(0);
  });

  it('saves the names as a multipart form, confirms it and updates the navbar', async () => {
    const { container } = await renderPage();
    await type(getByLabel(container, 'First name'), '  Anne ');
    await type(getByLabel(container, 'Physician name'), 'Dr. med. Anne Keller');
    await click(getByText(container, 'button', 'Save changes'));

    await waitFor(() => expect(notificationText(container)).toContain('Changes added successfully'));
    expect(profilePosts).toEqual([
      { firstName: 'Anne', lastName: 'Keller', physicianName: 'Dr. med. Anne Keller', email: 'physician@clinic.example' },
    ]);
    expect(container.querySelector('.mp-current-user-name')?.textContent).toBe('Dr. med. Anne Keller');
    expect(getByLabel(container, 'First name').value).toBe('Anne');
    expect(alertDialog()).toBeNull();
  });

  it('refuses empty names and a bad address before sending', async () => {
    const { container } = await renderPage();
    await type(getByLabel(container, 'Last name'), '   ');
    await type(getByLabel(container, 'Email'), 'not-an-address');
    await click(getByText(container, 'button', 'Save changes'));
    await waitFor(() => {
      expect(container.textContent).toContain('This field is required');
      expect(container.textContent).toContain('Please enter a valid email address');
    });
    expect(getByLabel(container, 'Last name').getAttribute('aria-invalid')).toBe('true');
    expect(getByLabel(container, 'First name').maxLength).toBe(100);
    expect(profilePosts).toEqual([]);
  });

  it('shows the server field errors under the fields', async () => {
    failWith('*/user/profile', 422, { message: 'Please check the highlighted fields.', errors: { lastName: ['Too odd.'] } });
    const { container } = await renderPage();
    await click(getByText(container, 'button', 'Save changes'));
    await waitFor(() => expect(container.textContent).toContain('Too odd.'));
    expect(getByLabel(container, 'Last name').getAttribute('aria-invalid')).toBe('true');
  });
});

describe('ProfileSettingsPage: a new e-mail address', () => {
  it('needs the current password before asking; cancel sends nothing and keeps the form as it was', async () => {
    const { container, router } = await renderPage();
    const general = generalSection(container);
    expect(() => getByLabel(general, 'Current password')).toThrow();
    await type(getByLabel(general, 'Email'), 'anna.keller@clinic.example');
    const password = getByLabel(general, 'Current password');
    expect(password.type).toBe('password');
    expect(password.getAttribute('aria-describedby')).toBeTruthy();
    expect(document.getElementById(password.getAttribute('aria-describedby') ?? '')?.textContent).toBe('Needed to change your email address.');
    await click(getByText(general, 'button', 'Save changes'));
    await waitFor(() => expect(getByLabel(general, 'Current password').getAttribute('aria-invalid')).toBe('true'));
    expect(general.textContent).toContain('This field is required');
    expect(alertDialog()).toBeNull();

    const dialog = await askToChangeEmail(container, 'anna.keller@clinic.example');
    expect(dialog.textContent).toContain('Change your email address?');
    expect(dialog.textContent).toContain(
      'We will send a confirmation link to anna.keller@clinic.example. Your address changes when you open it; you will then be signed out on every device and sign in with the new address.',
    );
    expect(document.getElementById(dialog.getAttribute('aria-labelledby') ?? '')?.textContent).toBe('Change your email address?');
    await click(getByText(dialog, 'button', 'Cancel'));

    await waitFor(() => expect(alertDialog()).toBeNull());
    expect(profilePosts).toEqual([]);
    expect(getByLabel(general, 'Email').value).toBe('anna.keller@clinic.example');
    expect(router.state.location.pathname).toBe('/profile-settings');
    expect(localStorage.getItem('token')).toBe('demo-token');
  });

  it('on confirm sends the address with the password, stays signed in and names the address waiting for its link', async () => {
    const { container, router } = await renderPage();
    const dialog = await askToChangeEmail(container, 'anna.keller@clinic.example');
    await click(getByText(dialog, 'button', 'Send confirmation link'));

    await waitFor(() =>
      expect(notificationText(container)).toContain('We have sent a confirmation link to anna.keller@clinic.example. Your email address changes when you open it.'),
    );
    expect(profilePosts).toHaveLength(1);
    expect(profilePosts[0]).toMatchObject({ email: 'anna.keller@clinic.example', currentPassword: PASSWORD });
    const general = generalSection(container);
    // The account keeps its address until the link is opened; the field shows it again, with the one waiting.
    await waitFor(() => expect(getByLabel(general, 'Email').value).toBe('physician@clinic.example'));
    expect(() => getByLabel(general, 'Current password')).toThrow();
    expect(general.textContent).toContain(
      'Waiting for confirmation: anna.keller@clinic.example. Open the link we sent to that address; until then, you sign in with physician@clinic.example.',
    );
    expect(router.state.location.pathname).toBe('/profile-settings');
    expect(localStorage.getItem('token')).toBe('demo-token');
  });

  it('shows a wrong current password (422) and an address taken by another account (409) under their fields', async () => {
    failWith('*/user/profile', 422, {
      message: 'Please check the highlighted fields.',
      code: 'request.invalid',
      errors: { currentPassword: ['The current password is not correct.'] },
    });
    const { container } = await renderPage();
    const general = generalSection(container);
    const dialog = await askToChangeEmail(container, 'anna.keller@clinic.example', undefined, 'Not-The-Password-1');
    await click(getByText(dialog, 'button', 'Send confirmation link'));
    await waitFor(() => expect(general.textContent).toContain('The current password is not correct.'));
    expect(getByLabel(general, 'Current password').getAttribute('aria-invalid')).toBe('true');

    failWith('*/user/profile', 409, {
      message: 'This email address is already in use.',
      code: 'user.email_taken',
      errors: { email: ['This email address is already in use.'] },
    });
    const again = await askToChangeEmail(container, 'nurse@clinic.example');
    await click(getByText(again, 'button', 'Send confirmation link'));
    await waitFor(() => expect(general.textContent).toContain('This email address is already in use.'));
    expect(getByLabel(general, 'Email').getAttribute('aria-invalid')).toBe('true');
    expect(localStorage.getItem('token')).toBe('demo-token');
  });

  it('saves a different spelling of the same address without asking or a password', async () => {
    const { container, router } = await renderPage();
    await type(getByLabel(container, 'Email'), 'Physician@Clinic.example');
    expect(() => getByLabel(generalSection(container), 'Current password')).toThrow();
    await click(getByText(container, 'button', 'Save changes'));
    await waitFor(() => expect(notificationText(container)).toContain('Changes added successfully'));
    expect(alertDialog()).toBeNull();
    expect(profilePosts[0]?.email).toBe('Physician@Clinic.example');
    expect(profilePosts[0]).not.toHaveProperty('currentPassword');
    expect(router.state.location.pathname).toBe('/profile-settings');
  });

  it('asks in German', async () => {
    const { container } = await renderPage('de');
    const dialog = await askToChangeEmail(container, 'anna.keller@clinic.example', ['E-Mail', 'Änderungen speichern', 'Aktuelles Passwort']);
    expect(dialog.textContent).toContain('E-Mail-Adresse ändern?');
    expect(dialog.textContent).toContain('Wir senden einen Bestätigungslink an anna.keller@clinic.example.');
    await click(getByText(dialog, 'button', 'Abbrechen'));
    expect(profilePosts).toEqual([]);
  });
});

describe('ProfileSettingsPage: profile picture', () => {
  const TOO_LARGE = 'Too large: 4.2 MB, at most 3 MB.';
  const INVALID = 'PNG, JPG or JPEG only: this file is none of them.';

  it('refuses a picture over 3 MB and a text file named x.png without any request, saying which limit each broke', async () => {
    const { container } = await renderPage();
    const input = getByLabel(container, 'New picture');
    expect(input.accept).toBe('.png,.jpg,.jpeg,image/png,image/jpeg');

    await chooseFile(input, pngOf(Math.round(4.2 * 1024 * 1024), 'big.png'));
    await waitFor(() => expect(container.textContent).toContain(TOO_LARGE));
    expect(container.textContent).not.toContain(INVALID);
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(input.getAttribute('aria-describedby') ?? '')?.textContent).toBe(TOO_LARGE);
    expect(() => getByText(container, 'button', 'Save picture')).toThrow();

    await chooseFile(input, pngOf(64));
    await waitFor(() => getByText(container, 'button', 'Save picture'));
    expect(container.textContent).not.toContain(INVALID);

    await chooseFile(input, new File(['just some text'], 'x.png', { type: 'image/png' }));
    await waitFor(() => expect(container.textContent).toContain(INVALID));
    expect(container.textContent).not.toContain(TOO_LARGE);
    expect(() => getByText(container, 'button', 'Save picture')).toThrow();
    expect(profilePosts).toEqual([]);
  });

  it('previews a good picture, uploads it and shows the new one', async () => {
    const { container } = await renderPage();
    await waitFor(() => expect(avatarReads).toBe(1));
    await chooseFile(getByLabel(container, 'New picture'), pngOf(AVATAR_MAX_BYTES));
    await waitFor(() =>
      expect(container.querySelector('.mp-avatar')?.getAttribute('alt')).toBe('Preview of your new profile picture'),
    );
    await click(getByText(container, 'button', 'Save picture'));

    await waitFor(() => expect(notificationText(container)).toContain('Changes added successfully'));
    expect(profilePosts).toEqual([{ avatar: `file:me.png:${AVATAR_MAX_BYTES}` }]);
    // Read again: the header's picture stays mounted, and the page's remounts (this test's cache is never fresh).
    await waitFor(() => expect(avatarReads).toBeGreaterThanOrEqual(2));
    await waitFor(() => expect(container.querySelector('.mp-avatar')?.getAttribute('alt')).toBe('Your profile picture'));
    expect(container.querySelector('header img.mp-user-avatar')).not.toBeNull();
  });

  it('discards a chosen picture without sending it', async () => {
    const { container } = await renderPage();
    await chooseFile(getByLabel(container, 'New picture'), pngOf(64));
    await click(await waitFor(() => getByText(container, 'button', 'Discard')));
    expect(() => getByText(container, 'button', 'Save picture')).toThrow();
    expect(profilePosts).toEqual([]);
  });

  it('shows the wrong-format message when the server refuses the picture (415)', async () => {
    failWith('*/user/profile', 415, { message: INVALID, code: 'avatar.invalid_format', errors: { avatar: [INVALID] } });
    const { container } = await renderPage('de');
    await chooseFile(getByLabel(container, 'Neues Bild'), pngOf(64));
    await click(await waitFor(() => getByText(container, 'button', 'Bild speichern')));
    await waitFor(() =>
      expect(container.textContent).toContain('Nur PNG, JPG oder JPEG: Diese Datei ist keines davon.'),
    );
  });

  it('shows the too-large message when the server refuses the picture as too large (413)', async () => {
    failWith('*/user/profile', 413, { message: 'Too large', code: 'avatar.too_large', errors: { avatar: ['Too large'] } });
    const { container } = await renderPage();
    await chooseFile(getByLabel(container, 'New picture'), pngOf(64));
    await click(await waitFor(() => getByText(container, 'button', 'Save picture')));
    await waitFor(() => expect(container.textContent).toContain('Too large: a picture may have at most 3 MB.'));
  });

  it('removes the picture', async () => {
    const { container } = await renderPage();
    await click(getByText(container, 'button', 'Remove picture'));
    await waitFor(() => expect(container.textContent).toContain('You have no profile picture yet.'));
    expect(profilePosts).toEqual([{ removeAvatar: '1' }]);
    expect(() => getByText(container, 'button', 'Remove picture')).toThrow();
  });
});

describe('ProfileSettingsPage: change password', () => {
  let passwordBodies: unknown[];
  beforeEach(() => {
    passwordBodies = [];
    server.use(
      getChangePasswordMockHandler(async ({ request }) => {
        passwordBodies.push(await request.json());
        return { status: 'Success', message: 'Your password has been changed.' };
      }),
    );
  });

  it('shows the hints of the profile strength level live and refuses a weak password or a mismatch', async () => {
    profile = profileWith({ passwordStrength: 'advanced' });
    const { container } = await renderPage();
    expect(container.textContent).toContain('At least 12 characters');
    expect(container.textContent).toContain('A special character');
    const password = getByLabel(container, 'New password');
    await type(password, 'Macula2026');
    await waitFor(() => expect(hintState(container)).toMatchObject({ min_length: 'false', special: 'false', capital: 'true' }));

    const submit = getByText(container, 'button', 'Change password');
    await type(getByLabel(container, 'Current password'), 'Demo-Clinic-2026!');
    await type(getByLabel(container, 'Confirm password'), 'Macula2026');
    await click(submit);
    await waitFor(() => expect(container.textContent).toContain('Please enter a valid password'));

    await type(password, 'Macula Grid 2026!');
    await click(submit);
    await waitFor(() =>
      expect(container.textContent).toContain('Invalid characters. Use only letters, numbers, and !@#$%^&*-_='),
    );

    await type(password, 'Macula-Grid-2026');
    await waitFor(() => expect(Object.values(hintState(container)).every((met) => met === 'true')).toBe(true));
    await type(getByLabel(container, 'Confirm password'), 'Macula-Grid-2027');
    await click(submit);
    await waitFor(() => expect(container.textContent).toContain('Passwords do not match'));
    expect(passwordBodies).toEqual([]);
  });

  it('changes the password, confirms it and empties the form', async () => {
    const { container } = await renderPage();
    await fillPasswordChange(container, 'Demo-Clinic-2026!');
    await click(getByText(container, 'button', 'Change password'));

    await waitFor(() => expect(notificationText(container)).toContain('Your password has been changed.'));
    expect(passwordBodies).toEqual([
      { currentPassword: 'Demo-Clinic-2026!', password: 'Laser-Spot-2027', passwordConfirmation: 'Laser-Spot-2027' },
    ]);
    expect(getByLabel(container, 'Current password').value).toBe('');
    expect(getByLabel(container, 'New password').value).toBe('');
  });

  it('shows a wrong current password (422) under its field', async () => {
    failWith('*/user/password', 422, {
      message: 'Please check the highlighted fields.',
      errors: { currentPassword: ['Das aktuelle Passwort ist nicht korrekt.'] },
    });
    const { container } = await renderPage('de');
    await fillPasswordChange(container, 'wrong-one-1', 'de');
    await click(getByText(container, 'button', 'Passwort ändern'));
    await waitFor(() => expect(container.textContent).toContain('Das aktuelle Passwort ist nicht korrekt.'));
    expect(getByLabel(container, 'Aktuelles Passwort').getAttribute('aria-invalid')).toBe('true');
    expect(notificationText(container)).toBe('');
  });

  it('reports a failure without field errors as a notification', async () => {
    failWith('*/user/password', 429, { message: 'Too many attempts. Please wait.' });
    const { container } = await renderPage();
    await fillPasswordChange(container, 'Demo-Clinic-2026!');
    await click(getByText(container, 'button', 'Change password'));
    await waitFor(() => expect(notificationText(container)).toContain('Too many attempts. Please wait.'));
    expect(container.querySelector('.mp-notifications [role="alert"]')).not.toBeNull();
  });
});
