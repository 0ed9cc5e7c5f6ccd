import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '@/config/paths';
import { primaryLinkClassName, StatusPage } from './status-page';

/** 403 (a role not allowed here): "Forbidden", with "Go to main page". */
export function ForbiddenPage() {
  const { t } = useTranslation('errors');
  return (
    <StatusPage
      code={t('code', { code: 403 })}
      title={t('forbidden.title')}
      description={t('forbidden.description')}
      action={
        <Link className={primaryLinkClassName} to={paths.home.getHref()}>
          {t('forbidden.action')}
        </Link>
      }
    />
  );
}
