/**
 * The months the billing tab shows, in the URL (`?from=2026-09&to=2026-11`): by default the last three months
 * including this one. The choices reach back 36 months (the contract's longest range).
 */
export interface BillingRange {
  from: string;
  to: string;
}

export const MONTHS_OFFERED = 36;
const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

const indexOf = (month: string) => Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1;
const monthOf = (index: number) => `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;

/** This month (UTC, as the server counts) of `now`. */
export const currentMonth = (now: Date) => monthOf(now.getUTCFullYear() * 12 + now.getUTCMonth());

/** The months offered, newest first. */
export function offeredMonths(now: Date): string[] {
  const last = indexOf(currentMonth(now));
  return Array.from({ length: MONTHS_OFFERED }, (_, back) => monthOf(last - back));
}

export function defaultRange(now: Date): BillingRange {
  const to = currentMonth(now);
  return { from: monthOf(indexOf(to) - 2), to };
}

/** The range of a URL: months offered and in order, else the default. */
export function readRange(params: URLSearchParams, now: Date): BillingRange {
  const offered = offeredMonths(now);
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  if (MONTH.test(from) && MONTH.test(to) && offered.includes(from) && offered.includes(to) && from <= to) return { from, to };
  return defaultRange(now);
}

/** A range whose other end moves along when one end passes it. */
export function withFrom(range: BillingRange, from: string): BillingRange {
  return { from, to: range.to < from ? from : range.to };
}

export function withTo(range: BillingRange, to: string): BillingRange {
  return { from: range.from > to ? to : range.from, to };
}

/** "November 2026" in the reader's language. */
export function monthLabel(month: string, language: string): string {
  return new Intl.DateTimeFormat(language, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${month}-01T00:00:00Z`));
}
