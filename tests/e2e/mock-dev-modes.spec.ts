// The dev servers started as a frontend developer starts them, each on ports of its own: `npm run dev:mock` with
// the profile example to sign in as (MACULA_MOCK_PROFILE) and with Prism's dynamic mode (`npm run dev:mock -- -d`),
// and `npm run dev:server` (Vite against a fresh reference server). In the mock project: they need neither of
// the journeys' shared servers.
import { DEMO_ADMIN, expect, test } from './fixtures';
import { freePort, startDevMock, startDevProcess } from './dev-process';
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
  // Prism generates a list of any length, none too: a seed of its own gives this journey the same patients each time.
  await page.route(
    (url) => url.pathname === '/api/patients',
    (route) => route.continue({ headers: { ...route.request().headers(), prefer: 'seed=1' } }),
  );
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

test('npm run dev:server: Vite with hot reload against a fresh reference server; the demo clinic’s IT admin signs in', async ({ page }) => {
  // Migrating and seeding the demo clinic takes 10–60 s on a busy machine.
  test.setTimeout(240_000);
  const [serverPort, devPort] = [await freePort(), await freePort()];
  const dev = await startDevProcess(
    'scripts/dev-server.mjs',
    [],
    { MACULA_SERVER_PORT: String(serverPort), MACULA_DEV_PORT: String(devPort) },
    `http://127.0.0.1:${devPort}/api/health`,
    180_000,
  );
  try {
    // Vite's page, with its hot-reload client.
    const index = await (await fetch(`${dev.url.replace(/\/api\/health$/, '')}/`)).text();
    expect(index).toContain('/@vite/client');

    const texts = TEXTS.en;
    await page.goto(`http://127.0.0.1:${devPort}/sign-in`);
    await page.getByLabel(texts.auth.signIn.email).fill(DEMO_ADMIN.email, { timeout: 60_000 });
    await page.getByLabel(texts.auth.signIn.password, { exact: true }).fill(DEMO_ADMIN.password);
    await page.getByRole('button', { name: texts.auth.signIn.submit }).click();
    await expect(page).toHaveURL(`http://127.0.0.1:${devPort}/admin`, { timeout: 30_000 });
    // The demo clinic's staff, from the reference server.
    await expect(page.getByText(/Keller/).first()).toBeVisible({ timeout: 30_000 });
  } finally {
    await dev.stop();
  }
});
