// The labels a mark carries and its note. Every clinic starts with the eight default labels (their names in
// English and German come from the locale files, by key); physicians and nurses add their own while labelling.

export const DEFAULT_LABEL_KEYS = [
  'microaneurysm',
  'haemorrhage',
  'hard_exudate',
  'leakage_point',
  'oedema_area',
  'drusen',
  'scar_or_previous_laser',
  'other',
] as const;

export type DefaultLabelKey = (typeof DEFAULT_LABEL_KEYS)[number];

export const isDefaultLabelKey = (key: string): key is DefaultLabelKey => (DEFAULT_LABEL_KEYS as readonly string[]).includes(key);

export const LABEL_NAME_MAX_LENGTH = 60;
/** A clinic's labels, the eight defaults included. */
export const MAX_LABELS_PER_CLINIC = 200;
export const NOTE_MAX_LENGTH = 1000;
export const MAX_MARKS_PER_IMAGE = 500;

// Control characters have no place in a name; a note may keep its line breaks and tabs.
// eslint-disable-next-line no-control-regex
const NAME_FORBIDDEN = /[\u0000-\u001f\u007f-\u009f]/;
// eslint-disable-next-line no-control-regex
const NOTE_FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

export type TextProblem = 'required' | 'too_long' | 'invalid_characters';

/** A label name as stored: trimmed (Unicode NFC), 1–60 characters, no control characters. */
export function labelName(raw: string): { ok: true; value: string } | { ok: false; problem: TextProblem } {
  const value = raw.normalize('NFC').trim();
  if (!value) return { ok: false, problem: 'required' };
  if ([...value].length > LABEL_NAME_MAX_LENGTH) return { ok: false, problem: 'too_long' };
  if (NAME_FORBIDDEN.test(value)) return { ok: false, problem: 'invalid_characters' };
  return { ok: true, value };
}

/** How two names are compared for uniqueness: without regard to case (or Unicode composition). */
export const labelNameKey = (name: string) => name.normalize('NFC').trim().toLocaleLowerCase('de').normalize('NFC');

/**
 * A label's two names when it is given in one language or both: one given alone stands for both. Null when
 * neither is given.
 */
export function labelNames(nameEn: string | null, nameDe: string | null): { en: string; de: string } | null {
  const en = nameEn ?? nameDe;
  const de = nameDe ?? nameEn;
  return en !== null && de !== null ? { en, de } : null;
}

/** Whether a new label's names clash with any existing label's name in either language. */
export function clashesWith(names: { en: string; de: string }, existing: Iterable<{ en: string; de: string }>): boolean {
  const wanted = new Set([labelNameKey(names.en), labelNameKey(names.de)]);
  for (const other of existing) if (wanted.has(labelNameKey(other.en)) || wanted.has(labelNameKey(other.de))) return true;
  return false;
}

/** A mark's note as stored: trimmed, blank is none, at most 1000 characters, line breaks allowed. */
export function markNote(raw: string | null | undefined): { ok: true; value: string | null } | { ok: false; problem: TextProblem } {
  if (raw === null || raw === undefined) return { ok: true, value: null };
  const value = raw.normalize('NFC').trim();
  if (!value) return { ok: true, value: null };
  if ([...value].length > NOTE_MAX_LENGTH) return { ok: false, problem: 'too_long' };
  if (NOTE_FORBIDDEN.test(value)) return { ok: false, problem: 'invalid_characters' };
  return { ok: true, value };
}
