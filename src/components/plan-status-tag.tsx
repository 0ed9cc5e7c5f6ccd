import { Intent, Tag } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PlanStatus } from '@generated/model/planStatus';

/** A plan status as shown in lists and on the card; a session whose processing failed shows "Error Detected". */
export type ShownPlanStatus = PlanStatus | 'error';

// A status missing here is grey (no intent). Keyed by the generated object rather than literals: its module then
// shares this module's chunk, which the patient list and the card load at the edge of their bundle budgets.
const INTENT: Partial<Record<ShownPlanStatus, Intent>> = {
  [PlanStatus.plan_available]: Intent.SUCCESS,
  [PlanStatus.planning]: Intent.PRIMARY,
  [PlanStatus.in_planning]: Intent.PRIMARY,
  [PlanStatus.issue_reported]: Intent.WARNING,
  error: Intent.DANGER,
};

/** The status a session (or a patient's latest session) is shown with. */
export function shownPlanStatus(planStatus: PlanStatus, failed: boolean): ShownPlanStatus {
  return failed ? 'error' : planStatus;
}

/**
 * The small round tag a status is shown with: a plan's here, a transfer's (src/components/transfer-state.tsx), a
 * staff member's and an invite's. `multiline`: Blueprint's ellipsizing text measures itself after each render (a
 * forced layout per tag, 40 on a list page); a status is short and kept on one line by its class instead, never
 * cut off. Other tags in rows (and the role beside the user's name on every page) do the same with `mp-nowrap`.
 */
export function StatusTag({ intent, children }: { intent: Intent | undefined; children: ReactNode }) {
  return (
    <Tag minimal round multiline intent={intent} className="mp-plan-status">
      {children}
    </Tag>
  );
}

export function PlanStatusTag({ status }: { status: ShownPlanStatus }) {
  const { t } = useTranslation('patients');
  return <StatusTag intent={INTENT[status]}>{t(`planStatus.${status}`)}</StatusTag>;
}
