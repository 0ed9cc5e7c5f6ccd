
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Select } from '@/components/select';
import { useHydrated } from '@/components/use-hydrated';
import { chooseLanguage, LANGUAGES, toUiLanguage, type UiLanguage } from '@/lib/i18n';

/**
 * English/Deutsch; the choice is kept (i18nextLng and savedPreference) and becomes the `Language` header.
 * `onChoose` learns of a choice too (a signed-in user's is saved to the profile).
 */
export function LanguageSwitch({ onChoose }: { onChoose?: (language: UiLanguage) => void }) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const current = toUiLanguage(i18n.resolvedLanguage ?? i18n.language) ?? 'en';
  // A choice made before React has taken over a page that arrived as HTML would change nothing and be undone.
  const hydrated = useHydrated();

  return (
    <span className="mp-language-switch">
      <label className="mp-visually-hidden" htmlFor={id}>
        {t('language.label')}
      </label>
      <Select
        id={id}
        value={current}
        disabled={!hydrated}
        minimal
        onChange={(event) => {
          const language = toUiLanguage(event.currentTarget.value);
          if (!language) return;
          void chooseLanguage(i18n, language);
          onChoose?.(language);
        }}
      >
        {LANGUAGES.map((language) => (
          // Each language names itself, in its own language.
          <option key={language} value={language} lang={language}>
            {t(`language.${language}`)}
          </option>
        ))}
      </Select>
    </span>
  );
}
