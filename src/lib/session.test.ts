// @vitest-environment jsdom
import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QUERY_CACHE_KEY } from './query-persistence';
import { endSession, LOGOUT_SIGNAL_KEY, onLogoutInOtherTab, startSession } from './session';

afterEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

function cacheWithPatient(): QueryClient {
  const queryClient = new QueryClient();
  queryClient.setQueryData(['patients'], [{ name: 'Erika Mustermann' }]);
  return queryClient;
}

const storageEvent = (init: StorageEventInit) => new StorageEvent('storage', { storageArea: localStorage, ...init });

describe('startSession', () => {
  it('forgets what an earlier session cached and keeps the token where asked', () => {
    const queryClient = cacheWithPatient();
    localStorage.setItem(QUERY_CACHE_KEY, '{"clientState":{}}');
    localStorage.setItem(LOGOUT_SIGNAL_KEY, '1');

    startSession(queryClient, 'new-token', false);

    expect(queryClient.getQueryCache().getAll()).toEqual([]);
    expect(localStorage.getItem(QUERY_CACHE_KEY)).toBeNull();
    expect(sessionStorage.getItem('token')).toBe('new-token');
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem(LOGOUT_SIGNAL_KEY)).toBeNull();
  });
});

describe('endSession', () => {
  it('forgets token, query cache and persisted cache in both storages, and signals the other tabs', () => {
    const queryClient = cacheWithPatient();
    for (const storage of [localStorage, sessionStorage]) {
      storage.setItem('token', 'secret');
      storage.setItem(QUERY_CACHE_KEY, '{"clientState":{}}');
    }

    endSession(queryClient);

    for (const storage of [localStorage, sessionStorage]) {
      expect(storage.getItem('token')).toBeNull();
      expect(storage.getItem(QUERY_CACHE_KEY)).toBeNull();
    }
    expect(queryClient.getQueryCache().getAll()).toEqual([]);
    expect(Number(localStorage.getItem(LOGOUT_SIGNAL_KEY))).toBeGreaterThan(0);
  });

  it('does not signal back when it follows another tab', () => {
    endSession(new QueryClient(), { tellOtherTabs: false });
    expect(localStorage.getItem(LOGOUT_SIGNAL_KEY)).toBeNull();
  });
});

describe('onLogoutInOtherTab', () => {
  it.each([
    ['the logout signal', storageEvent({ key: LOGOUT_SIGNAL_KEY, newValue: '1700000000000' })],
    ['the remembered token removed', storageEvent({ key: 'token', oldValue: 'secret', newValue: null })],
    ['the whole storage cleared', storageEvent({ key: null })],
  ])('reacts to %s', (_case, event) => {
    const onLogout = vi.fn();
    const stop = onLogoutInOtherTab(onLogout);
    window.dispatchEvent(event);
    stop();
    expect(onLogout).toHaveBeenCalledOnce();
  });

  it('reacts at once to a logout signalled before it listened, when this tab still holds a token from before it', () => {
    sessionStorage.setItem('token', 'copied-from-the-tab-that-opened-this-one');
    localStorage.setItem(LOGOUT_SIGNAL_KEY, '1700000000000');
    const onLogout = vi.fn();
    onLogoutInOtherTab(onLogout)();
    expect(onLogout).toHaveBeenCalledOnce();
  });

  it('does not react at once to an old signal without a token, nor to a token after a sign-in (which removes the signal)', () => {
    localStorage.setItem(LOGOUT_SIGNAL_KEY, '1700000000000');
    const signedOut = vi.fn();
    onLogoutInOtherTab(signedOut)();
    expect(signedOut).not.toHaveBeenCalled();

    startSession(new QueryClient(), 'new-token', false);
    const signedIn = vi.fn();
    onLogoutInOtherTab(signedIn)();
    expect(signedIn).not.toHaveBeenCalled();
  });

  it.each([
    ['a sign-in elsewhere (token set)', storageEvent({ key: 'token', oldValue: null, newValue: 'secret' })],
    ['the signal removed', storageEvent({ key: LOGOUT_SIGNAL_KEY, newValue: null })],
    ['other keys', storageEvent({ key: 'i18nextLng', newValue: 'de' })],
    ['sessionStorage changes', new StorageEvent('storage', { key: 'token', oldValue: 'x', storageArea: sessionStorage })],
  ])('ignores %s', (_case, event) => {
    const onLogout = vi.fn();
    const stop = onLogoutInOtherTab(onLogout);
    window.dispatchEvent(event);
    stop();
    expect(onLogout).not.toHaveBeenCalled();
  });
});
