import type { BillingUsage } from '@generated/model/billingUsage';
import { csvDocument, type CsvSeparator } from '@/lib/csv';

export interface CsvHeadings {
  month: string;
  device: string;
  examsUploaded: string;
  plansSignedOff: string;
  parameterSetsProduced: string;
  /** The device column's text for exams that named none. */
  noDevice: string;
  total: string;
}

/** The months from `from` to `to` (YYYY-MM), both included. */
export function monthsBetween(from: string, to: string): string[] {
  const months: string[] = [];
  let [year, month] = from.split('-').map(Number);
  const [lastYear, lastMonth] = to.split('-').map(Number);
  while (year < lastYear || (year === lastYear && month <= lastMonth)) {
    months.push(`${year}-${String(month).padStart(2, '0')}`);
    [year, month] = month === 12 ? [year + 1, 1] : [year, month + 1];
  }
  return months;
}

/**
 * The usage as CSV (src/lib/csv.ts: a device id that would run as a formula stays text), with the separator
 * the reader's spreadsheet expects: one row per month and device, a month without usage as a row of zeros
 * (so that the file has every month of the range), then the totals, named with their range in the month
 * column. Months stay `YYYY-MM` so that the file sorts and imports the same in every language.
 */
export function billingCsv(usage: BillingUsage, headings: CsvHeadings, separator: CsvSeparator = ','): string {
  const rows = monthsBetween(usage.from, usage.to).flatMap((month) => {
    const used = usage.rows.filter((row) => row.month === month);
    if (!used.length) return [[month, '', 0, 0, 0]];
    return used.map((row) => [row.month, row.deviceId ?? headings.noDevice, row.examsUploaded, row.plansSignedOff, row.parameterSetsProduced]);
  });
  return csvDocument(
    [
      [headings.month, headings.device, headings.examsUploaded, headings.plansSignedOff, headings.parameterSetsProduced],
      ...rows,
      [`${headings.total} ${usage.from} – ${usage.to}`, '', usage.totals.examsUploaded, usage.totals.plansSignedOff, usage.totals.parameterSetsProduced],
    ],
    separator,
  );
}
