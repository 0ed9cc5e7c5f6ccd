// Password rules per strength level (product.md §4), pure: no database, no I/O. Used wherever a password
// is chosen (invite acceptance, reset, own change, and any admin-set password).
//   simplified: at least 6 characters and a number or symbol
//   standard:   at least 8, a capital letter, a small letter and a number
//   advanced:   at least 12, a capital letter, a small letter, a number and a special character
// At every level: only letters, numbers and !@#$%^&*-_= ; none of the 1,000 most common passwords
// (case-insensitive); not the local part of the user's own e-mail address.
import type { MessageKey } from '../i18n';
import { COMMON_PASSWORDS } from './common-passwords';
import type { PasswordStrength } from './policy';

export const SPECIAL_CHARACTERS = '!@#$%^&*-_=';
const ALLOWED = /^[A-Za-z0-9!@#$%^&*\-_=]*$/;
const SPECIAL = /[!@#$%^&*\-_=]/;

export const MIN_LENGTH: Record<PasswordStrength, number> = { simplified: 6, standard: 8, advanced: 12 };
const MIN_LENGTH_KEY: Record<PasswordStrength, MessageKey> = {
  simplified: 'password.min_length_6',
  standard: 'password.min_length_8',
  advanced: 'password.min_length_12',
};

const COMMON = new Set(COMMON_PASSWORDS);

export interface PasswordInput {
  password: string | null | undefined;
  /** The repeated password; checked only when `checkConfirmation` is not false. */
  passwordConfirmation?: string | null;
  strength: PasswordStrength;
  /** The account's e-mail address: its local part is refused as a password. */
  email?: string | null;
  /** Compare with the confirmation (default true). */
  checkConfirmation?: boolean;
}

export interface PasswordErrors {
  password?: MessageKey[];
  passwordConfirmation?: MessageKey[];
}

export const isCommonPassword = (password: string): boolean => COMMON.has(password.toLowerCase());

/**
 * The hints of a strength level that `password` does not meet, as message keys (empty when all are met).
 * Also what a form can show as the rules of a level (pass an empty string).
 */
export function unmetHints(password: string, strength: PasswordStrength): MessageKey[] {
  const unmet: MessageKey[] = [];
  if (password.length < MIN_LENGTH[strength]) unmet.push(MIN_LENGTH_KEY[strength]);
  const capital = /[A-Z]/.test(password);
  const small = /[a-z]/.test(password);
  const number = /[0-9]/.test(password);
  const special = SPECIAL.test(password);
  if (strength === 'simplified') {
    if (!number && !/[^A-Za-z]/.test(password)) unmet.push('password.needs_number_or_symbol');
    return unmet;
  }
  if (!capital) unmet.push('password.needs_capital');
  if (!small) unmet.push('password.needs_small');
  if (!number) unmet.push('password.needs_number');
  if (strength === 'advanced' && !special) unmet.push('password.needs_special');
  return unmet;
}

/** Field errors for a new password (an empty object when it is acceptable). */
export function checkPassword(input: PasswordInput): PasswordErrors {
  const errors: PasswordErrors = {};
  const password = input.password ?? '';
  const passwordErrors: MessageKey[] = [];
  if (password === '') {
    passwordErrors.push('validation.required');
  } else {
    if (!ALLOWED.test(password)) passwordErrors.push('validation.invalid_characters');
    const unmet = unmetHints(password, input.strength);
    if (unmet.length) passwordErrors.push('validation.password', ...unmet);
    if (isCommonPassword(password)) passwordErrors.push('validation.password_common');
    const localPart = (input.email ?? '').split('@')[0].trim().toLowerCase();
    if (localPart && password.toLowerCase() === localPart) passwordErrors.push('validation.password_is_email');
  }
  if (passwordErrors.length) errors.password = passwordErrors;

  if (input.checkConfirmation !== false) {
    const confirmation = input.passwordConfirmation ?? '';
    if (confirmation === '') errors.passwordConfirmation = ['validation.confirm_required'];
    else if (confirmation !== password) errors.passwordConfirmation = ['validation.password_mismatch'];
  }
  return errors;
}

export const hasErrors = (errors: PasswordErrors): boolean =>
  Boolean(errors.password?.length || errors.passwordConfirmation?.length);
