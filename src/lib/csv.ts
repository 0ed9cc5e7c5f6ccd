// CSV files the admin screens export (billing, access history), as spreadsheet programs read them: RFC 4180
// fields, CRLF lines and a byte order mark so that umlauts survive. The separator is the one the reader's
// spreadsheet expects: a German Excel or LibreOffice opens `;`-separated files into columns (its list separator,
// as the comma is its decimal mark), an English one `,`. A text cell that a spreadsheet would take
// as a formula (it begins with = + - @, a tab or a carriage return; OWASP "CSV Injection") gets a leading
// apostrophe, so a device id from an uploaded file such as `=HYPERLINK(…)` is shown as the text it is.

/** Starts a cell that a spreadsheet would run as a formula. */
const FORMULA_START = /^[=+\-@\t\r]/;

export type CsvSeparator = ',' | ';';

/** The separator a spreadsheet in the UI language expects. */
export const csvSeparatorFor = (language: string): CsvSeparator => (language.startsWith('de') ? ';' : ',');

/** One field: text that would run as a formula neutralised; quoted when it holds either separator, a quote or a line break. */
export function csvField(value: string | number): string {
  const text = typeof value === 'number' ? String(value) : FORMULA_START.test(value) ? `'${value}` : value;
  return /[",;\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The whole file: a byte order mark, one CRLF-ended line per row. */
export function csvDocument(rows: readonly (readonly (string | number)[])[], separator: CsvSeparator = ','): string {
  return `\uFEFF${rows.map((row) => `${row.map(csvField).join(separator)}\r\n`).join('')}`;
}
