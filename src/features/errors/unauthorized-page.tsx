import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '@/config/paths';
import { primaryLinkClassName, StatusPage } from './status-page';

/** 401 (not signed in): "Authorization Required", with "Log In or Register" leading to /sign-in. */
export function UnauthorizedPage() {
  const { t } = useTranslation('errors');
  return (
    <StatusPage
      code={t('code', { code: 401 })}
      title={t('unauthorized.title')}
      description={t('unauthorized.description')}
      action={
        <Link className={primaryLinkClassName} to={paths.auth.signIn.getHref()}>
          {t('unauthorized.action')}
        </Link>
      }
    />
  );
}
