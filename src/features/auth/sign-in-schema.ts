import { z } from 'zod';
import { signInBody } from '@generated/zod/auth/auth.zod';
import type { ValidationKey } from '@/components/use-validation-message';

/** The contract's sign-in body plus the rules the form checks before sending (e-mail, password). */
export const signInFormSchema = signInBody.extend({
  email: signInBody.shape.email.trim().pipe(z.email()),
  password: signInBody.shape.password.min(1),
});

export type SignInFormInput = z.input<typeof signInFormSchema>;
export type SignInFormValues = z.output<typeof signInFormSchema>;

// Whichever rule a field breaks (empty, too long, not an address), the specification has one text for it.
const FIELD_MESSAGE: Record<string, ValidationKey> = {
  email: 'invalidEmail',
  password: 'invalidPassword',
};

/** Error map for parsing: the field's ValidationKey (translated when shown). */
export const signInErrorMap = (issue: { path?: PropertyKey[] }): string | undefined => {
  const field = issue.path?.[0];
  return typeof field === 'string' ? FIELD_MESSAGE[field] : undefined;
};
