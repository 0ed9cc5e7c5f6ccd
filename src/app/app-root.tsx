import { Suspense, useEffect, useReducer } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router-dom';
import { PageSpinner } from '@/components/page-spinner';
import { SkipLink } from '@/components/skip-link';
import { pageTitle, TITLE_NAMESPACES } from './page-titles';
import { useRouteFocus } from './route-focus';

/**
 * document.title for the current route, in the current language (it follows a language switch). The title
 * namespaces are read, never loaded from here: a page's own namespace is loaded with its route, and a title
 * is set again when a catalogue arrives.
 */
function usePageTitle(): void {
  const { pathname } = useLocation();
  const { i18n } = useTranslation();
  const [catalogues, catalogueArrived] = useReducer((count: number) => count + 1, 0);
  useEffect(() => {
    i18n.on('loaded', catalogueArrived);
    return () => i18n.off('loaded', catalogueArrived);
  }, [i18n]);
  useEffect(() => {
    document.title = pageTitle(pathname, i18n.getFixedT(null, TITLE_NAMESPACES));
  }, [pathname, i18n, i18n.language, catalogues]);
}

/** What every page shares: the skip link first, the page title, and the focus moved on a route change. */
export function AppRoot() {
  usePageTitle();
  useRouteFocus();
  return (
    <>
      <SkipLink />
      {/* A page whose texts are still loading (src/lib/i18n.ts) shows the spinner instead of raw keys. */}
      <Suspense fallback={<PageSpinner />}>
        <Outlet />
      </Suspense>
    </>
  );
}
