/*
 * Dates and sizes as the UI language writes them. A birthday is a calendar date (no time, no zone): it is
 * formatted in UTC so that it never moves a day; a session's date is an instant, shown in the user's zone.
 */

// Making an Intl formatter costs far more than using one (a list page of 20 rows made some 60 and spent ~20 ms on
// them, 80 ms on a phone's slower CPU): the dates' and numbers' are made once per language and options, and kept.
const formatters = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>();
function kept<F extends Intl.DateTimeFormat | Intl.NumberFormat>(key: string, make: () => F): F {
  if (!formatters.has(key)) formatters.set(key, make());
  return formatters.get(key) as F;
}

/*
 * The dates are written by hand in the forms the UI shows (23/04/1951, 23.04.1951, 23 Apr 2026, 14:05): the first
 * Intl.DateTimeFormat a page makes costs Chromium 60–90 ms (it loads its calendar and pattern data), some 250–370 ms
 * of a phone's main thread, on every signed-in page that shows a date. format.test.ts holds them to Intl's output
 * for instants across two centuries; a year outside 1000–9999, which no record of ours has, is left to Intl.
 */
const EN_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sept', 'Oct', 'Nov', 'Dec'];
const twoDigits = (n: number) => String(n).padStart(2, '0');
const writtenByHand = (year: number) => year >= 1000 && year <= 9999;

/** Day, month and year as digits, in the order and with the separator of `language`. */
function numericDate(year: number, monthIndex: number, day: number, language: string): string {
  const separator = locale(language) === 'de-DE' ? '.' : '/';
  return [twoDigits(day), twoDigits(monthIndex + 1), String(year)].join(separator);
}

/** '1951-04-23' → '23.04.1951' (de) or '23/04/1951' (en-GB style day first). */
export function formatCalendarDate(isoDate: string, language: string): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return isoDate;
  if (!writtenByHand(date.getUTCFullYear())) {
    const tag = locale(language);
    return kept(`calendar ${tag}`, () => new Intl.DateTimeFormat(tag, { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'UTC' })).format(date);
  }
  return numericDate(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate(), language);
}

/** An instant as date and time in the user's zone: '3 Apr 2026, 09:05' (en-GB) or '03.04.2026, 09:05' (de). */
export function formatDateTime(timestamp: string, language: string): string {
  const date = new Date(timestamp);
  if (Number.isNaN(date.getTime())) return timestamp;
  const tag = locale(language);
  if (!writtenByHand(date.getFullYear())) {
    return kept(`dateTime ${tag}`, () => new Intl.DateTimeFormat(tag, { dateStyle: 'medium', timeStyle: 'short' })).format(date);
  }
  const day =
    tag === 'de-DE'
      ? numericDate(date.getFullYear(), date.getMonth(), date.getDate(), language)
      : `${date.getDate()} ${EN_MONTHS[date.getMonth()]} ${date.getFullYear()}`;
  return `${day}, ${twoDigits(date.getHours())}:${twoDigits(date.getMinutes())}`;
}

/** An instant as a date in the user's zone. */
export function formatDate(timestamp: string, language: string): string {
  const date = new Date(timestamp);
  if (Number.isNaN(date.getTime())) return timestamp;
  if (!writtenByHand(date.getFullYear())) {
    const tag = locale(language);
    return kept(`date ${tag}`, () => new Intl.DateTimeFormat(tag, { day: '2-digit', month: '2-digit', year: 'numeric' })).format(date);
  }
  return numericDate(date.getFullYear(), date.getMonth(), date.getDate(), language);
}

/** The user's time zone as an IANA name (what the browser is set to), for files the server dates in it. */
export function userTimeZone(): string | undefined {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
}

/** Today in the user's calendar, YYYY-MM-DD (a birthday "in the future" is judged where the user is). */
export function localToday(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** Full years from a birthday to `today` (both YYYY-MM-DD). */
export function ageOn(birthday: string, today: string): number {
  const [by, bm, bd] = birthday.split('-').map(Number);
  const [ty, tm, td] = today.split('-').map(Number);
  return ty - by - (tm < bm || (tm === bm && td < bd) ? 1 : 0);
}

/** Bytes in the units people read: '512 B', '12.4 MB' ('12,4 MB' in German). */
export function formatBytes(bytes: number, language: string): string {
  const units = ['B', 'kB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  const digits = unit === 0 ? 0 : 1;
  return `${new Intl.NumberFormat(locale(language), { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value)} ${units[unit]}`;
}

// English dates day first, as the clinics we serve (UK and Europe) write them.
const locale = (language: string) => (language.startsWith('de') ? 'de-DE' : 'en-GB');

/** Items as a sentence lists them in the UI language: 'a, b and c' ('a, b und c' in German). */
export function formatList(items: readonly string[], language: string): string {
  return new Intl.ListFormat(locale(language), { type: 'conjunction' }).format(items);
}

/** A number in the UI language with at most `digits` decimals (1,234.5 / 1.234,5), never a negative zero. */
export function formatNumber(value: number, language: string, digits = 0): string {
  // −0.3 to no decimals is 0, not "-0".
  const rounded = Number(value.toFixed(digits)) || 0;
  const tag = locale(language);
  return kept(`number ${tag} ${digits}`, () => new Intl.NumberFormat(tag, { maximumFractionDigits: digits })).format(rounded);
}
