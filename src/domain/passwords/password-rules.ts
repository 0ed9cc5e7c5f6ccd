// Password rules per strength level (docs/security.md), pure: no database, no I/O. Used wherever a password
// is chosen (invite acceptance, reset, own change, and any admin-set password).
//   simplified: at least 6 characters and a number or symbol
//   standard:   at least 8, a capital letter, a small letter and a number
//   advanced:   at least 12, a capital letter, a small letter, a number and a special character
// At every level: only letters, numbers and !@#$%^&*-_= ; none of the 1,000 most common passwords
// (case-insensitive); not the local part of the user's own e-mail address.
// Shared by the SPA (live hints, form checks) and the reference server (the authority), so both apply
// the same rules. Pure TypeScript: no Node, React, DOM or generated code.
import { COMMON_PASSWORDS } from './common-passwords';

/** The clinic's password strength level (the contract's PasswordStrength). */
export type PasswordStrength = 'simplified' | 'standard' | 'advanced';

/** Message keys of the server's catalogue (locales/<lang>/api.json) that these rules report. */
export type PasswordMessageKey =
  | 'validation.required'
  | 'validation.password'
  | 'validation.invalid_characters'
  | 'validation.password_common'
  | 'validation.password_is_email'
  | 'validation.password_mismatch'
  | 'validation.confirm_required'
  | 'password.min_length_6'
  | 'password.min_length_8'
  | 'password.min_length_12'
  | 'password.needs_capital'
  | 'password.needs_small'
  | 'password.needs_number'
  | 'password.needs_number_or_symbol'
  | 'password.needs_special';

type MessageKey = PasswordMessageKey;

export const SPECIAL_CHARACTERS = '!@#$%^&*-_=';
export const ALLOWED_CHARACTERS = /^[A-Za-z0-9!@#$%^&*\-_=]*$/;
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

/** True when every character is a letter, a number or one of !@#$%^&*-_= (also for ''). */
export const hasOnlyAllowedCharacters = (password: string): boolean => ALLOWED_CHARACTERS.test(password);

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
    if (!hasOnlyAllowedCharacters(password)) passwordErrors.push('validation.invalid_characters');
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

/** One live hint of a strength level (`common:validation.*`), plus the rules that hold at every level. */
export type PasswordHintId =
  | 'min_length'
  | 'capital'
  | 'small'
  | 'number'
  | 'number_or_symbol'
  | 'special'
  | 'allowed_characters'
  | 'not_common';

export interface PasswordHint {
  id: PasswordHintId;
  /** Whether `password` meets it. */
  met: boolean;
  /** For `min_length`: the level's minimum. */
  min?: number;
}

const LEVEL_HINTS: Record<PasswordStrength, PasswordHintId[]> = {
  simplified: ['min_length', 'number_or_symbol'],
  standard: ['min_length', 'capital', 'small', 'number'],
  advanced: ['min_length', 'capital', 'small', 'number', 'special'],
};

/**
 * The hints of a strength level in display order, each met or unmet by `password`: the level's own
 * (at least 6/8/12 characters, a capital letter, …) then allowed characters and not a common password.
 * An empty password meets only the last two.
 */
export function passwordHints(password: string, strength: PasswordStrength): PasswordHint[] {
  const met: Record<PasswordHintId, boolean> = {
    min_length: password.length >= MIN_LENGTH[strength],
    capital: /[A-Z]/.test(password),
    small: /[a-z]/.test(password),
    number: /[0-9]/.test(password),
    number_or_symbol: /[^A-Za-z]/.test(password),
    special: SPECIAL.test(password),
    allowed_characters: hasOnlyAllowedCharacters(password),
    not_common: !isCommonPassword(password),
  };
  return [...LEVEL_HINTS[strength], 'allowed_characters' as const, 'not_common' as const].map((id) =>
    id === 'min_length' ? { id, met: met[id], min: MIN_LENGTH[strength] } : { id, met: met[id] },
  );
}
