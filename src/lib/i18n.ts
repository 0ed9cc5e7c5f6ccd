import i18next, { type i18n as I18n, type LanguageDetectorModule } from 'i18next';
import { initReactI18next } from 'react-i18next';
import deAuth from '../../locales/de/auth.json';
import deCommon from '../../locales/de/common.json';
import deErrors from '../../locales/de/errors.json';
import deLegal from '../../locales/de/legal.json';
import deProfile from '../../locales/de/profile.json';
import dePatients from '../../locales/de/patients.json';
import dePatientList from '../../locales/de/patientList.json';
import dePatientCard from '../../locales/de/patientCard.json';
import deExamUpload from '../../locales/de/examUpload.json';
import enAuth from '../../locales/en/auth.json';
import enCommon from '../../locales/en/common.json';
import enErrors from '../../locales/en/errors.json';
import enLegal from '../../locales/en/legal.json';
import enProfile from '../../locales/en/profile.json';
import enPatients from '../../locales/en/patients.json';
import enPatientList from '../../locales/en/patientList.json';
import enPatientCard from '../../locales/en/patientCard.json';
import enExamUpload from '../../locales/en/examUpload.json';

export const LANGUAGES = ['en', 'de'] as const;
export type UiLanguage = (typeof LANGUAGES)[number];
export const FALLBACK_LANGUAGE: UiLanguage = 'en';

/** Keys of the client storage (seed-spec §3): i18next's UI language, and the user's explicit choice. */
export const LANGUAGE_STORAGE_KEY = 'i18nextLng';
export const PREFERENCE_STORAGE_KEY = 'savedPreference';

/** English is the key source: `src/types/i18next.d.ts` types every `t()` key from it. */
export const en = {
  common: enCommon,
  auth: enAuth,
  errors: enErrors,
  legal: enLegal,
  profile: enProfile,
  patients: enPatients,
  patientList: enPatientList,
  patientCard: enPatientCard,
  examUpload: enExamUpload,
};
// Typed as the English catalogue so a namespace or key missing in German fails the type-check;
// src/lib/locales.test.ts also checks extra keys and placeholders.
export const de: typeof en = {
  common: deCommon,
  auth: deAuth,
  errors: deErrors,
  legal: deLegal,
  profile: deProfile,
  patients: dePatients,
  patientList: dePatientList,
  patientCard: dePatientCard,
  examUpload: deExamUpload,
};

export const NAMESPACES = Object.keys(en) as (keyof typeof en)[];

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

const languageDetector: LanguageDetectorModule = {
  type: 'languageDetector',
  detect: detectLanguage,
  cacheUserLanguage: (language) => writeLocal(LANGUAGE_STORAGE_KEY, language),
};

/** An explicit choice by the user (language switch): also kept as the saved preference. */
export async function chooseLanguage(i18n: I18n, language: UiLanguage): Promise<void> {
  writeLocal(PREFERENCE_STORAGE_KEY, language);
  await i18n.changeLanguage(language);
}

function syncDocumentLanguage(language: string | undefined): void {
  if (typeof document !== 'undefined') document.documentElement.lang = toUiLanguage(language) ?? FALLBACK_LANGUAGE;
}

/**
 * A ready i18next instance with the bundled catalogues (no loading, so no Suspense). `language` forces a
 * language (tests); otherwise it is detected and every change is persisted under `i18nextLng`.
 */
export function createI18n(language?: UiLanguage): I18n {
  const instance = i18next.createInstance();
  instance.use(languageDetector).use(initReactI18next);
  instance.on('languageChanged', syncDocumentLanguage);
  void instance.init({
    resources: { en, de },
    lng: language,
    fallbackLng: FALLBACK_LANGUAGE,
    supportedLngs: [...LANGUAGES],
    load: 'languageOnly',
    ns: NAMESPACES,
    defaultNS: 'common',
    initAsync: false,
    // React escapes what it renders.
    interpolation: { escapeValue: false },
  });
  return instance;
}
