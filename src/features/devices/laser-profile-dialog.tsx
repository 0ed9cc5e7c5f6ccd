import { Button, Callout, Classes, DialogBody, DialogFooter, InputGroup, Switch } from '@blueprintjs/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { Controller, useForm, useWatch, type FieldError, type FieldErrors, type Path, type UseFormReturn, type UseFormSetError } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { getListDevicesQueryKey, useUpdateDeviceLaserProfile } from '@generated/hooks/clinic/clinic';
import type { Device } from '@generated/model/device';
import type { DeviceListResponse } from '@generated/model/deviceListResponse';
import { deferredResolver, useResolverPreload } from '@/components/deferred-resolver';
import { Dialog } from '@/components/dialog';
import { FormAlert, useFailureMessage } from '@/components/form-fields';
import { useNotify } from '@/components/notifications';
import { SubmitButton } from '@/components/submit-button';
import type { LaserModeName, LaserProfile } from '@/domain/planning/clinical-limits';
import { ApiError } from '@/lib/api-client';
import { formatNumberText } from '@/lib/locale-number';
import {
  formPathOfServerField,
  laserProfileFormValues,
  MODE_NAMES,
  QUANTITIES,
  type LaserProfileFormInput,
  type QuantityName,
} from './laser-profile-form';

/*
 * The form goes to its fields as a prop: react-hook-form's FormProvider and `get` would grow its chunk, which
 * /sign-in downloads too (scripts/bundle-report.mjs).
 */
type ProfileForm = UseFormReturn<LaserProfileFormInput, unknown, LaserProfile>;

/** The error at a dotted path of the form's errors (a range's own, or one of its ends'). */
function errorAt(errors: FieldErrors<LaserProfileFormInput>, path: string): FieldError | undefined {
  let node: unknown = errors;
  for (const key of path.split('.')) node = node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
  return node && typeof node === 'object' && 'message' in node ? (node as FieldError) : undefined;
}

/** Puts the server's field errors (a 422) on their fields; false when none names a field of the form. */
function placeServerErrors(error: unknown, setError: UseFormSetError<LaserProfileFormInput>): boolean {
  if (!(error instanceof ApiError) || !error.errors) return false;
  let placed = false;
  for (const [field, messages] of Object.entries(error.errors)) {
    const path = formPathOfServerField(field);
    if (!path || !messages[0]) continue;
    setError(path, { type: 'server', message: messages[0] });
    placed = true;
  }
  return placed;
}

/** A field's error in the UI language: the form's own keys worded with the figure's bounds, the server's as sent. */
function useErrorText() {
  const { t, i18n } = useTranslation('devices');
  return (error: FieldError | undefined, quantity: QuantityName | undefined): string | undefined => {
    if (!error?.message) return undefined;
    if (error.type === 'server') return error.message;
    const { bounds, digits } = QUANTITIES[quantity ?? 'wavelengthNm'];
    const show = (value: number) => formatNumberText(value, i18n.language, digits);
    const example = show(digits > 0 ? 1.5 : bounds.min);
    switch (error.message) {
      case 'empty':
        return t('profile.errors.empty');
      case 'not_a_number':
        return t('profile.errors.notANumber', { example });
      case 'wrong_separator':
        return digits > 0 ? t('profile.errors.wrongSeparator', { example }) : t('profile.errors.wholeNumber', { example });
      case 'too_many_decimals':
        return digits > 0 ? t('profile.errors.tooManyDecimals', { count: digits }) : t('profile.errors.wholeNumber', { example });
      case 'out_of_bounds':
        return t('profile.errors.outOfBounds', { min: show(bounds.min), max: show(bounds.max) });
      case 'reversed':
        return t('profile.errors.reversed');
      case 'no_mode':
        return t('profile.errors.noMode');
      default:
        return t('profile.errors.invalid');
    }
  };
}

function ErrorText({ id, children }: { id: string; children: string | undefined }) {
  return children ? (
    <div id={id} className={`${Classes.FORM_HELPER_TEXT} mp-profile-error`}>
      {children}
    </div>
  ) : null;
}

type NumberInputProps = {
  form: ProfileForm;
  path: Path<LaserProfileFormInput>;
  id: string;
  /** Ids of the texts that name the field (a range's label and "from"/"to"); else its <label for>. */
  labelledBy?: string;
  invalid: boolean;
  describedBy: string | undefined;
  autoFocus?: boolean;
};

/** A figure typed as text in the UI language's format (read by laser-profile-schema.ts), never a browser number field. */
function NumberInput({ form, path, id, labelledBy, invalid, describedBy, autoFocus }: NumberInputProps) {
  const { ref, ...field } = form.register(path);
  return (
    <InputGroup
      {...field}
      inputRef={ref}
      id={id}
      className="mp-profile-input"
      type="text"
      inputMode="decimal"
      autoComplete="off"
      spellCheck={false}
      autoFocus={autoFocus}
      intent={invalid ? 'danger' : 'none'}
      aria-labelledby={labelledBy}
      aria-invalid={invalid || undefined}
      aria-describedby={describedBy}
    />
  );
}

type FigureFieldProps = {
  form: ProfileForm;
  path: 'wavelengthNm' | 'modes.continuous.minSpacing';
  quantity: QuantityName;
  label: string;
  hint?: string;
  autoFocus?: boolean;
};

/** One figure: its label, its field, what is wrong with it and an optional hint. */
function FigureField({ form, path, quantity, label, hint, autoFocus }: FigureFieldProps) {
  const errorText = useErrorText();
  const id = useId();
  const errorId = useId();
  const hintId = useId();
  const error = errorText(errorAt(form.formState.errors, path), quantity);
  const described = [error && errorId, hint && hintId].filter(Boolean).join(' ') || undefined;
  return (
    <div className="mp-profile-row">
      <label htmlFor={id} className="mp-profile-label">
        {label}
      </label>
      <div className="mp-profile-value">
        {/* Under the "from" fields of the ranges above and below. */}
        <span className="mp-profile-end">
          <span className="mp-profile-end-label" aria-hidden="true" />
          <NumberInput form={form} path={path} id={id} invalid={!!error} describedBy={described} autoFocus={autoFocus} />
        </span>
        <ErrorText id={errorId}>{error}</ErrorText>
        {hint && (
          <div id={hintId} className={`${Classes.FORM_HELPER_TEXT} mp-profile-hint`}>
            {hint}
          </div>
        )}
      </div>
    </div>
  );
}

type RangePath = 'spotSizeUm' | `modes.continuous.${'powerMw' | 'pulseMs'}` | `modes.micropulse.${'powerMw' | 'pulseMs' | 'dutyCyclePercent'}`;

/** A range: "from" and "to" under one label; each end's error under it, a reversed range's under both. */
function RangeField({ form, path, quantity, label }: { form: ProfileForm; path: RangePath; quantity: QuantityName; label: string }) {
  const { t } = useTranslation('devices');
  const { errors } = form.formState;
  const errorText = useErrorText();
  const labelId = useId();
  const ids = { min: useId(), max: useId(), fromLabel: useId(), toLabel: useId(), minError: useId(), maxError: useId(), rangeError: useId() };
  const rangeError = errorText(errorAt(errors, path), quantity);
  const minError = errorText(errorAt(errors, `${path}.min`), quantity);
  const maxError = errorText(errorAt(errors, `${path}.max`), quantity);
  const same = !!minError && minError === maxError;
  const describedBy = (own: string | undefined, ownId: string) =>
    [own && (same ? ids.minError : ownId), rangeError && ids.rangeError].filter(Boolean).join(' ') || undefined;
  return (
    <div className="mp-profile-row" role="group" aria-labelledby={labelId}>
      <div id={labelId} className="mp-profile-label">
        {label}
      </div>
      <div className="mp-profile-value">
        <div className="mp-profile-range">
          <span className="mp-profile-end">
            <label id={ids.fromLabel} htmlFor={ids.min} className="mp-profile-end-label">
              {t('profile.from')}
            </label>
            <NumberInput form={form} path={`${path}.min`} id={ids.min} labelledBy={`${labelId} ${ids.fromLabel}`} invalid={!!(minError || rangeError)} describedBy={describedBy(minError, ids.minError)} />
          </span>
          <span className="mp-profile-end">
            <label id={ids.toLabel} htmlFor={ids.max} className="mp-profile-end-label">
              {t('profile.to')}
            </label>
            <NumberInput form={form} path={`${path}.max`} id={ids.max} labelledBy={`${labelId} ${ids.toLabel}`} invalid={!!(maxError || rangeError)} describedBy={describedBy(maxError, ids.maxError)} />
          </span>
        </div>
        {same ? (
          // The same for both ends ("Enter a value"): said once.
          <ErrorText id={ids.minError}>{minError}</ErrorText>
        ) : (
          <>
            <ErrorText id={ids.minError}>{minError && `${t('profile.from')}: ${minError}`}</ErrorText>
            <ErrorText id={ids.maxError}>{maxError && `${t('profile.to')}: ${maxError}`}</ErrorText>
          </>
        )}
        <ErrorText id={ids.rangeError}>{rangeError}</ErrorText>
      </div>
    </div>
  );
}

/** A mode the device may offer: switched on, its ranges; off, what that means for plans. */
function ModeSection({ form, mode }: { form: ProfileForm; mode: LaserModeName }) {
  const { t } = useTranslation('devices');
  const { control } = form;
  const enabled = useWatch({ control, name: `modes.${mode}.enabled` });
  const titleId = useId();
  return (
    <section className="mp-profile-mode" aria-labelledby={titleId}>
      <Controller
        control={control}
        name={`modes.${mode}.enabled`}
        render={({ field }) => (
          <Switch
            inputRef={field.ref}
            name={field.name}
            checked={field.value}
            onBlur={field.onBlur}
            onChange={(event) => {
              field.onChange(event.currentTarget.checked);
              // "Switch on a mode" is answered; react-hook-form revalidates a switch's own path, not "modes".
              // While that error stands no mode is on, so "modes" holds no other error to lose.
              if (event.currentTarget.checked && errorAt(form.formState.errors, 'modes')) form.clearErrors('modes');
            }}
            className="mp-profile-switch"
            labelElement={<span id={titleId}>{t(`profile.${mode}.title`)}</span>}
          />
        )}
      />
      {enabled ? (
        <>
          <RangeField form={form} path={`modes.${mode}.powerMw`} quantity="powerMw" label={t('profile.power')} />
          <RangeField form={form} path={`modes.${mode}.pulseMs`} quantity="pulseMs" label={t(mode === 'micropulse' ? 'profile.envelope' : 'profile.pulse')} />
          {mode === 'micropulse' ? (
            <RangeField form={form} path="modes.micropulse.dutyCyclePercent" quantity="dutyCyclePercent" label={t('profile.dutyCycle')} />
          ) : (
            <FigureField form={form} path="modes.continuous.minSpacing" quantity="minSpacing" label={t('profile.minSpacing')} hint={t('profile.minSpacingHint')} />
          )}
        </>
      ) : (
        <p className="mp-muted-text mp-profile-off">{t(`profile.${mode}.off`)}</p>
      )}
    </section>
  );
}

/**
 * "Laser profile" of a device on /admin/devices: what the laser can deliver, from its maker's specification
 * (docs/clinical-limits.md, "The laser profile of a device"), shown and saved through updateDeviceLaserProfile.
 */
export function LaserProfileDialog({ device, onClose }: { device: Device; onClose: () => void }) {
  const { t, i18n } = useTranslation('devices');
  const language = i18n.language;
  const queryClient = useQueryClient();
  const notify = useNotify();
  const failureMessage = useFailureMessage();
  const errorText = useErrorText();
  const resolver = useMemo(
    () =>
      deferredResolver<LaserProfileFormInput, LaserProfile>(async () => {
        const [{ zodResolver }, { laserProfileFormSchema, LASER_PROFILE_PARSE_OPTIONS }] = await Promise.all([
          import('@hookform/resolvers/zod'),
          import('./laser-profile-schema'),
        ]);
        return zodResolver(laserProfileFormSchema(language), LASER_PROFILE_PARSE_OPTIONS);
      }),
    [language],
  );
  useResolverPreload(resolver);
  const form = useForm<LaserProfileFormInput, unknown, LaserProfile>({
    resolver,
    defaultValues: laserProfileFormValues(device.laserProfile, language),
    // The first wrong field in the order shown (react-hook-form's own focus skips a reversed range's fields).
    shouldFocusError: false,
  });
  const formRef = useRef<HTMLFormElement>(null);
  // Counted up when the focus should go to the first problem: the effect runs once the errors are drawn.
  const [problemsShown, setProblemsShown] = useState(0);
  const focusFirstProblem = () => setProblemsShown((count) => count + 1);
  useEffect(() => {
    const element = formRef.current;
    if (!problemsShown || !element) return;
    (element.querySelector<HTMLElement>('[aria-invalid="true"]') ?? element.querySelector<HTMLElement>('input[type="checkbox"]'))?.focus();
  }, [problemsShown]);
  // A failure no field shows (no answer, 403, 404, a field the form does not have).
  const [failure, setFailure] = useState<string>();
  const save = useUpdateDeviceLaserProfile({
    mutation: {
      onError: (error) => {
        const placed = placeServerErrors(error, form.setError);
        setFailure(placed ? undefined : failureMessage(error));
        if (placed) focusFirstProblem();
      },
      onSuccess: async (answer) => {
        // The table shows the saved profile at once; the refetch brings what else changed meanwhile.
        queryClient.setQueriesData<DeviceListResponse>({ queryKey: getListDevicesQueryKey() }, (list) =>
          list && { ...list, data: list.data.map((row) => (row.id === answer.data.id ? answer.data : row)) },
        );
        notify({ intent: 'success', message: answer.message ?? t('profile.saved') });
        onClose();
        await queryClient.invalidateQueries({ queryKey: getListDevicesQueryKey() });
      },
    },
  });
  const modesError = errorText(errorAt(form.formState.errors, 'modes'), undefined);
  const modesErrorId = useId();

  return (
    <Dialog
      isOpen
      onClose={onClose}
      title={t('profile.title', { deviceId: device.deviceId })}
      className="mp-dialog mp-laser-profile-dialog"
      canOutsideClickClose={false}
    >
      <form
        ref={formRef}
        noValidate
        onSubmit={form.handleSubmit((laserProfile) => {
          setFailure(undefined);
          save.mutate({ id: device.id, data: { laserProfile } });
        }, focusFirstProblem)}
      >
        <DialogBody>
          <p className="mp-dialog-text">{t('profile.explanation')}</p>
          {!device.laserProfile && (
            <Callout intent="warning" className="mp-dialog-callout" icon="warning-sign">
              {t('profile.missing')}
            </Callout>
          )}
          {failure && <FormAlert>{failure}</FormAlert>}
          <FigureField form={form} path="wavelengthNm" quantity="wavelengthNm" label={t('profile.wavelength')} autoFocus />
          <RangeField form={form} path="spotSizeUm" quantity="spotSizeUm" label={t('profile.spotSize')} />
          {modesError && (
            <div id={modesErrorId} role="alert" className={`${Classes.FORM_HELPER_TEXT} mp-profile-error mp-profile-modes-error`}>
              {modesError}
            </div>
          )}
          {MODE_NAMES.map((mode) => (
            <ModeSection key={mode} form={form} mode={mode} />
          ))}
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button size="large" onClick={onClose}>
                {t('profile.cancel')}
              </Button>
              <SubmitButton label={t('profile.save')} pending={save.isPending} fill={false} />
            </>
          }
        />
      </form>
    </Dialog>
  );
}
