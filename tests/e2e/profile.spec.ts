// /profile-settings (any signed-in user): name, avatar (PNG/JPEG of at most 3 MB, else the invalid-format
// message, nothing sent), password change, and an e-mail change that needs the password, asks first and counts once
// the new address confirms it (issue 27).
import type { Page, Request } from '@playwright/test';
import { expectNoAxeViolations } from './axe';
import { expect, test } from './fixtures';
import { mailedLink, mailedText } from './outbox';
import { homeOf, signIn, signInToHome, storedTokens, NO_TOKEN } from './session';
import { fill, type Texts } from './texts';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** A real 1 × 1 pixel PNG. */
const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const MB = 1024 * 1024;

/** Every profile change the page sends (POST /api/user/profile). */
function profileUpdates(page: Page): Request[] {
  const sent: Request[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/user/profile') sent.push(request);
  });
  return sent;
}

async function openProfileSettings(page: Page, texts: Texts): Promise<void> {
  await page.getByRole('button', { name: texts.common.nav.userMenu }).click();
  await page.getByRole('menuitem', { name: texts.common.nav.profileSettings }).click();
  await expect(page).toHaveURL('/profile-settings');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(texts.profile.title);
}

const notifications = (page: Page, texts: Texts) => page.getByRole('list', { name: texts.common.notifications.label });

test('a physician changes the physician name; the navbar shows it (no axe violations)', async ({ page, staff, texts }) => {
  const account = await staff.create('clinic_physicians');
  await signInToHome(page, texts, account);
  await openProfileSettings(page, texts);

  await expectNoAxeViolations(page);

  await page.getByLabel(texts.profile.general.physicianName).fill('Dr. med. Eva Journey');
  await page.getByRole('button', { name: texts.profile.general.save }).click();

  await expect(notifications(page, texts)).toContainText(texts.api['profile.updated']);
  await expect(page.getByRole('banner')).toContainText('Dr. med. Eva Journey');
  await page.reload();
  await expect(page.getByLabel(texts.profile.general.physicianName)).toHaveValue('Dr. med. Eva Journey');
});

test('the avatar: a PNG is saved, a 4 MB image and a fake PNG are refused without upload (no axe violations)', async ({
  page,
  staff,
  texts,
}) => {
  await signInToHome(page, texts, await staff.create('clinic_nurses'));
  await openProfileSettings(page, texts);
  const sent = profileUpdates(page);
  const chooser = page.getByLabel(texts.profile.avatar.choose);
  // Blueprint's picker, in the page's language (not the browser's "Choose File / No file chosen").
  const picker = page.locator('.bp6-file-input');
  await expect(picker).toContainText(texts.profile.avatar.chooseFile);
  await expect(picker.locator('.bp6-file-upload-input')).toHaveAttribute('bp6-button-text', texts.profile.avatar.browse);
  const banner = page.getByRole('banner');
  await expect(banner.locator('img')).toHaveCount(0);

  await chooser.setInputFiles({
    name: 'scan.png',
    mimeType: 'image/png',
    buffer: Buffer.concat([PNG_SIGNATURE, Buffer.alloc(4 * MB)]),
  });
  // Which limit it broke: the size, with the file's own (4 MB of 1024 × 1024 bytes, and the signature).
  await expect(page.getByText(fill(texts.profile.avatar.tooLarge, { size: '4' }))).toBeVisible();
  await expectNoAxeViolations(page);
  await chooser.setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('not an image') });
  await expect(page.getByText(texts.profile.avatar.wrongFormat)).toBeVisible();
  await expect(page.getByText(fill(texts.profile.avatar.tooLarge, { size: '4' }))).toBeHidden();
  expect(sent).toEqual([]);

  await chooser.setInputFiles({ name: 'portrait.png', mimeType: 'image/png', buffer: TINY_PNG });
  await expect(page.getByRole('img', { name: texts.profile.avatar.preview })).toBeVisible();
  await expect(picker).toContainText('portrait.png');
  await page.getByRole('button', { name: texts.profile.avatar.save }).click();

  const notice = notifications(page, texts).getByRole('listitem');
  await expect(notice).toContainText(texts.api['profile.updated']);
  await expect(page.getByRole('img', { name: texts.profile.avatar.current })).toBeVisible();
  expect(sent).toHaveLength(1);

  // The notification covers none of the header's controls: they stay usable while it shows.
  const [noticeBox, bannerBox] = [await notice.boundingBox(), await banner.boundingBox()];
  expect(noticeBox!.y).toBeGreaterThanOrEqual(bannerBox!.y + bannerBox!.height);
  await page.getByRole('button', { name: texts.common.nav.userMenu }).click({ trial: true });
  await page.getByLabel(texts.common.language.label).click({ trial: true });
  // The saved picture is in the header now, in the user menu button, and stays after a reload.
  const headerAvatar = page.getByRole('button', { name: texts.common.nav.userMenu }).locator('img');
  await expect(headerAvatar).toBeVisible();
  await page.reload();
  await expect(headerAvatar).toBeVisible();
  expect(await headerAvatar.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(1);
});

test('a password change: hints for a weak one, then the new password signs in', async ({ page, staff, texts }) => {
  const account = await staff.create('clinic_it_admins');
  await signInToHome(page, texts, account);
  await openProfileSettings(page, texts);
  const fields = texts.common.passwordFields;
  const newPassword = 'Changed-Pass-2027';

  await page.getByLabel(fields.current).fill(account.password);
  await page.getByLabel(fields.new, { exact: true }).fill('short');
  await page.getByLabel(fields.confirmation).fill('short');
  await page.getByRole('button', { name: texts.profile.password.submit }).click();
  await expect(page.getByText(texts.common.validation.invalidPassword)).toBeVisible();

  await page.getByLabel(fields.new, { exact: true }).fill(newPassword);
  await page.getByLabel(fields.confirmation).fill(newPassword);
  await page.getByRole('button', { name: texts.profile.password.submit }).click();
  await expect(notifications(page, texts)).toContainText(texts.api['password.changed']);

  await page.evaluate(() => localStorage.clear());
  await page.goto('/sign-in');
  await signIn(page, texts, { ...account, password: newPassword });
  await expect(page).toHaveURL(homeOf(account.role).path);
});

test('an e-mail change needs the current password and counts once confirmed from the new mailbox; the old one is told, and every session ends', async ({
  page,
  staff,
  texts,
}) => {
  const account = await staff.create('clinic_physicians');
  await signInToHome(page, texts, account);
  await openProfileSettings(page, texts);
  const sent = profileUpdates(page);
  const newEmail = account.email.replace('@', '.new@');
  const general = page.getByRole('region', { name: texts.profile.general.title });
  const emailField = general.getByLabel(texts.profile.general.email, { exact: true });
  const password = general.getByLabel(texts.profile.general.currentPassword, { exact: true });
  const save = general.getByRole('button', { name: texts.profile.general.save });

  // The password field comes with a new address, and nothing is asked or sent without it.
  await expect(password).toHaveCount(0);
  await emailField.fill(newEmail);
  await expect(password).toHaveAccessibleDescription(texts.profile.general.currentPasswordHint);
  await save.click();
  await expect(password).toBeFocused();
  await expect(password).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('alertdialog')).toHaveCount(0);

  await password.fill(account.password);
  await save.click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText(fill(texts.profile.emailChange.message, { email: newEmail }));
  await expectNoAxeViolations(page);
  await dialog.getByRole('button', { name: texts.profile.emailChange.cancel }).click();
  await expect(dialog).toBeHidden();
  expect(sent).toEqual([]);

  await save.click();
  await page.getByRole('alertdialog').getByRole('button', { name: texts.profile.emailChange.confirm }).click();
  await expect(notifications(page, texts)).toContainText(fill(texts.api['profile.email_confirmation_sent'], { email: newEmail }));
  // Still signed in with the old address, which the field shows again beside the one waiting for its link.
  await expect(page).toHaveURL('/profile-settings');
  await expect(emailField).toHaveValue(account.email);
  await expect(general).toContainText(fill(texts.profile.general.pendingEmail, { email: newEmail, current: account.email }));
  await expectNoAxeViolations(page);
  const notice = await mailedText(account.email, texts.api['mail.email_change_requested.subject']);
  expect(notice).toContain(newEmail);

  // The link from the new mailbox, opened in this browser: confirming signs out everywhere, this tab too.
  await page.goto(await mailedLink(newEmail, '/confirm-email'));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(texts.auth.confirmEmail.title);
  await expect(page.getByRole('main')).toContainText(fill(texts.auth.confirmEmail.intro, { email: account.email, newEmail }));
  await expectNoAxeViolations(page);
  await page.getByRole('button', { name: texts.auth.confirmEmail.submit }).click();
  await expect(page.getByRole('status')).toHaveText(fill(texts.auth.confirmEmail.done, { email: newEmail }));
  expect(await storedTokens(page)).toEqual(NO_TOKEN);
  await mailedText(account.email, texts.api['mail.email_changed.subject']);

  await page.getByRole('link', { name: texts.auth.goToSignIn }).click();
  await signIn(page, texts, { ...account, email: newEmail });
  await expect(page).toHaveURL(homeOf(account.role).path);
});
