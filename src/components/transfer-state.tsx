import { Intent } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { TransferStatus } from '@generated/model/transferStatus';
import { StatusTag } from './plan-status-tag';

/*
 * Where a session's signed plan stands on its way to the laser (issue 29), beside its plan status: in the patient
 * list (the latest session's), on the card and in the wizard's step 5. The list loads this with its first visit,
 * at the edge of its bundle budget: it shares the plan status tag's chunk (it imports from it) and stays small.
 */

// Withdrawn (cancelled) is grey.
const INTENT: Partial<Record<TransferStatus, Intent>> = {
  queued: Intent.PRIMARY,
  received: Intent.PRIMARY,
  treated: Intent.SUCCESS,
  failed: Intent.DANGER,
};

/**
 * "Sent to laser", "At the laser", "Treated", "Transfer failed" or "Withdrawn". The day of a treatment ("Treated on
 * 12.08.2026", patients:transfer.treatedOn) is the caller's line: the list, which loads this with its first visit,
 * knows only the status and would carry the date's code for nothing.
 */
export function TransferStatusTag({ status }: { status: TransferStatus }) {
  const { t } = useTranslation('patients');
  return <StatusTag intent={INTENT[status]}>{t(`transfer.${status}`)}</StatusTag>;
}
