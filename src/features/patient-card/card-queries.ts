import type { ListPatientTreatmentsParams } from '@generated/model/listPatientTreatmentsParams';
import { PlanStatus } from '@generated/model/planStatus';

/** Patient ids are UUIDs: anything else in the link is a card that cannot exist (no request is sent). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isPatientId = (value: string): boolean => UUID.test(value);

/**
 * A patient has few sessions; the card shows them all (the contract's largest page). Page and loader ask with
 * the same parameters, so the page finds what the loader fetched.
 */
export const SESSION_LIST_PARAMS: ListPatientTreatmentsParams = { perPage: 100 };

/** A session in these states is still being processed: the card reads it again until it is not. */
export const IN_PROGRESS: readonly PlanStatus[] = [PlanStatus.file_uploaded, PlanStatus.processing];
export const isInProgress = (status: PlanStatus): boolean => IN_PROGRESS.includes(status);
