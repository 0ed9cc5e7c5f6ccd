import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useUpdateProfile } from '@generated/hooks/profile/profile';
import type { Profile } from '@generated/model/profile';
import { Role } from '@generated/model/role';
import { paths } from '@/config/paths';
import { canonicalRole } from '@/lib/roles';
import { useRoleLabel } from '@/lib/use-role-label';
import { showServerFieldErrors, TextField } from '@/components/form-fields';
import { useNotify } from '@/components/notifications';
import { SubmitButton } from '@/components/submit-button';
import { useValidationMessage } from '@/components/use-validation-message';
import { endSession } from '@/lib/session';
import { EmailChangeAlert } from './email-change-alert';
import { useNotifyFailure, useProfileSaved } from './profile-save';
import {
  GENERAL_INFO_FIELDS,
  GENERAL_INFO_MAX_LENGTH,
  generalInfoErrorMap,
  generalInfoFormSchema,
  generalInfoOf,
  isNewAddress,
  profileFormOf,
  type GeneralInfoFormInput,
  type GeneralInfoFormValues,
} from './profile-schema';

const resolver = zodResolver(generalInfoFormSchema, { error: generalInfoErrorMap });

/**
 * Seed-spec §5: a new e-mail address ends every session on the server, so this tab signs out too and the
 * user is told to sign in with the new address.
 */
function useSignInWithNewAddress(): (email: string) => void {
  const { t } = useTranslation('profile');
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const notify = useNotify();
  return (email) => {
    endSession(queryClient);
    notify({ intent: 'success', message: t('emailChange.signInAgain', { email }), duration: 0 });
    void navigate(paths.auth.signIn.getHref(), { replace: true });
  };
}

/**
 * Names and e-mail address, with the clinic and role (which only an IT admin changes) for reference. The
 * physician name is offered to physicians only: it is the name their sign-offs carry.
 */
export function GeneralInfoSection({ profile }: { profile: Profile }) {
  const { t } = useTranslation('profile');
  const validationMessage = useValidationMessage();
  const roleLabel = useRoleLabel(profile.role);
  const profileSaved = useProfileSaved();
  const notifyFailure = useNotifyFailure();
  const signInWithNewAddress = useSignInWithNewAddress();
  const isPhysician = canonicalRole(profile.role) === Role.clinic_physicians;
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isDirty },
  } = useForm<GeneralInfoFormInput, unknown, GeneralInfoFormValues>({ resolver, defaultValues: generalInfoOf(profile) });
  // Follows the profile as it is refetched (e.g. after a restored, older copy) until the user starts typing.
  useEffect(() => {
    if (!isDirty) reset(generalInfoOf(profile));
  }, [profile, isDirty, reset]);
  // The values waiting for the user to confirm a new e-mail address.
  const [unconfirmed, setUnconfirmed] = useState<GeneralInfoFormValues>();

  const update = useUpdateProfile({
    mutation: {
      onError: (error) => {
        if (!showServerFieldErrors(error, setError, GENERAL_INFO_FIELDS)) notifyFailure(error);
      },
    },
  });

  const save = (values: GeneralInfoFormValues) => {
    const addressChanges = isNewAddress(values.email, profile.email);
    update.mutate(
      { data: profileFormOf(values, isPhysician) },
      {
        onSuccess: (answer) => {
          if (addressChanges) return signInWithNewAddress(values.email);
          profileSaved(answer);
          reset(generalInfoOf(answer.data));
        },
      },
    );
  };

  const field = (name: keyof GeneralInfoFormInput) => ({
    registration: register(name),
    error: validationMessage(errors[name]?.message),
  });

  return (
    <>
      <dl className="mp-definition-list mp-settings-facts">
        <dt>{t('general.clinic')}</dt>
        <dd>{profile.clinicName}</dd>
        <dt>{t('general.role')}</dt>
        <dd>{roleLabel}</dd>
      </dl>
      <form
        noValidate
        onSubmit={handleSubmit((values) =>
          isNewAddress(values.email, profile.email) ? setUnconfirmed(values) : save(values),
        )}
      >
        <TextField
          label={t('general.firstName')}
          {...field('firstName')}
          autoComplete="given-name"
          maxLength={GENERAL_INFO_MAX_LENGTH.firstName}
        />
        <TextField
          label={t('general.lastName')}
          {...field('lastName')}
          autoComplete="family-name"
          maxLength={GENERAL_INFO_MAX_LENGTH.lastName}
        />
        {isPhysician && (
          <TextField
            label={t('general.physicianName')}
            {...field('physicianName')}
            autoComplete="name"
            maxLength={GENERAL_INFO_MAX_LENGTH.physicianName}
          />
        )}
        <TextField label={t('general.email')} {...field('email')} type="email" autoComplete="email" />
        <SubmitButton label={t('general.save')} pending={update.isPending} />
      </form>
      <EmailChangeAlert
        email={unconfirmed?.email}
        onConfirm={() => {
          if (unconfirmed) save(unconfirmed);
          setUnconfirmed(undefined);
        }}
        onCancel={() => setUnconfirmed(undefined)}
      />
    </>
  );
}
