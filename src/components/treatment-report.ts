/**
 * A session's treatment report (PDF) as the card and the wizard's last step download it: its dates and times
 * in the user's time zone, saved under one name in the UI language wherever it was downloaded from.
 */
import type { i18n as I18n } from 'i18next';
import { downloadTreatmentReport } from '@generated/hooks/treatments/treatments';
import type { TreatmentSummary } from '@generated/model/treatmentSummary';
import { userTimeZone } from '@/lib/format';
import { saveBlob } from '@/lib/save-blob';

export async function saveTreatmentReport(session: Pick<TreatmentSummary, 'id' | 'number' | 'eye' | 'date'>, i18n: I18n): Promise<void> {
  const report = await downloadTreatmentReport(session.id, { timeZone: userTimeZone() });
  // The session's day as the server names the file (its UTC date).
  const name = i18n.t('patients:treatmentReportFileName', { number: session.number, eye: session.eye, date: session.date.slice(0, 10) });
  saveBlob(report, name);
}
