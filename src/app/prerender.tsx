/*
 * The build-time HTML of the public pages a signed-out user meets first (scripts/prerender.mjs): the page as the
 * SPA renders it on arrival, in each UI language, so that a phone paints the sign-in form before the bundle has
 * loaded. `startApp` (start-app.tsx) hydrates it when the browser would render the same: see `canHydrate`.
 */
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router-dom';
import { AppProviders } from './providers';
import { pageTitle, TITLE_NAMESPACES } from './page-titles';
import { createRoutes } from './router';
import { paths } from '@/config/paths';
import { createI18n, LANGUAGES, type UiLanguage } from '@/lib/i18n';
import { createQueryClient } from '@/lib/query-client';

/**
 * Pages that show the same to every signed-out visitor until they type. Not the legal pages (their document
 * loads as a chunk of its own after the page), not the 404 page (any unknown path), and none a token or a
 * link's query decides (new password, approve account, confirm e-mail).
 */
export const PRERENDERED_PATHS = [
  paths.auth.signIn.path,
  paths.auth.resetPassword.path,
  paths.errors.unauthorized.path,
  paths.errors.forbidden.path,
] as const;

export { LANGUAGES };

export type PrerenderedPage = {
  /** The markup inside #root. */
  html: string;
  /** document.title of the page in `language`. */
  title: string;
};

/** `path` (one of PRERENDERED_PATHS) as the SPA renders it on arrival in `language`, signed out. */
export async function prerender(path: string, language: UiLanguage): Promise<PrerenderedPage> {
  const queryClient = createQueryClient();
  // Loading its route loads the page's catalogues into this instance, as in the browser (src/app/router.tsx).
  const i18n = createI18n(language);
  const { query, dataRoutes } = createStaticHandler(createRoutes(queryClient));
  const context = await query(new Request(new URL(path, 'http://localhost')));
  if (context instanceof Response) throw new Error(`${path} answers a redirect (${context.status}) when signed out`);
  if (context.statusCode !== 200) throw new Error(`${path} renders with status ${context.statusCode}`);
  await i18n.loadNamespaces([...TITLE_NAMESPACES]);
  const router = createStaticRouter(dataRoutes, context);
  // As startApp renders it, without the stored query cache (there is none when signed out).
  const html = renderToString(
    <StrictMode>
      <AppProviders queryClient={queryClient} i18n={i18n}>
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </AppProviders>
    </StrictMode>,
  );
  queryClient.clear();
  return { html, title: pageTitle(path, i18n.getFixedT(language, TITLE_NAMESPACES)) };
}
