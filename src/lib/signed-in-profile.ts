import { useOutletContext } from 'react-router-dom';
import type { Profile } from '@generated/model/profile';

/** The signed-in user's profile, for the pages inside the signed-in layout (it passes it as outlet context). */
export function useSignedInProfile(): Profile {
  return useOutletContext<Profile>();
}
