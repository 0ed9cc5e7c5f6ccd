import { Button, Callout } from '@blueprintjs/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router-dom';
import { getGetProfileQueryKey, useGetProfile } from '@generated/hooks/profile/profile';
import type { ProfileResponse } from '@generated/model/profileResponse';
import { paths } from '@/config/paths';
import { PageSpinner } from '@/components/page-spinner';
import { TwoFactorSetup } from '@/components/two-factor';
import { getToken } from '@/lib/auth-storage';
import { AuthPageShell } from './auth-page-shell';
import { useSignOut } from './use-sign-out';

/**
 * /two-factor-setup: a user whose clinic requires a second factor for their role, and who has none yet, sets up an
 * authenticator app here before anything else (as /new-password comes first for a required new password).
 */
export function TwoFactorSetupPage() {
  const { t } = useTranslation(['twoFactor', 'auth']);
  const hasToken = getToken() !== null;
  const profileQuery = useGetProfile({ query: { enabled: hasToken } });
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { signOut, isSigningOut } = useSignOut();
  // Set once the code is confirmed, so that the recovery codes stay on screen until the user goes on.
  const [enabling, setEnabling] = useState(false);
  if (!hasToken) return <Navigate to={paths.auth.signIn.getHref()} replace />;
  const profile = profileQuery.data?.data;
  if (!profile) return profileQuery.isError ? <Navigate to={paths.auth.signIn.getHref()} replace /> : <PageSpinner />;
  // Nothing to set up first (any more): the profile is where a second factor is managed.
  if (!profile.twoFactor?.setupRequired && !enabling) return <Navigate to={paths.home.getHref()} replace />;

  const markEnabled = () => {
    setEnabling(true);
    // The gate must not send the user back here on the cached profile while it refetches.
    queryClient.setQueryData<ProfileResponse>(getGetProfileQueryKey(), (old) =>
      old?.data.twoFactor ? { ...old, data: { ...old.data, twoFactor: { ...old.data.twoFactor, enabled: true, setupRequired: false, recoveryCodesLeft: 10 } } } : old,
    );
  };
  const finish = async () => {
    await queryClient.invalidateQueries({ queryKey: getGetProfileQueryKey() });
    await navigate(paths.home.getHref(), { replace: true });
  };

  return (
    <AuthPageShell title={t('auth:twoFactorSetup.title')}>
      <Callout intent="primary" className="mp-form-alert">
        {t('setup.required')}
      </Callout>
      <TwoFactorSetup email={profile.email} afterSignIn onEnabled={markEnabled} onFinished={() => void finish()} finishLabel={t('setup.finish')} />
      <Button variant="minimal" className="mp-auth-sign-out" loading={isSigningOut} onClick={signOut}>
        {t('nav.logout', { ns: 'common' })}
      </Button>
    </AuthPageShell>
  );
}
