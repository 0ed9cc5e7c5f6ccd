// /admin/devices on `npm run dev:mock`: the contract's example, one device online and one offline.
import { expectNoAxeViolations } from './axe';
import { expect, test } from './fixtures';

test('the devices example shows one device online and one offline', async ({ page, texts }) => {
  // Prism's first profile example is the physician's; its IT admin example is asked for by name.
  await page.route('**/api/user/profile', (route) => route.continue({ headers: { ...route.request().headers(), prefer: 'example=itAdmin' } }));
  await page.goto('/sign-in');
  await page.evaluate(() => localStorage.setItem('token', 'demo'));
  await page.goto('/admin/devices');
  const rows = page.getByRole('table').getByRole('row');
  await expect(rows.filter({ hasText: 'NAV-533-00412' })).toContainText(texts.devices.status.online, { timeout: 30_000 });
  await expect(rows.filter({ hasText: 'NAV-533-00587' })).toContainText(texts.devices.status.offline);
  await expectNoAxeViolations(page);
});
