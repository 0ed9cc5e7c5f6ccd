// Two-factor sign-in (issue 27): a physician sets up an authenticator app in the profile (QR code, typed code,
// ten recovery codes), then signs in with a code from the app and with a recovery code; each screen without axe
// violations, by keyboard where a person would type.
import { expectNoAxeViolations } from './axe';
import { expect, test } from './fixtures';
import { homeOf, logOut, signIn } from './session';
import { fill } from './texts';
import { nextCode, setUpAuthenticator } from './two-factor-codes';

test('set up in the profile, then sign in with a code and with a recovery code (no axe violations)', async ({ page, staff, texts }) => {
  test.setTimeout(90_000);
  const account = await staff.create('clinic_physicians', { family: 'Faktor' });
  const home = homeOf(account.role);
  const pt = texts.profile.twoFactor;
  const sf = texts.twoFactor.secondFactor;

  await page.goto('/sign-in');
  await signIn(page, texts, account);
  await expect(page).toHaveURL(home.path, { timeout: 15_000 });
  await page.goto('/profile-settings');
  const section = page.getByRole('region', { name: pt.title });
  await expect(section).toContainText(pt.off);
  await section.getByRole('button', { name: pt.setUp }).click();
  await expectNoAxeViolations(page);
  const { secret, codes } = await setUpAuthenticator(section, texts, account.password);
  await expectNoAxeViolations(page);
  await section.getByRole('button', { name: pt.done }).click();
  await expect(section).toContainText(fill(pt.on_other, { count: 10 }));

  // The password alone no longer signs in: the second step asks for the app's code.
  await logOut(page, texts);
  await signIn(page, texts, account);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(sf.title);
  const codeField = page.getByLabel(sf.code);
  await expect(codeField).toBeFocused();
  await expectNoAxeViolations(page);
  await codeField.fill('000000');
  await codeField.press('Enter');
  await expect(page.getByRole('alert')).toHaveText(texts.api['auth.second_factor_invalid']);
  await codeField.fill(nextCode(secret));
  await codeField.press('Enter');
  await expect(page).toHaveURL(home.path, { timeout: 15_000 });

  // Without the phone: a recovery code, once.
  await logOut(page, texts);
  await signIn(page, texts, account);
  await page.getByRole('button', { name: sf.useRecoveryCode }).click();
  const recovery = page.getByLabel(sf.recoveryCode);
  await expect(recovery).toBeFocused();
  await expectNoAxeViolations(page);
  await recovery.fill(codes[0]);
  await recovery.press('Enter');
  await expect(page).toHaveURL(home.path, { timeout: 15_000 });
  await page.goto('/profile-settings');
  await expect(page.getByRole('region', { name: pt.title })).toContainText(fill(pt.on_other, { count: 9 }));
});
