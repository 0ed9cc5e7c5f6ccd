import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};

/**
 * False while React takes over a page the server sent as HTML (src/app/prerender.tsx), true once it has: a form
 * that arrived as HTML keeps its submit button disabled until then, so that the browser does not send it itself
 * (as a GET, the password in the address) before the page's code handles it. True at once when React draws the
 * page itself.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
