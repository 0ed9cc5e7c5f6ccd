import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';

// Smoke test of `npm run dev:mock`: the SPA shell renders accessibly, and the dev proxy reaches Prism.

test('the start page has a main heading, a language and no axe violations', async ({ page }) => {
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));

  await page.goto('/');

  // The first visit may wait for Vite to pre-bundle dependencies.
  const heading = page.getByRole('heading', { level: 1 });
  await expect(heading).toBeVisible({ timeout: 30_000 });
  await expect(heading).toHaveText(/\S/);
  await expect(page.locator('html')).toHaveAttribute('lang', /^[a-z]{2}(-[A-Za-z]+)?$/);

  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual(
    [],
  );
  expect(pageErrors).toEqual([]);
});

test('the dev proxy strips /api and Prism answers with the contract example', async ({ request }) => {
  const response = await request.get('/api/user/profile', { headers: { Authorization: 'Bearer demo' } });

  expect(response.status(), await response.text()).toBe(200);
  expect(response.headers()['content-type']).toMatch(/json/);
  expect(await response.json()).toMatchObject({ status: 'Success' });
});
