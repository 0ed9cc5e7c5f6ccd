// Server messages in English and German from locales/<lang>/api.json, chosen by the Language header.
import en from '../locales/en/api.json';
import de from '../locales/de/api.json';

export type Lang = 'en' | 'de';
export type MessageKey = keyof typeof en;
export type MessageParams = Record<string, string | number>;

const catalogues: Record<Lang, Record<MessageKey, string>> = { en, de };

/** The language of a `Language` header value (`de`, `de-DE`, …); English for anything else. */
export function languageOf(header: string | string[] | undefined): Lang {
  const value = (Array.isArray(header) ? header[0] : header)?.trim().slice(0, 2).toLowerCase();
  return value === 'de' ? 'de' : 'en';
}

export function translate(lang: Lang, key: MessageKey, params: MessageParams = {}): string {
  const template = catalogues[lang][key] ?? catalogues.en[key] ?? key;
  return template.replace(/\{\{(\w+)\}\}/g, (match, name: string) =>
    name in params ? String(params[name]) : match,
  );
}

export function isMessageKey(key: string): key is MessageKey {
  return key in en;
}
