/*
 * Numbers typed into a field and shown in it, in the UI language: German writes 2,5 and English 2.5. A number
 * field is plain text (`<input type="number">` reads only the browser's locale: an English browser dropped the
 * comma of "2,5" and took 2), so it is read here, strictly. Only the language's own decimal mark is accepted;
 * the other mark and thousands separators are refused with a reason, never guessed: in German "1.234" may be
 * 1234 or 1,234, and a clinical value a factor of 1000 off is worse than a second try (docs/architecture.md,
 * "Numbers in the UI language").
 */

export type NumberTextProblem =
  /** Nothing typed. */
  | 'empty'
  /** Not a number at all ("abc", "1-2", "--3"). */
  | 'not_a_number'
  /** The other language's decimal mark or a thousands separator ("2.5" or "1.234" in German, "2,5" in English). */
  | 'wrong_separator'
  /** More decimals than the field takes (digits 0: a whole number). */
  | 'too_many_decimals';

export type NumberTextResult = { ok: true; value: number } | { ok: false; problem: NumberTextProblem };

const isGerman = (language: string) => language.startsWith('de');

/** The decimal mark of the UI language: ',' in German, '.' in English. */
export const decimalMark = (language: string): ',' | '.' => (isGerman(language) ? ',' : '.');

const formats = new Map<string, Intl.NumberFormat>();
const formatOf = (language: string, digits: number) => {
  const key = `${isGerman(language) ? 'de' : 'en'}:${digits}`;
  let format = formats.get(key);
  if (!format) {
    // No grouping in a field: "1234,5" is read back as typed, and a field never shows what it would refuse.
    format = new Intl.NumberFormat(isGerman(language) ? 'de-DE' : 'en-GB', { maximumFractionDigits: digits, useGrouping: false });
    formats.set(key, format);
  }
  return format;
};

/**
 * `value` as a number field shows it: at most `digits` decimals (trailing zeros left off), the language's
 * decimal mark, no thousands separators, never "-0".
 */
export function formatNumberText(value: number, language: string, digits = 0): string {
  const rounded = Number(value.toFixed(digits)) || 0;
  return formatOf(language, digits).format(rounded);
}

/**
 * What was typed, as a number: an optional minus (- or −), digits, and the language's decimal mark with at
 * most `digits` decimals after it (",5" and "2," are read as 0,5 and 2). Spaces around it are ignored.
 */
export function parseNumberText(text: string, language: string, digits = 0): NumberTextResult {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, problem: 'empty' };
  const mark = decimalMark(language);
  const other = mark === ',' ? '.' : ',';
  const match = /^([-−]?)(\d*)(?:[.,](\d*))?$/.exec(trimmed);
  if (!match || (match[2] === '' && !match[3])) {
    // "1.234,5" or "1,234.5": a thousands separator beside a decimal mark.
    if (/^[-−]?\d[\d.,\s\u00a0\u202f']*$/.test(trimmed) && /[.,]/.test(trimmed)) return { ok: false, problem: 'wrong_separator' };
    return { ok: false, problem: 'not_a_number' };
  }
  if (trimmed.includes(other)) return { ok: false, problem: 'wrong_separator' };
  const [, sign, whole, fraction = ''] = match;
  if (fraction.length > digits) return { ok: false, problem: 'too_many_decimals' };
  const value = Number(`${sign ? '-' : ''}${whole || '0'}.${fraction || '0'}`);
  return Number.isFinite(value) ? { ok: true, value: value || 0 } : { ok: false, problem: 'not_a_number' };
}

export interface StepRange {
  min: number;
  max: number;
  step: number;
  /** Decimals the field takes: the stepped value is rounded to them. */
  digits: number;
}

/**
 * The value an arrow key gives (direction +1 up, −1 down; `times` steps at once, 10 for Page Up and Down), as
 * `<input type="number">` steps: to the next multiple of the step counted from `min`, so a value between steps
 * (a radius from a drag) lands on the grid first, within min and max.
 */
export function steppedValue(value: number, direction: 1 | -1, range: StepRange, times = 1): number {
  const { min, max, step, digits } = range;
  // A hair of tolerance: 0.15 / 0.05 is 2.9999999999999996 in floating point, and is on the grid.
  const position = (value - min) / step;
  const onGrid = direction > 0 ? Math.floor(position + 1e-9) : Math.ceil(position - 1e-9);
  const next = min + (onGrid + direction * times) * step;
  const clamped = Math.min(max, Math.max(min, next));
  return Number(clamped.toFixed(Math.max(digits, decimalsOf(step)))) || 0;
}

const decimalsOf = (value: number) => {
  const text = String(value);
  const dot = text.indexOf('.');
  return dot < 0 ? 0 : text.length - dot - 1;
};
