/*
 * Calendar dates typed into a field and shown in it, in the UI language's numeric form: German 23.04.1951,
 * English 23/04/1951 (day first, as src/lib/format.ts shows English dates: en-GB). `<input type="date">`
 * follows the browser's locale instead (a German UI in an English browser showed 04/23/1951), so a date field
 * is plain text read here (docs/architecture.md, "Dates in the UI language"). Forms, URLs and the API keep
 * the contract's YYYY-MM-DD.
 *
 * Both languages write the day first, so what is read does not depend on the language: day and month with
 * one or two digits, a four-digit year, separated by ".", "/" or "-" (23.4.1951, 23/04/1951), or the ISO form
 * 1951-04-23 (pasted from elsewhere). A two-digit year is refused, never guessed (51: 1951 or 2051?).
 */

/** The earliest birthday the contract accepts: the patient form and the patient list's filters start there. */
export const EARLIEST_BIRTHDAY = '1900-01-01';

export type DateTextProblem =
  /** Nothing typed. */
  | 'empty'
  /** Not day, month and four-digit year ("23.4.51", "1951", "21960-04-23"). */
  | 'format'
  /** No such day in the calendar (31.02.1951, 13th month, day 0). */
  | 'impossible';

export type DateTextResult = { ok: true; value: string } | { ok: false; problem: DateTextProblem };

const DAY_FIRST = /^(\d{1,2}) *([./-]) *(\d{1,2}) *\2 *(\d{4})$/;
const YEAR_FIRST = /^(\d{4})-(\d{1,2})-(\d{1,2})$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

const pad = (n: number) => String(n).padStart(2, '0');

const daysIn = (year: number, month: number) =>
  month === 2 ? (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;

const isReal = (year: number, month: number, day: number) => month >= 1 && month <= 12 && day >= 1 && day <= daysIn(year, month);

/** A real calendar date in YYYY-MM-DD (not 2026-02-30). */
export function isIsoDate(value: string): boolean {
  const match = ISO_DATE.exec(value);
  return Boolean(match) && isReal(Number(match![1]), Number(match![2]), Number(match![3]));
}

/** What was typed, as YYYY-MM-DD; spaces around it and beside the separators are ignored. */
export function parseDateText(text: string): DateTextResult {
  const trimmed = text.trim();
  if (!trimmed) return { ok: false, problem: 'empty' };
  const dayFirst = DAY_FIRST.exec(trimmed);
  const yearFirst = dayFirst ? null : YEAR_FIRST.exec(trimmed);
  if (!dayFirst && !yearFirst) return { ok: false, problem: 'format' };
  const [year, month, day] = dayFirst ? [dayFirst[4], dayFirst[3], dayFirst[1]].map(Number) : [1, 2, 3].map((i) => Number(yearFirst![i]));
  if (!isReal(year, month, day)) return { ok: false, problem: 'impossible' };
  return { ok: true, value: `${String(year).padStart(4, '0')}-${pad(month)}-${pad(day)}` };
}

/** '1951-04-23' as the field shows it: '23.04.1951' (de) or '23/04/1951' (en); anything else as it is. */
export function formatDateText(isoDate: string, language: string): string {
  const match = ISO_DATE.exec(isoDate);
  if (!match) return isoDate;
  const separator = language.startsWith('de') ? '.' : '/';
  return [match[3], match[2], match[1]].join(separator);
}

/** Why a date lies outside `min`…`max` (YYYY-MM-DD, either optional), or nothing. */
export function dateRangeProblem(isoDate: string, min?: string, max?: string): 'tooEarly' | 'tooLate' | undefined {
  if (min && isoDate < min) return 'tooEarly';
  if (max && isoDate > max) return 'tooLate';
  return undefined;
}
