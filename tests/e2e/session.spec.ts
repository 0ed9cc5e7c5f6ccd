// Seed-spec §4 and §6: a logout in one tab logs out the others, a token the server does not accept signs
// out, and a signed-in user outside their area gets /forbidden.
import type { Page } from '@playwright/test';
import type { SecuritySettingsResponse } from '../../generated/model/securitySettingsResponse';
import { expectNoAxeViolations } from './axe';
import { withClinicSettings } from './clinic-settings';
import { expect, test } from './fixtures';
import { homeOf, logOut, NO_TOKEN, signInToHome, storedTokens } from './session';

async function expectSignedOut(page: Page): Promise<void> {
  await expect(page).toHaveURL('/sign-in');
  expect(await storedTokens(page)).toEqual(NO_TOKEN);
}

test('logout in one tab logs out another tab (remembered: shared localStorage)', async ({ context, page, staff, texts }) => {
  const account = await staff.create('clinic_nurses');
  await signInToHome(page, texts, account, { remember: true });
  const otherTab = await context.newPage();
  await otherTab.goto('/');
  await expect(otherTab).toHaveURL(homeOf(account.role).path);

  await logOut(page, texts);

  await expectSignedOut(otherTab);
  await expectSignedOut(page);
});

test('logout in one tab logs out a tab it opened (not remembered: sessionStorage copied to the new tab)', async ({
  context,
  page,
  staff,
  texts,
}) => {
  const account = await staff.create('clinic_physicians');
  await signInToHome(page, texts, account, { remember: false });
  const [otherTab] = await Promise.all([
    context.waitForEvent('page'),
    page.evaluate(() => void window.open('/', '_blank')),
  ]);
  await expect(otherTab).toHaveURL(homeOf(account.role).path);
  expect((await storedTokens(otherTab)).sessionStorage).toBeTruthy();

  await logOut(page, texts);

  await expectSignedOut(otherTab);
  await expectSignedOut(page);
});

test('a token the server does not know signs out: / ends on /sign-in and the token is gone', async ({ page, texts }) => {
  await page.goto('/sign-in');
  await page.evaluate(() => localStorage.setItem('token', 'not-a-token-of-this-server'));

  await page.goto('/');

  await expectSignedOut(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(texts.auth.signIn.title);
});

const OUTSIDERS = [
  { role: 'clinic_nurses', path: '/admin' },
  { role: 'clinic_it_admins', path: '/physician/list' },
] as const;

for (const { role, path } of OUTSIDERS) {
  test(`${role} opening ${path} gets /forbidden`, async ({ page, staff, texts }) => {
    await signInToHome(page, texts, await staff.create(role));

    await page.goto(path);

    await expect(page).toHaveURL('/forbidden');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(texts.errors.forbidden.title);
  });
}

test('an idle logout ends on /sign-in, which says why', async ({ page, staff, texts, clinicAdmin }) => {
  await withClinicSettings(clinicAdmin, async () => {
    const { data } = (await (await clinicAdmin.get('/api/clinic/settings')).json()) as SecuritySettingsResponse;
    const idle = await clinicAdmin.post('/api/clinic/settings', { data: { ...data, logout_time_interval: 5, logout_time_period: 'minutes' } });
    expect(idle.status(), await idle.text()).toBe(200);
    // The page's clock, so that five idle minutes pass at once.
    await page.clock.install();
    await signInToHome(page, texts, await staff.create('clinic_nurses'));
    await page.clock.fastForward('05:30');
    await expect(page).toHaveURL('/sign-in?signedOut=idle');
    expect(await storedTokens(page)).toEqual(NO_TOKEN);
    const reason = page.getByRole('status').filter({ hasText: texts.auth.signIn.idleTitle });
    await expect(reason).toContainText(texts.auth.signIn.idleSignedOut);
    await expectNoAxeViolations(page);
    // An ordinary visit to the page says nothing of the kind.
    await page.goto('/sign-in');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(texts.auth.signIn.title);
    await expect(page.getByText(texts.auth.signIn.idleTitle)).toBeHidden();
  });
});
