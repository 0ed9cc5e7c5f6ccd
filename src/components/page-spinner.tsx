import { Spinner } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';

/** Full-page loading state: a labelled spinner inside the page's main landmark. */
export function PageSpinner() {
  const { t } = useTranslation();
  return (
    <main className="mp-page-center" aria-busy="true">
      <Spinner aria-label={t('loading')} />
    </main>
  );
}
