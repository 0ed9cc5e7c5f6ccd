import type { Profile } from '@generated/model/profile';
import { staffName } from '@/domain/staff/display-name';

type Named = Pick<Profile, 'physicianName' | 'firstName' | 'lastName' | 'email'>;

/** Name a person is shown with: the physician name where set, else first and last name, else e-mail. */
export function displayName(profile: Named): string {
  return staffName(profile) || profile.email;
}
