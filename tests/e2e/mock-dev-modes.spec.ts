// `npm run dev:mock` started as a frontend developer starts it, each on ports of its own: with the profile
// example to sign in as (MACULA_MOCK_PROFILE) and with Prism's dynamic mode (`npm run dev:mock -- -d`).
import { expect, test } from './fixtures';
import { startDevMock } from './dev-process';
import { TEXTS } from './texts';

test('MACULA_MOCK_PROFILE=itAdmin: signing in through the form lands on /admin as the IT admin', async ({ page, texts }) => {
  test.setTimeout(150_000);
  const mock = await startDevMock({ MACULA_MOCK_PROFILE: 'itAdmin' });
  try {
    await page.goto(`${mock.url}/sign-in`);
    const form = texts.auth.signIn;
    await page.getByLabel(form.email).fill('admin@clinic.example', { timeout: 30_000 });
    await page.getByLabel(form.password, { exact: true }).fill('Demo-Clinic-2026!');
    await page.getByRole('button', { name: form.submit }).click();
    await expect(page).toHaveURL(`${mock.url}/admin`, { timeout: 30_000 });
    // The IT admin example's language is German.
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(TEXTS.de.staff.titles.clinical);
  } finally {
    await mock.stop();
  }
});

test('Prism’s dynamic mode (-d): the patient list shows generated patients and a row opens its card', async ({ page, texts }) => {
  test.setTimeout(150_000);
  const mock = await startDevMock({}, ['-d']);
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  try {
    await page.goto(`${mock.url}/sign-in`);
    await page.evaluate(() => localStorage.setItem('token', 'demo'));
    await page.goto(`${mock.url}/physician/list`);
    const rows = page.locator('table.mp-patient-table tbody tr');
    await expect(rows.first()).toBeVisible({ timeout: 30_000 });
    const link = page.locator('table.mp-patient-table tbody a').first();
    const name = (await link.textContent())!.trim();
    expect(name).toMatch(/\S/);
    await link.click();
    await expect(page).toHaveURL(/\/physician\/patient-card\?patientId=[0-9a-f-]{36}$/);
    // Generated afresh for this call: another name than the row's, but a card with its general information.
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/\S/, { timeout: 30_000 });
    await expect(page.getByRole('region', { name: texts.patientCard.general.title })).toBeVisible();
    expect(pageErrors).toEqual([]);
  } finally {
    await mock.stop();
  }
});
