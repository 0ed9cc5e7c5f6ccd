import { Button, Callout, Classes, DialogBody, DialogFooter, FormGroup, TextArea } from '@blueprintjs/core';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { getGetPatientQueryKey, getListPatientsQueryKey, useRequestPatientDeletion } from '@generated/hooks/patients/patients';
import type { Patient } from '@generated/model/patient';
import { Dialog } from '@/components/dialog';
import { useFailureMessage } from '@/components/form-fields';
import { useNotify } from '@/components/notifications';
import { paths } from '@/config/paths';
import { forgetRecentPatient } from '@/lib/recent-patients';

const REASON_MAX = 1000;

/**
 * Physicians and nurses do not delete patients: they ask the clinic's IT admins to (permission matrix). The patient
 * leaves the active list at once; the card goes back to the list.
 */
export function RequestDeletionDialog({ patient, userId, onClose }: { patient: Patient; userId: string; onClose: () => void }) {
  const { t } = useTranslation('patientCard');
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const notify = useNotify();
  const failureMessage = useFailureMessage();
  const ids = { reason: useId(), error: useId() };
  const [reason, setReason] = useState('');
  const [missing, setMissing] = useState(false);
  const request = useRequestPatientDeletion({
    mutation: {
      onSuccess: async (answer) => {
        forgetRecentPatient(userId, patient.id);
        await queryClient.invalidateQueries({ queryKey: getListPatientsQueryKey() });
        notify({ intent: 'success', message: answer.message ?? t('deletion.done') });
        await navigate(paths.physician.list.getHref());
        // Only once the card is gone: removed while it shows, the card would ask for the patient again
        // (and put them back among the recently opened).
        queryClient.removeQueries({ queryKey: getGetPatientQueryKey(patient.id) });
      },
    },
  });

  return (
    <Dialog isOpen onClose={onClose} title={t('deletion.title')} className="mp-dialog">
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (!reason.trim()) {
            setMissing(true);
            return;
          }
          request.mutate({ id: patient.id, data: { reason: reason.trim() } });
        }}
      >
        <DialogBody>
          <p className="mp-dialog-text">{t('deletion.explanation', { patient: `${patient.name} ${patient.secondName}` })}</p>
          {request.error && (
            <Callout intent="danger" role="alert" className="mp-dialog-callout">
              {failureMessage(request.error)}
            </Callout>
          )}
          <FormGroup label={t('deletion.reason')} labelFor={ids.reason} intent={missing ? 'danger' : 'none'}>
            <TextArea
              id={ids.reason}
              fill
              autoFocus
              rows={3}
              maxLength={REASON_MAX}
              value={reason}
              intent={missing ? 'danger' : 'none'}
              aria-invalid={missing || undefined}
              aria-describedby={missing ? ids.error : undefined}
              onChange={(event) => {
                setReason(event.currentTarget.value);
                setMissing(false);
              }}
            />
            {missing && (
              <div id={ids.error} className={Classes.FORM_HELPER_TEXT}>
                {t('deletion.reasonRequired')}
              </div>
            )}
          </FormGroup>
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button onClick={onClose}>{t('cancel')}</Button>
              <Button type="submit" intent="danger" loading={request.isPending}>
                {t('deletion.submit')}
              </Button>
            </>
          }
        />
      </form>
    </Dialog>
  );
}
