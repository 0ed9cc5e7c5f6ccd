// Every screen of /admin (and the notification centre) on `npm run dev:mock` (the contract's examples through Prism), signed in as the IT
// admin example: each shows its example's data and passes axe.
import type { Page } from '@playwright/test';
import { expectNoAxeViolations } from './axe';
import { expect, test } from './fixtures';
import { fill, type Texts } from './texts';

/** The IT admin example signs in (Prism's first profile example is the physician's). */
async function signInAsItAdmin(page: Page) {
  await page.route('**/api/user/profile', (route) => route.continue({ headers: { ...route.request().headers(), prefer: 'example=itAdmin' } }));
  await page.goto('/sign-in');
  await page.evaluate(() => localStorage.setItem('token', 'demo'));
}

const SCREENS: { path: string; heading: (texts: Texts) => string; shows: (texts: Texts) => string[] }[] = [
  { path: '/admin', heading: (t) => t.staff.titles.clinical, shows: (t) => ['Lena Hoffmann', 'Tom Richter', t.staff.inviteStatus.creation_in_progress] },
  { path: '/admin/it-clinic-admin', heading: (t) => t.staff.titles.itAdmins, shows: () => ['Stefan Krüger', 'Jonas Weber'] },
  { path: '/admin/deactivated', heading: (t) => t.staff.titles.deactivated, shows: (t) => ['Markus Schulz', t.staff.status.deactivated] },
  { path: '/admin/add', heading: (t) => t.staff.form.addTitle, shows: (t) => [t.staff.form.confirmAndInvite, t.staff.form.saveDraft] },
  {
    path: '/admin/edit?userId=bf102bc1-6df0-4130-87e8-340d2e9e2005',
    heading: (t) => fill(t.staff.form.editTitle, { name: 'Felix Wagner' }),
    shows: (t) => [t.staff.status.creation_in_progress, t.staff.form.confirmAndInvite],
  },
  { path: '/admin/patient-list/active', heading: (t) => t.adminPatients.titles.active, shows: () => ['Schneider, Maria'] },
  { path: '/admin/patient-list/deleting', heading: (t) => t.adminPatients.titles.deleting, shows: () => ['Schulz, Jürgen', 'Duplicate record created by mistake', 'Miriam Vogel'] },
  { path: '/admin/patient-list/archived', heading: (t) => t.adminPatients.titles.archived, shows: () => ['Koch, Ingrid'] },
  { path: '/admin/security-settings', heading: (t) => t.securitySettings.title, shows: (t) => [t.securitySettings.strength.standard.rules, t.securitySettings.actions.force] },
  { path: '/admin/billing', heading: (t) => t.billing.title, shows: () => ['NAV-533-00412', 'NAV-533-00587'] },
  // The notification centre (any signed-in user): Prism's first list example, unread first as the server sorts.
  { path: '/notifications', heading: (t) => t.notifications.title, shows: (t) => ['Session ready for planning', t.notifications.settings.title] },
];

// A few screens per page: the dev server's modules load once per page (a test per screen took 8 s each), and
// the groups run side by side (all eleven in one test outgrew two minutes on a busy 2-core machine).
const GROUP = 4;
for (let first = 0; first < SCREENS.length; first += GROUP) {
  const group = SCREENS.slice(first, first + GROUP);
  test(`admin screens render the contract’s example: ${group.map((screen) => screen.path.split('?')[0]).join(', ')}`, async ({ page, texts }) => {
    test.setTimeout(120_000);
    await signInAsItAdmin(page);
    for (const screen of group) {
      await test.step(screen.path, async () => {
        await page.goto(screen.path);
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(screen.heading(texts), { timeout: 30_000 });
        for (const text of screen.shows(texts)) await expect(page.getByText(text).first()).toBeVisible();
        await expectNoAxeViolations(page);
      });
    }
  });
}
