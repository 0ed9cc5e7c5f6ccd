import { matchRoutes, type RouteObject } from 'react-router-dom';
import { getToken } from '@/lib/auth-storage';

/**
 * Whether the page in `container` is one the build rendered (scripts/prerender.mjs) and the SPA would render
 * the same now: the same language, no query (e.g. /sign-in?signedOut=idle says why the user was signed out)
 * and signed out (a signed-in user is sent on from /sign-in). Otherwise React draws the page anew.
 */
export function canHydrate(container: HTMLElement, language: string): boolean {
  return container.dataset.prerendered === language && window.location.search === '' && getToken() === null;
}

/**
 * Loads the lazy routes `location` matches, as react-router asks before hydrating: hydration must render what
 * the server rendered at once, not a spinner while the page's code loads.
 */
export async function resolveLazyRoutes(routes: RouteObject[], location: Location): Promise<void> {
  const lazyMatches = (matchRoutes(routes, location) ?? []).filter(({ route }) => typeof route.lazy === 'function');
  await Promise.all(
    lazyMatches.map(async ({ route }) => {
      const load = route.lazy as () => Promise<Partial<RouteObject>>;
      Object.assign(route, { ...(await load()), lazy: undefined });
    }),
  );
}
