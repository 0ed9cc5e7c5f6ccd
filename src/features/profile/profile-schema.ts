import { z } from 'zod';
import type { Profile } from '@generated/model/profile';
import type { ProfileForm } from '@generated/model/profileForm';
import {
  updateProfileBody,
  updateProfileBodyFirstNameMax,
  updateProfileBodyLastNameMax,
  updateProfileBodyPhysicianNameMax,
} from '@generated/zod/profile/profile.zod';
import type { ValidationKey } from '@/components/use-validation-message';

const { firstName, lastName, physicianName, email, currentPassword } = updateProfileBody.shape;

/** The general information of /profile-settings: the contract's fields, trimmed as the server trims them. */
export const generalInfoFormSchema = z.object({
  firstName: z.string().trim().pipe(firstName.unwrap()),
  lastName: z.string().trim().pipe(lastName.unwrap()),
  physicianName: z.string().trim().pipe(physicianName.unwrap()),
  email: z.string().trim().pipe(email.unwrap()),
  // Asked for (and sent) only with a new address: the form checks it is there, the server that it is right.
  currentPassword: currentPassword.unwrap(),
});
export type GeneralInfoFormInput = z.input<typeof generalInfoFormSchema>;
export type GeneralInfoFormValues = z.output<typeof generalInfoFormSchema>;

/** What the server may name in a 422 (or the 409 of a taken address) for this form. */
export const GENERAL_INFO_FIELDS = ['firstName', 'lastName', 'physicianName', 'email', 'currentPassword'] as const;

/** The contract's limits, given to the inputs so that longer text cannot be typed. */
export const GENERAL_INFO_MAX_LENGTH = {
  firstName: updateProfileBodyFirstNameMax,
  lastName: updateProfileBodyLastNameMax,
  physicianName: updateProfileBodyPhysicianNameMax,
} as const;

/**
 * Error map for parsing: any bad address gets the forms' e-mail validation text; a name can only break its
 * minimum (the inputs stop at the maximum), so it is required.
 */
export const generalInfoErrorMap = (issue: { path?: PropertyKey[] }): ValidationKey =>
  issue.path?.[0] === 'email' ? 'invalidEmail' : 'required';

export const generalInfoOf = (profile: Profile): GeneralInfoFormInput => ({
  firstName: profile.firstName,
  lastName: profile.lastName,
  physicianName: profile.physicianName ?? '',
  email: profile.email,
  currentPassword: '',
});

/**
 * The multipart body; the physician name only for physicians, who are the ones it names (on the plans
 * they sign off).
 */
export const profileFormOf = (values: GeneralInfoFormValues, isPhysician: boolean, currentEmail: string): ProfileForm => {
  const { physicianName: name, currentPassword: password, ...rest } = values;
  const form: ProfileForm = isPhysician ? { ...rest, physicianName: name } : rest;
  return isNewAddress(values.email, currentEmail) ? { ...form, currentPassword: password } : form;
};

/**
 * Whether saving `email` moves the account to another address, which needs the current password and the new
 * address's confirmation; the server compares case-insensitively, so another spelling of the same address is
 * no move.
 */
export const isNewAddress = (email: string, current: string): boolean => email.toLowerCase() !== current.toLowerCase();
