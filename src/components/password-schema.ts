import { z } from 'zod';
import type { ValidationKey } from '@/components/use-validation-message';
import {
  checkPassword,
  type PasswordMessageKey,
  type PasswordStrength,
} from '@/domain/passwords/password-rules';

/** Longest password the contract accepts. */
const MAX_PASSWORD_LENGTH = 128;

/** The validation text (`common:validation.*`) for the first problem the shared rules report for the new password. */
const passwordMessage = (key: PasswordMessageKey | undefined): ValidationKey | undefined => {
  if (!key) return undefined;
  if (key === 'validation.required') return 'required';
  if (key === 'validation.invalid_characters') return 'invalidCharacters';
  return 'invalidPassword';
};

const confirmationMessage = (key: PasswordMessageKey | undefined): ValidationKey | undefined => {
  if (!key) return undefined;
  return key === 'validation.confirm_required' ? 'confirmPasswordRequired' : 'passwordsDoNotMatch';
};

export const newPasswordFields = {
  password: z.string(),
  passwordConfirmation: z.string(),
};

/**
 * Adds the issues of a new password and its confirmation (src/domain/passwords, the rules the server
 * applies too) as ValidationKeys under `password` and `passwordConfirmation`.
 */
export function refineNewPassword(
  values: { password: string; passwordConfirmation: string },
  ctx: z.RefinementCtx,
  strength: PasswordStrength,
  email?: string,
): void {
  const errors = checkPassword({ ...values, strength, email });
  const password =
    values.password.length > MAX_PASSWORD_LENGTH ? 'invalidPassword' : passwordMessage(errors.password?.[0]);
  if (password) ctx.addIssue({ code: 'custom', path: ['password'], message: password });
  const confirmation = confirmationMessage(errors.passwordConfirmation?.[0]);
  if (confirmation) ctx.addIssue({ code: 'custom', path: ['passwordConfirmation'], message: confirmation });
}

/**
 * A signed-in user changes the own password (/new-password when required, /profile-settings): current + new +
 * confirm; right after signing in with an expired password the current one is not asked again.
 */
export const changePasswordFormSchema = (strength: PasswordStrength, email?: string, { currentRequired = true } = {}) =>
  z
    .object({ currentPassword: currentRequired ? z.string().min(1, 'required') : z.string(), ...newPasswordFields })
    .superRefine((values, ctx) => refineNewPassword(values, ctx, strength, email));
export type ChangePasswordFormValues = z.infer<ReturnType<typeof changePasswordFormSchema>>;
/** The fields of that form, which the server may name in a 422 too. */
export const CHANGE_PASSWORD_FIELDS = ['currentPassword', 'password', 'passwordConfirmation'] as const;
