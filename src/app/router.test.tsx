import { getLogoutMockHandler } from '@generated/hooks/auth/auth.msw';
import {
  getGetProfileMockHandler,
  getGetProfileResponseMock,
  getUpdateProfileMockHandler,
} from '@generated/hooks/profile/profile.msw';
import { getListUsersMockHandler } from '@generated/hooks/users/users.msw';
import type { ProfileResponse } from '@generated/model/profileResponse';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { act } from 'react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { navigation } from '@/lib/api-client';
import { cleanup, click, getByLabel, getByText, renderRoutes, select, waitFor } from '@/testing/render';
import { createRoutes } from './router';
import { layoutHandlers } from '@/testing/layout-handlers';

const server = setupServer();
let profileCalls = 0;

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  // jsdom has no object URLs; the header's avatar only hands them to <img>.
  URL.createObjectURL = () => 'blob:avatar';
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
  profileCalls = 0;
  vi.spyOn(navigation, 'assign').mockImplementation(() => {});
  server.use(...layoutHandlers());
  // The saved avatar the header shows.
  server.use(
    http.get('*/users/:id/avatar', () => new HttpResponse(new Uint8Array([137, 80, 78, 71]), { headers: { 'Content-Type': 'image/png' } })),
    // The staff list an IT admin lands on.
    getListUsersMockHandler({ status: 'Success', data: [], meta: { page: 1, perPage: 20, total: 0, lastPage: 1 } }),
  );
});
afterEach(() => {
  cleanup();
  server.resetHandlers();
  vi.restoreAllMocks();
  localStorage.clear();
  sessionStorage.clear();
});
afterAll(() => server.close());

/** The contract's example profile with some fields changed; `role` may be any spelling. */
function profileWith(changes: Omit<Partial<ProfileResponse['data']>, 'role'> & { role?: string }): ProfileResponse {
  const answer = getGetProfileResponseMock();
  return { ...answer, data: { ...answer.data, ...changes } as ProfileResponse['data'] };
}

function profileAnswers(answer: ProfileResponse | (() => Response)) {
  server.use(
    typeof answer === 'function'
      ? http.get('*/user/profile', () => {
          profileCalls += 1;
          return answer();
        })
      : getGetProfileMockHandler(() => {
          profileCalls += 1;
          return answer;
        }),
  );
}

const signedIn = () => localStorage.setItem('token', 'demo-token');

async function openUserMenu(container: HTMLElement): Promise<void> {
  const button = container.querySelector<HTMLElement>('header button[aria-label$="User menu"]');
  if (!button) throw new Error('no user menu button');
  await click(button);
  await waitFor(() => getByText(document.body, 'a, button, [role="menuitem"]', 'Log out'));
}
const h1 = (container: HTMLElement) => container.querySelector('h1')?.textContent;

describe('/ redirect hub', () => {
  it('sends a visitor without a token to /sign-in without asking for the profile', async () => {
    profileAnswers(getGetProfileResponseMock());
    const { router, container } = await renderRoutes(createRoutes, { path: '/' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/sign-in'));
    await waitFor(() => expect(h1(container)).toBe('Sign in'));
    expect(profileCalls).toBe(0);
  });

  it('shows a labelled spinner while the profile loads', async () => {
    signedIn();
    server.use(http.get('*/user/profile', () => new Promise<Response>(() => {})));
    const { container } = await renderRoutes(createRoutes, { path: '/' });
    const spinner = await waitFor(() => {
      const element = container.querySelector('main [role="progressbar"]');
      if (!element) throw new Error('no spinner yet');
      return element;
    });
    expect(spinner.getAttribute('aria-label')).toBe('Loading…');
  });

  it.each([
    ['clinic_physicians', '/physician/list'],
    ['clinic_nurses', '/physician/list'],
    ['nurse', '/physician/list'],
    ['clinic_it_admins', '/admin'],
    ['clinic_it_admin', '/admin'],
    ['data_scientists', '/forbidden'],
  ])('sends %s to %s', async (role, target) => {
    signedIn();
    profileAnswers(profileWith({ role }));
    const { router } = await renderRoutes(createRoutes, { path: '/' });
    await waitFor(() => expect(router.state.location.pathname).toBe(target));
  });

  it('sends a user whose profile cannot be loaded to /sign-in', async () => {
    signedIn();
    profileAnswers(() => HttpResponse.json({ status: 'Error', message: 'Server down' }, { status: 500 }));
    const { router } = await renderRoutes(createRoutes, { path: '/' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/sign-in'));
  });
});

describe('signed-in areas', () => {
  it('shows the navbar and the physicians and nurses on /admin for an IT admin', async () => {
    signedIn();
    profileAnswers(profileWith({ role: 'clinic_it_admins', physicianName: null, firstName: 'Jonas', lastName: 'Weber' }));
    const { container } = await renderRoutes(createRoutes, { path: '/admin' });
    await waitFor(() => expect(h1(container)).toBe('Physicians and nurses'));
    const header = container.querySelector('header');
    expect(header?.textContent).toContain('Macula Planner');
    expect(header?.textContent).toContain('Jonas Weber');
    expect(header?.textContent).toContain('IT administrator');
    // The section's link is the current page.
    expect(getByText(container, 'a', 'Staff').getAttribute('aria-current')).toBe('page');
    await waitFor(() => expect(container.querySelector('main')?.textContent).toContain('No physicians or nurses yet'));
  });

  it.each([
    ['clinic_physicians', '/admin'],
    ['clinic_it_admins', '/physician/list'],
    ['service_engineers', '/physician/list'],
  ])('sends %s away from %s to /forbidden', async (role, path) => {
    signedIn();
    profileAnswers(profileWith({ role }));
    const { router, container } = await renderRoutes(createRoutes, { path });
    await waitFor(() => expect(router.state.location.pathname).toBe('/forbidden'));
    await waitFor(() => expect(h1(container)).toBe('Forbidden'));
  });

  it('sends a visitor without a token to /sign-in', async () => {
    const { router } = await renderRoutes(createRoutes, { path: '/admin' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/sign-in'));
  });

  it('switches the language and remembers the choice', async () => {
    signedIn();
    profileAnswers(profileWith({ role: 'clinic_it_admins' }));
    const { container } = await renderRoutes(createRoutes, { path: '/admin' });
    await waitFor(() => expect(h1(container)).toBe('Physicians and nurses'));
    expect(document.title).toBe('Physicians and nurses – Macula Planner');

    const saved: { lang: FormDataEntryValue | null; language: string | null }[] = [];
    server.use(
      getUpdateProfileMockHandler(async ({ request }) => {
        saved.push({ lang: (await request.formData()).get('lang'), language: request.headers.get('Language') });
        return profileWith({ role: 'clinic_it_admins', lang: 'de' });
      }),
    );

    await select(getByLabel<HTMLSelectElement>(container, 'Language'), 'de');

    await waitFor(() => expect(h1(container)).toBe('Ärzte und Pflegekräfte'));
    expect(document.title).toBe('Ärzte und Pflegekräfte – Macula Planner');
    expect(container.querySelector('header')?.textContent).toContain('IT-Administrator/in');
    expect(localStorage.getItem('i18nextLng')).toBe('de');
    expect(localStorage.getItem('savedPreference')).toBe('de');
    expect(document.documentElement.lang).toBe('de');
    // Saved to the profile, asked in the new language.
    await waitFor(() => expect(saved).toEqual([{ lang: 'de', language: 'de' }]));
  });

  it('says so when the language cannot be saved to the profile, and keeps it in this browser', async () => {
    signedIn();
    profileAnswers(profileWith({ role: 'clinic_it_admins' }));
    server.use(http.post('*/user/profile', () => HttpResponse.json({ status: 'Error', message: 'down' }, { status: 503 })));
    const { container } = await renderRoutes(createRoutes, { path: '/admin' });
    await waitFor(() => expect(h1(container)).toBe('Physicians and nurses'));

    await select(getByLabel<HTMLSelectElement>(container, 'Language'), 'de');

    await waitFor(() => expect(document.body.textContent).toContain('Die Sprache konnte nicht'));
    expect(h1(container)).toBe('Ärzte und Pflegekräfte');
  });

  it('shows the sections of the area and a user menu with profile settings', async () => {
    signedIn();
    // Without an avatar, so that the profile page it opens asks for no image.
    profileAnswers(profileWith({ avatar: null }));
    const { container, router } = await renderRoutes(createRoutes, { path: '/physician/list' });
    await waitFor(() => expect(h1(container)).toBe('Patients'));
    const navigation = container.querySelector('nav[aria-label="Main navigation"]');
    expect([...(navigation?.querySelectorAll('a') ?? [])].map((link) => link.getAttribute('href'))).toEqual([
      '/physician/list',
    ]);

    // The first load leaves the focus alone; the skip link comes first.
    expect(document.activeElement).toBe(document.body);
    expect(container.querySelector('a')?.textContent).toBe('Skip to main content');

    await openUserMenu(container);
    await click(getByText(document.body, 'a, button, [role="menuitem"]', 'Profile settings'));

    await waitFor(() => expect(router.state.location.pathname).toBe('/profile-settings'));
    // A route change puts the focus on the new page's heading.
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Profile settings'));
    expect(document.activeElement?.tagName).toBe('H1');
    expect(document.title).toBe('Profile settings – Macula Planner');
  });

  it('shows the saved avatar in the user menu button, the user icon without one', async () => {
    signedIn();
    profileAnswers(getGetProfileResponseMock());
    const { container } = await renderRoutes(createRoutes, { path: '/physician/list' });
    await waitFor(() => expect(container.querySelector('header button img.mp-user-avatar')).not.toBeNull());
    cleanup();

    profileAnswers(profileWith({ avatar: null }));
    const second = await renderRoutes(createRoutes, { path: '/physician/list' });
    await waitFor(() => expect(h1(second.container)).toBe('Patients'));
    expect(second.container.querySelector('header button img')).toBeNull();
    expect(second.container.querySelector('header button [data-icon="user"]')).not.toBeNull();
  });

  it('moves through the user menu with the arrow keys, Home and End', async () => {
    signedIn();
    profileAnswers(profileWith({ avatar: null }));
    const { container } = await renderRoutes(createRoutes, { path: '/physician/list' });
    await waitFor(() => expect(h1(container)).toBe('Patients'));
    await openUserMenu(container);
    const items = () => [...document.body.querySelectorAll<HTMLElement>('[role="menuitem"]')];
    const focused = () => document.activeElement?.textContent;
    await waitFor(() => expect(focused()).toBe('Profile settings'));
    const press = async (key: string) => {
      await act(async () => {
        document.activeElement?.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
      });
    };
    expect(items().map((item) => item.textContent)).toEqual(['Profile settings', 'Log out']);
    await press('ArrowDown');
    expect(focused()).toBe('Log out');
    await press('ArrowDown');
    expect(focused()).toBe('Profile settings');
    await press('ArrowUp');
    expect(focused()).toBe('Log out');
    await press('Home');
    expect(focused()).toBe('Profile settings');
    await press('End');
    expect(focused()).toBe('Log out');
  });

  it.each([
    ['the server confirms', () => getLogoutMockHandler()],
    [
      'the call fails',
      () => http.post('*/logout', () => HttpResponse.json({ status: 'Error', message: 'down' }, { status: 503 })),
    ],
  ])('logs out when %s: token and cache gone, back on /sign-in', async (_case, logoutHandler) => {
    signedIn();
    profileAnswers(getGetProfileResponseMock());
    let logoutCalls = 0;
    server.use(logoutHandler());
    server.events.on('request:start', ({ request }) => {
      if (request.url.endsWith('/logout')) logoutCalls += 1;
    });
    const { container, router, queryClient } = await renderRoutes(createRoutes, { path: '/physician/list' });
    await waitFor(() => expect(h1(container)).toBe('Patients'));

    await openUserMenu(container);
    await click(getByText(document.body, 'a, button, [role="menuitem"]', 'Log out'));

    await waitFor(() => expect(router.state.location.pathname).toBe('/sign-in'));
    expect(logoutCalls).toBe(1);
    expect(localStorage.getItem('token')).toBeNull();
    expect(queryClient.getQueryCache().getAll()).toEqual([]);
    server.events.removeAllListeners();
  });

  it('redirects /physician to /physician/list', async () => {
    signedIn();
    profileAnswers(getGetProfileResponseMock());
    const { router } = await renderRoutes(createRoutes, { path: '/physician' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/physician/list'));
  });
});

describe('a password that expires while signed in', () => {
  it('a 403 auth.password_change_required on any call reads the profile again, which sends to /new-password', async () => {
    signedIn();
    // The grace of new renewal rules ends while the user works: from then on the server says so.
    let expired = false;
    profileAnswers(() => HttpResponse.json(profileWith({ passwordChangeRequired: expired ? 'expired' : null })));
    server.use(
      http.get('*/patients', () =>
        expired
          ? HttpResponse.json({ status: 'Error', message: 'Please choose a new password first.', code: 'auth.password_change_required' }, { status: 403 })
          : HttpResponse.json({ status: 'Success', data: [], meta: { page: 1, perPage: 20, total: 0, lastPage: 1 } }),
      ),
    );
    const { container, router, queryClient } = await renderRoutes(createRoutes, { path: '/physician/list' });
    await waitFor(() => expect(h1(container)).toBe('Patients'));
    await waitFor(() => expect(container.textContent).toContain('No patients yet'));
    expect(profileCalls).toBe(1);

    expired = true;
    // Any call of the page (here the list, asked again) gets the answer.
    await act(() => queryClient.refetchQueries({ queryKey: ['/patients'], exact: false }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/new-password'));
    await waitFor(() => expect(h1(container)).toBe('Choose a new password'));
    expect(container.textContent).toContain('Your password has expired. Please choose a new one before you continue.');
    // Read again because of the answer (and by the new page, whose test client keeps nothing fresh).
    expect(profileCalls).toBeGreaterThanOrEqual(2);
    expect(localStorage.getItem('token')).toBe('demo-token');
  }, 20_000);

  it('a 403 for want of rights leaves the profile alone', async () => {
    signedIn();
    profileAnswers(getGetProfileResponseMock());
    server.use(http.get('*/patients', () => HttpResponse.json({ status: 'Error', message: 'No.', code: 'auth.forbidden' }, { status: 403 })));
    const { container, router } = await renderRoutes(createRoutes, { path: '/physician/list' });
    await waitFor(() => expect(container.textContent).toContain('No.'));
    expect(profileCalls).toBe(1);
    expect(router.state.location.pathname).toBe('/physician/list');
  });
});

describe('error routes', () => {
  it.each([
    ['/unauthorized', 'Authorization Required'],
    ['/forbidden', 'Forbidden'],
    ['/no/such/page', "We've lost this page"],
  ])('%s shows %s', async (path, title) => {
    const { container } = await renderRoutes(createRoutes, { path });
    await waitFor(() => expect(h1(container)).toBe(title));
  });
});

describe('session end', () => {
  it('a 401 clears the cache and leaves for /sign-in', async () => {
    signedIn();
    profileAnswers(() => HttpResponse.json({ status: 'Error', message: 'Unauthenticated.' }, { status: 401 }));
    const assign = vi.mocked(navigation.assign);
    await renderRoutes(createRoutes, { path: '/physician/list' });
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/sign-in'));
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('a logout in another tab (token removed from localStorage) signs this tab out too', async () => {
    signedIn();
    profileAnswers(getGetProfileResponseMock());
    const { container, queryClient } = await renderRoutes(createRoutes, { path: '/physician/list' });
    await waitFor(() => expect(h1(container)).toBe('Patients'));

    localStorage.removeItem('token');
    window.dispatchEvent(
      new StorageEvent('storage', { key: 'token', oldValue: 'demo-token', newValue: null, storageArea: localStorage }),
    );

    expect(vi.mocked(navigation.assign)).toHaveBeenCalledWith('/sign-in');
    expect(queryClient.getQueryCache().getAll()).toEqual([]);
  });

  it('a logout signal from another tab ends a session kept in sessionStorage, without signalling back', async () => {
    sessionStorage.setItem('token', 'tab-token');
    profileAnswers(getGetProfileResponseMock());
    const { container, queryClient } = await renderRoutes(createRoutes, { path: '/physician/list' });
    await waitFor(() => expect(h1(container)).toBe('Patients'));

    localStorage.setItem('loggedOutAt', '1');
    window.dispatchEvent(
      new StorageEvent('storage', { key: 'loggedOutAt', oldValue: null, newValue: '1', storageArea: localStorage }),
    );

    expect(vi.mocked(navigation.assign)).toHaveBeenCalledWith('/sign-in');
    expect(sessionStorage.getItem('token')).toBeNull();
    expect(queryClient.getQueryCache().getAll()).toEqual([]);
    expect(localStorage.getItem('loggedOutAt')).toBe('1');
  });

  it('a logout tells the other tabs', async () => {
    signedIn();
    profileAnswers(getGetProfileResponseMock());
    server.use(getLogoutMockHandler());
    const { container, router } = await renderRoutes(createRoutes, { path: '/physician/list' });
    await waitFor(() => expect(h1(container)).toBe('Patients'));

    await openUserMenu(container);
    await click(getByText(document.body, 'a, button, [role="menuitem"]', 'Log out'));

    await waitFor(() => expect(router.state.location.pathname).toBe('/sign-in'));
    expect(Number(localStorage.getItem('loggedOutAt'))).toBeGreaterThan(0);
  });
});
