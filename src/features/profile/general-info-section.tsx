import { zodResolver } from '@hookform/resolvers/zod';
import { Callout, Classes } from '@blueprintjs/core';
import { useEffect, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useUpdateProfile } from '@generated/hooks/profile/profile';
import type { Profile } from '@generated/model/profile';
import { Role } from '@generated/model/role';
import { canonicalRole } from '@/lib/roles';
import { useRoleLabel } from '@/lib/use-role-label';
import { showServerFieldErrors, TextField } from '@/components/form-fields';
import { SubmitButton } from '@/components/submit-button';
import { useValidationMessage } from '@/components/use-validation-message';
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
 * Names and e-mail address, with the clinic and role (which only an IT admin changes) for reference. The
 * physician name is offered to physicians only: it is the name their sign-offs carry.
 */
export function GeneralInfoSection({ profile }: { profile: Profile }) {
  const { t } = useTranslation('profile');
  const validationMessage = useValidationMessage();
  const roleLabel = useRoleLabel(profile.role);
  const profileSaved = useProfileSaved();
  const notifyFailure = useNotifyFailure();
  const pendingId = useId();
  const currentPasswordHintId = useId();
  const isPhysician = canonicalRole(profile.role) === Role.clinic_physicians;
  const {
    register,
    handleSubmit,
    setError,
    reset,
    watch,
    formState: { errors, isDirty },
  } = useForm<GeneralInfoFormInput, unknown, GeneralInfoFormValues>({ resolver, defaultValues: generalInfoOf(profile) });
  // A new address needs the current password (issue 27): the field appears once the address differs.
  const addressChanging = isNewAddress(watch('email').trim(), profile.email);
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

  // A new address is only asked for: the answer's profile keeps the current one and names the new one as pending.
  const save = (values: GeneralInfoFormValues) => {
    update.mutate(
      { data: profileFormOf(values, isPhysician, profile.email) },
      {
        onSuccess: (answer) => {
          profileSaved(answer);
          reset(generalInfoOf(answer.data));
        },
      },
    );
  };

  const submit = (values: GeneralInfoFormValues) => {
    if (!isNewAddress(values.email, profile.email)) return save(values);
    if (!values.currentPassword) return setError('currentPassword', { message: 'required' }, { shouldFocus: true });
    setUnconfirmed(values);
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
      <form noValidate onSubmit={handleSubmit(submit)}>
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
        <TextField
          label={t('general.email')}
          {...field('email')}
          type="email"
          autoComplete="email"
          describedBy={profile.pendingEmail ? pendingId : undefined}
        >
          {profile.pendingEmail && (
            <Callout id={pendingId} intent="primary" compact className="mp-pending-email">
              {t('general.pendingEmail', { email: profile.pendingEmail, current: profile.email })}
            </Callout>
          )}
        </TextField>
        {addressChanging && (
          <TextField
            label={t('general.currentPassword')}
            {...field('currentPassword')}
            type="password"
            autoComplete="current-password"
            describedBy={currentPasswordHintId}
          >
            <div id={currentPasswordHintId} className={Classes.FORM_HELPER_TEXT}>
              {t('general.currentPasswordHint')}
            </div>
          </TextField>
        )}
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
