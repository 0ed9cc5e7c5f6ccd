import { Checkbox, FormGroup } from '@blueprintjs/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useMemo, type ReactNode } from 'react';
import { useForm, type UseFormRegisterReturn } from 'react-hook-form';
import { Trans, useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { useAcceptInvite, useGetUserInvite } from '@generated/hooks/auth/auth';
import type { Invite } from '@generated/model/invite';
import { paths } from '@/config/paths';
import { FormAlert, showServerFieldErrors, useFailureText } from '@/components/form-fields';
import { PageSpinner } from '@/components/page-spinner';
import { NewPasswordFields } from '@/components/password-fields';
import { SubmitButton } from '@/components/submit-button';
import { useValidationMessage } from '@/components/use-validation-message';
import { AuthOutcome, AuthPageShell } from './auth-page-shell';
import { acceptInviteFormSchema, type AcceptInviteFormValues } from './password-schema';

/**
 * /approve-account?token=…: shows the invite (who, which clinic, which role), then the new password with
 * live hints for the clinic's strength level and the EULA and privacy notice to accept.
 */
export function ApproveAccountPage() {
  const { t } = useTranslation('auth');
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token') ?? '';
  const invite = useGetUserInvite({ token }, { query: { enabled: token !== '', retry: false, staleTime: 0, gcTime: 0 } });

  if (token !== '' && invite.isPending) return <PageSpinner />;
  const data = invite.data?.data;
  if (!data) {
    return <AuthOutcome title={t('approveAccount.title')} intent="warning" message={t('approveAccount.invalidLink')} />;
  }
  if (data.expired) {
    return (
      <AuthOutcome
        title={t('approveAccount.title')}
        intent="warning"
        heading={t('approveAccount.expiredTitle')}
        message={t('approveAccount.expired')}
      />
    );
  }
  return <AcceptForm token={token} invite={data} />;
}

function AcceptCheckbox({
  registration,
  error,
  children,
}: {
  registration: UseFormRegisterReturn;
  error: string | undefined;
  children: ReactNode;
}) {
  const errorId = useId();
  const { ref, ...field } = registration;
  return (
    <FormGroup intent={error ? 'danger' : 'none'} helperText={error && <span id={errorId}>{error}</span>}>
      <Checkbox
        {...field}
        inputRef={ref}
        labelElement={children}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
      />
    </FormGroup>
  );
}

function AcceptForm({ token, invite }: { token: string; invite: Invite }) {
  const { t } = useTranslation(['auth', 'common']);
  const validationMessage = useValidationMessage();
  const strength = invite.passwordStrength;
  const resolver = useMemo(() => zodResolver(acceptInviteFormSchema(strength, invite.email)), [strength, invite.email]);
  const form = useForm<AcceptInviteFormValues>({
    resolver,
    defaultValues: { password: '', passwordConfirmation: '', acceptEula: false, acceptPrivacyNotice: false },
  });
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = form;

  const accept = useAcceptInvite({
    mutation: {
      onError: (error) =>
        showServerFieldErrors(error, setError, ['password', 'passwordConfirmation', 'acceptEula', 'acceptPrivacyNotice']),
    },
  });
  const failure = useFailureText(accept.error);

  if (accept.isSuccess) {
    return (
      <AuthOutcome
        title={t('approveAccount.title')}
        intent="success"
        message={t('approveAccount.done')}
        link={{ to: paths.auth.signIn.getHref(), label: t('goToSignIn') }}
      />
    );
  }

  const name = `${invite.firstName} ${invite.lastName}`.trim();
  return (
    <AuthPageShell title={t('approveAccount.title')}>
      <p className="mp-muted">{t('approveAccount.intro', { name, clinic: invite.clinicName })}</p>
      <dl className="mp-invite-details">
        <dt>{t('approveAccount.name')}</dt>
        <dd>{name}</dd>
        <dt>{t('approveAccount.email')}</dt>
        <dd>{invite.email}</dd>
        <dt>{t('approveAccount.clinic')}</dt>
        <dd>{invite.clinicName}</dd>
        <dt>{t('approveAccount.role')}</dt>
        <dd>{t(`common:roles.${invite.role}`)}</dd>
        {invite.invitedBy && (
          <>
            <dt>{t('approveAccount.invitedBy')}</dt>
            <dd>{invite.invitedBy}</dd>
          </>
        )}
      </dl>
      {failure && <FormAlert>{failure}</FormAlert>}
      <form
        noValidate
        onSubmit={handleSubmit(({ password: newPassword, passwordConfirmation }) =>
          accept.mutate({
            data: { token, password: newPassword, passwordConfirmation, acceptEula: true, acceptPrivacyNotice: true },
          }),
        )}
      >
        <input type="email" name="username" autoComplete="username" value={invite.email} readOnly hidden />
        <NewPasswordFields form={form} strength={strength} owner={invite} />
        <AcceptCheckbox registration={register('acceptEula')} error={validationMessage(errors.acceptEula?.message)}>
          {/* The link sits where each language puts it ("… den <doc>Endbenutzer-Lizenzvertrag</doc>"; not <link>, which is a void HTML element to Trans). */}
          <Trans
            t={t}
            i18nKey="approveAccount.acceptEula"
            components={{ doc: <Link to={paths.legal.eula.getHref()} target="_blank" /> }}
          />
        </AcceptCheckbox>
        <AcceptCheckbox
          registration={register('acceptPrivacyNotice')}
          error={validationMessage(errors.acceptPrivacyNotice?.message)}
        >
          <Trans
            t={t}
            i18nKey="approveAccount.acceptPrivacy"
            components={{ doc: <Link to={paths.legal.privacyPolicy.getHref()} target="_blank" /> }}
          />
        </AcceptCheckbox>
        <SubmitButton label={t('approveAccount.submit')} pending={accept.isPending} />
      </form>
    </AuthPageShell>
  );
}
