// Two-factor sign-in (issue 27): setting up an authenticator app (password → QR code → code → recovery codes), the
// code field of the sign-in's second step, and the recovery codes shown once. Shared by the profile and by the
// page a user whose clinic requires a second factor is sent to.
import { Button, Callout, FormGroup, InputGroup, Spinner } from '@blueprintjs/core';
import { useEffect, useId, useRef, useState } from 'react';
import { useForm, type UseFormRegisterReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useConfirmTwoFactor, useStartTwoFactorEnrolment } from '@generated/hooks/two-factor/two-factor';
import type { TwoFactorEnrolment } from '@generated/model/twoFactorEnrolment';
import { FormAlert, showServerFieldErrors, TextField, useFailureText } from '@/components/form-fields';
import { SubmitButton } from '@/components/submit-button';
import { saveBlob } from '@/lib/save-blob';
import './two-factor.css';

/** Six digits, as authenticator apps show them ("492 039"): spaces and dashes are allowed. */
export const TOTP_CODE = /^\d{3}[\s-]?\d{3}$/;

/** The field for a six-digit code: numeric keyboard on tablets, filled in by password managers that keep codes. */
export function CodeField({ label, registration, error }: { label: string; registration: UseFormRegisterReturn; error?: string }) {
  const id = useId();
  const errorId = useId();
  const { ref, ...field } = registration;
  return (
    <FormGroup label={label} labelFor={id} intent={error ? 'danger' : 'none'} helperText={error && <span id={errorId}>{error}</span>}>
      <InputGroup
        {...field}
        inputRef={ref}
        id={id}
        className="mp-code-input"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={7}
        size="large"
        intent={error ? 'danger' : 'none'}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
      />
    </FormGroup>
  );
}

/** The secret in groups of four, easier to type into an app by hand. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

/** The ten recovery codes, shown once, with a download; `onDone` once the user says they are kept safe. */
export function RecoveryCodes({ codes, email, onDone, doneLabel }: { codes: string[]; email: string; onDone: () => void; doneLabel: string }) {
  const { t } = useTranslation(['twoFactor', 'common']);
  const download = () => {
    const text = `${t('codesFileTitle', { email })}\n\n${codes.join('\n')}\n`;
    saveBlob(new Blob([text], { type: 'text/plain;charset=utf-8' }), 'macula-planner-recovery-codes.txt');
  };
  return (
    <div className="mp-recovery-codes">
      <Callout intent="warning" className="mp-form-alert">
        {t('codesIntro')}
      </Callout>
      <ol className="mp-recovery-code-list" aria-label={t('codesLabel')}>
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <div className="mp-button-row">
        <Button onClick={download}>
          {t('download')}
        </Button>
        <Button intent="primary" onClick={onDone}>
          {doneLabel}
        </Button>
      </div>
    </div>
  );
}

interface PasswordValues {
  currentPassword: string;
}
interface CodeValues {
  code: string;
}

/**
 * Setting up an authenticator app: the password, then the QR code (and the secret to type) with a field for the
 * first code, then the recovery codes. `onFinished` after the user has seen the codes.
 */
export function TwoFactorSetup({
  email,
  afterSignIn = false,
  onEnabled,
  onFinished,
  finishLabel,
}: {
  email: string;
  /** Sent here right after signing in: the server may take the sign-in for the password (asked for only if not). */
  afterSignIn?: boolean;
  onEnabled?: () => void;
  onFinished: () => void;
  finishLabel: string;
}) {
  const [enrolment, setEnrolment] = useState<TwoFactorEnrolment | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  if (codes) return <RecoveryCodes codes={codes} email={email} onDone={onFinished} doneLabel={finishLabel} />;
  if (enrolment) {
    return (
      <ScanAndConfirm
        enrolment={enrolment}
        onConfirmed={(recoveryCodes) => {
          setCodes(recoveryCodes);
          onEnabled?.();
        }}
      />
    );
  }
  return <PasswordFirst email={email} afterSignIn={afterSignIn} onStarted={setEnrolment} />;
}

function PasswordFirst({ email, afterSignIn, onStarted }: { email: string; afterSignIn: boolean; onStarted: (enrolment: TwoFactorEnrolment) => void }) {
  const { t } = useTranslation(['twoFactor', 'common']);
  const { register, handleSubmit, setError, formState: { errors } } = useForm<PasswordValues>({ defaultValues: { currentPassword: '' } });
  // Without the password first, where the sign-in may stand for it; the form only if the server asks for it.
  const [askPassword, setAskPassword] = useState(!afterSignIn);
  const start = useStartTwoFactorEnrolment({
    mutation: {
      onSuccess: ({ data }) => onStarted(data),
      onError: (error) => {
        if (!askPassword) return setAskPassword(true);
        showServerFieldErrors(error, setError, ['currentPassword']);
      },
    },
  });
  const { mutate } = start;
  // Once: a second start would replace the secret the first one shows.
  const tried = useRef(false);
  useEffect(() => {
    if (!afterSignIn || tried.current) return;
    tried.current = true;
    mutate({ data: {} });
  }, [afterSignIn, mutate]);
  const failure = useFailureText(askPassword ? start.error : null);
  if (!askPassword) return <Spinner aria-label={t('common:loading')} />;
  return (
    <form noValidate onSubmit={handleSubmit((data) => start.mutate({ data }))}>
      <p className="mp-muted">{t('passwordIntro')}</p>
      {failure && <FormAlert>{failure}</FormAlert>}
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      <TextField
        label={t('currentPassword')}
        registration={register('currentPassword', { required: t('common:validation.required') })}
        error={errors.currentPassword?.message}
        type="password"
        autoComplete="current-password"
        maxLength={128}
      />
      <SubmitButton label={t('continue')} pending={start.isPending} />
    </form>
  );
}

function ScanAndConfirm({ enrolment, onConfirmed }: { enrolment: TwoFactorEnrolment; onConfirmed: (codes: string[]) => void }) {
  const { t } = useTranslation(['twoFactor', 'common']);
  const secretId = useId();
  const { register, handleSubmit, setError, formState: { errors } } = useForm<CodeValues>({ defaultValues: { code: '' } });
  const confirm = useConfirmTwoFactor({
    mutation: {
      onSuccess: ({ data }) => onConfirmed(data.recoveryCodes),
      onError: (error) => showServerFieldErrors(error, setError, ['code']),
    },
  });
  const failure = useFailureText(confirm.error);
  return (
    <form noValidate onSubmit={handleSubmit((data) => confirm.mutate({ data }))}>
      <ol className="mp-two-factor-steps">
        <li>{t('stepInstall')}</li>
        <li>
          {t('stepScan')}
          <img className="mp-two-factor-qr" src={enrolment.qrCode} alt={t('qrAlt')} width={184} height={184} />
          <p className="mp-muted">
            {t('secretIntro')} <code id={secretId} className="mp-two-factor-secret">{grouped(enrolment.secret)}</code>
          </p>
        </li>
        <li>{t('stepCode')}</li>
      </ol>
      {failure && <FormAlert>{failure}</FormAlert>}
      <CodeField
        label={t('code')}
        registration={register('code', {
          required: t('common:validation.required'),
          pattern: { value: TOTP_CODE, message: t('codeFormat') },
        })}
        error={errors.code?.message}
      />
      <SubmitButton label={t('switchOn')} pending={confirm.isPending} />
    </form>
  );
}
