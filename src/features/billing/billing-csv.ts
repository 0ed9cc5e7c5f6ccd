import type { BillingUsage } from '@generated/model/billingUsage';

/** One field of RFC 4180: quoted when it holds a separator, a quote or a line break; quotes doubled. */
function field(value: string | number): string {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

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
 * The usage as the table shows it, as CSV (RFC 4180, CRLF, UTF-8 with a byte order mark so that spreadsheet
 * programs read the umlauts): one row per month and device, then the totals. Months stay `YYYY-MM` so that
 * the file sorts and imports the same in every language.
 */
export function billingCsv(usage: BillingUsage, headings: CsvHeadings): string {
  const lines = [
    [headings.month, headings.device, headings.examsUploaded, headings.plansSignedOff, headings.parameterSetsProduced],
    ...usage.rows.map((row) => [row.month, row.deviceId ?? headings.noDevice, row.examsUploaded, row.plansSignedOff, row.parameterSetsProduced]),
    [headings.total, `${usage.from} – ${usage.to}`, usage.totals.examsUploaded, usage.totals.plansSignedOff, usage.totals.parameterSetsProduced],
  ];
  return `\uFEFF${lines.map((line) => line.map(field).join(',')).join('\r\n')}\r\n`;
}
