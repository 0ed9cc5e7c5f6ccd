import { afterEach, describe, expect, it, vi } from 'vitest';
import { chooseLanguage, createI18n, detectLanguage, preloadNamespaces, toUiLanguage } from './i18n';

afterEach(() => {
  localStorage.clear();
  vi.restoreAllMocks();
});

const browserLanguages = (languages: string[]) => {
  vi.spyOn(navigator, 'languages', 'get').mockReturnValue(languages);
  vi.spyOn(navigator, 'language', 'get').mockReturnValue(languages[0] ?? '');
};

describe('detectLanguage', () => {
  it('prefers i18nextLng', () => {
    browserLanguages(['en-US']);
    localStorage.setItem('savedPreference', 'en');
    localStorage.setItem('i18nextLng', 'de-DE');
    expect(detectLanguage()).toBe('de');
  });

  it('then savedPreference', () => {
    browserLanguages(['en-US']);
    localStorage.setItem('savedPreference', 'de');
    expect(detectLanguage()).toBe('de');
  });

  it('then the browser languages', () => {
    browserLanguages(['fr-FR', 'de-AT']);
    expect(detectLanguage()).toBe('de');
  });

  it('else English, also for unsupported stored values', () => {
    browserLanguages(['fr-FR']);
    localStorage.setItem('i18nextLng', 'fr');
    expect(detectLanguage()).toBe('en');
  });

  it('survives blocked storage', () => {
    browserLanguages(['de']);
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new DOMException('blocked', 'SecurityError');
    });
    expect(detectLanguage()).toBe('de');
  });
});

describe('toUiLanguage', () => {
  it.each([
    ['de-DE', 'de'],
    ['"de"', 'de'],
    ['EN', 'en'],
    ['fr', undefined],
    [null, undefined],
  ])('%j → %j', (value, expected) => {
    expect(toUiLanguage(value)).toBe(expected);
  });
});

describe('createI18n', () => {
  it('detects the language, keeps <html lang> in sync and persists changes', async () => {
    localStorage.setItem('i18nextLng', 'de');
    const i18n = createI18n();
    expect(i18n.language).toBe('de');
    expect(document.documentElement.lang).toBe('de');
    expect(i18n.t('nav.logout')).toBe('Abmelden');

    await i18n.changeLanguage('en');
    expect(document.documentElement.lang).toBe('en');
    expect(localStorage.getItem('i18nextLng')).toBe('en');
    expect(localStorage.getItem('savedPreference')).toBeNull();
  });

  it('bundles the shell texts and loads the other catalogues when asked, in the language shown', async () => {
    const i18n = createI18n('de');
    expect(i18n.t('errors:notFound.title')).toBe('Seite nicht gefunden');
    expect(i18n.hasLoadedNamespace('auth')).toBe(false);

    await preloadNamespaces('auth');
    expect(i18n.t('auth:signIn.title')).toBe('Anmelden');

    // A language switch brings the loaded catalogues along before it is announced.
    await i18n.changeLanguage('en');
    expect(i18n.t('auth:signIn.title')).toBe('Sign in');
  });

  it('keeps an explicit choice as the saved preference', async () => {
    const i18n = createI18n('en');
    await chooseLanguage(i18n, 'de');
    expect(i18n.language).toBe('de');
    expect(localStorage.getItem('savedPreference')).toBe('de');
    expect(localStorage.getItem('i18nextLng')).toBe('de');
  });

  it('falls back to English for keys missing in German', () => {
    const i18n = createI18n('de');
    i18n.addResource('en', 'common', 'onlyInEnglish', 'English only');
    expect(i18n.t('onlyInEnglish' as 'appName')).toBe('English only');
  });
});
