// The second step of a two-factor sign-in: a code from the authenticator app, or a recovery code, for the
// challenge the password step answered. Remembering the browser is offered only where the clinic allows it.
import { Button, Checkbox } from '@blueprintjs/core';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useSignInSecondFactor } from '@generated/hooks/two-factor/two-factor';
import type { SecondFactorChallengeSecondFactor } from '@generated/model/secondFactorChallengeSecondFactor';
import type { SignedIn } from '@generated/model/signedIn';
import { FormAlert, TextField, useFailureText } from '@/components/form-fields';
import { SubmitButton } from '@/components/submit-button';
import { CodeField, TOTP_CODE } from '@/components/two-factor';
import { ApiError } from '@/lib/api-client';

interface Values {
  code: string;
  recoveryCode: string;
  rememberDevice: boolean;
}

export function SecondFactorStep({
  challenge,
  onSignedIn,
  onRestart,
}: {
  challenge: SecondFactorChallengeSecondFactor;
  onSignedIn: (signedIn: SignedIn) => void;
  onRestart: () => void;
}) {
  const { t } = useTranslation(['twoFactor', 'auth', 'common']);
  const [useRecoveryCode, setUseRecoveryCode] = useState(false);
  const { register, handleSubmit, setFocus, formState: { errors } } = useForm<Values>({
    defaultValues: { code: '', recoveryCode: '', rememberDevice: false },
  });
  const verify = useSignInSecondFactor({ mutation: { onSuccess: ({ data }) => onSignedIn(data) } });
  const expired = verify.error instanceof ApiError && (verify.error.body as { code?: string } | undefined)?.code === 'auth.second_factor_expired';
  const failure = useFailureText(verify.error);

  useEffect(() => setFocus(useRecoveryCode ? 'recoveryCode' : 'code'), [useRecoveryCode, setFocus]);

  const submit = handleSubmit(({ code, recoveryCode, rememberDevice }) =>
    verify.mutate({
      data: {
        challenge: challenge.challenge,
        ...(useRecoveryCode ? { recoveryCode } : { code }),
        ...(challenge.rememberDeviceDays > 0 && { rememberDevice }),
      },
    }),
  );
  const { ref: rememberRef, ...rememberField } = register('rememberDevice');

  return (
    <>
      <h1 className="mp-page-title">{t('secondFactor.title')}</h1>
      <p className="mp-muted">{useRecoveryCode ? t('secondFactor.recoveryIntro') : t('secondFactor.intro')}</p>
      {failure && <FormAlert>{failure}</FormAlert>}
      {expired ? (
        <Button intent="primary" size="large" fill onClick={onRestart}>
          {t('secondFactor.restart')}
        </Button>
      ) : (
        <form noValidate onSubmit={submit}>
          {useRecoveryCode ? (
            <TextField
              label={t('secondFactor.recoveryCode')}
              registration={register('recoveryCode', { required: t('common:validation.required') })}
              error={errors.recoveryCode?.message}
              autoComplete="off"
              maxLength={40}
            />
          ) : (
            <CodeField
              label={t('secondFactor.code')}
              registration={register('code', {
                required: t('common:validation.required'),
                pattern: { value: TOTP_CODE, message: t('codeFormat') },
              })}
              error={errors.code?.message}
            />
          )}
          {challenge.rememberDeviceDays > 0 && (
            <Checkbox {...rememberField} inputRef={rememberRef} label={t('secondFactor.rememberDevice', { count: challenge.rememberDeviceDays })} />
          )}
          <SubmitButton label={t('secondFactor.submit')} pending={verify.isPending} />
        </form>
      )}
      <div className="mp-second-factor-links">
        <Button variant="minimal" onClick={() => setUseRecoveryCode((value) => !value)}>
          {useRecoveryCode ? t('secondFactor.useApp') : t('secondFactor.useRecoveryCode')}
        </Button>
        <Button variant="minimal" onClick={onRestart}>
          {t('auth:backToSignIn')}
        </Button>
      </div>
    </>
  );
}
