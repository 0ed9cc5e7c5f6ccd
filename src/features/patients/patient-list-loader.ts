import type { QueryClient } from '@tanstack/react-query';
import type { LoaderFunctionArgs } from 'react-router-dom';
import { getListPatientsQueryOptions } from '@generated/hooks/patients/patients';
import { getToken } from '@/lib/auth-storage';
import { birthdayRangeProblem, listParams, readListView, shownPages } from './list-view';

/**
 * Route loader of /physician/list: asks for the pages the URL shows as soon as the route's code is there,
 * while the signed-in frame still waits for the profile, so the rows arrive with the page rather than after
 * it. It does not wait for the answers (the page has its own loading and error states) and asks nothing
 * without a session (the frame sends that visitor to /sign-in) or for a range the page refuses.
 */
export function patientListLoader(queryClient: QueryClient) {
  return ({ request }: LoaderFunctionArgs): null => {
    if (getToken() === null) return null;
    const view = readListView(new URL(request.url).searchParams);
    if (birthdayRangeProblem(view)) return null;
    for (const page of shownPages(view)) {
      // The same query options as the page's, so the page finds these queries in the cache.
      void queryClient.prefetchQuery(getListPatientsQueryOptions(listParams(view, page)));
    }
    return null;
  };
}
