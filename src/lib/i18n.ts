import i18next, { type i18n as I18n, type LanguageDetectorModule, type Resource } from 'i18next';
import resourcesToBackend from 'i18next-resources-to-backend';
import { initReactI18next } from 'react-i18next';
import deCommon from '../../locales/de/common.json';
import deErrors from '../../locales/de/errors.json';
import enCommon from '../../locales/en/common.json';
import enErrors from '../../locales/en/errors.json';

export const LANGUAGES = ['en', 'de'] as const;
export type UiLanguage = (typeof LANGUAGES)[number];
export const FALLBACK_LANGUAGE: UiLanguage = 'en';

/** Keys of the client storage (the customer's names): i18next's UI language, and the user's explicit choice. */
export const LANGUAGE_STORAGE_KEY = 'i18nextLng';
export const PREFERENCE_STORAGE_KEY = 'savedPreference';

/**
 * The catalogues every page needs (the shell, the error pages) are bundled; every other namespace is a chunk
 * of its own per language, loaded when a route needs it (`preloadNamespaces` in the router, or on demand by
 * `useTranslation`), so a first visit to /sign-in downloads no patient or planning texts. English is the key
 * source: `src/types/i18next.d.ts` types every `t()` key from `Catalogues`, and src/lib/locales.test.ts checks
 * that German has the same files, keys and placeholders.
 */
export type Catalogues = {
  common: typeof enCommon;
  errors: typeof enErrors;
  auth: typeof import('../../locales/en/auth.json');
  legal: typeof import('../../locales/en/legal.json');
  profile: typeof import('../../locales/en/profile.json');
  patients: typeof import('../../locales/en/patients.json');
  patientList: typeof import('../../locales/en/patientList.json');
  patientCard: typeof import('../../locales/en/patientCard.json');
  examUpload: typeof import('../../locales/en/examUpload.json');
  planning: typeof import('../../locales/en/planning.json');
  devices: typeof import('../../locales/en/devices.json');
  staff: typeof import('../../locales/en/staff.json');
  securitySettings: typeof import('../../locales/en/securitySettings.json');
  adminPatients: typeof import('../../locales/en/adminPatients.json');
  billing: typeof import('../../locales/en/billing.json');
  accessLog: typeof import('../../locales/en/accessLog.json');
  twoFactor: typeof import('../../locales/en/twoFactor.json');
  notifications: typeof import('../../locales/en/notifications.json');
  marks: typeof import('../../locales/en/marks.json');
  previousTreatment: typeof import('../../locales/en/previousTreatment.json');
  dates: typeof import('../../locales/en/dates.json');
};
export type Namespace = keyof Catalogues;

/** The bundled catalogues, English first. */
export const en = { common: enCommon, errors: enErrors };
const BUNDLED: Resource = { en, de: { common: deCommon, errors: deErrors } satisfies typeof en };
const BUNDLED_NAMESPACES = Object.keys(en);

// One chunk per catalogue file; the bundled ones are excluded so that they are not also split out, and so are
// the server's own (api, npt, report: its answers, an exam file's faults and the PDF report), which no page
// loads: each name in this map costs every first visit a few bytes of the entry.
const lazyCatalogues = import.meta.glob<Record<string, unknown>>(
  [
    '../../locales/*/*.json',
    '!../../locales/*/common.json',
    '!../../locales/*/errors.json',
    '!../../locales/*/api.json',
    '!../../locales/*/npt.json',
    '!../../locales/*/report.json',
  ],
  { import: 'default' },
);

async function loadCatalogue(language: string, namespace: string): Promise<Record<string, unknown>> {
  const load = lazyCatalogues[`../../locales/${language}/${namespace}.json`];
  if (!load) throw new Error(`no catalogue ${language}/${namespace}`);
  return load();
}

/** 'de-DE', '"de"' or 'DE' → 'de'; anything we do not ship → undefined. */
export function toUiLanguage(value: string | null | undefined): UiLanguage | undefined {
  const code = value?.replace(/^"|"$/g, '').trim().slice(0, 2).toLowerCase();
  return LANGUAGES.find((language) => language === code);
}

// Storage can throw (private mode, sandboxed frames): language then simply is not remembered.
function readLocal(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function writeLocal(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // not remembered; the UI still switches
  }
}

/** i18nextLng, else savedPreference, else the browser's language, else English. */
export function detectLanguage(): UiLanguage {
  const browser = typeof navigator === 'undefined' ? [] : [...(navigator.languages ?? []), navigator.language];
  for (const candidate of [readLocal(LANGUAGE_STORAGE_KEY), readLocal(PREFERENCE_STORAGE_KEY), ...browser]) {
    const language = toUiLanguage(candidate);
    if (language) return language;
  }
  return FALLBACK_LANGUAGE;
}

/**
 * The cookie that tells the server the UI language, so that it sends a public page's HTML in it
 * (server/http/serving.ts): the language only, no identifier, kept for a year.
 */
export const LANGUAGE_COOKIE = 'lang';

function writeLanguageCookie(language: string): void {
  const known = toUiLanguage(language);
  if (known && typeof document !== 'undefined') {
    const secure = window.location.protocol === 'https:' ? '; Secure' : '';
    document.cookie = `${LANGUAGE_COOKIE}=${known}; Path=/; Max-Age=31536000; SameSite=Lax${secure}`;
  }
}

const languageDetector: LanguageDetectorModule = {
  type: 'languageDetector',
  detect: detectLanguage,
  cacheUserLanguage: (language) => {
    writeLocal(LANGUAGE_STORAGE_KEY, language);
    writeLanguageCookie(language);
  },
};

/** An explicit choice by the user (language switch): also kept as the saved preference. */
export async function chooseLanguage(i18n: I18n, language: UiLanguage): Promise<void> {
  writeLocal(PREFERENCE_STORAGE_KEY, language);
  await i18n.changeLanguage(language);
}

function syncDocumentLanguage(language: string | undefined): void {
  if (typeof document !== 'undefined') document.documentElement.lang = toUiLanguage(language) ?? FALLBACK_LANGUAGE;
}

let appI18n: I18n | undefined;

/**
 * A ready i18next instance with the bundled catalogues; other namespaces load on demand. `language` forces a
 * language (tests); otherwise it is detected and every change is persisted under `i18nextLng`. `resources`
 * replaces loading (tests pass every catalogue, see src/testing/catalogues.ts).
 */
export function createI18n(language?: UiLanguage, resources?: Resource): I18n {
  const instance = i18next.createInstance();
  instance.use(languageDetector).use(initReactI18next);
  if (!resources) instance.use(resourcesToBackend(loadCatalogue));
  instance.on('languageChanged', syncDocumentLanguage);
  void instance.init({
    resources: resources ?? BUNDLED,
    // Bundled catalogues are used as they are; the backend loads the rest.
    partialBundledLanguages: true,
    lng: language,
    fallbackLng: FALLBACK_LANGUAGE,
    supportedLngs: [...LANGUAGES],
    load: 'languageOnly',
    ns: BUNDLED_NAMESPACES,
    defaultNS: 'common',
    initAsync: false,
    // React escapes what it renders.
    interpolation: { escapeValue: false },
  });
  appI18n = instance;
  return instance;
}

/**
 * Starts loading `namespaces` in the current language (and English, the fallback) into the latest instance
 * createI18n made, so that a route's texts arrive beside its code instead of after it. Resolves when they are
 * there; a failed load is left to `useTranslation`, which loads again and shows the error boundary.
 */
export async function preloadNamespaces(...namespaces: Namespace[]): Promise<void> {
  try {
    await appI18n?.loadNamespaces(namespaces);
  } catch {
    // see above
  }
}
