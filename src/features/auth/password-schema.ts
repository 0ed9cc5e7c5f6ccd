import { z } from 'zod';
import { resetPasswordBody } from '@generated/zod/auth/auth.zod';
import { newPasswordFields, refineNewPassword } from '@/components/password-schema';
import type { PasswordStrength } from '@/domain/passwords/password-rules';

/** /new-password with a reset link: new + confirm. */
export const resetConfirmationFormSchema = (strength: PasswordStrength, email?: string) =>
  z.object(newPasswordFields).superRefine((values, ctx) => refineNewPassword(values, ctx, strength, email));
export type ResetConfirmationFormValues = z.infer<ReturnType<typeof resetConfirmationFormSchema>>;

/** /approve-account: new + confirm, and both documents accepted. */
export const acceptInviteFormSchema = (strength: PasswordStrength, email?: string) =>
  z
    .object({ ...newPasswordFields, acceptEula: z.boolean(), acceptPrivacyNotice: z.boolean() })
    .superRefine((values, ctx) => {
      refineNewPassword(values, ctx, strength, email);
      if (!values.acceptEula) ctx.addIssue({ code: 'custom', path: ['acceptEula'], message: 'eulaRequired' });
      if (!values.acceptPrivacyNotice) {
        ctx.addIssue({ code: 'custom', path: ['acceptPrivacyNotice'], message: 'privacyRequired' });
      }
    });
export type AcceptInviteFormValues = z.infer<ReturnType<typeof acceptInviteFormSchema>>;

/** /reset-password: the contract's body, trimmed, one text for any bad address. */
export const resetPasswordFormSchema = resetPasswordBody.extend({
  email: z.string().trim().pipe(resetPasswordBody.shape.email),
});
export type ResetPasswordFormInput = z.input<typeof resetPasswordFormSchema>;
export type ResetPasswordFormValues = z.output<typeof resetPasswordFormSchema>;
export const resetPasswordErrorMap = (): string => 'invalidEmail';
