import { Button, Callout, DialogBody, DialogFooter, Spinner, type Intent } from '@blueprintjs/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { getListDevicesQueryKey, useIssueDeviceEnrolmentCode, useRevokeDeviceCredential } from '@generated/hooks/clinic/clinic';
import type { Device } from '@generated/model/device';
import type { DeviceListResponse } from '@generated/model/deviceListResponse';
import type { EnrolmentCode } from '@generated/model/enrolmentCode';
import { Dialog } from '@/components/dialog';
import { useFailureMessage } from '@/components/form-fields';
import { useNotify } from '@/components/notifications';
import { EnrolmentCodePanel } from './enrolment-code';

type AccessDialogProps = { device: Device; onClose: () => void };

/*
 * The access dialogs open from a row's menu, which gives the focus back to its button as it closes: a button that
 * takes the focus as the dialog mounts loses it again. It takes the focus once the dialog has opened.
 */

/** The dialog's action; while its request runs, a spinner named in the UI language (Blueprint's `loading` is English). */
function ActionButton({ intent, pending, onClick, buttonRef, children }: { intent: Intent; pending: boolean; onClick: () => void; buttonRef?: Ref<HTMLButtonElement>; children: string }) {
  const { t } = useTranslation('common');
  return (
    <Button
      size="large"
      intent={intent}
      disabled={pending}
      aria-busy={pending}
      icon={pending ? <Spinner size={16} aria-label={t('loading')} /> : undefined}
      ref={buttonRef}
      onClick={onClick}
    >
      {children}
    </Button>
  );
}

/** The list shows the device as answered at once; the refetch brings what else changed meanwhile. */
function useShowDevice() {
  const queryClient = useQueryClient();
  return async (device: Device) => {
    queryClient.setQueriesData<DeviceListResponse>({ queryKey: getListDevicesQueryKey() }, (list) =>
      list && { ...list, data: list.data.map((row) => (row.id === device.id ? device : row)) },
    );
    await queryClient.invalidateQueries({ queryKey: getListDevicesQueryKey() });
  };
}

/**
 * "New enrolment code": says what a new code does to the code and credential the device has, creates it on
 * request and shows it (the only time it is shown).
 */
export function NewEnrolmentCodeDialog({ device, onClose }: AccessDialogProps) {
  const { t } = useTranslation('devices');
  const notify = useNotify();
  const failureMessage = useFailureMessage();
  const showDevice = useShowDevice();
  const [code, setCode] = useState<EnrolmentCode>();
  const issue = useIssueDeviceEnrolmentCode({
    mutation: {
      onSuccess: async (answer) => {
        setCode(answer.data.enrolment);
        notify({ intent: 'success', message: answer.message ?? t('newCode.issued') });
        await showDevice(answer.data.device);
      },
    },
  });
  const copyButton = useRef<HTMLButtonElement>(null);
  const createButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (code) copyButton.current?.focus();
  }, [code]);
  const hasAccess = device.enrolment === 'enrolled' || (device.enrolment === 'code_issued' && !!device.enrolledAt);

  return (
    <Dialog
      isOpen
      onClose={issue.isPending ? undefined : onClose}
      onOpened={() => createButton.current?.focus()}
      title={t('newCode.title', { deviceId: device.deviceId })}
      className="mp-dialog"
    >
      <DialogBody>
        {code ? (
          <EnrolmentCodePanel enrolment={code} focusRef={copyButton} />
        ) : (
          <>
            <p className="mp-dialog-text">{t('newCode.explanation')}</p>
            {(device.enrolment === 'code_issued' || hasAccess) && (
              <p className="mp-dialog-text">
                {device.enrolment === 'code_issued' && t('newCode.replacesCode')} {hasAccess && t('newCode.keepsAccess')}
              </p>
            )}
            {issue.error && (
              <Callout intent="danger" role="alert" className="mp-dialog-callout">
                {failureMessage(issue.error)}
              </Callout>
            )}
          </>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          code ? (
            <Button size="large" intent="primary" onClick={onClose}>
              {t('code.done')}
            </Button>
          ) : (
            <>
              <Button size="large" onClick={onClose} disabled={issue.isPending}>
                {t('newCode.cancel')}
              </Button>
              <ActionButton intent="primary" pending={issue.isPending} onClick={() => issue.mutate({ id: device.id })} buttonRef={createButton}>
                {t('newCode.create')}
              </ActionButton>
            </>
          )
        }
      />
    </Dialog>
  );
}

/** "Revoke access": names the device and what follows (its sync app is cut off at once), then revokes. */
export function RevokeAccessDialog({ device, onClose }: AccessDialogProps) {
  const { t } = useTranslation('devices');
  const notify = useNotify();
  const failureMessage = useFailureMessage();
  const showDevice = useShowDevice();
  const cancelButton = useRef<HTMLButtonElement>(null);
  const revoke = useRevokeDeviceCredential({
    mutation: {
      onSuccess: async (answer) => {
        notify({ intent: 'success', message: answer.message ?? t('revoke.done') });
        onClose();
        await showDevice(answer.data);
      },
    },
  });

  return (
    <Dialog
      isOpen
      onClose={revoke.isPending ? undefined : onClose}
      // The focus starts on the harmless choice.
      onOpened={() => cancelButton.current?.focus()}
      title={t('revoke.title', { deviceId: device.deviceId })}
      className="mp-dialog"
    >
      <DialogBody>
        <p className="mp-dialog-text">
          <strong>{t('revoke.question', { deviceId: device.deviceId })}</strong>
        </p>
        <p className="mp-dialog-text">{t('revoke.effect')}</p>
        {revoke.error && (
          <Callout intent="danger" role="alert" className="mp-dialog-callout">
            {failureMessage(revoke.error)}
          </Callout>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button ref={cancelButton} size="large" onClick={onClose} disabled={revoke.isPending}>
              {t('revoke.cancel')}
            </Button>
            <ActionButton intent="danger" pending={revoke.isPending} onClick={() => revoke.mutate({ id: device.id })}>
              {t('revoke.confirm')}
            </ActionButton>
          </>
        }
      />
    </Dialog>
  );
}
