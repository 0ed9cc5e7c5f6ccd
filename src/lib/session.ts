import type { QueryClient } from '@tanstack/react-query';
import { clearToken, getToken, readStorage, removeStorage, setToken, TOKEN_KEY, writeStorage } from './auth-storage';
import { clearPersistedCache } from './query-persistence';
import { forgetRecentPatients } from './recent-patients';

/** Written on every session end so other tabs (which get a storage event) end theirs too. */
export const LOGOUT_SIGNAL_KEY = 'loggedOutAt';

function forgetCaches(queryClient: QueryClient): void {
  // Cancel first: a request in flight must not write its answer back into the emptied cache.
  void queryClient.cancelQueries();
  // Queries only: a mutation may still be settling (the sign-in or logout that ends up here).
  queryClient.removeQueries();
  clearPersistedCache();
  forgetRecentPatients();
}

/** After a successful sign-in: nothing of an earlier session survives, then the new token is kept. */
export function startSession(queryClient: QueryClient, token: string, remember: boolean): void {
  forgetCaches(queryClient);
  removeStorage('localStorage', LOGOUT_SIGNAL_KEY);
  setToken(token, remember);
}

/**
 * Seed-spec §4: logout (or a 401, or idle logout) forgets the token, the query cache and its persisted copy,
 * and logs out the other tabs. A tab ending its session because another one did passes `tellOtherTabs:
 * false`, or two tabs would keep signalling each other.
 */
export function endSession(queryClient: QueryClient, { tellOtherTabs = true } = {}): void {
  clearToken();
  forgetCaches(queryClient);
  if (tellOtherTabs) writeStorage('localStorage', LOGOUT_SIGNAL_KEY, String(Date.now()));
}

/**
 * Calls `onLogout` when another tab ends the session: its logout signal arrives, or the shared
 * (remembered) token disappears. Returns the unsubscribe function.
 *
 * Also at once, when this tab holds a token and the signal is already there: another tab logged out before this
 * one listened (a tab opened from a signed-in one gets a copy of its sessionStorage, and its app may still be
 * starting when the first tab logs out). A sign-in removes the signal, so a token beside it is from before
 * that logout.
 */
export function onLogoutInOtherTab(onLogout: () => void): () => void {
  const listener = (event: StorageEvent) => {
    if (event.storageArea !== window.localStorage) return;
    const signalled = event.key === LOGOUT_SIGNAL_KEY && event.newValue !== null;
    // key null: the other tab cleared the whole storage.
    const tokenRemoved = (event.key === TOKEN_KEY && event.oldValue !== null && event.newValue === null) || event.key === null;
    if (signalled || tokenRemoved) onLogout();
  };
  window.addEventListener('storage', listener);
  if (getToken() !== null && readStorage('localStorage', LOGOUT_SIGNAL_KEY) !== null) onLogout();
  return () => window.removeEventListener('storage', listener);
}
