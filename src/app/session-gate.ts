import { useGetProfile } from '@generated/hooks/profile/profile';
import type { Profile } from '@generated/model/profile';
import { getToken } from '@/lib/auth-storage';
import { paths } from '@/config/paths';
import { areaOfRole, roleHome, type Area } from '@/lib/roles';

export type SessionGate =
  | { state: 'loading' }
  | { state: 'redirect'; to: string }
  | { state: 'ready'; profile: Profile };

/**
 * What a signed-in page admits: `'hub'` (the / redirect hub) sends on to the home of the user's role, an
 * area admits its roles only, `'any'` every signed-in user (/profile-settings).
 */
export type GateTarget = 'hub' | 'any' | Area;

/**
 * Who may see a signed-in page (roles per area, lib/roles.ts): no token or no profile → /sign-in; the hub → the home
 * of the user's role; an area → the page, or /forbidden for another role. A required password change
 * (forced or expired) sends to /new-password first, a required second factor not set up to /two-factor-setup.
 */
export function useSessionGate(target: GateTarget): SessionGate {
  const hasToken = getToken() !== null;
  const profileQuery = useGetProfile({ query: { enabled: hasToken } });

  if (!hasToken) return { state: 'redirect', to: paths.auth.signIn.getHref() };
  // A failed background refetch keeps the profile we have: only a profile never loaded signs out.
  const profile = profileQuery.data?.data;
  if (!profile) {
    return profileQuery.isError ? { state: 'redirect', to: paths.auth.signIn.getHref() } : { state: 'loading' };
  }
  // The clinic forces a new password, or it expired: nothing else until it is changed (docs/security.md, renewal).
  if (profile.passwordChangeRequired) return { state: 'redirect', to: paths.auth.newPassword.getHref() };
  // The clinic requires a second factor for the role and none is set up: that first (issue 27).
  if (profile.twoFactor?.setupRequired) return { state: 'redirect', to: paths.auth.twoFactorSetup.getHref() };
  if (target === 'hub') return { state: 'redirect', to: roleHome(profile.role) };
  if (target !== 'any' && areaOfRole(profile.role) !== target) {
    return { state: 'redirect', to: paths.errors.forbidden.getHref() };
  }
  return { state: 'ready', profile };
}
