import { QueryClient } from '@tanstack/react-query';
import type { RouteObject } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { createI18n, LANGUAGES } from '@/lib/i18n';
import { ALL_CATALOGUES } from '@/testing/catalogues';
import { pageTitle, TITLE_NAMESPACES, TITLED_PATHS } from './page-titles';
import { createRoutes } from './router';

/** Every path the router matches, joined from its nested routes ('*' is the 404 page). */
function routePaths(list: RouteObject[], parent = ''): string[] {
  return list.flatMap((route) => {
    const path = route.path;
    const own = path === undefined ? parent : path === '*' || path.startsWith('/') ? path : `${parent}/${path}`;
    const here = route.index || (route.path !== undefined && !route.children) ? [own || '/'] : [];
    return [...here, ...routePaths(route.children ?? [], own)];
  });
}

const titleIn = (language: (typeof LANGUAGES)[number]) => {
  const t = createI18n(language, ALL_CATALOGUES).getFixedT(language, TITLE_NAMESPACES);
  return (pathname: string) => pageTitle(pathname, t);
};

describe('page titles', () => {
  const paths = [...new Set(routePaths(createRoutes(new QueryClient())))];

  it('finds the routes of the router', () => {
    expect(paths).toEqual(expect.arrayContaining(['/', '/sign-in', '/profile-settings', '/admin', '/physician/list', '*']));
  });

  it('has a title for every route of the router', () => {
    expect(paths.filter((path) => path !== '*' && !TITLED_PATHS.includes(path))).toEqual([]);
  });

  it.each(LANGUAGES)('names each page in %s, "<page> – Macula Planner", never as the 404 page', (language) => {
    const title = titleIn(language);
    const notFound = title('/no-such-page');
    expect(notFound).toBe(language === 'de' ? 'Seite nicht gefunden – Macula Planner' : "We've lost this page – Macula Planner");
    for (const path of paths.filter((p) => p !== '*' && p !== '/')) {
      expect(title(path), path).toMatch(/^\S.* – Macula Planner$/);
      expect(title(path), path).not.toBe(notFound);
    }
    expect(title('/')).toBe('Macula Planner');
  });

  it('reads as the page says it, in both languages', () => {
    expect(titleIn('en')('/sign-in')).toBe('Sign in – Macula Planner');
    expect(titleIn('de')('/sign-in')).toBe('Anmelden – Macula Planner');
    expect(titleIn('de')('/imprint')).toBe('Impressum – Macula Planner');
    expect(titleIn('de')('/physician/list/')).toBe('Patienten – Macula Planner');
    expect(titleIn('en')('/profile-settings')).toBe('Profile settings – Macula Planner');
  });
});
