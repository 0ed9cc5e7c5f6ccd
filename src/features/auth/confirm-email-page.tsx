import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { useConfirmEmailChange, useGetEmailConfirmation } from '@generated/hooks/auth/auth';
import { paths } from '@/config/paths';
import { FormAlert, useFailureText } from '@/components/form-fields';
import { PageSpinner } from '@/components/page-spinner';
import { SubmitButton } from '@/components/submit-button';
import { getToken } from '@/lib/auth-storage';
import { endSession } from '@/lib/session';
import { AuthLink, AuthOutcome, AuthPageShell } from './auth-page-shell';

/**
 * /confirm-email?token=: the link mailed to a new e-mail address (issue 27, defect 1). Opening it changes
 * nothing by itself (a mail scanner may open links); the owner confirms with the button, after which every
 * session of the account has ended, this browser's too, and they sign in with the new address.
 */
export function ConfirmEmailPage() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token');
  return token ? <ConfirmWithLink token={token} /> : <InvalidLink />;
}

function InvalidLink() {
  const { t } = useTranslation('auth');
  return (
    <AuthOutcome
      title={t('confirmEmail.title')}
      intent="warning"
      message={t('confirmEmail.invalidLink')}
      link={{ to: paths.auth.signIn.getHref(), label: t('goToSignIn') }}
    />
  );
}

function ConfirmWithLink({ token }: { token: string }) {
  const { t } = useTranslation('auth');
  const queryClient = useQueryClient();
  const info = useGetEmailConfirmation({ token }, { query: { retry: false, staleTime: 0, gcTime: 0 } });
  // The address the account has now, kept here: ending the session below empties the query cache.
  const [changedTo, setChangedTo] = useState<string>();
  const confirm = useConfirmEmailChange({
    mutation: {
      onSuccess: () => {
        setChangedTo(info.data?.data.newEmail ?? '');
        // The server ended every session of the account: a token kept here is no longer good.
        if (getToken() !== null) endSession(queryClient);
      },
    },
  });
  const failure = useFailureText(confirm.error);

  if (changedTo !== undefined) {
    return (
      <AuthOutcome
        title={t('confirmEmail.title')}
        intent="success"
        message={t('confirmEmail.done', { email: changedTo })}
        link={{ to: paths.auth.signIn.getHref(), label: t('goToSignIn') }}
      />
    );
  }
  if (info.isPending) return <PageSpinner />;
  if (info.isError || !info.data) return <InvalidLink />;
  const { email, newEmail } = info.data.data;
  return (
    <AuthPageShell title={t('confirmEmail.title')}>
      <p>{t('confirmEmail.intro', { email, newEmail })}</p>
      <p className="mp-muted">{t('confirmEmail.afterwards')}</p>
      {failure && <FormAlert>{failure}</FormAlert>}
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          confirm.mutate({ data: { token } });
        }}
      >
        <SubmitButton label={t('confirmEmail.submit')} pending={confirm.isPending} />
      </form>
      <AuthLink to={paths.auth.signIn.getHref()}>{t('backToSignIn')}</AuthLink>
    </AuthPageShell>
  );
}
