import { Icon } from '@blueprintjs/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useMemo } from 'react';
import { useForm, useWatch, type UseFormRegisterReturn, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { TextField } from '@/components/form-fields';
import { changePasswordFormSchema, type ChangePasswordFormValues } from '@/components/password-schema';
import { useValidationMessage } from '@/components/use-validation-message';
import { passwordHints, type PasswordStrength } from '@/domain/passwords/password-rules';

/** The live hints of a strength level for the password typed so far, each marked met or not. */
export function PasswordHints({ id, password, strength }: { id: string; password: string; strength: PasswordStrength }) {
  const { t } = useTranslation();
  return (
    <div className="mp-password-hints">
      <p className="mp-muted">{t('passwordHints.title')}</p>
      <ul id={id} aria-live="polite">
        {passwordHints(password, strength).map((hint) => (
          <li key={hint.id} data-hint={hint.id} data-met={hint.met} className={hint.met ? 'mp-hint-met' : 'mp-hint-unmet'}>
            <Icon icon={hint.met ? 'tick-circle' : 'circle'} intent={hint.met ? 'success' : 'none'} size={12} aria-hidden />{' '}
            {t(`passwordHints.${hint.id}`, { min: hint.min })}
            <span className="mp-visually-hidden">
              {' '}
              ({hint.met ? t('passwordHints.met') : t('passwordHints.unmet')})
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

type PasswordField = { registration: UseFormRegisterReturn; error: string | undefined };

/** New password with the live hints of its strength level, and its confirmation. */
export function NewPasswordFields({
  password,
  strength,
  passwordField,
  confirmationField,
}: {
  password: string;
  strength: PasswordStrength;
  passwordField: PasswordField;
  confirmationField: PasswordField;
}) {
  const { t } = useTranslation();
  const hintsId = useId();
  return (
    <>
      <TextField
        label={t('passwordFields.new')}
        {...passwordField}
        type="password"
        autoComplete="new-password"
        describedBy={hintsId}
      >
        <PasswordHints id={hintsId} password={password} strength={strength} />
      </TextField>
      <TextField label={t('passwordFields.confirmation')} {...confirmationField} type="password" autoComplete="new-password" />
    </>
  );
}

const NO_PASSWORD_CHANGE: ChangePasswordFormValues = { currentPassword: '', password: '', passwordConfirmation: '' };

/** The form of an own-password change, checked against the user's strength level and e-mail address. */
export function useChangePasswordForm(strength: PasswordStrength, email: string): UseFormReturn<ChangePasswordFormValues> {
  const resolver = useMemo(() => zodResolver(changePasswordFormSchema(strength, email)), [strength, email]);
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
}: {
  form: UseFormReturn<ChangePasswordFormValues>;
  strength: PasswordStrength;
  email: string;
}) {
  const { t } = useTranslation();
  const validationMessage = useValidationMessage();
  const {
    register,
    control,
    formState: { errors },
  } = form;
  const password = useWatch({ control, name: 'password' });
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
      <NewPasswordFields
        password={password}
        strength={strength}
        passwordField={{ registration: register('password'), error: validationMessage(errors.password?.message) }}
        confirmationField={{
          registration: register('passwordConfirmation'),
          error: validationMessage(errors.passwordConfirmation?.message),
        }}
      />
    </>
  );
}
