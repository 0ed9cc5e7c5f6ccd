import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { getGetPatientQueryKey, getListPatientsQueryKey, getListPatientTreatmentsQueryKey } from '@generated/hooks/patients/patients';
import { getGetTreatmentQueryKey } from '@generated/hooks/treatments/treatments';
import type { Plan } from '@generated/model/plan';
import type { Treatment } from '@generated/model/treatment';
import type { TreatmentResponse } from '@generated/model/treatmentResponse';
import { useFailureMessage } from '@/components/form-fields';
import { useNotify } from '@/components/notifications';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { SAVED_STATE } from './step-panel';

/** A failed save as the step shows it: the server's message and its messages per field. */
export interface StepFailure {
  message: string;
  fields: string[];
}

/**
 * After a change to the session: the patient's card (its sessions) and the patient list show it. Realtime tells
 * every other page; this page's own changes are not sent back to it (the socket is excluded).
 */
export function useRefreshLists(treatment: Pick<Treatment, 'patientId'>) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: getListPatientTreatmentsQueryKey(treatment.patientId) }),
      queryClient.invalidateQueries({ queryKey: getGetPatientQueryKey(treatment.patientId) }),
      queryClient.invalidateQueries({ queryKey: getListPatientsQueryKey() }),
    ]);
}

/**
 * What every step does with its save's answer. Success: the server's plan goes into the treatment's cache, the
 * patient's lists are refreshed, and the wizard opens at the server's step (the next one). A plan changed
 * meanwhile (409 plan.revision_stale) is loaded and the user told; the step then starts again from it.
 */
export function useStepSave(treatment: Treatment) {
  const { t } = useTranslation('planning');
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const notify = useNotify();
  const failureMessage = useFailureMessage();
  const key = getGetTreatmentQueryKey(treatment.id);
  const refreshLists = useRefreshLists(treatment);

  /**
   * `reread`: the answer lacks something the wizard shows (the final adjustments change the session's laser
   * settings, which a plan does not carry: `settings` gives them as sent), so the session is read again at once. Otherwise the answer is the
   * server's word on the plan and is shown as it is; the session is only marked stale (read again when next
   * needed), which saves a round trip per step on a slow line.
   */
  const saved = async (answer: { plan?: Plan; treatment?: Treatment; settings?: Partial<Treatment>; message?: string }, reread = false) => {
    queryClient.setQueryData<TreatmentResponse>(key, (before) => {
      if (answer.treatment) return { ...(before ?? { status: 'Success' }), data: answer.treatment } as TreatmentResponse;
      // The settings just saved stand in for the session's until it is read again: the new plan with the old
      // settings would show them for a moment (at sign-off, the duty cycle before the change).
      return before && answer.plan ? { ...before, data: { ...before.data, ...answer.settings, plan: answer.plan } } : before;
    });
    if (answer.message) notify({ intent: 'success', message: answer.message });
    await navigate(paths.physician.planning.getHref(treatment.id), { state: SAVED_STATE });
    await Promise.all([queryClient.invalidateQueries({ queryKey: key, refetchType: reread ? 'active' : 'none' }), refreshLists()]);
  };

  /** The failure to show in the step, or null when it was handled here (a stale plan was reloaded). */
  const failed = (error: unknown): StepFailure | null => {
    if (error instanceof ApiError && error.status === 409 && (error.body as { code?: string } | undefined)?.code === 'plan.revision_stale') {
      // The user's changes are gone: a notice that stays until it is closed.
      notify({ intent: 'danger', message: t('stale'), duration: 0 });
      void queryClient.invalidateQueries({ queryKey: key });
      return null;
    }
    if (error instanceof ApiError && (error.status === 423 || error.status === 404)) void queryClient.invalidateQueries({ queryKey: key });
    const fields = error instanceof ApiError && error.errors ? [...new Set(Object.values(error.errors).flat())] : [];
    return { message: failureMessage(error), fields: fields.filter((line) => line !== failureMessage(error)) };
  };

  return { saved, failed };
}
