import { useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import { useLogout } from '@generated/hooks/auth/auth';
import { paths } from '@/config/paths';
import { endSession } from '@/lib/session';

/**
 * Logout (menu, idle logout): tells the server to invalidate the token, then forgets it locally and leaves for
 * /sign-in. A failed call (offline, token already invalid) still signs out locally. `signOutIdle` does the same
 * for the idle logout, and /sign-in then tells why.
 */
export function useSignOut() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const reason = useRef<'idle'>(undefined);
  const logout = useLogout({
    mutation: {
      onSettled: () => {
        endSession(queryClient);
        void navigate(paths.auth.signIn.getHref(reason.current), { replace: true });
      },
    },
  });
  return {
    signOut: () => {
      reason.current = undefined;
      logout.mutate();
    },
    signOutIdle: () => {
      reason.current = 'idle';
      logout.mutate();
    },
    isSigningOut: logout.isPending,
  };
}
