// Forgot password (the public recovery pages): /reset-password sends an e-mail, its /new-password link sets a new
// password, and the account signs in with it.
import { expect, test } from './fixtures';
import { mailedMessage } from './outbox';
import { signIn, signInToHome } from './session';
import { fill } from './texts';

test('forgot password: e-mail, new password, sign in with it', async ({ page, staff, texts, lang }) => {
  const { auth, common } = texts;
  const account = await staff.create('clinic_physicians');
  const heading = page.getByRole('heading', { level: 1 });

  await page.goto('/sign-in');
  await page.getByRole('link', { name: auth.signIn.forgotPassword }).click();
  await expect(page).toHaveURL('/reset-password');
  await expect(heading).toHaveText(auth.resetPassword.title);
  await page.getByLabel(auth.resetPassword.email).fill(account.email);
  await page.getByRole('button', { name: auth.resetPassword.submit }).click();
  await expect(page.getByText(auth.resetPassword.sent)).toBeVisible();

  // Formal, and for any name: the full name after the catalogue's greeting ("Guten Tag Eva Journey …,").
  const mail = await mailedMessage(account.email, '/new-password');
  const greeting = texts.api['mail.reset.body'].split('\n')[0];
  expect(mail.text).toContain(fill(greeting, { name: `${account.firstName} ${account.lastName}` }));
  if (lang === 'de') expect(mail.text).not.toMatch(/\b(Hallo|du|dein\w*)\b/);

  await page.goto(mail.link);
  await expect(heading).toHaveText(auth.newPassword.title);
  await expect(page.getByText(fill(auth.newPassword.introReset, { email: account.email }))).toBeVisible();
  const renewed = { ...account, password: 'Renewed-Pass-2027' };
  await page.getByLabel(common.passwordFields.new, { exact: true }).fill(renewed.password);
  await page.getByLabel(common.passwordFields.confirmation, { exact: true }).fill(renewed.password);
  await page.getByRole('button', { name: auth.newPassword.submit }).click();
  await expect(page.getByText(auth.newPassword.done)).toBeVisible();

  await page.getByRole('link', { name: auth.goToSignIn }).click();
  await expect(page).toHaveURL('/sign-in');
  const oldPassword = await signIn(page, texts, account);
  expect(oldPassword.status()).toBe(401);
  await signInToHome(page, texts, renewed);
});
