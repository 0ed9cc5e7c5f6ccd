import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { useLogout } from '@generated/hooks/auth/auth';
import { paths } from '@/config/paths';
import { endSession } from '@/lib/session';

/**
 * Logout (menu, idle logout): tells the server to invalidate the token, then forgets it locally and leaves for
 * /sign-in. A failed call (offline, token already invalid) still signs out locally.
 */
export function useSignOut() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const logout = useLogout({
    mutation: {
      onSettled: () => {
        endSession(queryClient);
        void navigate(paths.auth.signIn.getHref(), { replace: true });
      },
    },
  });
  return { signOut: () => logout.mutate(), isSigningOut: logout.isPending };
}
