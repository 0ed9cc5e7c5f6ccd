// Seed-spec §3, §7: the UI language is kept (i18nextLng, savedPreference), survives a reload, and every
// API call carries it in the `Language` header; on public pages and in the signed-in navbar. Issue 10: a
// choice made on /sign-in wins over the profile's language and is saved to it; the page title follows.
import type { Page } from '@playwright/test';
import type { Language } from '../../generated/model/language';
import { expect, test } from './fixtures';
import type { ProfileResponse } from '../../generated/model/profileResponse';
import type { SignedInResponse } from '../../generated/model/signedInResponse';
import { logOut, signIn, signInToHome } from './session';
import { pageTitle, TEXTS } from './texts';

const OTHER_LANGUAGE: Record<Language, Language> = { en: 'de', de: 'en' };

/** The page's API calls from now on, each with the `Language` header it carried. */
function recordApiCalls(page: Page) {
  const calls: { call: string; language: string | undefined }[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith('/api/')) calls.push({ call: `${request.method()} ${pathname}`, language: request.headers().language });
  });
  return {
    /** Forgets the calls so far (e.g. still carrying the language of before a switch). */
    forget: () => void calls.splice(0),
    /** The calls so far (at least one) that did not carry `language`; forgets them all. */
    takeMismatches(language: Language) {
      expect(calls, 'API calls since the last check').not.toEqual([]);
      return calls.splice(0).filter((call) => call.language !== language);
    },
  };
}

async function expectKeptLanguage(page: Page, language: Language): Promise<void> {
  await expect(page.locator('html')).toHaveAttribute('lang', language);
  const kept = await page.evaluate(() => [localStorage.getItem('i18nextLng'), localStorage.getItem('savedPreference')]);
  expect(kept).toEqual([language, language]);
}

test('the chosen language survives a reload, wins over the profile\'s at sign-in and goes with every API call', async ({
  page,
  staff,
  lang,
}) => {
  const chosen = OTHER_LANGUAGE[lang];
  const [start, switched] = [TEXTS[lang], TEXTS[chosen]];
  // The profile says the project's language; the choice made on /sign-in must win over it.
  const account = await staff.create('clinic_physicians', { lang });
  const heading = page.getByRole('heading', { level: 1 });

  await page.goto('/sign-in');
  await expect(heading).toHaveText(start.auth.signIn.title);
  await expect(page).toHaveTitle(pageTitle(start, start.auth.signIn.title));
  await page.getByLabel(start.common.language.label).selectOption(chosen);
  await expect(heading).toHaveText(switched.auth.signIn.title);
  await expect(page).toHaveTitle(pageTitle(switched, switched.auth.signIn.title));
  const api = recordApiCalls(page);
  await page.reload();
  await expect(heading).toHaveText(switched.auth.signIn.title);
  await expectKeptLanguage(page, chosen);

  const saved = page.waitForResponse(
    (response) => response.request().method() === 'POST' && new URL(response.url()).pathname === '/api/user/profile',
  );
  const answer = await signInToHome(page, switched, account);
  expect((await saved).status()).toBe(200);
  await expectKeptLanguage(page, chosen);
  await expect(page).toHaveTitle(pageTitle(switched, switched.common.areas.physician));
  expect(api.takeMismatches(chosen)).toEqual([]);
  // Saved to the profile: it follows the user to any browser.
  const token = ((await answer.json()) as SignedInResponse).data.token;
  const profile = await page.request.get('/api/user/profile', { headers: { Authorization: `Bearer ${token}` } });
  expect(((await profile.json()) as ProfileResponse).data.lang).toBe(chosen);

  // And back again in the navbar of the signed-in area.
  await page.getByLabel(switched.common.language.label).selectOption(lang);
  await expect(heading).toHaveText(start.common.areas.physician);
  await expect(page).toHaveTitle(pageTitle(start, start.common.areas.physician));
  api.forget();
  await page.reload();
  await expect(heading).toHaveText(start.common.areas.physician);
  await expectKeptLanguage(page, lang);
  await logOut(page, start);
  expect(api.takeMismatches(lang)).toEqual([]);
});

test('without a choice on /sign-in, the profile\'s language applies', async ({ page, staff, lang }) => {
  const other = OTHER_LANGUAGE[lang];
  const account = await staff.create('clinic_it_admins', { lang: other });

  await page.goto('/sign-in');
  await signIn(page, TEXTS[lang], account);

  await expect(page).toHaveURL('/admin');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(TEXTS[other].staff.titles.clinical);
  await expect(page.locator('html')).toHaveAttribute('lang', other);
});

test('German as a German clinic writes it, on the pages a new user meets first', async ({ page, staff, lang }) => {
  test.skip(lang !== 'de', 'the German wording');
  const { account, link } = await staff.invite('clinic_nurses');
  const seen: string[] = [];
  const read = async () => void seen.push(await page.locator('body').innerText());

  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Seite nicht gefunden');
  await read();
  await page.goto('/unauthorized');
  await expect(page.getByRole('link', { name: 'Zur Anmeldung' })).toBeVisible();
  await read();

  await page.goto(link);
  await expect(page.getByText(`Guten Tag ${account.firstName} ${account.lastName}, Sie wurden eingeladen`)).toBeVisible();
  await expect(page.getByText('Anforderungen an das Passwort:')).toBeVisible();
  await expect(page.getByRole('checkbox', { name: 'Ich akzeptiere den Endbenutzer-Lizenzvertrag (EULA)' })).toBeVisible();
  await expect(
    page.getByRole('checkbox', { name: 'Ich habe die Datenschutzerklärung gelesen und akzeptiere sie' }),
  ).toBeVisible();
  await read();

  await page.goto('/sign-in');
  await page.getByLabel('E-Mail').fill(account.email);
  await page.getByLabel('Passwort', { exact: true }).fill('Falsches-Passwort-1');
  await page.getByRole('button', { name: 'Anmelden' }).click();
  await expect(page.getByRole('alert')).toContainText('Die E-Mail-Adresse oder das Passwort ist falsch.');
  // The language select is read out by its label, not by Blueprint's English title of its arrow.
  await expect(page.getByRole('combobox', { name: 'Sprache' })).toBeVisible();
  await expect(page.getByRole('img', { name: 'Open dropdown' })).toHaveCount(0);

  await read();

  // None of the wordings a clinic frowned at, on any of these pages.
  const frowned = /Bitte bitten|verloren|registrieren|Folgendes gelesen|braucht:|Benutzername|Hallo/;
  expect(seen.filter((text) => frowned.test(text))).toEqual([]);
});
