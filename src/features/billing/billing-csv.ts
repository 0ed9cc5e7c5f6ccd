import type { BillingUsage } from '@generated/model/billingUsage';
import { csvDocument } from '@/lib/csv';

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

/**
 * The usage as the table shows it, as CSV (src/lib/csv.ts: a device id that would run as a formula stays
 * text): one row per month and device, then the totals. Months stay `YYYY-MM` so that
 * the file sorts and imports the same in every language.
 */
export function billingCsv(usage: BillingUsage, headings: CsvHeadings): string {
  return csvDocument([
    [headings.month, headings.device, headings.examsUploaded, headings.plansSignedOff, headings.parameterSetsProduced],
    ...usage.rows.map((row) => [row.month, row.deviceId ?? headings.noDevice, row.examsUploaded, row.plansSignedOff, row.parameterSetsProduced]),
    [headings.total, `${usage.from} – ${usage.to}`, usage.totals.examsUploaded, usage.totals.plansSignedOff, usage.totals.parameterSetsProduced],
  ]);
}
