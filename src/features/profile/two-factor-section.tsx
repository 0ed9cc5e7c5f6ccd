import { Button, Callout } from '@blueprintjs/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { getGetProfileQueryKey } from '@generated/hooks/profile/profile';
import { useDisableTwoFactor, useRenewRecoveryCodes } from '@generated/hooks/two-factor/two-factor';
import type { Profile } from '@generated/model/profile';
import { FormAlert, showServerFieldErrors, TextField, useFailureText } from '@/components/form-fields';
import { useNotify } from '@/components/notifications';
import { SubmitButton } from '@/components/submit-button';
import { RecoveryCodes, TwoFactorSetup } from '@/components/two-factor';

type Mode = 'idle' | 'setup' | 'renew' | 'disable';

/** Two-factor sign-in in the profile: set it up, get new recovery codes, or switch it off (each with the password). */
export function TwoFactorSection({ profile }: { profile: Profile }) {
  const { t } = useTranslation('profile');
  const queryClient = useQueryClient();
  const [mode, setMode] = useState<Mode>('idle');
  const [codes, setCodes] = useState<string[] | null>(null);
  const status = profile.twoFactor ?? { enabled: false, required: false, recoveryCodesLeft: 0 };
  const refresh = () => void queryClient.invalidateQueries({ queryKey: getGetProfileQueryKey() });
  const close = () => {
    setMode('idle');
    setCodes(null);
    refresh();
  };

  if (mode === 'setup') {
    return <TwoFactorSetup email={profile.email} onFinished={close} finishLabel={t('twoFactor.done')} />;
  }
  if (codes) return <RecoveryCodes codes={codes} email={profile.email} onDone={close} doneLabel={t('twoFactor.done')} />;
  if (mode === 'renew' || mode === 'disable') {
    return <ConfirmWithPassword mode={mode} email={profile.email} onCodes={setCodes} onDone={close} onCancel={() => setMode('idle')} />;
  }

  return (
    <>
      <p className="mp-muted">{t('twoFactor.intro')}</p>
      {status.enabled ? (
        <Callout intent="success" className="mp-form-alert">
          {t('twoFactor.on', { count: status.recoveryCodesLeft })}
        </Callout>
      ) : (
        <Callout intent={status.required ? 'warning' : 'none'} className="mp-form-alert">
          {status.required ? t('twoFactor.requiredOff') : t('twoFactor.off')}
        </Callout>
      )}
      <div className="mp-button-row">
        {status.enabled ? (
          <>
            <Button onClick={() => setMode('renew')}>{t('twoFactor.renewCodes')}</Button>
            {!status.required && <Button onClick={() => setMode('disable')}>{t('twoFactor.switchOff')}</Button>}
          </>
        ) : (
          <Button intent="primary" onClick={() => setMode('setup')}>
            {t('twoFactor.setUp')}
          </Button>
        )}
      </div>
      {status.enabled && status.required && <p className="mp-muted mp-two-factor-note">{t('twoFactor.requiredNote')}</p>}
    </>
  );
}

function ConfirmWithPassword({
  mode,
  email,
  onCodes,
  onDone,
  onCancel,
}: {
  mode: 'renew' | 'disable';
  email: string;
  onCodes: (codes: string[]) => void;
  onDone: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation(['profile', 'twoFactor', 'common']);
  const notify = useNotify();
  const { register, handleSubmit, setError, formState: { errors } } = useForm<{ currentPassword: string }>({ defaultValues: { currentPassword: '' } });
  const onError = (error: unknown) => showServerFieldErrors(error, setError, ['currentPassword']);
  const renew = useRenewRecoveryCodes({ mutation: { onSuccess: ({ data }) => onCodes(data.recoveryCodes), onError } });
  const disable = useDisableTwoFactor({
    mutation: {
      onSuccess: ({ message }) => {
        notify({ intent: 'success', message: message ?? t('twoFactor.switchedOff') });
        onDone();
      },
      onError,
    },
  });
  const action = mode === 'renew' ? renew : disable;
  const failure = useFailureText(action.error);
  return (
    <form noValidate onSubmit={handleSubmit((data) => action.mutate({ data }))}>
      <p className="mp-muted">{mode === 'renew' ? t('twoFactor.renewIntro') : t('twoFactor.switchOffIntro')}</p>
      {failure && <FormAlert>{failure}</FormAlert>}
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      <TextField
        label={t('twoFactor:currentPassword')}
        registration={register('currentPassword', { required: t('common:validation.required') })}
        error={errors.currentPassword?.message}
        type="password"
        autoComplete="current-password"
        maxLength={128}
      />
      <div className="mp-button-row">
        <SubmitButton label={mode === 'renew' ? t('twoFactor.renewCodes') : t('twoFactor.switchOff')} pending={action.isPending} fill={false} />
        <Button size="large" onClick={onCancel}>
          {t('twoFactor.cancel')}
        </Button>
      </div>
    </form>
  );
}
