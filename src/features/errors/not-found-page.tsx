import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '@/config/paths';
import { primaryLinkClassName, StatusPage } from './status-page';

/** 404 (any unknown path): "We've lost this page", with "Go to main page". */
export function NotFoundPage() {
  const { t } = useTranslation('errors');
  return (
    <StatusPage
      code={t('code', { code: 404 })}
      title={t('notFound.title')}
      description={t('notFound.description')}
      action={
        <Link className={primaryLinkClassName} to={paths.home.getHref()}>
          {t('notFound.action')}
        </Link>
      }
    />
  );
}
