// Signing in and out through the UI, and where the SPA keeps the token (key `token`, in
// localStorage when remembered, in sessionStorage when not).
import { expect, type Page, type Response } from '@playwright/test';
import type { StaffRole } from '../../generated/model/staffRole';
import { setCheckbox } from './form-controls';
import type { Texts } from './texts';

/** Where each role lands after signing in (its home page), and the heading of that page. */
export const ROLE_HOMES: { role: StaffRole; path: string; heading: (texts: Texts) => string }[] = [
  { role: 'clinic_it_admins', path: '/admin', heading: (texts) => texts.staff.titles.clinical },
  { role: 'clinic_physicians', path: '/physician/list', heading: (texts) => texts.common.areas.physician },
  { role: 'clinic_nurses', path: '/physician/list', heading: (texts) => texts.common.areas.physician },
];

export const homeOf = (role: StaffRole) => ROLE_HOMES.find((home) => home.role === role)!;

/** Fills in and sends the form of /sign-in (already open); resolves with the server's answer. */
export async function signIn(
  page: Page,
  texts: Texts,
  account: { email: string; password: string },
  { remember = true } = {},
): Promise<Response> {
  const form = texts.auth.signIn;
  await page.getByLabel(form.email).fill(account.email);
  await page.getByLabel(form.password, { exact: true }).fill(account.password);
  await setCheckbox(page.getByLabel(form.remember), remember);
  const answer = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/sign-in');
  await page.getByRole('button', { name: form.submit }).click();
  return answer;
}

/** Opens /sign-in, signs in and waits for the start page of the account's role; returns the server's answer. */
export async function signInToHome(
  page: Page,
  texts: Texts,
  account: { email: string; password: string; role: StaffRole },
  options?: { remember?: boolean },
): Promise<Response> {
  const home = homeOf(account.role);
  await page.goto('/sign-in');
  const answer = await signIn(page, texts, account, options);
  // Other journeys' exams are processed and registered by the same server meanwhile: allow for a busy machine.
  await expect(page).toHaveURL(home.path, { timeout: 15_000 });
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(home.heading(texts));
  return answer;
}

/** Logs out through the user menu of the signed-in navbar. */
export async function logOut(page: Page, texts: Texts): Promise<void> {
  await page.getByRole('button', { name: texts.common.nav.userMenu }).click();
  await page.getByRole('menuitem', { name: texts.common.nav.logout }).click();
  await expect(page).toHaveURL('/sign-in');
}

export const storedTokens = (page: Page) =>
  page.evaluate(() => ({ localStorage: localStorage.getItem('token'), sessionStorage: sessionStorage.getItem('token') }));

export const NO_TOKEN = { localStorage: null, sessionStorage: null };
