import { Navigate } from 'react-router-dom';
import { PageSpinner } from '@/components/page-spinner';
import { useSessionGate } from './session-gate';

/** `/`: a spinner while the profile loads, then on to the home of the user's role (admin or patient list). */
export function HomeRedirect() {
  const gate = useSessionGate('hub');
  if (gate.state === 'redirect') return <Navigate to={gate.to} replace />;
  return <PageSpinner />;
}
