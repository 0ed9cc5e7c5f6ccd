import { useTranslation } from 'react-i18next';

/**
 * The first tab stop of every page (WCAG 2.4.1): hidden until focused, it moves the focus to the page's
 * main landmark, past the navbar. By script, not by a #fragment: every page has one <main> but no shared id.
 */
export function SkipLink() {
  const { t } = useTranslation();
  return (
    <a
      className="mp-skip-link"
      href="#main"
      onClick={(event) => {
        const main = document.querySelector<HTMLElement>('main');
        if (!main) return;
        event.preventDefault();
        if (!main.hasAttribute('tabindex')) main.setAttribute('tabindex', '-1');
        main.focus();
      }}
    >
      {t('skipToContent')}
    </a>
  );
}
