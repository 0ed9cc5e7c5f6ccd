import type { ListPatientTreatmentsParams } from '@generated/model/listPatientTreatmentsParams';
import { PlanStatus } from '@generated/model/planStatus';


/**
 * A patient has few sessions; the card shows them all (the contract's largest page). Page and loader ask with
 * the same parameters, so the page finds what the loader fetched.
 */
export const SESSION_LIST_PARAMS: ListPatientTreatmentsParams = { perPage: 100 };

/** A session in these states is still being processed: the card reads it again until it is not. */
export const IN_PROGRESS: readonly PlanStatus[] = [PlanStatus.file_uploaded, PlanStatus.processing];
export const isInProgress = (status: PlanStatus): boolean => IN_PROGRESS.includes(status);
