// Seed-spec §2–§5: each role signs in and lands on its route; the token is kept in localStorage when
// remembered and in sessionStorage when not, and logout forgets it; a wrong password shows the
// specification's failure text. Issue 10: a signed-in user is sent on from /sign-in, and the whole way
// works by keyboard (skip link, focus, a visible ring on the green button, the user menu by arrow keys).
import type { Response } from '@playwright/test';
import type { SignedInResponse } from '../../generated/model/signedInResponse';
import { expectNoAxeViolations } from './axe';
import { contrast } from './contrast';
import { expect, test } from './fixtures';
import { homeOf, logOut, NO_TOKEN, ROLE_HOMES, signIn, signInToHome, storedTokens } from './session';

const tokenOf = async (answer: Response) => ((await answer.json()) as SignedInResponse).data.token;

for (const { role, path } of ROLE_HOMES) {
  test(`${role} lands on ${path}; the token is kept in localStorage when remembered, else in sessionStorage`, async ({
    page,
    staff,
    texts,
    lang,
  }) => {
    const account = await staff.create(role);

    const remembered = await signInToHome(page, texts, account, { remember: true });
    expect(remembered.request().headers().language).toBe(lang);
    expect(await storedTokens(page)).toEqual({ ...NO_TOKEN, localStorage: await tokenOf(remembered) });

    await logOut(page, texts);
    expect(await storedTokens(page)).toEqual(NO_TOKEN);

    const forThisSession = await signInToHome(page, texts, account, { remember: false });
    expect(await storedTokens(page)).toEqual({ ...NO_TOKEN, sessionStorage: await tokenOf(forThisSession) });
  });
}

test('a wrong password shows the failure text and keeps no token', async ({ page, staff, texts }) => {
  const account = await staff.create('clinic_nurses');
  await page.goto('/sign-in');

  const answer = await signIn(page, texts, { email: account.email, password: 'Wrong-Pass-2026' });

  expect(answer.status()).toBe(401);
  await expect(page.getByRole('alert')).toHaveText(texts.auth.signIn.failed);
  await expect(page).toHaveURL('/sign-in');
  expect(await storedTokens(page)).toEqual(NO_TOKEN);
  await expectNoAxeViolations(page);
});

test('a signed-in user who opens /sign-in is sent to the home of their role', async ({ page, staff, texts }) => {
  const account = await staff.create('clinic_it_admins');
  await signInToHome(page, texts, account);

  await page.goto('/sign-in');

  await expect(page).toHaveURL(homeOf(account.role).path);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(texts.staff.titles.clinical);
  await expect(page.getByLabel(texts.auth.signIn.password, { exact: true })).toHaveCount(0);
});

test('keyboard only: the first field focused, a visible ring on the green button, then the new page\'s heading', async ({
  page,
  staff,
  texts,
}) => {
  const account = await staff.create('clinic_physicians');
  const form = texts.auth.signIn;
  await page.goto('/sign-in');

  await expect(page.getByLabel(form.email)).toBeFocused();
  await page.keyboard.type(account.email);
  await page.keyboard.press('Tab');
  await expect(page.getByLabel(form.password, { exact: true })).toBeFocused();
  await page.keyboard.type(account.password);
  // Remember me, the forgot-password link, then the submit button.
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  const submit = page.getByRole('button', { name: form.submit });
  await expect(submit).toBeFocused();

  // The ring: green outside on the white card, and white inside on the green button, each at least 3:1.
  const ring = await submit.evaluate((button) => {
    // Computed colours may be oklch(…) (Blueprint 6): a canvas pixel gives them as rgb().
    const canvas = document.createElement('canvas').getContext('2d', { willReadFrequently: true })!;
    const rgb = (color: string) => {
      canvas.clearRect(0, 0, 1, 1);
      canvas.fillStyle = color;
      canvas.fillRect(0, 0, 1, 1);
      const [r, g, b] = canvas.getImageData(0, 0, 1, 1).data;
      return `rgb(${r}, ${g}, ${b})`;
    };
    const style = getComputedStyle(button);
    // The first shadow is ours (theme.css): "<colour> 0px 0px 0px 2px inset".
    const inset = style.boxShadow.match(/^(.+?\))\s+0px 0px 0px 2px inset/);
    return {
      outline: `${style.outlineStyle} ${style.outlineWidth}`,
      outlineColor: rgb(style.outlineColor),
      insetColor: inset ? rgb(inset[1]) : `no inset ring in ${style.boxShadow}`,
      button: rgb(style.backgroundColor),
      card: rgb(getComputedStyle(button.closest('.bp6-card')!).backgroundColor),
    };
  });
  expect(ring.outline).toBe('solid 2px');
  expect(contrast(ring.outlineColor, ring.card)).toBeGreaterThanOrEqual(3);
  expect(contrast(ring.insetColor, ring.button)).toBeGreaterThanOrEqual(3);

  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(homeOf(account.role).path);
  const heading = page.getByRole('heading', { level: 1 });
  await expect(heading).toHaveText(texts.common.areas.physician);
  await expect(heading).toBeFocused();
});

test('keyboard only: the skip link is the first tab stop and leads past the navbar; the user menu by arrow keys', async ({
  page,
  staff,
  texts,
}) => {
  const { common } = texts;
  await signInToHome(page, texts, await staff.create('clinic_nurses'));
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(common.areas.physician);

  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: common.skipToContent });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('main')).toBeFocused();
  // The next stop lies past the navbar (in the page, or its footer when the page has no control).
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement !== document.body && !document.activeElement?.closest('header'))).toBe(
    true,
  );

  const menuButton = page.getByRole('button', { name: common.nav.userMenu });
  await menuButton.focus();
  await page.keyboard.press('Enter');
  const settings = page.getByRole('menuitem', { name: common.nav.profileSettings });
  const logout = page.getByRole('menuitem', { name: common.nav.logout });
  await expect(settings).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(logout).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(settings).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(logout).toBeFocused();
  await page.keyboard.press('Home');
  await expect(settings).toBeFocused();
  await page.keyboard.press('Enter');

  await expect(page).toHaveURL('/profile-settings');
  const heading = page.getByRole('heading', { level: 1 });
  await expect(heading).toHaveText(texts.profile.title);
  await expect(heading).toBeFocused();
});
