/** Storage key of the bearer token (the name the customer's specification gives it). */
export const TOKEN_KEY = 'token';

export type StorageArea = 'localStorage' | 'sessionStorage';

// Private browsing, disabled cookies or sandboxed iframes make storage throw on access;
// a missing token must then look like "signed out", never like a crash.
function withStorage<T>(area: StorageArea, fallback: T, use: (storage: Storage) => T): T {
  try {
    return use(window[area]);
  } catch {
    return fallback;
  }
}

export function readStorage(area: StorageArea, key: string): string | null {
  return withStorage(area, null, (storage) => storage.getItem(key));
}

export function writeStorage(area: StorageArea, key: string, value: string): void {
  withStorage(area, undefined, (storage) => storage.setItem(key, value));
}

export function removeStorage(area: StorageArea, key: string): void {
  withStorage(area, undefined, (storage) => storage.removeItem(key));
}

/** Where the token lives: localStorage when remembered, sessionStorage when not, null when signed out. */
export function tokenArea(): StorageArea | null {
  if (readStorage('localStorage', TOKEN_KEY)) return 'localStorage';
  if (readStorage('sessionStorage', TOKEN_KEY)) return 'sessionStorage';
  return null;
}

export function getToken(): string | null {
  return readStorage('localStorage', TOKEN_KEY) || readStorage('sessionStorage', TOKEN_KEY) || null;
}

/** `remember` ("keep me signed in") keeps the token across browser restarts. */
export function setToken(token: string, remember: boolean): void {
  const [keep, drop]: [StorageArea, StorageArea] = remember
    ? ['localStorage', 'sessionStorage']
    : ['sessionStorage', 'localStorage'];
  writeStorage(keep, TOKEN_KEY, token);
  // A stale token in the other area would win (localStorage is read first) or outlive sign-out.
  removeStorage(drop, TOKEN_KEY);
}

export function clearToken(): void {
  removeStorage('localStorage', TOKEN_KEY);
  removeStorage('sessionStorage', TOKEN_KEY);
}
