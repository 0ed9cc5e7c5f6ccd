// Server messages in English and German from locales/<lang>/api.json, chosen by the Language header; the
// NPT reader's error messages come from locales/<lang>/npt.json under `npt.<code>`, as the SPA shows them.
import en from '../locales/en/api.json';
import de from '../locales/de/api.json';
import nptEn from '../locales/en/npt.json';
import nptDe from '../locales/de/npt.json';

export type Lang = 'en' | 'de';
export type MessageKey = keyof typeof en | `npt.${keyof typeof nptEn}`;
export type MessageParams = Record<string, string | number>;

const underNpt = (messages: Record<string, string>) =>
  Object.fromEntries(Object.entries(messages).map(([code, text]) => [`npt.${code}`, text]));

const catalogues = {
  en: { ...en, ...underNpt(nptEn) },
  de: { ...de, ...underNpt(nptDe) },
} as Record<Lang, Record<MessageKey, string>>;

/** The language of a `Language` header value (`de`, `de-DE`, …); English for anything else. */
export function languageOf(header: string | string[] | undefined): Lang {
  const value = (Array.isArray(header) ? header[0] : header)?.trim().slice(0, 2).toLowerCase();
  return value === 'de' ? 'de' : 'en';
}

/** Numbers in the reader's form (a decimal comma in German), without grouping (spot ids are numbers too). */
const numberFormats: Record<Lang, Intl.NumberFormat> = {
  en: new Intl.NumberFormat('en', { maximumFractionDigits: 3, useGrouping: false }),
  de: new Intl.NumberFormat('de', { maximumFractionDigits: 3, useGrouping: false }),
};

export function translate(lang: Lang, key: MessageKey, params: MessageParams = {}): string {
  const template = catalogues[lang][key] ?? catalogues.en[key] ?? key;
  return template.replace(/\{\{(\w+)\}\}/g, (match, name: string) => {
    if (!(name in params)) return match;
    const value = params[name];
    return typeof value === 'number' ? numberFormats[lang].format(value) : String(value);
  });
}

export function isMessageKey(key: string): key is MessageKey {
  return key in catalogues.en;
}
