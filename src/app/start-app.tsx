import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot, type Root } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { canHydrate, resolveLazyRoutes } from './prerendered';
import { AppProviders, type AppProvidersProps } from './providers';
import { createRoutes } from './router';

export type AppStart = Omit<AppProvidersProps, 'children'>;

/**
 * Starts the SPA in `container`. A page the server sent as HTML (scripts/prerender.mjs) is taken over where it
 * stands once its route's code and texts are here; any other page, or one whose code did not load, is drawn
 * anew (the router then shows the error). Resolves with the root and how it started.
 */
export async function startApp(
  container: HTMLElement,
  { queryClient, i18n, persistOptions }: AppStart,
): Promise<{ root: Root; started: 'hydrated' | 'rendered' }> {
  const routes = createRoutes(queryClient);
  const hydrate = canHydrate(container, i18n.language) && (await resolveLazyRoutes(routes, window.location).then(() => true, () => false));
  const app = (
    <StrictMode>
      <AppProviders queryClient={queryClient} i18n={i18n} persistOptions={persistOptions}>
        <RouterProvider router={createBrowserRouter(routes)} />
      </AppProviders>
    </StrictMode>
  );
  // As a transition, React renders the app in slices of a few milliseconds and lets the browser answer in
  // between (a tap, a keystroke, a paint), instead of one task that holds a phone's main thread for 100 ms or more.
  if (hydrate) {
    let root!: Root;
    startTransition(() => {
      root = hydrateRoot(container, app);
    });
    return { root, started: 'hydrated' };
  }
  const root = createRoot(container);
  startTransition(() => root.render(app));
  return { root, started: 'rendered' };
}
