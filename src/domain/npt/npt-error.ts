// Why a file was refused. Each code has one message in locales/<lang>/npt.json; the server answers an
// upload with HTTP 422 `npt.<code>` (413 for too_large), so codes are part of the contract: never rename.

export type NptErrorCode =
  | 'not_a_zip'
  | 'manifest_missing'
  | 'manifest_invalid'
  | 'unknown_version'
  | 'wrong_kind'
  | 'field_invalid'
  | 'image_missing'
  | 'image_invalid'
  | 'checksum_mismatch'
  | 'too_large'
  | 'too_many_entries'
  | 'path_traversal'
  | 'duplicate_entry'
  | 'unexpected_entry';

/** Every code, in the order the documentation lists them (tests and message catalogues iterate it). */
export const NPT_ERROR_CODES: readonly NptErrorCode[] = [
  'not_a_zip',
  'manifest_missing',
  'manifest_invalid',
  'unknown_version',
  'wrong_kind',
  'field_invalid',
  'image_missing',
  'image_invalid',
  'checksum_mismatch',
  'too_large',
  'too_many_entries',
  'path_traversal',
  'duplicate_entry',
  'unexpected_entry',
];

export interface NptError {
  code: NptErrorCode;
  /** Dotted path of the offending manifest field (field_invalid only), e.g. `images[0].sha256`. */
  field?: string;
  /** Values for the message placeholders; strings are already safe to display. */
  params: Record<string, string | number>;
}

export type NptResult<T> = { ok: true; value: T } | { ok: false; error: NptError };

export function ok<T>(value: T): NptResult<T> {
  return { ok: true, value };
}

export function fail<T = never>(code: NptErrorCode, params: Record<string, string | number> = {}): NptResult<T> {
  return { ok: false, error: { code, params } };
}

export function fieldInvalid<T = never>(field: string): NptResult<T> {
  return { ok: false, error: { code: 'field_invalid', field, params: { field } } };
}

const MAX_DISPLAY_LENGTH = 120;

/**
 * A name from the file, made safe for a message: a hostile entry name may hold control characters or be
 * 64 KiB long, and it ends up in a toast and in logs.
 */
export function displayName(name: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what we replace
  const visible = name.replace(/[\u0000-\u001f\u007f-\u009f]/g, '\ufffd');
  const points = [...visible];
  return points.length > MAX_DISPLAY_LENGTH ? `${points.slice(0, MAX_DISPLAY_LENGTH - 1).join('')}…` : visible;
}
