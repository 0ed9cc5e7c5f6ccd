// The clinic requires two-factor sign-in for physicians (issue 27): a physician who signs in is sent to set it up
// before anything else, and an IT admin resets it for them. Changing whom the requirement covers would stop the
// physicians of journeys running beside this one, so it runs alone, after them (playwright.config.ts).
import { expectNoAxeViolations } from './axe';
import { withClinicSettings } from './clinic-settings';
import { expect, test } from './fixtures';
import { setCheckbox } from './form-controls';
import { homeOf, logOut, signIn, signInToHome } from './session';
import { setUpAuthenticator } from './two-factor-codes';

test('the IT admin requires a second factor for physicians and resets one (no axe violations)', async ({ page, browser, staff, texts, clinicAdmin }) => {
  test.setTimeout(120_000);
  const ss = texts.securitySettings;
  const st = texts.staff.form.twoFactor;
  await withClinicSettings(clinicAdmin, async () => {
    const physician = await staff.create('clinic_physicians', { family: 'Pflicht' });
    const admin = await staff.create('clinic_it_admins');
    await signInToHome(page, texts, admin);
    await page.getByRole('link', { name: texts.common.areas.securitySettings }).click();
    await expect(page.getByRole('heading', { level: 2, name: ss.twoFactor.title })).toBeVisible();
    await setCheckbox(page.getByRole('checkbox', { name: texts.common.roles.clinic_physicians }), true);
    await page.getByRole('button', { name: ss.save }).click();
    await expect(page.getByRole('list', { name: texts.common.notifications.label })).toContainText(texts.api['clinic.settings_updated']);
    await expectNoAxeViolations(page);

    // The physician's next sign-in leads to the setup first, then on to the patients.
    const other = await browser.newContext();
    const physicianPage = await other.newPage();
    await physicianPage.goto('/sign-in');
    await signIn(physicianPage, texts, physician);
    await expect(physicianPage).toHaveURL('/two-factor-setup', { timeout: 15_000 });
    await expect(physicianPage.getByRole('heading', { level: 1 })).toHaveText(texts.auth.twoFactorSetup.title);
    await expect(physicianPage.getByText(texts.twoFactor.setup.required)).toBeVisible();
    await expectNoAxeViolations(physicianPage);
    await physicianPage.goto('/physician/list');
    await expect(physicianPage).toHaveURL('/two-factor-setup');
    // Just signed in: the setup does not ask for the password again.
    await setUpAuthenticator(physicianPage, texts, null);
    await physicianPage.getByRole('button', { name: texts.twoFactor.setup.finish }).click();
    await expect(physicianPage).toHaveURL(homeOf('clinic_physicians').path, { timeout: 15_000 });

    // The phone is lost: the IT admin resets the second factor after a confirmation.
    const found = await clinicAdmin.get(`/api/users?search=${encodeURIComponent(physician.lastName)}`);
    const { data } = (await found.json()) as { data: { id: string; email: string }[] };
    const id = data.find((user) => user.email === physician.email)!.id;
    await page.goto(`/admin/edit?userId=${id}`);
    await expect(page.getByText(st.on, { exact: true })).toBeVisible();
    await page.getByRole('button', { name: st.reset }).click();
    const confirm = page.getByRole('alertdialog');
    await expect(confirm).toContainText(`${physician.firstName} ${physician.lastName}`);
    await expectNoAxeViolations(page);
    await confirm.getByRole('button', { name: st.reset }).click();
    await expect(page.getByRole('list', { name: texts.common.notifications.label })).toContainText(texts.api['two_factor.reset']);
    await expect(page.getByText(st.off, { exact: true })).toBeVisible();

    // Signed out by the reset, the physician sets up a new app at the next sign-in.
    await physicianPage.reload();
    await expect(physicianPage).toHaveURL('/sign-in', { timeout: 15_000 });
    await signIn(physicianPage, texts, physician);
    await expect(physicianPage).toHaveURL('/two-factor-setup', { timeout: 15_000 });
    await other.close();
    await logOut(page, texts);
  });
});
