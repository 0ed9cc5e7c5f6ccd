import type { Profile } from '@generated/model/profile';

type Named = Pick<Profile, 'physicianName' | 'firstName' | 'lastName' | 'email'>;

/** Name a person is shown with: the physician name where set, else first and last name, else e-mail. */
export function displayName(profile: Named): string {
  return profile.physicianName?.trim() || `${profile.firstName} ${profile.lastName}`.trim() || profile.email;
}
