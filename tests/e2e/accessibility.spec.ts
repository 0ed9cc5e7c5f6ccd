// Axe (WCAG 2 A and AA) on every page of issue 4, in the language of the project. The 401, 403 and 404
// pages are scanned in error-pages.spec.ts, sign-in and approve-account with errors shown in their journeys.
// Every route of src/app/router.tsx has its page title ("Anmelden – Macula Planner"), in both languages.
import { expectNoAxeViolations } from './axe';
import { expect, test } from './fixtures';
import { mailedLink } from './outbox';
import { homeOf, logOut, signInToHome } from './session';
import { pageTitle, type Texts } from './texts';

/** Public pages that need nothing but a visit; without a token the link pages say the link is not valid. */
const PUBLIC_PAGES = ['/sign-in', '/reset-password', '/new-password', '/approve-account'];

/** The six public legal and info pages. */
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

/** The routes a signed-out visitor sees, with the text of their title (the h1 of the page, or its name). */
const publicTitles = (texts: Texts): [string, string][] => [
  ['/sign-in', texts.auth.signIn.title],
  ['/reset-password', texts.auth.resetPassword.title],
  ['/new-password', texts.auth.newPassword.title],
  ['/approve-account', texts.auth.approveAccount.title],
  ['/unauthorized', texts.errors.unauthorized.title],
  ['/forbidden', texts.errors.forbidden.title],
  ['/no-such-page', texts.errors.notFound.title],
  ...LEGAL_PAGES.map((path): [string, string] => [path, texts.legal.documents[path.slice(1) as keyof Texts['legal']['documents']]]),
];

test('every public route has its page title', async ({ page, texts }) => {
  for (const [path, title] of publicTitles(texts)) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page, path).toHaveTitle(pageTitle(texts, title));
  }
});

test('every signed-in route has its page title', async ({ page, staff, texts }) => {
  await signInToHome(page, texts, await staff.create('clinic_physicians'));
  const routes: [string, string, string][] = [
    ['/', '/physician/list', texts.common.areas.physician],
    ['/physician', '/physician/list', texts.common.areas.physician],
    ['/physician/list', '/physician/list', texts.common.areas.physician],
    ['/profile-settings', '/profile-settings', texts.profile.title],
    ['/admin', '/forbidden', texts.errors.forbidden.title],
  ];
  for (const [path, landsOn, title] of routes) {
    await page.goto(path);
    await expect(page).toHaveURL(landsOn);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
    await expect(page, path).toHaveTitle(pageTitle(texts, title));
  }

  await page.goto('/physician/list');
  await logOut(page, texts);
  await signInToHome(page, texts, await staff.create('clinic_it_admins'));
  await expect(page).toHaveTitle(pageTitle(texts, texts.staff.titles.clinical));
});
