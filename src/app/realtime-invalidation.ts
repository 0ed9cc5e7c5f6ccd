/**
 * What each realtime event makes stale, as the generated query keys of what it names. Loaded with the first
 * event (src/app/realtime-updates.ts), so the signed-in frame does not carry the hooks of every area.
 */
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { getListAnnotationLabelsQueryKey, getListImageAnnotationsQueryKey } from '@generated/hooks/annotations/annotations';
import { getListDevicesQueryKey } from '@generated/hooks/clinic/clinic';
import {
  getComparePatientTreatmentsQueryKey,
  getGetPatientQueryKey,
  getListPatientsQueryKey,
  getListPatientTreatmentsQueryKey,
} from '@generated/hooks/patients/patients';
import { getGetPlanQueryKey, getGetPreviousTreatmentQueryKey, getListTreatmentAuditQueryKey } from '@generated/hooks/planning/planning';
import { getGetProfileQueryKey } from '@generated/hooks/profile/profile';
import { getGetTreatmentQueryKey } from '@generated/hooks/treatments/treatments';
import { getListNotificationsQueryKey } from '@generated/hooks/notifications/notifications';
import type { Profile } from '@generated/model/profile';
import type { RealtimeEvent } from '@/domain/realtime/events';

/** What a patient's change makes stale: the lists, the card, its sessions and their comparison. */
const patientKeys = (patientId: string): QueryKey[] => [
  getGetPatientQueryKey(patientId),
  getListPatientTreatmentsQueryKey(patientId),
  getComparePatientTreatmentsQueryKey(patientId),
];

/**
 * The query keys an event makes stale (matched as prefixes: a list key without its parameters stands for
 * every page and filter of it).
 */
export function staleQueryKeys(event: RealtimeEvent, profile: Pick<Profile, 'id'>): QueryKey[] {
  switch (event.name) {
    case 'treatment.processed':
    case 'treatment.failed':
    case 'treatment.locked':
    case 'treatment.modified':
    case 'plan.step-saved': {
      const { patientId, treatmentId } = event.payload;
      return [
        getGetTreatmentQueryKey(treatmentId),
        getGetPlanQueryKey(treatmentId),
        // Registered in the background: the job announces the session modified when it is done.
        getGetPreviousTreatmentQueryKey(treatmentId),
        getListTreatmentAuditQueryKey(treatmentId),
        getListPatientsQueryKey(),
        ...patientKeys(patientId),
      ];
    }
    case 'patients.created':
    case 'patients.changed':
      return [getListPatientsQueryKey(), ...event.payload.patientIds.flatMap(patientKeys)];
    case 'users.changed':
      // Only the user's own account (deactivated, say: the profile is refused and they are signed out). The
      // IT admin's staff screens are not refetched under them: their searches, pickers and forms moved while
      // in use when the journeys changed staff all the time; they read afresh when opened.
      return event.payload.userIds.includes(profile.id) ? [getGetProfileQueryKey()] : [];
    case 'notification.created':
      return [getListNotificationsQueryKey()];
    case 'annotations.changed':
      return [getListImageAnnotationsQueryKey(event.payload.treatmentId, event.payload.imageId)];
    case 'annotation-labels.changed':
      return [getListAnnotationLabelsQueryKey()];
    case 'devices.changed':
      // The IT admins' devices screen: Online and Offline follow the sync apps' heartbeats live.
      return [getListDevicesQueryKey()];
  }
}

/**
 * Marks the keys stale and refetches what is on screen, except queries that opted out with
 * `meta: { realtime: false }` (a picker in an open dialog, which must not reshuffle under the pointer).
 */
export function invalidate(queryClient: QueryClient, keys: Iterable<QueryKey>): void {
  for (const queryKey of keys) void queryClient.invalidateQueries({ queryKey, predicate: (query) => query.meta?.realtime !== false });
}
