// Seed-spec §2: the 401, 403 and 404 pages, their texts and their way out; and no axe violations.
import { expectNoAxeViolations } from './axe';
import { expect, test } from './fixtures';
import { fill } from './texts';

const STATUS_PAGES = [
  { path: '/unauthorized', code: 401, page: 'unauthorized', linksTo: '/sign-in' },
  { path: '/forbidden', code: 403, page: 'forbidden', linksTo: '/' },
  { path: '/no-such-page', code: 404, page: 'notFound', linksTo: '/' },
] as const;

for (const { path, code, page: name, linksTo } of STATUS_PAGES) {
  test(`${path} is the ${code} page with its link and no axe violations`, async ({ page, texts }) => {
    const text = texts.errors[name];

    await page.goto(path);

    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text.title);
    await expect(page.getByText(fill(texts.errors.code, { code }))).toBeVisible();
    await expect(page.getByText(text.description)).toBeVisible();
    const way = page.getByRole('link', { name: text.action });
    await expect(way).toHaveAttribute('href', linksTo);
    await expectNoAxeViolations(page);

    await way.click();
    // Signed out, every way out ends on the sign-in page (the main page sends there).
    await expect(page).toHaveURL('/sign-in');
  });
}
