import { Spinner } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { MAIN_ID } from './skip-link';

/** Full-page loading state: a labelled spinner inside the page's main landmark. */
export function PageSpinner() {
  const { t } = useTranslation();
  return (
    <main className="mp-page-center" aria-busy="true" id={MAIN_ID} tabIndex={-1}>
      <Spinner aria-label={t('loading')} />
    </main>
  );
}
