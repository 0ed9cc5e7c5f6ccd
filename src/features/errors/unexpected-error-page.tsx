import { Button } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { StatusPage } from './status-page';

/**
 * What the router shows when a route fails to load or render (e.g. a chunk that vanished after a deploy).
 * Not a page of the specification: without it the user would see React Router's developer screen.
 */
export function UnexpectedErrorPage() {
  const { t } = useTranslation('errors');
  return (
    <StatusPage
      code={t('code', { code: 500 })}
      title={t('unexpected.title')}
      description={t('unexpected.description')}
      action={
        <Button intent="primary" onClick={() => window.location.reload()}>
          {t('unexpected.action')}
        </Button>
      }
    />
  );
}
