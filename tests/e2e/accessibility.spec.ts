// Axe (WCAG 2 A and AA) on every page of issue 4, in the language of the project. The 401, 403 and 404
// pages are scanned in error-pages.spec.ts, sign-in and approve-account with errors shown in their journeys.
import { expectNoAxeViolations } from './axe';
import { expect, test } from './fixtures';
import { mailedLink } from './outbox';
import { homeOf, signInToHome } from './session';

/** Public pages that need nothing but a visit; without a token the link pages say the link is not valid. */
const PUBLIC_PAGES = ['/sign-in', '/reset-password', '/new-password', '/approve-account'];

/** The legal and info pages of seed-spec §2. */
const LEGAL_PAGES = ['/privacy-policy', '/terms-and-conditions', '/imprint', '/legal-notice', '/eula', '/about-us'];

for (const path of PUBLIC_PAGES) {
  test(`${path} has no axe violations`, async ({ page }) => {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expectNoAxeViolations(page);
  });
}

test('/new-password from a reset e-mail has no axe violations', async ({ page, request, staff, texts, lang }) => {
  const account = await staff.create('clinic_nurses');
  const reset = await request.post('/api/reset-password', { headers: { Language: lang }, data: { email: account.email } });
  expect(reset.status()).toBe(200);

  await page.goto(await mailedLink(account.email, '/new-password'));

  await expect(page.getByRole('button', { name: texts.auth.newPassword.submit })).toBeVisible();
  await expectNoAxeViolations(page);
});

test('/approve-account from an invite e-mail has no axe violations', async ({ page, staff, texts }) => {
  const { link } = await staff.invite('clinic_physicians');

  await page.goto(link);

  await expect(page.getByRole('button', { name: texts.auth.approveAccount.submit })).toBeVisible();
  await expectNoAxeViolations(page);
});

for (const role of ['clinic_it_admins', 'clinic_physicians'] as const) {
  test(`${homeOf(role).path}, signed in as ${role}, has no axe violations`, async ({ page, staff, texts }) => {
    await signInToHome(page, texts, await staff.create(role));
    await expectNoAxeViolations(page);
  });
}

for (const path of LEGAL_PAGES) {
  test(`${path} has no axe violations`, async ({ page, texts }) => {
    await page.goto(path);
    const heading = page.getByRole('heading', { level: 1 });
    await expect(heading).toBeVisible();
    await expect(heading, 'the page exists').not.toHaveText(texts.errors.notFound.title);
    await expectNoAxeViolations(page);
  });
}
