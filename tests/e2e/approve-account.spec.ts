// Invitation (a public page): the invite e-mail's /approve-account link shows who is invited where; the
// new password is checked against the clinic's rules with live hints, the EULA (and the privacy notice)
// must be accepted, and then the account signs in.
import type { Page } from '@playwright/test';
import { expectNoAxeViolations } from './axe';
import { DEMO_CLINIC, expect, test } from './fixtures';
import { setCheckbox } from './form-controls';
import { settledBoxes, verticalGap } from './layout';
import { signInToHome } from './session';
import { fill, withoutTags, type Texts } from './texts';

/** The hints of the demo clinic's strength level (standard), then the rules of every level. */
const STANDARD_HINTS = ['min_length', 'capital', 'small', 'number', 'allowed_characters', 'not_common'] as const;
type Hint = (typeof STANDARD_HINTS)[number];

/** The live hints as a screen reader reads them: each hint with "met" or "not met yet". */
async function expectHints(page: Page, texts: Texts, unmet: Hint[]): Promise<void> {
  const hints = texts.common.passwordHints;
  const expected = STANDARD_HINTS.map(
    (hint) => `${fill(hints[hint], { min: 8 })} (${unmet.includes(hint) ? hints.unmet : hints.met})`,
  );
  await expect(page.locator('form').getByRole('listitem')).toHaveText(expected);
}

test('an invite e-mail leads to account approval: bad passwords and a missing EULA are refused', async ({
  page,
  staff,
  texts,
}) => {
  const { auth, common } = texts;
  const form = auth.approveAccount;
  const { account, link } = await staff.invite('clinic_nurses');

  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(form.title);
  await expect(
    page.getByText(fill(form.intro, { name: `${account.firstName} ${account.lastName}`, clinic: DEMO_CLINIC })),
  ).toBeVisible();

  const password = page.getByLabel(common.passwordFields.new, { exact: true });
  const confirmation = page.getByLabel(common.passwordFields.confirmation, { exact: true });
  const eula = page.getByRole('checkbox', { name: withoutTags(form.acceptEula) });
  const privacy = page.getByRole('checkbox', { name: withoutTags(form.acceptPrivacy) });
  const submit = page.getByRole('button', { name: form.submit });
  const shows = (message: string) => expect(page.getByText(message, { exact: true })).toBeVisible();

  // Before anything is typed, nothing is ticked; the hints keep their distance from the field.
  await expectHints(page, texts, [...STANDARD_HINTS]);
  const hints = page.locator('.mp-password-hints');
  expect(await verticalGap(page, password, hints)).toBeGreaterThanOrEqual(8);

  // Too short, no capital, no number; nothing accepted.
  await password.fill('short');
  await confirmation.fill('short');
  await expectHints(page, texts, ['min_length', 'capital', 'number']);
  await submit.click();
  await shows(common.validation.invalidPassword);
  await shows(common.validation.eulaRequired);
  await shows(common.validation.privacyRequired);
  // The field's error sits right under the field, above the hints.
  const error = page.getByText(common.validation.invalidPassword, { exact: true });
  const [field, message, list] = await settledBoxes(page, password, error, hints);
  expect(message.y).toBeGreaterThanOrEqual(field.y + field.height);
  expect(message.y + message.height).toBeLessThanOrEqual(list.y);
  await expectNoAxeViolations(page);

  await password.fill('Journey+2026');
  await expectHints(page, texts, ['allowed_characters']);
  await submit.click();
  await shows(common.validation.invalidCharacters);

  await password.fill('Password1');
  await expectHints(page, texts, ['not_common']);
  await submit.click();
  await shows(common.validation.invalidPassword);

  await password.fill(account.password);
  await expectHints(page, texts, []);
  await confirmation.fill(`${account.password}!`);
  await submit.click();
  await shows(common.validation.passwordsDoNotMatch);

  await confirmation.fill(account.password);
  await setCheckbox(privacy, true);
  await submit.click();
  await shows(common.validation.eulaRequired);
  await expect(page.getByText(common.validation.privacyRequired, { exact: true })).toBeHidden();

  await setCheckbox(eula, true);
  await submit.click();
  await expect(page.getByText(form.done)).toBeVisible();
  await page.getByRole('link', { name: auth.goToSignIn }).click();
  await signInToHome(page, texts, account);
});
