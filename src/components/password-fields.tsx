import { Icon } from '@blueprintjs/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useMemo } from 'react';
import { useForm, useWatch, type FieldErrors, type Path, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { TextField } from '@/components/form-fields';
import { changePasswordFormSchema, type ChangePasswordFormValues } from '@/components/password-schema';
import { useValidationMessage } from '@/components/use-validation-message';
import { PasswordStrengthMeter, type PasswordOwner } from '@/components/password-strength-meter';
import { passwordHints, type PasswordStrength } from '@/domain/passwords/password-rules';

/** The live hints of a strength level for the password typed so far, each marked met or not. */
export function PasswordHints({ id, password, strength }: { id: string; password: string; strength: PasswordStrength }) {
  const { t } = useTranslation();
  return (
    <div className="mp-password-hints">
      <p className="mp-muted">{t('passwordHints.title')}</p>
      <ul id={id} aria-live="polite">
        {passwordHints(password, strength).map(({ id: hintId, min, met: metByRule }) => {
          // Nothing is ticked before anything is typed: an empty password "has only allowed characters",
          // but a tick there reads as praise for a password not yet chosen.
          const met = password !== '' && metByRule;
          return (
            <li key={hintId} data-hint={hintId} data-met={met} className={met ? 'mp-hint-met' : 'mp-hint-unmet'}>
              <Icon icon={met ? 'tick-circle' : 'circle'} intent={met ? 'success' : 'none'} size={12} aria-hidden />
              {t(`passwordHints.${hintId}`, { min })}
              <span className="mp-visually-hidden"> ({met ? t('passwordHints.met') : t('passwordHints.unmet')})</span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

type NewPasswordValues = { password: string; passwordConfirmation: string };

/**
 * New password with the live hints of its strength level and the strength meter (how hard it is to guess for
 * `owner`), and its confirmation, as the fields `password` and `passwordConfirmation` of `form`.
 */
export function NewPasswordFields<T extends NewPasswordValues>({
  form,
  strength,
  owner = {},
}: {
  form: UseFormReturn<T>;
  strength: PasswordStrength;
  owner?: PasswordOwner;
}) {
  const { t } = useTranslation();
  const validationMessage = useValidationMessage();
  const hintsId = useId();
  const meterId = useId();
  // T has both fields (its constraint says so), but react-hook-form's path types cannot see through a generic.
  const names = { password: 'password' as Path<T>, confirmation: 'passwordConfirmation' as Path<T> };
  const password = useWatch({ control: form.control, name: names.password }) as string;
  const errors = form.formState.errors as FieldErrors<NewPasswordValues>;
  return (
    <>
      <TextField
        label={t('passwordFields.new')}
        registration={form.register(names.password)}
        error={validationMessage(errors.password?.message)}
        type="password"
        autoComplete="new-password"
        describedBy={`${hintsId} ${meterId}`}
      >
        <PasswordHints id={hintsId} password={password ?? ''} strength={strength} />
        <PasswordStrengthMeter id={meterId} password={password ?? ''} strength={strength} owner={owner} />
      </TextField>
      <TextField
        label={t('passwordFields.confirmation')}
        registration={form.register(names.confirmation)}
        error={validationMessage(errors.passwordConfirmation?.message)}
        type="password"
        autoComplete="new-password"
      />
    </>
  );
}

const NO_PASSWORD_CHANGE: ChangePasswordFormValues = { currentPassword: '', password: '', passwordConfirmation: '' };

/** The form of an own-password change, checked against the user's strength level and e-mail address. */
export function useChangePasswordForm(strength: PasswordStrength, email: string, currentRequired = true): UseFormReturn<ChangePasswordFormValues> {
  const resolver = useMemo(() => zodResolver(changePasswordFormSchema(strength, email, { currentRequired })), [strength, email, currentRequired]);
  return useForm<ChangePasswordFormValues>({ resolver, defaultValues: NO_PASSWORD_CHANGE });
}

/**
 * Current password, then the new one with its live hints and its confirmation. The account's address
 * goes along (hidden) so that password managers file the new password under the right account.
 */
export function ChangePasswordFields({
  form,
  strength,
  email,
  owner,
}: {
  form: UseFormReturn<ChangePasswordFormValues>;
  strength: PasswordStrength;
  email: string;
  /** The account's names, for the strength meter. */
  owner?: PasswordOwner;
}) {
  const { t } = useTranslation();
  const validationMessage = useValidationMessage();
  const {
    register,
    formState: { errors },
  } = form;
  return (
    <>
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      <TextField
        label={t('passwordFields.current')}
        registration={register('currentPassword')}
        error={validationMessage(errors.currentPassword?.message)}
        type="password"
        autoComplete="current-password"
      />
      <NewPasswordFields form={form} strength={strength} owner={{ ...owner, email }} />
    </>
  );
}
