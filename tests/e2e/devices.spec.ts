// /admin/devices as a clinic IT admin uses it: the demo clinic's laser systems, one of them offline, the
// filter and the search kept in the URL, and an empty result that says so.
import { expectNoAxeViolations } from './axe';
import { expect, test } from './fixtures';
import { signInToHome } from './session';
import { fill } from './texts';

test('devices: online and offline, filtered and searched, in the URL', async ({ page, staff, texts }) => {
  await signInToHome(page, texts, await staff.create('clinic_it_admins'));
  const d = texts.devices;
  await page.getByRole('link', { name: texts.common.areas.devices }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(d.title);
  const rows = page.getByRole('table').getByRole('row');
  // The demo clinic: two systems online, the one in building B offline since yesterday.
  const offline = rows.filter({ hasText: 'NAV-2021-0088' });
  await expect(offline).toContainText(d.status.offline);
  await expect(offline).toContainText(fill(d.lastSeen, { date: '' }).trim());
  await expect(rows.filter({ hasText: 'NAV-2024-0417' })).toContainText(d.status.online);
  await expect(page.getByText(fill(d.range, { first: 1, last: 3, total: 3 }))).toBeVisible();
  await expectNoAxeViolations(page);

  await page.getByRole('radio', { name: d.filters.offline }).click();
  await expect(page).toHaveURL(/status=offline/);
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText('NAV-2021-0088');

  await page.getByRole('radio', { name: d.filters.all }).click();
  await page.getByRole('searchbox', { name: d.search }).fill('Laser room 2');
  await expect(page).toHaveURL(/search=Laser\+room\+2/);
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText('NAV-2025-0932');

  // A reload shows the same; a search without a match says so.
  await page.reload();
  await expect(page.getByRole('searchbox', { name: d.search })).toHaveValue('Laser room 2');
  await expect(rows.nth(1)).toContainText('NAV-2025-0932');
  await page.getByRole('searchbox', { name: d.search }).fill('no such device');
  await expect(page.getByText(d.noMatch)).toBeVisible();
  await expectNoAxeViolations(page);
});
