import { Callout } from '@blueprintjs/core';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useResetPassword } from '@generated/hooks/auth/auth';
import { paths } from '@/config/paths';
import { FormAlert, showServerFieldErrors, TextField, useFailureText } from '@/components/form-fields';
import { SubmitButton } from '@/components/submit-button';
import { useValidationMessage } from '@/components/use-validation-message';
import { AuthLink, AuthPageShell } from './auth-page-shell';
import { deferredResolver, useResolverPreload } from '@/components/deferred-resolver';
import type { ResetPasswordFormInput, ResetPasswordFormValues } from './password-schema';

const resolver = deferredResolver<ResetPasswordFormInput, ResetPasswordFormValues>(async () => {
  const [{ zodResolver }, { resetPasswordFormSchema, resetPasswordErrorMap }] = await Promise.all([
    import('@hookform/resolvers/zod'),
    import('./password-schema'),
  ]);
  return zodResolver(resetPasswordFormSchema, { error: resetPasswordErrorMap });
});

/** /reset-password: asks for the e-mail address; the answer is the same whether the account exists or not. */
export function ResetPasswordPage() {
  const { t } = useTranslation('auth');
  const validationMessage = useValidationMessage();
  // No default for the address: the form may arrive as HTML before this code (src/app/prerender.tsx), and
  // react-hook-form takes what was typed meanwhile from the field instead of emptying it.
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<ResetPasswordFormInput, unknown, ResetPasswordFormValues>({ resolver });
  useResolverPreload(resolver);

  const reset = useResetPassword({
    mutation: { onError: (error) => showServerFieldErrors(error, setError, ['email']) },
  });
  const failure = useFailureText(reset.error);

  return (
    <AuthPageShell title={t('resetPassword.title')}>
      {reset.isSuccess ? (
        <Callout intent="success" role="status" className="mp-form-alert">
          {t('resetPassword.sent')}
        </Callout>
      ) : (
        <>
          <p className="mp-muted">{t('resetPassword.intro')}</p>
          {failure && <FormAlert>{failure}</FormAlert>}
          <form noValidate onSubmit={handleSubmit((data) => reset.mutate({ data }))}>
            <TextField
              label={t('resetPassword.email')}
              registration={register('email')}
              error={validationMessage(errors.email?.message)}
              type="email"
              autoComplete="username"
            />
            <SubmitButton label={t('resetPassword.submit')} pending={reset.isPending} />
          </form>
        </>
      )}
      <AuthLink to={paths.auth.signIn.getHref()}>{t('backToSignIn')}</AuthLink>
    </AuthPageShell>
  );
}
