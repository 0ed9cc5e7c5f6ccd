import { Callout, FormGroup, Icon, InputGroup } from '@blueprintjs/core';
import { useId, type ReactNode } from 'react';
import type { FieldValues, Path, UseFormRegisterReturn, UseFormSetError } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { passwordHints, type PasswordStrength } from '@/domain/passwords/password-rules';
import { ApiError } from '@/lib/api-client';

/** Shows the server's field errors (a 422's `errors`) under the named fields; true when any was shown. */
export function showServerFieldErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: readonly Path<T>[],
): boolean {
  if (!(error instanceof ApiError)) return false;
  let shown = false;
  for (const field of fields) {
    const message = error.errors?.[field]?.[0];
    if (message) {
      setError(field, { type: 'server', message });
      shown = true;
    }
  }
  return shown;
}

/**
 * The failure of a request as one line: the server's message, or "unreachable" without an answer;
 * nothing when the server named fields (those errors show under the fields).
 */
export function useFailureText(error: unknown): string | undefined {
  const { t } = useTranslation('auth');
  if (!error) return undefined;
  if (error instanceof ApiError && error.errors && Object.keys(error.errors).length) return undefined;
  if (error instanceof ApiError && !error.status) return t('signIn.unreachable');
  return error instanceof Error ? error.message : String(error);
}

export function FormAlert({ children }: { children: ReactNode }) {
  return (
    <Callout intent="danger" role="alert" className="mp-form-alert">
      {children}
    </Callout>
  );
}

type TextFieldProps = {
  label: string;
  registration: UseFormRegisterReturn;
  /** Already translated. */
  error: string | undefined;
  type?: 'email' | 'password' | 'text';
  autoComplete?: string;
  /** Id of further help (e.g. the hints list) the field is described by. */
  describedBy?: string;
  children?: ReactNode;
};

/** A labelled Blueprint input wired to react-hook-form, with its error under it. */
export function TextField({ label, registration, error, type = 'text', autoComplete, describedBy, children }: TextFieldProps) {
  const id = useId();
  const errorId = useId();
  const { ref, ...field } = registration;
  const described = [error ? errorId : undefined, describedBy].filter(Boolean).join(' ');
  return (
    <FormGroup
      label={label}
      labelFor={id}
      intent={error ? 'danger' : 'none'}
      helperText={error && <span id={errorId}>{error}</span>}
    >
      <InputGroup
        {...field}
        inputRef={ref}
        id={id}
        type={type}
        autoComplete={autoComplete}
        size="large"
        intent={error ? 'danger' : 'none'}
        aria-invalid={error ? true : undefined}
        aria-describedby={described || undefined}
      />
      {children}
    </FormGroup>
  );
}

/** The live hints of a strength level for the password typed so far, each marked met or not. */
export function PasswordHints({ id, password, strength }: { id: string; password: string; strength: PasswordStrength }) {
  const { t } = useTranslation('auth');
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
  const { t } = useTranslation('auth');
  const hintsId = useId();
  return (
    <>
      <TextField
        label={t('newPassword.password')}
        {...passwordField}
        type="password"
        autoComplete="new-password"
        describedBy={hintsId}
      >
        <PasswordHints id={hintsId} password={password} strength={strength} />
      </TextField>
      <TextField label={t('newPassword.confirmation')} {...confirmationField} type="password" autoComplete="new-password" />
    </>
  );
}
