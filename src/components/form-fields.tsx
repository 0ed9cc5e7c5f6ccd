import { Callout, Classes, FormGroup, InputGroup } from '@blueprintjs/core';
import { useId, type ReactNode } from 'react';
import type { FieldValues, Path, UseFormRegisterReturn, UseFormSetError } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
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

/** The failure of a request as one line: the server's message, or "unreachable" without an answer. */
export function useFailureMessage(): (error: unknown) => string {
  const { t } = useTranslation();
  return (error) => {
    if (error instanceof ApiError && !error.status) return t('request.unreachable');
    return error instanceof Error ? error.message : String(error);
  };
}

/**
 * The failure of the last request for a form's alert; nothing when the server named fields (those errors
 * show under the fields).
 */
export function useFailureText(error: unknown): string | undefined {
  const failureMessage = useFailureMessage();
  if (!error) return undefined;
  if (error instanceof ApiError && error.errors && Object.keys(error.errors).length) return undefined;
  return failureMessage(error);
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
  /** The contract's limit: longer input cannot be typed, so it needs no message of its own. */
  maxLength?: number;
  /** Id of further help (e.g. the hints list) the field is described by. */
  describedBy?: string;
  children?: ReactNode;
};

/** A labelled Blueprint input wired to react-hook-form, with its error under it. */
export function TextField({
  label,
  registration,
  error,
  type = 'text',
  autoComplete,
  maxLength,
  describedBy,
  children,
}: TextFieldProps) {
  const id = useId();
  const errorId = useId();
  const { ref, ...field } = registration;
  const described = [error ? errorId : undefined, describedBy].filter(Boolean).join(' ');
  return (
    <FormGroup label={label} labelFor={id} intent={error ? 'danger' : 'none'}>
      <InputGroup
        {...field}
        inputRef={ref}
        id={id}
        type={type}
        autoComplete={autoComplete}
        maxLength={maxLength}
        size="large"
        intent={error ? 'danger' : 'none'}
        aria-invalid={error ? true : undefined}
        aria-describedby={described || undefined}
      />
      {/* The error right under its field, above any further help (e.g. the password hints), not below it. */}
      {error && (
        <div id={errorId} className={Classes.FORM_HELPER_TEXT}>
          {error}
        </div>
      )}
      {children}
    </FormGroup>
  );
}
