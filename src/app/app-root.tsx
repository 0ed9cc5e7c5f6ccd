import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router-dom';
import { SkipLink } from '@/components/skip-link';
import { pageTitle, TITLE_NAMESPACES } from './page-titles';
import { useRouteFocus } from './route-focus';

/** document.title for the current route, in the current language (it follows a language switch). */
function usePageTitle(): void {
  const { pathname } = useLocation();
  const { t, i18n } = useTranslation(TITLE_NAMESPACES);
  useEffect(() => {
    document.title = pageTitle(pathname, t);
  }, [pathname, t, i18n.language]);
}

/** What every page shares: the skip link first, the page title, and the focus moved on a route change. */
export function AppRoot() {
  usePageTitle();
  useRouteFocus();
  return (
    <>
      <SkipLink />
      <Outlet />
    </>
  );
}
