// /admin/devices on `npm run dev:mock`: the contract's example, one device online and one offline, one with a
// laser profile and one without, whose dialog opens.
import { expectNoAxeViolations } from './axe';
import { expect, test } from './fixtures';
import { fill } from './texts';

test('the devices example shows one device online and one offline, and their laser profiles', async ({ page, texts }) => {
  // Prism's first profile example is the physician's; its IT admin example is asked for by name.
  await page.route('**/api/user/profile', (route) => route.continue({ headers: { ...route.request().headers(), prefer: 'example=itAdmin' } }));
  await page.goto('/sign-in');
  await page.evaluate(() => localStorage.setItem('token', 'demo'));
  await page.goto('/admin/devices');
  const rows = page.getByRole('table').getByRole('row');
  await expect(rows.filter({ hasText: 'NAV-533-00412' })).toContainText(texts.devices.status.online, { timeout: 30_000 });
  await expect(rows.filter({ hasText: 'NAV-533-00587' })).toContainText(texts.devices.status.offline);
  const d = texts.devices;
  await expect(rows.filter({ hasText: 'NAV-533-00412' })).toContainText(`577 nm · ${d.laser.modes.continuous}, ${d.laser.modes.micropulse}`);
  await expect(rows.filter({ hasText: 'NAV-533-00587' })).toContainText(d.laser.none);
  await expectNoAxeViolations(page);

  await rows.filter({ hasText: 'NAV-533-00412' }).getByRole('button', { name: fill(d.laser.openFor, { deviceId: 'NAV-533-00412' }) }).click();
  const dialog = page.getByRole('dialog', { name: fill(d.profile.title, { deviceId: 'NAV-533-00412' }) });
  await expect(dialog.getByLabel(d.profile.wavelength, { exact: true })).toHaveValue('577');
  await expectNoAxeViolations(page);
});
