import { Button, DialogBody, DialogFooter } from '@blueprintjs/core';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { getListPatientsQueryKey, useCreatePatient } from '@generated/hooks/patients/patients';
import { deferredResolver, useResolverPreload } from '@/components/deferred-resolver';
import { Dialog } from '@/components/dialog';
import { FormAlert, showServerFieldErrors, useFailureText } from '@/components/form-fields';
import { useNotify } from '@/components/notifications';
import { PatientFields } from '@/components/patient-form/patient-fields';
import { EMPTY_PATIENT_FORM, localToday, PATIENT_FORM_FIELDS } from '@/components/patient-form/patient-form-limits';
import type { PatientFormInput, PatientFormValues } from '@/components/patient-form/patient-form-schema';
import { SubmitButton } from '@/components/submit-button';
import { paths } from '@/config/paths';

/** "Add new patient": the form in a dialog; the new patient's card opens, ready for the first exam upload. */
export function AddPatientDialog({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const { t } = useTranslation('patientList');
  const queryClient = useQueryClient();
  const navigate = useNavigate();
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
  const form = useForm<PatientFormInput, unknown, PatientFormValues>({ resolver, defaultValues: EMPTY_PATIENT_FORM });
  const create = useCreatePatient({
    mutation: {
      onError: (error) => showServerFieldErrors(error, form.setError, PATIENT_FORM_FIELDS),
      onSuccess: async (answer) => {
        notify({ intent: 'success', message: answer.message ?? t('add.added') });
        await queryClient.invalidateQueries({ queryKey: getListPatientsQueryKey() });
        close();
        void navigate(paths.physician.patientCard.getHref(answer.data.id));
      },
    },
  });
  const failure = useFailureText(create.error);

  const close = () => {
    form.reset(EMPTY_PATIENT_FORM);
    create.reset();
    onClose();
  };

  return (
    <Dialog isOpen={isOpen} onClose={close} title={t('add.title')} className="mp-dialog" canOutsideClickClose={false}>
      <form
        noValidate
        onSubmit={form.handleSubmit(({ description, ...patient }) =>
          create.mutate({ data: { ...patient, ...(description.trim() && { description: description.trim() }) } }),
        )}
      >
        <DialogBody>
          {failure && <FormAlert>{failure}</FormAlert>}
          <PatientFields register={form.register} control={form.control} watch={form.watch} errors={form.formState.errors} />
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button size="large" onClick={close}>
                {t('add.cancel')}
              </Button>
              <SubmitButton label={t('add.submit')} pending={create.isPending} fill={false} />
            </>
          }
        />
      </form>
    </Dialog>
  );
}
