// Seed-spec §3, §7: the UI language is kept (i18nextLng, savedPreference), survives a reload, and every
// API call carries it in the `Language` header; on public pages and in the signed-in navbar.
import type { Page } from '@playwright/test';
import type { Language } from '../../generated/model/language';
import { expect, test } from './fixtures';
import { logOut, signInToHome } from './session';
import { TEXTS } from './texts';

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

test('the chosen language survives a reload and goes with every API call', async ({ page, staff, lang }) => {
  const chosen = OTHER_LANGUAGE[lang];
  const [start, switched] = [TEXTS[lang], TEXTS[chosen]];
  // The profile's language applies at sign-in: this user's is the one chosen before.
  const account = await staff.create('clinic_physicians', { lang: chosen });
  const heading = page.getByRole('heading', { level: 1 });

  await page.goto('/sign-in');
  await expect(heading).toHaveText(start.auth.signIn.title);
  await page.getByLabel(start.common.language.label).selectOption(chosen);
  await expect(heading).toHaveText(switched.auth.signIn.title);
  const api = recordApiCalls(page);
  await page.reload();
  await expect(heading).toHaveText(switched.auth.signIn.title);
  await expectKeptLanguage(page, chosen);

  await signInToHome(page, switched, account);
  expect(api.takeMismatches(chosen)).toEqual([]);

  // And back again in the navbar of the signed-in area.
  await page.getByLabel(switched.common.language.label).selectOption(lang);
  await expect(heading).toHaveText(start.common.areas.physician);
  api.forget();
  await page.reload();
  await expect(heading).toHaveText(start.common.areas.physician);
  await expectKeptLanguage(page, lang);
  await logOut(page, start);
  expect(api.takeMismatches(lang)).toEqual([]);
});
