import { Intent, Tag } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { PlanStatus } from '@generated/model/planStatus';

/** A plan status as shown in lists and on the card; a session whose processing failed shows "Error Detected". */
export type ShownPlanStatus = PlanStatus | 'error';

const INTENT: Record<ShownPlanStatus, Intent> = {
  plan_available: Intent.SUCCESS,
  planning: Intent.PRIMARY,
  in_planning: Intent.PRIMARY,
  file_uploaded: Intent.NONE,
  processing: Intent.NONE,
  no_plan_available: Intent.NONE,
  issue_reported: Intent.WARNING,
  error: Intent.DANGER,
};

/** The status a session (or a patient's latest session) is shown with. */
export function shownPlanStatus(planStatus: PlanStatus, failed: boolean): ShownPlanStatus {
  return failed ? 'error' : planStatus;
}

export function PlanStatusTag({ status }: { status: ShownPlanStatus }) {
  const { t } = useTranslation('patients');
  return (
    <Tag minimal round intent={INTENT[status]} className="mp-plan-status">
      {t(`planStatus.${status}`)}
    </Tag>
  );
}
