import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router-dom';

/** How long a new page may take to show its heading (a lazy chunk, the profile loading) before we give up. */
const HEADING_WAIT_MS = 10_000;

const headingOf = (): HTMLElement | null => document.querySelector<HTMLElement>('main h1');

/** True when the new page has put the focus somewhere itself (e.g. /sign-in in its first field). */
const pageTookFocus = (): boolean => {
  const active = document.activeElement;
  return active !== null && active !== document.body && active.closest('main') !== null;
};

function focusHeading(heading: HTMLElement): void {
  // Focusable by script only: the heading is no tab stop, and a click on it shows no ring.
  if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
  heading.focus({ preventScroll: false });
}

/**
 * After a route change (not the first load) the focus moves to the new page's h1, so keyboard and screen
 * reader users start reading the new page instead of staying on a link that is gone (WCAG 2.4.3). The
 * heading may arrive later than the route (a spinner first): it is awaited, unless the user or the page
 * has moved the focus in the meantime.
 */
export function useRouteFocus(): void {
  const { pathname } = useLocation();
  // The path whose page has been shown: the first one (the page loaded) needs no move, and an effect run again
  // for the same path (React's StrictMode runs each twice in development) is no route change.
  const shownPath = useRef(pathname);

  useEffect(() => {
    if (shownPath.current === pathname) return undefined;
    shownPath.current = pathname;
    const tryFocus = (): boolean => {
      const heading = headingOf();
      if (!heading) return false;
      if (!pageTookFocus()) focusHeading(heading);
      return true;
    };
    if (tryFocus()) return undefined;
    const observer = new MutationObserver(() => {
      if (tryFocus()) stop();
    });
    const timer = window.setTimeout(() => stop(), HEADING_WAIT_MS);
    const stop = () => {
      observer.disconnect();
      window.clearTimeout(timer);
    };
    observer.observe(document.body, { childList: true, subtree: true });
    return stop;
  }, [pathname]);
}
