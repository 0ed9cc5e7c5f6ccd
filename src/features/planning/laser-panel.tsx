import { Alert, Button, Callout } from '@blueprintjs/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useListTreatmentDevices } from '@generated/hooks/planning/planning';
import { cancelParameterSetTransfer, getGetTreatmentQueryKey, sendParameterSetToDevice } from '@generated/hooks/treatments/treatments';
import type { Role } from '@generated/model/role';
import type { SessionTransferResponse } from '@generated/model/sessionTransferResponse';
import type { Treatment } from '@generated/model/treatment';
import { useFailureMessage } from '@/components/form-fields';
import { useNotify } from '@/components/notifications';
import { Select } from '@/components/select';
import { TransferStatusTag } from '@/components/transfer-state';
import { formatDateTime } from '@/lib/format';
import { canCancel, canSend, firstChoice, sendRefusal, transferTime } from './laser-transfer';
import { useDeviceLabel } from './sign-off-laser';
import { useRefreshLists } from './use-step-save';

/**
 * Step 5's "Laser" panel (issue 29): where the signed plan stands on its way to the laser, live (realtime refetches
 * the session on every step of the transfer): queued, received, treated, failed or withdrawn; without a transfer,
 * that the parameter set is downloaded by hand. A physician sends it (again after a failure, or to another laser
 * that can deliver it) and withdraws it while its laser has not fetched it; a nurse sees where it stands.
 */
export function LaserPanel({ treatment, role }: { treatment: Treatment; role: Role }) {
  const { t, i18n } = useTranslation('planning');
  const queryClient = useQueryClient();
  const notify = useNotify();
  const failureMessage = useFailureMessage();
  const deviceLabel = useDeviceLabel();
  const refreshLists = useRefreshLists(treatment);
  const titleId = useId();
  const { transfer } = treatment;
  const physician = role === 'clinic_physicians';
  const sendable = physician && canSend(transfer);
  const devices = useListTreatmentDevices(treatment.id, { query: { enabled: sendable } });
  const offered = devices.data?.data ?? [];
  // The wavelength the parameter set was packed for: the treating laser's at sign-off.
  const wavelength = treatment.plan.safety?.treatmentDevice?.laserProfile?.wavelengthNm ?? null;
  const [chosen, setChosen] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  // The last refusal (409 transfer.…, 423 locked), in the server's words; cleared by a success.
  const [failure, setFailure] = useState<string | null>(null);
  const deviceId = chosen !== null && offered.some((device) => device.id === chosen) ? chosen : firstChoice(offered, transfer, wavelength);

  // The generated request functions under one mutation each, rather than their generated hooks: the hooks' code
  // would land in the treatments chunk that the patient card loads too, at the edge of its bundle budget.
  const settled = {
    onSuccess: async (answer: SessionTransferResponse) => {
      setChosen(null);
      setConfirming(false);
      setFailure(null);
      // The server's message, in the user's language.
      notify({ intent: 'success', message: answer.message ?? t('transfer.done') });
      // This page is not sent its own realtime announcement: the session and the patient's lists are read again here.
      await Promise.all([queryClient.invalidateQueries({ queryKey: getGetTreatmentQueryKey(treatment.id) }), refreshLists()]);
    },
    onError: (error: unknown) => {
      setConfirming(false);
      setFailure(failureMessage(error));
    },
  };
  const send = useMutation({ mutationFn: (to: string) => sendParameterSetToDevice(treatment.id, { deviceId: to }), ...settled });
  const cancel = useMutation({ mutationFn: () => cancelParameterSetTransfer(treatment.id), ...settled });
  const device = transfer ? deviceLabel(transfer.device) : '';
  const again = transfer?.status === 'failed' || transfer?.status === 'cancelled';

  return (
    <section className="mp-step-panel mp-laser" aria-labelledby={titleId}>
      <h3 id={titleId} className="mp-step-title">
        {t('transfer.title')}
      </h3>
      {transfer ? (
        <p className="mp-laser-state" role="status">
          <TransferStatusTag status={transfer.status} />{' '}
          <span>
            {t(`transfer.${transfer.status}`, {
              device,
              time: formatDateTime(transferTime(transfer), i18n.language),
              count: transfer.deliveredSpots ?? 0,
              reason: transfer.failureReason ?? '—',
            })}
          </span>
        </p>
      ) : (
        <p className="mp-muted-text">{t('transfer.none')}</p>
      )}
      {physician && (sendable || canCancel(transfer)) && (
        <div className="mp-laser-actions">
          {sendable && (
            <>
              <Select aria-label={t('transfer.device')} value={deviceId} disabled={offered.length === 0} onChange={(event) => setChosen(event.currentTarget.value)}>
                {!deviceId && (
                  <option value="">{t(devices.isPending ? 'transfer.loadingDevices' : offered.length ? 'transfer.noChoice' : 'transfer.noDevices')}</option>
                )}
                {offered.map((option) => {
                  const refusal = sendRefusal(option, transfer, wavelength);
                  return (
                    <option key={option.id} value={option.id} disabled={refusal !== null}>
                      {refusal ? t(`transfer.refusal.${refusal}`, { device: deviceLabel(option) }) : deviceLabel(option)}
                    </option>
                  );
                })}
              </Select>
              <Button disabled={!deviceId || cancel.isPending} loading={send.isPending} onClick={() => send.mutate(deviceId)}>
                {t(again ? 'transfer.sendAgain' : 'transfer.send')}
              </Button>
            </>
          )}
          {canCancel(transfer) && (
            <Button intent="danger" variant="outlined" disabled={send.isPending} onClick={() => setConfirming(true)}>
              {t('transfer.cancel')}
            </Button>
          )}
        </div>
      )}
      {failure && (
        <Callout intent="danger" compact className="mp-step-callout" role="alert">
          {failure}
        </Callout>
      )}
      <Alert
        isOpen={confirming}
        intent="danger"
        cancelButtonText={t('transfer.keep')}
        confirmButtonText={t('transfer.cancelConfirm')}
        loading={cancel.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() => cancel.mutate()}
      >
        <p>{t('transfer.cancelQuestion', { device })}</p>
      </Alert>
    </section>
  );
}
