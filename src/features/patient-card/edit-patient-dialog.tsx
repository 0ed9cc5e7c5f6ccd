import { Button, DialogBody, DialogFooter } from '@blueprintjs/core';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { getGetPatientQueryKey, getListPatientsQueryKey, useUpdatePatient } from '@generated/hooks/patients/patients';
import type { Patient } from '@generated/model/patient';
import { deferredResolver, useResolverPreload } from '@/components/deferred-resolver';
import { Dialog } from '@/components/dialog';
import { FormAlert, showServerFieldErrors, useFailureText } from '@/components/form-fields';
import { useNotify } from '@/components/notifications';
import { PatientFields } from '@/components/patient-form/patient-fields';
import { PATIENT_FORM_FIELDS } from '@/components/patient-form/patient-form-limits';
import type { PatientFormInput, PatientFormValues } from '@/components/patient-form/patient-form-schema';
import { SubmitButton } from '@/components/submit-button';
import { localToday } from '@/lib/format';

const formOf = (patient: Patient): PatientFormInput => ({
  name: patient.name,
  secondName: patient.secondName,
  birthday: patient.birthday,
  gender: patient.gender,
  description: patient.description ?? '',
});

/** "Edit" on the card: the patient's data in the form of "Add new patient". */
export function EditPatientDialog({ patient, onClose }: { patient: Patient; onClose: () => void }) {
  const { t } = useTranslation('patientCard');
  const queryClient = useQueryClient();
  const notify = useNotify();
  const resolver = useMemo(
    () =>
      deferredResolver<PatientFormInput, PatientFormValues>(async () => {
        const [{ zodResolver }, { patientFormSchema }] = await Promise.all([
          import('@hookform/resolvers/zod'),
          import('@/components/patient-form/patient-form-schema'),
        ]);
        return zodResolver(patientFormSchema(localToday()));
      }),
    [],
  );
  useResolverPreload(resolver);
  const form = useForm<PatientFormInput, unknown, PatientFormValues>({ resolver, defaultValues: formOf(patient) });
  const update = useUpdatePatient({
    mutation: {
      onError: (error) => showServerFieldErrors(error, form.setError, PATIENT_FORM_FIELDS),
      onSuccess: async (answer) => {
        queryClient.setQueryData(getGetPatientQueryKey(patient.id), answer);
        await queryClient.invalidateQueries({ queryKey: getListPatientsQueryKey() });
        notify({ intent: 'success', message: answer.message ?? t('edit.saved') });
        onClose();
      },
    },
  });
  const failure = useFailureText(update.error);

  return (
    <Dialog isOpen onClose={onClose} title={t('edit.title')} className="mp-dialog" canOutsideClickClose={false}>
      <form
        noValidate
        onSubmit={form.handleSubmit(({ description, ...values }) =>
          update.mutate({ id: patient.id, data: { ...values, description: description.trim() || null } }),
        )}
      >
        <DialogBody>
          {failure && <FormAlert>{failure}</FormAlert>}
          <PatientFields register={form.register} control={form.control} watch={form.watch} errors={form.formState.errors} />
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button size="large" onClick={onClose}>
                {t('cancel')}
              </Button>
              <SubmitButton label={t('edit.save')} pending={update.isPending} fill={false} />
            </>
          }
        />
      </form>
    </Dialog>
  );
}
