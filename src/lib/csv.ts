// CSV files the admin screens export (billing, access history), as spreadsheet programs read them: RFC 4180
// fields, CRLF lines and a byte order mark so that umlauts survive. A text cell that a spreadsheet would take
// as a formula (it begins with = + - @, a tab or a carriage return; OWASP "CSV Injection") gets a leading
// apostrophe, so a device id from an uploaded file such as `=HYPERLINK(…)` is shown as the text it is.

/** Starts a cell that a spreadsheet would run as a formula. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One field: text that would run as a formula neutralised; quoted when it holds a separator, a quote or a line break. */
export function csvField(value: string | number): string {
  const text = typeof value === 'number' ? String(value) : FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The whole file: a byte order mark, one CRLF-ended line per row. */
export function csvDocument(rows: readonly (readonly (string | number)[])[]): string {
  return `\uFEFF${rows.map((row) => `${row.map(csvField).join(',')}\r\n`).join('')}`;
}
