// /admin/security-settings as a clinic IT admin uses it (password rules, renewal): advanced passwords for chosen users
// (their invite's approval then asks for 12 characters and a special character), a forced password reset that
// voids the password and e-mails a link to set a new one, and a bad interval refused; a renewal that makes the
// admin's own password overdue is announced before it is saved, and once that password has expired any call takes
// the admin to /new-password.
import type { Route } from '@playwright/test';
import type { SignedInResponse } from '../../generated/model/signedInResponse';
import { expectNoAxeViolations } from './axe';
import { withClinicSettings } from './clinic-settings';
import { DEMO_ADMIN, expect, test } from './fixtures';
import { chooseRadio, setCheckbox } from './form-controls';
import { mailedMessage } from './outbox';
import { signIn, signInToHome } from './session';
import { fill } from './texts';

test('advanced passwords for chosen users, a forced reset, a bad interval refused', async ({ page, browser, staff, texts, clinicAdmin }) => {
  // Several users, a second browser and e-mails: longer than the default 30 s on a slow machine.
  test.setTimeout(90_000);
  const ss = texts.securitySettings;
  await withClinicSettings(clinicAdmin, async () => {
    const invitation = await staff.invite('clinic_nurses', { family: 'Strict' });
    const nurse = await staff.create('clinic_nurses', { family: 'Reset' });
    await signInToHome(page, texts, await staff.create('clinic_it_admins'));
    await page.getByRole('link', { name: texts.common.areas.securitySettings }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(ss.title);
    await expectNoAxeViolations(page);

    // A bad idle interval is refused under its field.
    const interval = page.getByLabel(ss.interval.signOutAfter);
    await interval.fill('0');
    await page.getByRole('button', { name: ss.save }).click();
    await expect(page.getByText(texts.common.validation.invalidNumber)).toBeVisible();
    await interval.fill('30');

    // Advanced passwords for the invited nurse only.
    await chooseRadio(page.getByRole('radio', { name: new RegExp(ss.strength.advanced.name) }));
    await chooseRadio(page.getByRole('radio', { name: ss.password.several }));
    await page.getByRole('button', { name: ss.save }).click();
    await expect(page.getByText(ss.picker.required)).toBeVisible();
    await page.getByRole('searchbox', { name: ss.picker.search }).fill(invitation.account.lastName);
    await setCheckbox(page.getByRole('checkbox', { name: new RegExp(invitation.account.lastName) }), true);
    await expect(page.getByRole('button', { name: fill(ss.picker.remove, { name: `${invitation.account.firstName} ${invitation.account.lastName}` }) })).toBeVisible();
    await expectNoAxeViolations(page);
    // Renewal every 3 months for them too.
    await setCheckbox(page.getByRole('checkbox', { name: ss.password.renewal }), true);
    await page.getByLabel(ss.interval.renewEvery).fill('3');
    await page.getByRole('button', { name: ss.save }).click();
    await expect(page.getByText(texts.api['clinic.settings_updated'])).toBeVisible();

    // The invitee's approval follows the advanced rules.
    const invitee = await browser.newContext();
    const inviteePage = await invitee.newPage();
    await inviteePage.goto(invitation.link);
    const hints = inviteePage.locator('.mp-password-hints');
    await expect(hints).toContainText(fill(texts.common.passwordHints.min_length, { min: 12 }));
    await expect(hints).toContainText(texts.common.passwordHints.special);
    await invitee.close();

    // A forced reset for one nurse: signed out and the password void now, a link to set a new one e-mailed.
    await page.getByRole('button', { name: ss.actions.force }).click();
    const dialog = page.getByRole('dialog');
    await chooseRadio(dialog.getByRole('radio', { name: ss.forceReset.several }));
    await dialog.getByRole('searchbox', { name: ss.picker.search }).fill(nurse.lastName);
    await setCheckbox(dialog.getByRole('checkbox', { name: new RegExp(nurse.lastName) }), true);
    await expect(dialog).toContainText(ss.forceReset.permanent);
    await expectNoAxeViolations(page);
    await dialog.getByRole('button', { name: ss.forceReset.confirm }).click();
    await expect(page.getByText(texts.api['clinic.password_reset_forced'])).toBeVisible();

    // Stop password renewal: asked first, then the switch is off.
    await page.getByRole('button', { name: ss.actions.stop }).click();
    const alert = page.getByRole('alertdialog');
    await expect(alert).toContainText(ss.actions.stopConfirm);
    await expectNoAxeViolations(page);
    await alert.getByRole('button', { name: ss.actions.stop }).click();
    await expect(alert).toBeHidden();
    await expect(page.getByRole('checkbox', { name: ss.password.renewal })).not.toBeChecked();
    await expect(page.getByRole('button', { name: ss.actions.stop })).toBeDisabled();

    // The old password no longer signs in; the e-mailed link sets a new one.
    const nurseContext = await browser.newContext();
    const nursePage = await nurseContext.newPage();
    await nursePage.goto('/sign-in');
    expect((await signIn(nursePage, texts, nurse)).status()).toBe(401);
    const mail = await mailedMessage(nurse.email, '/new-password');
    expect(mail.text).toContain(fill(texts.api['mail.force_reset.body'].split('\n')[0], { name: `${nurse.firstName} ${nurse.lastName}` }));
    await nursePage.goto(mail.link);
    await expect(nursePage.getByText(fill(texts.auth.newPassword.introReset, { email: nurse.email }))).toBeVisible();
    await nursePage.getByLabel(texts.common.passwordFields.new, { exact: true }).fill('Renewed-Pass-2027');
    await nursePage.getByLabel(texts.common.passwordFields.confirmation, { exact: true }).fill('Renewed-Pass-2027');
    await nursePage.getByRole('button', { name: texts.auth.newPassword.submit }).click();
    await expect(nursePage.getByText(texts.auth.newPassword.done)).toBeVisible();
    await nursePage.getByRole('link', { name: texts.auth.goToSignIn }).click();
    await signInToHome(nursePage, texts, { ...nurse, password: 'Renewed-Pass-2027' });
    await nurseContext.close();
  });
});

test('a renewal that makes the admin’s own password overdue: warned before saving; once it expired, any call leads to /new-password', async ({
  page,
  texts,
  lang,
  clinicAdmin,
}) => {
  test.setTimeout(60_000);
  const ss = texts.securitySettings;
  await withClinicSettings(clinicAdmin, async () => {
    // The demo IT admin, whose password is months old (server/seed/demo.ts): a new admin's own password is new and
    // no renewal of 30 days or more makes it overdue. The rules below name this admin alone, and the settings are
    // put back afterwards; the other journeys' users keep the standard rules without renewal meanwhile. The
    // account's saved language (English) stays as it is: only this browser shows the project's language.
    await page.route('**/api/sign-in', async (route) => {
      const response = await route.fetch();
      const answer = (await response.json()) as SignedInResponse;
      if ('profile' in answer.data) answer.data.profile.lang = lang;
      await route.fulfill({ response, json: answer });
    });
    await signInToHome(page, texts, { ...DEMO_ADMIN, role: 'clinic_it_admins' });
    await page.getByRole('link', { name: texts.common.areas.securitySettings }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(ss.title);

    await setCheckbox(page.getByRole('checkbox', { name: ss.password.renewal }), true);
    await page.getByLabel(ss.interval.renewEvery).fill('1');
    // Months, as the clinic counts its renewal already: 30 days, the shortest allowed.
    await expect(page.getByLabel(ss.interval.period).first()).toHaveValue('months');
    await chooseRadio(page.getByRole('radio', { name: ss.password.several }));
    await page.getByRole('searchbox', { name: ss.picker.search }).fill('Weber');
    await setCheckbox(page.getByRole('checkbox', { name: /Jonas Weber/ }), true);
    await page.getByRole('button', { name: ss.save }).click();

    // Before anything is saved: the admin's own password is among those the rules make overdue, and until when it
    // still works.
    const warning = page.getByRole('alertdialog');
    await expect(warning.getByRole('heading', { name: ss.overdue.title })).toBeVisible();
    const [before, after] = ss.overdue.textWithYou_one.split('{{date}}');
    await expect(warning).toContainText(before);
    await expect(warning).toContainText(after);
    await expectNoAxeViolations(page);
    await warning.getByRole('button', { name: ss.overdue.confirm }).click();
    await expect(page.getByText(texts.api['clinic.settings_updated'])).toBeVisible();
    // The week's grace: the admin works on.
    await expect(page).toHaveURL('/admin/security-settings');
    await expect(page.getByRole('checkbox', { name: ss.password.renewal })).toBeChecked();

    // A week later the password has expired (tests/server/password-renewal.test.ts moves the server's clock; this
    // browser is told what the server then answers): every call but the profile, the password change and the
    // logout is refused with 403 auth.password_change_required, and the profile says why.
    const expired = async (route: Route) => {
      const path = new URL(route.request().url()).pathname;
      if (path === '/api/user/profile' && route.request().method() === 'GET') {
        const response = await route.fetch();
        const profile = (await response.json()) as { data: Record<string, unknown> };
        await route.fulfill({ response, json: { ...profile, data: { ...profile.data, passwordChangeRequired: 'expired' } } });
      } else if (['/api/user/profile', '/api/user/password', '/api/logout'].includes(path)) {
        await route.continue();
      } else {
        await route.fulfill({
          status: 403,
          json: { status: 'Error', message: texts.api['auth.password_change_required'], code: 'auth.password_change_required' },
        });
      }
    };
    await page.route('**/api/**', expired);
    // A page not opened before (the lists seen already would show from the cache without asking).
    await page.getByRole('link', { name: texts.common.areas.devices }).click();
    await expect(page).toHaveURL('/new-password');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(texts.auth.newPassword.title);
    await expect(page.getByText(texts.auth.newPassword.expired)).toBeVisible();
    await expectNoAxeViolations(page);
    await page.unroute('**/api/**', expired);
  });
});

test('Restore defaults fills in the settings a new clinic starts with; they apply only once saved', async ({ page, staff, texts, clinicAdmin }) => {
  const ss = texts.securitySettings;
  await withClinicSettings(clinicAdmin, async () => {
    const custom = await clinicAdmin.post('/api/clinic/settings', {
      data: {
        password_strength: 'advanced',
        password_renewal_interval: null,
        password_renewal_period: 'months',
        user: 'all',
        logout_time_interval: 45,
        logout_time_period: 'minutes',
        two_factor_roles: [],
        remember_device_days: 7,
      },
    });
    expect(custom.status(), await custom.text()).toBe(200);
    await signInToHome(page, texts, await staff.create('clinic_it_admins'));
    await page.getByRole('link', { name: texts.common.areas.securitySettings }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(ss.title);

    const restore = page.getByRole('button', { name: ss.defaults.restore });
    const idleLogout = page.getByRole('checkbox', { name: ss.logout.on });
    const standard = page.getByRole('radio', { name: new RegExp(ss.strength.standard.name) });
    const rememberDays = page.getByLabel(ss.twoFactor.rememberDays);
    await expect(idleLogout).toBeChecked();
    await expect(restore).toHaveAccessibleDescription(ss.defaults.note);

    await restore.click();
    await expect(page.getByText(ss.defaults.filled)).toBeVisible();
    await expect(standard).toBeChecked();
    await expect(idleLogout).not.toBeChecked();
    await expect(rememberDays).toHaveValue('0');
    await expect(restore).toBeDisabled();
    await expectNoAxeViolations(page);

    // Not saved yet: the clinic keeps its settings until Save.
    await page.reload();
    await expect(idleLogout).toBeChecked();
    await expect(page.getByLabel(ss.interval.signOutAfter)).toHaveValue('45');

    await restore.click();
    await page.getByRole('button', { name: ss.save }).click();
    await expect(page.getByText(texts.api['clinic.settings_updated'])).toBeVisible();
    await page.reload();
    await expect(standard).toBeChecked();
    await expect(idleLogout).not.toBeChecked();
    await expect(rememberDays).toHaveValue('0');
    await expect(restore).toBeDisabled();
  });
});
