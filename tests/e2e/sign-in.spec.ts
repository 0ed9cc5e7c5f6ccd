// Seed-spec §2–§5: each role signs in and lands on its route; the token is kept in localStorage when
// remembered and in sessionStorage when not, and logout forgets it; a wrong password shows the
// specification's failure text.
import type { Response } from '@playwright/test';
import type { SignInResponse } from '../../generated/model/signInResponse';
import { expectNoAxeViolations } from './axe';
import { expect, test } from './fixtures';
import { logOut, NO_TOKEN, ROLE_HOMES, signIn, signInToHome, storedTokens } from './session';

const tokenOf = async (answer: Response) => ((await answer.json()) as SignInResponse).data.token;

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
