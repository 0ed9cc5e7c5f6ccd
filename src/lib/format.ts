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

const calendarDate = (locale: string) =>
  kept(`calendar ${locale}`, () => new Intl.DateTimeFormat(locale, { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'UTC' }));

/** '1951-04-23' → '23.04.1951' (de) or '23/04/1951' (en-GB style day first). */
export function formatCalendarDate(isoDate: string, language: string): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? isoDate : calendarDate(locale(language)).format(date);
}

/** An instant as date and time in the user's zone. */
export function formatDateTime(timestamp: string, language: string): string {
  const date = new Date(timestamp);
  if (Number.isNaN(date.getTime())) return timestamp;
  const tag = locale(language);
  return kept(`dateTime ${tag}`, () => new Intl.DateTimeFormat(tag, { dateStyle: 'medium', timeStyle: 'short' })).format(date);
}

/** An instant as a date in the user's zone. */
export function formatDate(timestamp: string, language: string): string {
  const date = new Date(timestamp);
  if (Number.isNaN(date.getTime())) return timestamp;
  const tag = locale(language);
  return kept(`date ${tag}`, () => new Intl.DateTimeFormat(tag, { day: '2-digit', month: '2-digit', year: 'numeric' })).format(date);
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
