import { useTranslation } from 'react-i18next';

/** Every page's one <main> carries this id and `tabIndex={-1}`: the skip link's target, focusable. */
export const MAIN_ID = 'main';

/**
 * The first tab stop of every page (WCAG 2.4.1): hidden until focused, it moves the focus to the page's
 * main landmark, past the navbar. The focus moves by script, so the page's address keeps no #fragment.
 */
export function SkipLink() {
  const { t } = useTranslation();
  return (
    <a
      className="mp-skip-link"
      href={`#${MAIN_ID}`}
      onClick={(event) => {
        const main = document.getElementById(MAIN_ID);
        if (!main) return;
        event.preventDefault();
        main.focus();
      }}
    >
      {t('skipToContent')}
    </a>
  );
}
