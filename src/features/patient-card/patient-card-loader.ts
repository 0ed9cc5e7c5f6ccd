import type { QueryClient } from '@tanstack/react-query';
import type { LoaderFunctionArgs } from 'react-router-dom';
import { getGetPatientQueryOptions, getListPatientTreatmentsQueryOptions } from '@generated/hooks/patients/patients';
import { getGetTreatmentQueryOptions } from '@generated/hooks/treatments/treatments';
import { getToken } from '@/lib/auth-storage';
import { isUuid } from '@/lib/uuid';
import { SESSION_LIST_PARAMS } from './card-queries';

/**
 * Route loader of /physician/patient-card: asks for the patient and their sessions as soon as the route's code
 * is there, while the signed-in frame still waits for the profile, and for each session's details once the
 * list is in, so the card does not fetch patient → sessions → settings one after another. It does not wait
 * for the answers (the page has its own loading, not-found and error states) and asks nothing without a
 * session (the frame sends that visitor to /sign-in) or for a link that names no patient.
 */
export function patientCardLoader(queryClient: QueryClient) {
  return ({ request }: LoaderFunctionArgs): null => {
    const patientId = new URL(request.url).searchParams.get('patientId') ?? '';
    if (getToken() === null || !isUuid(patientId)) return null;
    void queryClient.prefetchQuery(getGetPatientQueryOptions(patientId));
    void queryClient
      .fetchQuery(getListPatientTreatmentsQueryOptions(patientId, SESSION_LIST_PARAMS))
      .then((answer) =>
        Promise.all(answer.data.map((session) => queryClient.prefetchQuery(getGetTreatmentQueryOptions(session.id)))),
      )
      // A failed list is the page's to show (its query asks again); nothing to do here.
      .catch(() => undefined);
    return null;
  };
}
