// The staff of /admin as a clinic IT admin manages it (the staff lists and form): invites and drafts through the
// user form, a resent invite that retires the old link, a deactivated user signed out at their next call,
// and a bulk action on every user a search matches, across pages.
import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expectNoAxeViolations } from './axe';
import { expect, test } from './fixtures';
import { chooseRadio, setCheckbox } from './form-controls';
import { mailedLink, mailedText } from './outbox';
import { signInToHome } from './session';
import { fill, type Texts } from './texts';

/** Types into the list's search and waits for the URL to carry it. */
async function search(page: Page, texts: Texts, text: string): Promise<void> {
  await page.getByRole('searchbox', { name: texts.staff.search }).fill(text);
  await expect(page).toHaveURL(new RegExp(`search=${encodeURIComponent(text).replace(/%20/g, '\\+')}`));
}

const rowOf = (page: Page, name: string) => page.getByRole('table').getByRole('row').filter({ hasText: name });

test('invite a physician, confirm a draft, resend an invite: the old link stops working', async ({ page, browser, staff, texts, lang }) => {
  // Three accounts, two browsers, four e-mails: longer than the default 30 s on a slow machine.
  test.setTimeout(90_000);
  const s = texts.staff;
  const f = s.form;
  await signInToHome(page, texts, await staff.create('clinic_it_admins'));
  await expectNoAxeViolations(page);
  const id = randomUUID().slice(0, 8);
  const physician = { first: 'Lena', last: `Invited ${id}`, email: `invited-${id}@e2e.clinic.example` };

  // An invite at once: the e-mail is in the outbox, the list shows the user invited.
  await page.getByRole('link', { name: s.addUser }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(f.addTitle);
  await page.getByRole('button', { name: f.confirmAndInvite }).click();
  await expect(page.getByText(texts.common.validation.required).first()).toBeVisible();
  await page.getByLabel(f.firstName).fill(physician.first);
  await page.getByLabel(f.lastName).fill(physician.last);
  await page.getByLabel(f.email).fill('not an address');
  await page.getByRole('button', { name: f.confirmAndInvite }).click();
  await expect(page.getByText(texts.common.validation.invalidEmail)).toBeVisible();
  await page.getByLabel(f.email).fill(physician.email);
  await page.getByLabel(f.physicianName).fill(`Dr. ${physician.first} ${physician.last}`);
  // A picture that is not a PNG or JPEG, or too large, is refused before anything is sent, saying which it is.
  await page.getByLabel(f.avatar).setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: Buffer.from('not a picture') });
  await expect(page.getByText(f.avatarWrongFormat)).toBeVisible();
  await page.getByLabel(f.avatar).setInputFiles({ name: 'me.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a picture') });
  await expect(page.getByText(f.avatarWrongFormat)).toBeVisible();
  const large = Buffer.alloc(Math.round(4.2 * 1024 * 1024));
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(large);
  await page.getByLabel(f.avatar).setInputFiles({ name: 'big.png', mimeType: 'image/png', buffer: large });
  await expect(page.getByText(fill(f.avatarTooLarge, { size: lang === 'de' ? '4,2' : '4.2' }))).toBeVisible();
  await expect(page.getByText(f.avatarWrongFormat)).toBeHidden();
  await expectNoAxeViolations(page);
  await page.getByRole('button', { name: f.confirmAndInvite }).click();
  await expect(page.getByText(texts.api['invite.sent'], { exact: true })).toBeVisible();
  await expect(page).toHaveURL('/admin/physicians');
  await search(page, texts, physician.last);
  await expect(rowOf(page, physician.last)).toContainText(s.status.pending);
  await expect(rowOf(page, physician.last)).toContainText(s.inviteStatus.pending);
  // The link's expiry as every other date and time of the admin screens reads (English: "3 Dec 2026, 09:30").
  const dateTime = lang === 'de' ? String.raw`\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}` : String.raw`\d{1,2} [A-Z][a-z]{2,3} \d{4}, \d{2}:\d{2}`;
  await expect(rowOf(page, physician.last)).toContainText(new RegExp(fill(s.inviteExpires, { date: dateTime })));

  // The invitee approves through the mailed link; the list then shows them active.
  const invitee = await browser.newContext();
  const inviteePage = await invitee.newPage();
  await inviteePage.goto(await mailedLink(physician.email, '/approve-account'));
  await inviteePage.getByLabel(texts.common.passwordFields.new, { exact: true }).fill('Journey-Pass-2026');
  await inviteePage.getByLabel(texts.common.passwordFields.confirmation, { exact: true }).fill('Journey-Pass-2026');
  for (const checkbox of await inviteePage.getByRole('checkbox').all()) await setCheckbox(checkbox, true);
  await inviteePage.getByRole('button', { name: texts.auth.approveAccount.submit }).click();
  await expect(inviteePage.getByText(texts.auth.approveAccount.done)).toBeVisible();
  await page.reload();
  await expect(rowOf(page, physician.last)).toContainText(s.status.active);
  await expect(rowOf(page, physician.last)).toContainText(s.inviteStatus.accepted);

  // A draft: saved without an invite, confirmed later from its form.
  const nurse = { first: 'Tom', last: `Draft ${id}`, email: `draft-${id}@e2e.clinic.example` };
  await page.getByRole('link', { name: s.addUser }).click();
  await page.getByLabel(f.firstName).fill(nurse.first);
  await page.getByLabel(f.lastName).fill(nurse.last);
  await page.getByLabel(f.email).fill(nurse.email);
  await chooseRadio(page.getByRole('radio', { name: f.roles.clinic_nurses }));
  await expect(page.getByLabel(f.physicianName)).toBeHidden();
  await page.getByRole('button', { name: f.saveDraft }).click();
  // Not "user added": the toast says that no invitation went out.
  await expect(page.getByText(texts.api['user.draft_saved'])).toBeVisible();
  await expect(page.getByText(texts.api['user.added'])).toBeHidden();
  await search(page, texts, nurse.last);
  await expect(rowOf(page, nurse.last)).toContainText(s.status.creation_in_progress);
  await expect(rowOf(page, nurse.last)).toContainText(s.inviteStatus.creation_in_progress);
  await rowOf(page, nurse.last).getByRole('link', { name: `${nurse.first} ${nurse.last}` }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(fill(f.editTitle, { name: `${nurse.first} ${nurse.last}` }));
  await expectNoAxeViolations(page);
  await page.getByRole('button', { name: f.confirmAndInvite }).click();
  await expect(page.getByText(texts.api['invite.sent'], { exact: true })).toBeVisible();
  const firstLink = await mailedLink(nurse.email, '/approve-account');

  // Resend: a new link; the previous one is refused, the new one opens the approval form.
  await search(page, texts, nurse.last);
  await expect(rowOf(page, nurse.last)).toContainText(s.status.pending);
  await rowOf(page, nurse.last).getByRole('link', { name: `${nurse.first} ${nurse.last}` }).click();
  await page.getByRole('button', { name: f.resendInvite }).click();
  // The confirmation's own "Invite sent" may still be on screen: the new e-mail below proves the resend.
  await expect(page.getByText(texts.api['invite.sent'], { exact: true }).last()).toBeVisible();
  await expect.poll(() => mailedLink(nurse.email, '/approve-account')).not.toBe(firstLink);
  const secondLink = await mailedLink(nurse.email, '/approve-account');
  await inviteePage.goto(firstLink);
  await expect(inviteePage.getByText(texts.auth.approveAccount.invalidLink)).toBeVisible();
  await inviteePage.goto(secondLink);
  await expect(inviteePage.getByRole('heading', { level: 1 })).toHaveText(texts.auth.approveAccount.title);
  await expect(inviteePage.getByRole('button', { name: texts.auth.approveAccount.submit })).toBeVisible();

  // A new address asks first and sends the invite there.
  await page.getByLabel(f.email).fill(`draft-${id}-new@e2e.clinic.example`);
  await page.getByRole('button', { name: f.save }).click();
  const alert = page.getByRole('alertdialog');
  await expect(alert).toContainText(f.emailChange.newInvite);
  await expectNoAxeViolations(page);
  await alert.getByRole('button', { name: f.emailChange.confirm }).click();
  await expect(page.getByText(texts.api['user.updated'])).toBeVisible();
  await mailedLink(`draft-${id}-new@e2e.clinic.example`, '/approve-account');
  await invitee.close();
});

test('deactivating a signed-in user signs them out at once', async ({ page, browser, staff, texts }) => {
  const s = texts.staff;
  const nurse = await staff.create('clinic_nurses', { family: 'Leaving' });
  const nurseContext = await browser.newContext();
  const nursePage = await nurseContext.newPage();
  await signInToHome(nursePage, texts, nurse);
  await expect(nursePage.locator('.mp-realtime[data-state="connected"]')).toBeVisible({ timeout: 10_000 });

  await signInToHome(page, texts, await staff.create('clinic_it_admins'));
  await search(page, texts, nurse.lastName);
  await setCheckbox(rowOf(page, nurse.lastName).getByRole('checkbox'), true);
  await expect(page.getByText(fill(s.selection.count_one, { count: 1 }))).toBeVisible();
  await page.getByRole('button', { name: s.actions.deactivate, exact: true }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(fill(s.bulk.question.deactivate_one, { count: 1 }));
  await expect(dialog).toContainText(`${nurse.firstName} ${nurse.lastName}`);
  await expect(dialog).toContainText(s.bulk.permanent.deactivate);
  await expectNoAxeViolations(page);
  await dialog.getByRole('button', { name: fill(s.bulk.confirm.deactivate_one, { count: 1 }) }).click();
  await expect(page.getByText(s.bulk.done.deactivate_one)).toBeVisible();
  await expect(rowOf(page, nurse.lastName)).toContainText(s.status.deactivated);

  // The change is announced (realtime): the nurse's page asks for her profile again, is refused and goes to
  // sign-in without anyone touching it.
  await expect(nursePage).toHaveURL('/sign-in', { timeout: 10_000 });
  await nurseContext.close();

  // The deactivated list shows them; activating brings them back.
  await page.getByRole('link', { name: s.tabs.deactivated }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(s.titles.deactivated);
  await search(page, texts, nurse.lastName);
  await setCheckbox(rowOf(page, nurse.lastName).getByRole('checkbox'), true);
  await page.getByRole('button', { name: s.actions.activate, exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: fill(s.bulk.confirm.activate_one, { count: 1 }) }).click();
  await expect(page.getByText(s.bulk.done.activate_one)).toBeVisible();
  await expect(page.getByText(s.noMatch)).toBeVisible();
});

test('select all users a search matches, across three pages, and deactivate them', async ({ page, staff, texts }) => {
  const s = texts.staff;
  const family = `Bulk${randomUUID().slice(0, 6)}`;
  const count = 23;
  // One by one: each invite and acceptance hashes a password, and the server runs on two cores.
  for (let index = 0; index < count; index += 1) await staff.create('clinic_nurses', { family });

  await signInToHome(page, texts, await staff.create('clinic_it_admins'));
  await page.goto(`/admin/physicians?search=${family}&perPage=10`);
  await expect(page.getByText(fill(s.range, { first: 1, last: 10, total: count }))).toBeVisible();
  await setCheckbox(page.getByRole('checkbox', { name: s.selection.page }), true);
  await expect(page.getByText(fill(s.selection.count_other, { count: 10 }))).toBeVisible();
  await page.getByRole('button', { name: fill(s.selection.selectAll, { count }) }).click();
  await expect(page.getByText(fill(s.selection.allMatching_other, { count }))).toBeVisible();
  // The selection holds while paging.
  await page.getByRole('button', { name: s.next }).click();
  await expect(page.getByText(fill(s.range, { first: 11, last: 20, total: count }))).toBeVisible();
  await expect(page.getByText(fill(s.selection.allMatching_other, { count }))).toBeVisible();

  await page.getByRole('button', { name: s.actions.deactivate, exact: true }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(fill(s.bulk.question.deactivate_other, { count }));
  await expect(dialog).toContainText(fill(s.bulk.andMore_other, { count: count - 5 }));
  await expectNoAxeViolations(page);
  await dialog.getByRole('button', { name: fill(s.bulk.confirm.deactivate_other, { count }) }).click();
  await expect(page.getByText(fill(s.bulk.done.deactivate_other, { count }))).toBeVisible();

  // Every one of them, on every page, is deactivated.
  await page.goto(`/admin/deactivated?search=${family}&perPage=10`);
  await expect(page.getByText(fill(s.range, { first: 1, last: 10, total: count }))).toBeVisible();
  await page.goto(`/admin/physicians?search=${family}&status=active`);
  await expect(page.getByText(s.noMatch)).toBeVisible();
});

test('IT admin rights are given only with the admin’s own password, in a dialog of their own; the new IT admin is told by e-mail', async ({
  page,
  staff,
  texts,
}) => {
  const f = texts.staff.form;
  const grant = f.itAdminGrant;
  const admin = await staff.create('clinic_it_admins');
  const physician = await staff.create('clinic_physicians', { family: 'Granted' });
  const name = `${physician.firstName} ${physician.lastName}`;
  await signInToHome(page, texts, admin);
  await search(page, texts, physician.lastName);
  await rowOf(page, physician.lastName).getByRole('link', { name }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(fill(f.editTitle, { name }));

  await chooseRadio(page.getByRole('radio', { name: f.roles.clinic_it_admins }));
  await page.getByRole('button', { name: f.save }).click();
  const dialog = page.getByRole('dialog', { name: fill(grant.title, { name }) });
  await expect(dialog).toContainText(fill(grant.message, { name }));
  const password = dialog.getByLabel(grant.password);
  await expect(password).toBeFocused();
  await expectNoAxeViolations(page);

  // Nothing typed, then a wrong password: refused in the dialog, the role unchanged.
  await page.keyboard.press('Enter');
  await expect(password).toHaveAccessibleDescription(grant.passwordRequired);
  await password.fill('Not-The-Password-1');
  await page.keyboard.press('Enter');
  await expect(password).toHaveAccessibleDescription(texts.api['validation.current_password_wrong']);
  await expect(password).toHaveAttribute('aria-invalid', 'true');

  await password.fill(admin.password);
  await dialog.getByRole('button', { name: grant.confirm }).click();
  await expect(page.getByText(texts.api['user.updated'])).toBeVisible();
  await expect(page).toHaveURL('/admin/it-clinic-admin');
  const notice = await mailedText(physician.email, texts.api['mail.it_admin_granted.subject']);
  expect(notice).toContain(`${admin.firstName} ${admin.lastName}`);
});

test('the bulk actions say why: one’s own account is left out, and Unarchive and Restore do the same for an archived user', async ({
  page,
  staff,
  texts,
  clinicAdmin,
}) => {
  const s = texts.staff;
  const admin = await staff.create('clinic_it_admins');
  const nurse = await staff.create('clinic_nurses', { family: 'Archived' });
  const found = await clinicAdmin.get(`/api/users?search=${encodeURIComponent(nurse.lastName)}`);
  const { data } = (await found.json()) as { data: { id: string; email: string }[] };
  const archived = await clinicAdmin.post('/api/users/bulkUpdate', { data: { ids: [data.find((user) => user.email === nurse.email)!.id], action: 'archive' } });
  expect(archived.status(), await archived.text()).toBe(200);
  await signInToHome(page, texts, admin);
  const actions = page.getByRole('group', { name: s.selection.actions });

  // Only one's own row: every action is grey, and the page says why.
  await page.goto(`/admin/it-clinic-admin?search=${encodeURIComponent(admin.lastName)}`);
  await setCheckbox(page.getByRole('checkbox', { name: fill(s.selection.one, { name: `${admin.firstName} ${admin.lastName}` }) }), true);
  await expect(page.getByText(s.selection.ownOnly)).toBeVisible();
  for (const action of ['activate', 'deactivate', 'send_invite', 'archive', 'delete'] as const) {
    await expect(actions.getByRole('button', { name: s.actions[action], exact: true })).toBeDisabled();
  }
  await expectNoAxeViolations(page);

  // An archived user: both ways back are offered, and the page says that they do the same.
  await page.goto(`/admin/physicians?search=${encodeURIComponent(nurse.lastName)}&status=archived`);
  await setCheckbox(page.getByRole('checkbox', { name: fill(s.selection.one, { name: `${nurse.firstName} ${nurse.lastName}` }) }), true);
  await expect(actions.getByRole('button', { name: s.actions.unarchive, exact: true })).toBeEnabled();
  await expect(actions.getByRole('button', { name: s.actions.restore, exact: true })).toBeEnabled();
  await expect(page.getByText(s.selection.unarchiveOrRestore)).toBeVisible();
  await expect(page.getByText(s.selection.ownOnly)).toBeHidden();
});
