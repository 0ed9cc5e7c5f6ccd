// @vitest-environment jsdom
import { getLogoutMockHandler } from '@generated/hooks/auth/auth.msw';
import { getGetProfileMockHandler, getGetProfileResponseMock } from '@generated/hooks/profile/profile.msw';
import { setupServer } from 'msw/node';
import { act } from 'react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, click, getByText, renderRoutes, waitFor } from '@/testing/render';
import { LAST_ACTIVITY_KEY } from './idle-timer';
import { SignedInLayout } from './signed-in-layout';
import { layoutHandlers } from '@/testing/layout-handlers';

const server = setupServer();
let logoutCalls = 0;
let profileCalls = 0;

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => {
  logoutCalls = 0;
  profileCalls = 0;
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
  localStorage.setItem('token', 'demo-token');
  const profile = getGetProfileResponseMock();
  server.use(...layoutHandlers());
  server.use(
    getGetProfileMockHandler(() => {
      profileCalls += 1;
      return { ...profile, data: { ...profile.data, logoutAfterSeconds: 120 } };
    }),
    getLogoutMockHandler(() => {
      logoutCalls += 1;
      return { status: 'Success', message: 'Signed out.' };
    }),
  );
});
afterEach(() => {
  cleanup();
  server.resetHandlers();
  vi.useRealTimers();
  localStorage.clear();
});
afterAll(() => server.close());

const routes = [
  { path: '/physician', element: <SignedInLayout area="physician" />, children: [{ path: 'list', element: <h1>Patients</h1> }] },
  { path: '/sign-in', element: <h1>Sign in</h1> },
];

async function idleFor(seconds: number): Promise<void> {
  await act(async () => {
    vi.advanceTimersByTime(seconds * 1000);
  });
}

const warning = () => document.querySelector('[role="dialog"]')?.textContent ?? null;

async function signedInPage() {
  const rendered = await renderRoutes(routes, { path: '/physician/list' });
  await waitFor(() => expect(rendered.container.querySelector('h1')?.textContent).toBe('Patients'));
  return rendered;
}

describe('idle logout', () => {
  it('warns during the last minute of the clinic interval, and staying resets the clock', async () => {
    await signedInPage();

    await idleFor(59);
    expect(warning()).toBeNull();
    await idleFor(2);
    expect(warning()).toContain('Are you still there?');
    expect(warning()).toContain('signed out in 59 seconds');

    await click(getByText(document.body, 'button', 'Stay signed in'));
    await waitFor(() => expect(warning()).toBeNull());
    await idleFor(59);
    expect(warning()).toBeNull();
    expect(logoutCalls).toBe(0);
  });

  it('signs out when the interval passes, and takes the reason to /sign-in', async () => {
    const { router } = await signedInPage();

    await idleFor(121);

    await waitFor(() => expect(router.state.location.pathname).toBe('/sign-in'));
    // The sign-in page learns why (it says so: sign-in-page.test.tsx).
    expect(router.state.location.search).toBe('?signedOut=idle');
    expect(logoutCalls).toBe(1);
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('counts activity in this tab and in the other tabs', async () => {
    await signedInPage();

    await idleFor(50);
    await act(async () => {
      window.dispatchEvent(new KeyboardEvent('keydown'));
    });
    await idleFor(50);
    localStorage.setItem(LAST_ACTIVITY_KEY, String(Date.now()));
    await idleFor(50);
    expect(warning()).toBeNull();
    await idleFor(20);
    expect(warning()).toContain('Are you still there?');
  });

  it('keeps the server session alive while the user works', async () => {
    await signedInPage();
    const before = profileCalls;

    for (let minute = 0; minute < 3; minute += 1) {
      await idleFor(30);
      await act(async () => {
        window.dispatchEvent(new MouseEvent('pointerdown'));
      });
    }

    await waitFor(() => expect(profileCalls).toBeGreaterThan(before));
    expect(warning()).toBeNull();
  });
});
