import { Button, DialogBody, DialogFooter, FormGroup, TextArea } from '@blueprintjs/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { getListDevicesQueryKey, useAddDevice } from '@generated/hooks/clinic/clinic';
import type { DeviceEnrolmentResponseData } from '@generated/model/deviceEnrolmentResponseData';
import { deferredResolver, useResolverPreload } from '@/components/deferred-resolver';
import { Dialog } from '@/components/dialog';
import { FormAlert, showServerFieldErrors, TextField, useFailureMessage } from '@/components/form-fields';
import { useNotify } from '@/components/notifications';
import { SubmitButton } from '@/components/submit-button';
import {
  DEVICE_FIELD_ERRORS,
  DEVICE_FORM_FIELDS,
  DEVICE_LIMITS,
  deviceInputOf,
  EMPTY_DEVICE_FORM,
  type DeviceFieldError,
  type DeviceFormInput,
} from './device-form';
import type { DeviceFormValues } from './device-form-schema';
import { EnrolmentCodePanel } from './enrolment-code';

type DeviceFormProps = { onAdded: (added: DeviceEnrolmentResponseData) => void; onClose: () => void };

/** The form of "Add device": the laser system's serials, its camera and a description. */
function AddDeviceForm({ onAdded, onClose }: DeviceFormProps) {
  const { t } = useTranslation('devices');
  const queryClient = useQueryClient();
  const notify = useNotify();
  const failureMessage = useFailureMessage();
  const resolver = useMemo(
    () =>
      deferredResolver<DeviceFormInput, DeviceFormValues>(async () => {
        const [{ zodResolver }, { deviceFormSchema }] = await Promise.all([import('@hookform/resolvers/zod'), import('./device-form-schema')]);
        return zodResolver(deviceFormSchema);
      }),
    [],
  );
  useResolverPreload(resolver);
  const form = useForm<DeviceFormInput, unknown, DeviceFormValues>({ resolver, defaultValues: EMPTY_DEVICE_FORM });
  // A failure no field shows (no answer, 403, a field the form does not have).
  const [failure, setFailure] = useState<string>();
  const add = useAddDevice({
    mutation: {
      onError: (error) => {
        const shown = showServerFieldErrors(error, form.setError, DEVICE_FORM_FIELDS);
        setFailure(shown ? undefined : failureMessage(error));
        const first = DEVICE_FORM_FIELDS.find((field) => form.getFieldState(field).error);
        if (first) form.setFocus(first);
      },
      onSuccess: (answer) => {
        notify({ intent: 'success', message: answer.message ?? t('add.added') });
        void queryClient.invalidateQueries({ queryKey: getListDevicesQueryKey() });
        onAdded(answer.data);
      },
    },
  });

  const { errors } = form.formState;
  /** A field's error in the UI language: ours are DeviceFieldError keys, the server's come translated. */
  const errorOf = (field: keyof DeviceFormInput): string | undefined => {
    const message = errors[field]?.message;
    if (!message || !DEVICE_FIELD_ERRORS.includes(message as DeviceFieldError)) return message;
    const max = field === 'camera' || field === 'description' ? DEVICE_LIMITS[field] : DEVICE_LIMITS.serial;
    return t(`add.errors.${message as DeviceFieldError}`, { max });
  };
  const description = form.watch('description');
  const descriptionError = errorOf('description');
  const ids = { description: useId(), count: useId() };
  // Registered in the order shown: a refused submit focuses the first field with an error in this order.
  const deviceId = form.register('deviceId');
  const opticalHeadId = form.register('opticalHeadId');
  const camera = form.register('camera');
  const { ref: descriptionRef, ...descriptionField } = form.register('description');
  useEffect(() => form.setFocus('deviceId'), [form]);

  return (
    <form
      className="mp-device-form"
      noValidate
      onSubmit={form.handleSubmit((values) => {
        setFailure(undefined);
        add.mutate({ data: deviceInputOf(values) });
      })}
    >
      <DialogBody>
        <p className="mp-dialog-text">{t('add.explanation')}</p>
        {failure && <FormAlert>{failure}</FormAlert>}
        <div className="mp-form-row">
          <TextField label={t('add.deviceId')} registration={deviceId} error={errorOf('deviceId')} autoComplete="off" maxLength={DEVICE_LIMITS.serial} />
          <TextField
            label={t('add.opticalHeadId')}
            registration={opticalHeadId}
            error={errorOf('opticalHeadId')}
            autoComplete="off"
            maxLength={DEVICE_LIMITS.serial}
          />
        </div>
        <TextField label={t('add.camera')} registration={camera} error={errorOf('camera')} autoComplete="off" maxLength={DEVICE_LIMITS.camera} />
        <FormGroup
          label={t('add.description')}
          labelFor={ids.description}
          labelInfo={t('add.optional')}
          intent={descriptionError ? 'danger' : 'none'}
          helperText={
            <span id={ids.count} aria-live="polite">
              {descriptionError ?? t('add.characters', { count: description.length, max: DEVICE_LIMITS.description })}
            </span>
          }
        >
          <TextArea
            {...descriptionField}
            inputRef={descriptionRef}
            id={ids.description}
            fill
            rows={2}
            maxLength={DEVICE_LIMITS.description}
            intent={descriptionError ? 'danger' : 'none'}
            aria-invalid={descriptionError ? true : undefined}
            aria-describedby={ids.count}
          />
        </FormGroup>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button size="large" onClick={onClose}>
              {t('add.cancel')}
            </Button>
            <SubmitButton label={t('add.submit')} pending={add.isPending} fill={false} />
          </>
        }
      />
    </form>
  );
}

/**
 * "Add device": the form, and once the device is added its one-time enrolment code in the same dialog (the
 * only time it is shown). The list is read again at once, so the new device stands in it behind the dialog.
 */
export function AddDeviceDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('devices');
  const [added, setAdded] = useState<DeviceEnrolmentResponseData>();
  // The form gives way to the code: the focus moves to the code's copy button, not to the page behind.
  const copyButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (added) copyButton.current?.focus();
  }, [added]);

  return (
    <Dialog
      isOpen
      onClose={onClose}
      title={added ? t('code.title', { deviceId: added.device.deviceId }) : t('add.title')}
      className="mp-dialog"
      canOutsideClickClose={false}
    >
      {added ? (
        <>
          <DialogBody>
            <EnrolmentCodePanel enrolment={added.enrolment} focusRef={copyButton} />
          </DialogBody>
          <DialogFooter
            actions={
              <Button size="large" intent="primary" onClick={onClose}>
                {t('code.done')}
              </Button>
            }
          />
        </>
      ) : (
        <AddDeviceForm onAdded={setAdded} onClose={onClose} />
      )}
    </Dialog>
  );
}
