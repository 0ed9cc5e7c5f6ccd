import { getLogoutMockHandler } from '@generated/hooks/auth/auth.msw';
import { getGetProfileMockHandler, getGetProfileResponseMock } from '@generated/hooks/profile/profile.msw';
import type { ProfileResponse } from '@generated/model/profileResponse';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { navigation } from '@/lib/api-client';
import { cleanup, click, getByLabel, getByText, renderRoutes, select, waitFor } from '@/testing/render';
import { routes } from './router';

const server = setupServer();
let profileCalls = 0;

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => {
  profileCalls = 0;
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
const h1 = (container: HTMLElement) => container.querySelector('h1')?.textContent;

describe('/ redirect hub', () => {
  it('sends a visitor without a token to /sign-in without asking for the profile', async () => {
    profileAnswers(getGetProfileResponseMock());
    const { router, container } = await renderRoutes(routes, { path: '/' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/sign-in'));
    await waitFor(() => expect(h1(container)).toBe('Sign in'));
    expect(profileCalls).toBe(0);
  });

  it('shows a labelled spinner while the profile loads', async () => {
    signedIn();
    server.use(http.get('*/user/profile', () => new Promise<Response>(() => {})));
    const { container } = await renderRoutes(routes, { path: '/' });
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
    const { router } = await renderRoutes(routes, { path: '/' });
    await waitFor(() => expect(router.state.location.pathname).toBe(target));
  });

  it('sends a user whose profile cannot be loaded to /sign-in', async () => {
    signedIn();
    profileAnswers(() => HttpResponse.json({ status: 'Error', message: 'Server down' }, { status: 500 }));
    const { router } = await renderRoutes(routes, { path: '/' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/sign-in'));
  });
});

describe('signed-in areas', () => {
  it('shows the navbar and the profile summary on /physician/list', async () => {
    signedIn();
    profileAnswers(getGetProfileResponseMock());
    const { container } = await renderRoutes(routes, { path: '/physician/list' });
    await waitFor(() => expect(h1(container)).toBe('Patients'));
    const header = container.querySelector('header');
    expect(header?.textContent).toContain('Macula Planner');
    expect(header?.textContent).toContain('Dr. Anna Keller');
    expect(header?.textContent).toContain('Physician');
    const main = container.querySelector('main');
    expect(main?.textContent).toContain('physician@clinic.example');
    expect(main?.textContent).toContain('Augenklinik am See');
  });

  it('shows Staff on /admin for an IT admin', async () => {
    signedIn();
    profileAnswers(profileWith({ role: 'clinic_it_admins', physicianName: null, firstName: 'Jonas', lastName: 'Weber' }));
    const { container } = await renderRoutes(routes, { path: '/admin' });
    await waitFor(() => expect(h1(container)).toBe('Staff'));
    expect(container.querySelector('header')?.textContent).toContain('Jonas Weber');
    expect(container.querySelector('header')?.textContent).toContain('IT administrator');
  });

  it.each([
    ['clinic_physicians', '/admin'],
    ['clinic_it_admins', '/physician/list'],
    ['service_engineers', '/physician/list'],
  ])('sends %s away from %s to /forbidden', async (role, path) => {
    signedIn();
    profileAnswers(profileWith({ role }));
    const { router, container } = await renderRoutes(routes, { path });
    await waitFor(() => expect(router.state.location.pathname).toBe('/forbidden'));
    await waitFor(() => expect(h1(container)).toBe('Forbidden'));
  });

  it('sends a visitor without a token to /sign-in', async () => {
    const { router } = await renderRoutes(routes, { path: '/admin' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/sign-in'));
  });

  it('switches the language and remembers the choice', async () => {
    signedIn();
    profileAnswers(getGetProfileResponseMock());
    const { container } = await renderRoutes(routes, { path: '/physician/list' });
    await waitFor(() => expect(h1(container)).toBe('Patients'));

    await select(getByLabel<HTMLSelectElement>(container, 'Language'), 'de');

    await waitFor(() => expect(h1(container)).toBe('Patienten'));
    expect(container.querySelector('header')?.textContent).toContain('Ärztin/Arzt');
    expect(localStorage.getItem('i18nextLng')).toBe('de');
    expect(localStorage.getItem('savedPreference')).toBe('de');
    expect(document.documentElement.lang).toBe('de');
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
    const { container, router, queryClient } = await renderRoutes(routes, { path: '/physician/list' });
    await waitFor(() => expect(h1(container)).toBe('Patients'));

    await click(getByText(container, 'button', 'Log out'));

    await waitFor(() => expect(router.state.location.pathname).toBe('/sign-in'));
    expect(logoutCalls).toBe(1);
    expect(localStorage.getItem('token')).toBeNull();
    expect(queryClient.getQueryCache().getAll()).toEqual([]);
    server.events.removeAllListeners();
  });

  it('redirects /physician to /physician/list', async () => {
    signedIn();
    profileAnswers(getGetProfileResponseMock());
    const { router } = await renderRoutes(routes, { path: '/physician' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/physician/list'));
  });
});

describe('error routes', () => {
  it.each([
    ['/unauthorized', 'Authorization Required'],
    ['/forbidden', 'Forbidden'],
    ['/no/such/page', "We've lost this page"],
    ['/admin/devices', "We've lost this page"],
  ])('%s shows %s', async (path, title) => {
    const { container } = await renderRoutes(routes, { path });
    await waitFor(() => expect(h1(container)).toBe(title));
  });
});

describe('session end', () => {
  it('a 401 clears the cache and leaves for /sign-in', async () => {
    signedIn();
    profileAnswers(() => HttpResponse.json({ status: 'Error', message: 'Unauthenticated.' }, { status: 401 }));
    const assign = vi.mocked(navigation.assign);
    await renderRoutes(routes, { path: '/physician/list' });
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/sign-in'));
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('a logout in another tab (token removed from localStorage) signs this tab out too', async () => {
    signedIn();
    profileAnswers(getGetProfileResponseMock());
    const { container, queryClient } = await renderRoutes(routes, { path: '/physician/list' });
    await waitFor(() => expect(h1(container)).toBe('Patients'));

    localStorage.removeItem('token');
    window.dispatchEvent(new StorageEvent('storage', { key: 'token', oldValue: 'demo-token', newValue: null }));

    expect(vi.mocked(navigation.assign)).toHaveBeenCalledWith('/sign-in');
    expect(queryClient.getQueryCache().getAll()).toEqual([]);
  });
});
