import { Button, Callout } from '@blueprintjs/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useGetResetConfirmation, useResetConfirmation } from '@generated/hooks/auth/auth';
import { getGetProfileQueryKey, useChangePassword, useGetProfile } from '@generated/hooks/profile/profile';
import type { Profile } from '@generated/model/profile';
import type { ProfileResponse } from '@generated/model/profileResponse';
import { paths } from '@/config/paths';
import { FormAlert, showServerFieldErrors, useFailureText } from '@/components/form-fields';
import { PageSpinner } from '@/components/page-spinner';
import { ChangePasswordFields, NewPasswordFields, useChangePasswordForm } from '@/components/password-fields';
import { CHANGE_PASSWORD_FIELDS } from '@/components/password-schema';
import { SubmitButton } from '@/components/submit-button';
import type { PasswordStrength } from '@/domain/passwords/password-rules';
import { ApiError } from '@/lib/api-client';
import { getToken } from '@/lib/auth-storage';
import { AuthLink, AuthOutcome, AuthPageShell } from './auth-page-shell';
import { resetConfirmationFormSchema, type ResetConfirmationFormValues } from './password-schema';
import { useSignOut } from './use-sign-out';

/**
 * /new-password: with `?token=` from a reset e-mail, choose a new password; without one, a signed-in user
 * whose clinic forces a new password (or whose password expired) changes it here before going on.
 */
export function NewPasswordPage() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token');
  return token ? <ResetWithLink token={token} /> : <RequiredChange />;
}

function InvalidLink() {
  const { t } = useTranslation('auth');
  return (
    <AuthOutcome
      title={t('newPassword.title')}
      intent="warning"
      message={t('newPassword.invalidLink')}
      link={{ to: paths.auth.resetPassword.getHref(), label: t('newPassword.requestNewLink') }}
    />
  );
}

function ResetWithLink({ token }: { token: string }) {
  const info = useGetResetConfirmation({ token }, { query: { retry: false, staleTime: 0, gcTime: 0 } });
  if (info.isPending) return <PageSpinner />;
  if (info.isError || !info.data) return <InvalidLink />;
  const { email, passwordStrength } = info.data.data;
  return <ResetForm token={token} email={email} strength={passwordStrength} />;
}

function ResetForm({ token, email, strength }: { token: string; email: string; strength: PasswordStrength }) {
  const { t } = useTranslation('auth');
  const resolver = useMemo(() => zodResolver(resetConfirmationFormSchema(strength, email)), [strength, email]);
  const form = useForm<ResetConfirmationFormValues>({ resolver, defaultValues: { password: '', passwordConfirmation: '' } });
  const { handleSubmit, setError } = form;

  const confirm = useResetConfirmation({
    mutation: { onError: (error) => showServerFieldErrors(error, setError, ['password', 'passwordConfirmation']) },
  });
  const failure = useFailureText(confirm.error);

  if (confirm.isSuccess) {
    return (
      <AuthOutcome
        title={t('newPassword.title')}
        intent="success"
        message={t('newPassword.done')}
        link={{ to: paths.auth.signIn.getHref(), label: t('goToSignIn') }}
      />
    );
  }

  return (
    <AuthPageShell title={t('newPassword.title')}>
      <p className="mp-muted">{t('newPassword.introReset', { email })}</p>
      {failure && <FormAlert>{failure}</FormAlert>}
      <form noValidate onSubmit={handleSubmit((data) => confirm.mutate({ data: { token, ...data } }))}>
        <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
        <NewPasswordFields form={form} strength={strength} owner={{ email }} />
        <SubmitButton label={t('newPassword.submit')} pending={confirm.isPending} />
      </form>
      <AuthLink to={paths.auth.signIn.getHref()}>{t('backToSignIn')}</AuthLink>
    </AuthPageShell>
  );
}

function RequiredChange() {
  const hasToken = getToken() !== null;
  const profileQuery = useGetProfile({ query: { enabled: hasToken } });
  if (!hasToken) return <InvalidLink />;
  const profile = profileQuery.data?.data;
  if (!profile) return profileQuery.isError ? <InvalidLink /> : <PageSpinner />;
  if (!profile.passwordChangeRequired) return <InvalidLink />;
  return <ChangeForm profile={profile} />;
}

function ChangeForm({ profile }: { profile: Profile }) {
  const { t } = useTranslation('auth');
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const strength = profile.passwordStrength;
  const { signOut, isSigningOut } = useSignOut();
  // Right after signing in with an expired password the server does not ask for it again; it says so (422) when
  // the sign-in was longer ago, and the field appears.
  const [askCurrent, setAskCurrent] = useState(profile.passwordChangeRequired !== 'expired');
  const form = useChangePasswordForm(strength, profile.email, askCurrent);
  const { handleSubmit, setError } = form;

  const change = useChangePassword({
    mutation: {
      onSuccess: async () => {
        const queryKey = getGetProfileQueryKey();
        // The hub must not send the user back here on the cached profile while it refetches.
        queryClient.setQueryData<ProfileResponse>(queryKey, (old) =>
          old ? { ...old, data: { ...old.data, passwordChangeRequired: null } } : old,
        );
        await queryClient.invalidateQueries({ queryKey });
        await navigate(paths.home.getHref(), { replace: true });
      },
      onError: (error) => {
        if (error instanceof ApiError && error.errors?.currentPassword) setAskCurrent(true);
        showServerFieldErrors(error, setError, CHANGE_PASSWORD_FIELDS);
      },
    },
  });
  const failure = useFailureText(change.error);

  return (
    <AuthPageShell title={t('newPassword.title')}>
      <Callout intent="primary" className="mp-form-alert">
        {profile.passwordChangeRequired === 'expired' ? t('newPassword.expired') : t('newPassword.forced')}
      </Callout>
      {failure && <FormAlert>{failure}</FormAlert>}
      <form
        noValidate
        onSubmit={handleSubmit(({ currentPassword, ...data }) => change.mutate({ data: askCurrent ? { currentPassword, ...data } : data }))}
      >
        {askCurrent ? (
          <ChangePasswordFields form={form} strength={strength} email={profile.email} owner={profile} />
        ) : (
          <>
            <input type="email" name="username" autoComplete="username" value={profile.email} readOnly hidden />
            <NewPasswordFields form={form} strength={strength} owner={profile} />
          </>
        )}
        <SubmitButton label={t('newPassword.submit')} pending={change.isPending} />
      </form>
      <Button variant="minimal" className="mp-auth-sign-out" loading={isSigningOut} onClick={signOut}>
        {t('nav.logout', { ns: 'common' })}
      </Button>
    </AuthPageShell>
  );
}
