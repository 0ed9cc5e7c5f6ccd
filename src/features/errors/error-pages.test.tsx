import type { ComponentType } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, renderRoutes } from '@/testing/render';
import { ForbiddenPage } from './forbidden-page';
import { NotFoundPage } from './not-found-page';
import { UnauthorizedPage } from './unauthorized-page';
import { UnexpectedErrorPage } from './unexpected-error-page';

afterEach(cleanup);

async function renderPage(Page: ComponentType, language: 'en' | 'de') {
  const { container } = await renderRoutes([{ path: '*', element: <Page /> }], { path: '/x', language });
  const link = container.querySelector('main a');
  return {
    main: container.querySelector('main'),
    code: container.querySelector('.mp-status-code')?.textContent,
    headings: [...container.querySelectorAll('h1')].map((h) => h.textContent),
    link: link && { text: link.textContent, href: link.getAttribute('href') },
  };
}

describe('error pages 401, 403 and 404', () => {
  it.each([
    [UnauthorizedPage, 'en', 'Error 401', 'Authorization Required', 'Log In or Register', '/sign-in'],
    [UnauthorizedPage, 'de', 'Fehler 401', 'Anmeldung erforderlich', 'Zur Anmeldung', '/sign-in'],
    [ForbiddenPage, 'en', 'Error 403', 'Forbidden', 'Go to main page', '/'],
    [ForbiddenPage, 'de', 'Fehler 403', 'Zugriff verweigert', 'Zur Startseite', '/'],
    [NotFoundPage, 'en', 'Error 404', "We've lost this page", 'Go to main page', '/'],
    [NotFoundPage, 'de', 'Fehler 404', 'Seite nicht gefunden', 'Zur Startseite', '/'],
  ] as const)('%$ in %s: code, heading and link', async (Page, language, code, title, linkText, href) => {
    const page = await renderPage(Page, language);
    expect(page.main).not.toBeNull();
    expect(page.code).toBe(code);
    expect(page.headings).toEqual([title]);
    expect(page.link).toEqual({ text: linkText, href });
  });

  it('the page for unexpected errors offers a reload', async () => {
    const { container } = await renderRoutes([{ path: '*', element: <UnexpectedErrorPage /> }], { path: '/' });
    expect(container.querySelector('h1')?.textContent).toBe('Something went wrong');
    expect(container.querySelector('main button')?.textContent).toBe('Reload the page');
  });
});
