// Kept apart from list-table.tsx so that a list importing only this (the physician list's filters) does not
// bring the table's components into its bundle.
import { useRef } from 'react';
import { useLocation, useNavigation } from 'react-router-dom';

/**
 * Whether the user is leaving the page for another: a link followed while the next page loads, or, in the
 * moment between the address changing and this page giving way to the next one, a browser address other than
 * `typedOn` (the page's address when the change was made). A search or filter applied then would change the
 * next page's address instead (seen in CI: a patient's access log lost its patient when the patient list's
 * search, typed just before the click, arrived).
 */
export function useLeaving(): (typedOn: string) => boolean {
  const { pathname } = useLocation();
  const navigation = useNavigation();
  const state = useRef({ pathname, navigation });
  state.current = { pathname, navigation };
  return useRef((typedOn: string) => {
    const { pathname: here, navigation: pending } = state.current;
    return (pending.state !== 'idle' && pending.location?.pathname !== here) || window.location.pathname !== typedOn;
  }).current;
}
