import { HTMLSelect } from '@blueprintjs/core';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { chooseLanguage, LANGUAGES, toUiLanguage } from '@/lib/i18n';

/** English/Deutsch; the choice is kept (i18nextLng and savedPreference) and becomes the `Language` header. */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const id = useId();
  const current = toUiLanguage(i18n.resolvedLanguage ?? i18n.language) ?? 'en';

  return (
    <span className="mp-language-switch">
      <label className="mp-visually-hidden" htmlFor={id}>
        {t('language.label')}
      </label>
      <HTMLSelect
        id={id}
        value={current}
        minimal
        onChange={(event) => {
          const language = toUiLanguage(event.currentTarget.value);
          if (language) void chooseLanguage(i18n, language);
        }}
      >
        {LANGUAGES.map((language) => (
          // Each language names itself, in its own language.
          <option key={language} value={language} lang={language}>
            {t(`language.${language}`)}
          </option>
        ))}
      </HTMLSelect>
    </span>
  );
}
