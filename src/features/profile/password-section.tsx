import { useTranslation } from 'react-i18next';
import { useChangePassword } from '@generated/hooks/profile/profile';
import type { Profile } from '@generated/model/profile';
import { showServerFieldErrors } from '@/components/form-fields';
import { useNotify } from '@/components/notifications';
import { ChangePasswordFields, useChangePasswordForm } from '@/components/password-fields';
import { CHANGE_PASSWORD_FIELDS } from '@/components/password-schema';
import { SubmitButton } from '@/components/submit-button';
import { useNotifyFailure } from './profile-save';

/** Current, new and confirmed password, with live hints for the strength level that applies to the user. */
export function PasswordSection({ profile }: { profile: Profile }) {
  const { t } = useTranslation('profile');
  const notify = useNotify();
  const notifyFailure = useNotifyFailure();
  const form = useChangePasswordForm(profile.passwordStrength, profile.email);
  const { handleSubmit, setError, reset } = form;

  const change = useChangePassword({
    mutation: {
      onSuccess: ({ message }) => {
        notify({ intent: 'success', message: message ?? t('password.changed') });
        reset();
      },
      onError: (error) => {
        if (!showServerFieldErrors(error, setError, CHANGE_PASSWORD_FIELDS)) notifyFailure(error);
      },
    },
  });

  return (
    <>
      <p className="mp-muted">{t('password.intro')}</p>
      <form noValidate onSubmit={handleSubmit((data) => change.mutate({ data }))}>
        <ChangePasswordFields form={form} strength={profile.passwordStrength} email={profile.email} owner={profile} />
        <SubmitButton label={t('password.submit')} pending={change.isPending} />
      </form>
    </>
  );
}
