import type { AccessLogEntry } from '@generated/model/accessLogEntry';
import { csvDocument, type CsvSeparator } from '@/lib/csv';

/** The texts of the file in the reader's language; the page supplies them from its catalogue. */
export interface CsvTexts {
  headings: { when: string; user: string; role: string; action: string; outcome: string; patient: string; patientId: string; patientCount: string; ip: string; seq: string };
  user: (entry: AccessLogEntry) => string;
  role: (entry: AccessLogEntry) => string;
  action: (entry: AccessLogEntry) => string;
  outcome: (entry: AccessLogEntry) => string;
  patient: (entry: AccessLogEntry) => string;
}

/** '2026-11-21 10:02:44' in the user's zone: sorts and imports the same in every language. */
export function localTimestamp(at: string): string {
  const date = new Date(at);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`;
}

/**
 * The entries as CSV (src/lib/csv.ts: a name or address that would run as a formula stays text), one row per
 * entry as the table shows it, plus the ids and the chain's entry number an audit needs.
 */
export function accessLogCsv(entries: readonly AccessLogEntry[], texts: CsvTexts, separator: CsvSeparator = ','): string {
  const h = texts.headings;
  return csvDocument([
    [h.when, h.user, h.role, h.action, h.outcome, h.patient, h.patientId, h.patientCount, h.ip, h.seq],
    ...entries.map((entry) => [
      localTimestamp(entry.at),
      texts.user(entry),
      texts.role(entry),
      texts.action(entry),
      texts.outcome(entry),
      texts.patient(entry),
      entry.patient?.id ?? '',
      entry.patientCount,
      entry.ip ?? '',
      entry.seq,
    ]),
  ], separator);
}
