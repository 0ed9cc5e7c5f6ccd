import { z } from 'zod';
import { StaffRole } from '@generated/model/staffRole';
import type { User } from '@generated/model/user';
import type { UserForm } from '@generated/model/userForm';
import { updateUserBody } from '@generated/zod/users/users.zod';
import type { ValidationKey } from '@/components/use-validation-message';

const { firstName, lastName, physicianName, email } = updateUserBody.shape;

/** /admin/add and /admin/edit: the contract's fields, trimmed as the server trims them. */
export const userFormSchema = z.object({
  firstName: z.string().trim().pipe(firstName.unwrap()),
  lastName: z.string().trim().pipe(lastName.unwrap()),
  email: z.string().trim().pipe(email.unwrap()),
  role: z.enum(StaffRole),
  physicianName: z.string().trim().pipe(physicianName.unwrap()),
});
export type UserFormInput = z.input<typeof userFormSchema>;
export type UserFormValues = z.output<typeof userFormSchema>;

/** What the server may name in a 422 (or the 409 of a taken address) for this form. */
export const USER_FORM_FIELDS = ['firstName', 'lastName', 'email', 'role', 'physicianName'] as const;

/** A bad address gets the forms' e-mail text; a name can only break its minimum (inputs stop at the maximum). */
export const userFormErrorMap = (issue: { path?: PropertyKey[] }): ValidationKey => (issue.path?.[0] === 'email' ? 'invalidEmail' : 'required');

export const EMPTY_USER: UserFormInput = { firstName: '', lastName: '', email: '', role: StaffRole.clinic_physicians, physicianName: '' };

export const userFormOf = (user: User): UserFormInput => ({
  firstName: user.firstName,
  lastName: user.lastName,
  email: user.email,
  role: (Object.values(StaffRole) as string[]).includes(user.role) ? (user.role as StaffRole) : StaffRole.clinic_physicians,
  physicianName: user.physicianName ?? '',
});

/** The avatar's part of the form: a new picture, its removal, or nothing. */
export type AvatarChange = { kind: 'keep' } | { kind: 'replace'; file: File } | { kind: 'remove' };

/**
 * The multipart body (files as files, booleans as 1 or 0, the rest as text). The physician name goes with
 * physicians only (it names them on the plans they sign off); for anyone else it is sent empty, so that a
 * role change does not leave a stale one behind. `draft` says whether to invite now.
 */
export function userBodyOf(values: UserFormValues, avatar: AvatarChange, draft: boolean | undefined): UserForm {
  return {
    firstName: values.firstName,
    lastName: values.lastName,
    email: values.email,
    role: values.role,
    physicianName: values.role === StaffRole.clinic_physicians ? values.physicianName : '',
    ...(avatar.kind === 'replace' && { avatar: avatar.file }),
    ...(avatar.kind === 'remove' && { removeAvatar: '1' as const }),
    ...(draft !== undefined && { draft: draft ? ('1' as const) : ('0' as const) }),
  };
}

/** Whether the address moves (the server compares case-insensitively): the user's sessions end. */
export const isNewAddress = (email: string, current: string): boolean => email.toLowerCase() !== current.toLowerCase();
