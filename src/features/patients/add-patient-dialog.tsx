import { Button, DialogBody, DialogFooter, Spinner } from '@blueprintjs/core';
import type { PatientCreate } from '@generated/model/patientCreate';
import type { PatientMatch } from '@generated/model/patientMatch';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { getListPatientsQueryKey, useCreatePatient } from '@generated/hooks/patients/patients';
import { deferredResolver, useResolverPreload } from '@/components/deferred-resolver';
import { Dialog } from '@/components/dialog';
import { FormAlert, showServerFieldErrors, useFailureText } from '@/components/form-fields';
import { useNotify } from '@/components/notifications';
import { isSameEntry, likelyDuplicatesOf, type PatientIdentity } from '@/components/patient-form/likely-duplicate';
import { LikelyDuplicateWarning } from '@/components/patient-form/likely-duplicate-warning';
import { PatientFields } from '@/components/patient-form/patient-fields';
import { EMPTY_PATIENT_FORM, PATIENT_FORM_FIELDS } from '@/components/patient-form/patient-form-limits';
import type { PatientFormInput, PatientFormValues } from '@/components/patient-form/patient-form-schema';
import { SubmitButton } from '@/components/submit-button';
import { paths } from '@/config/paths';
import { localToday } from '@/lib/format';

/** The server named patients the new one may be: for this name and birthday, as sent. */
type Duplicates = { message: string; patients: PatientMatch[]; entry: PatientIdentity };

const bodyOf = ({ description, ...patient }: PatientFormValues): PatientCreate => ({
  ...patient,
  ...(description.trim() && { description: description.trim() }),
});

/**
 * "Add new patient": the form in a dialog; the new patient's card opens, ready for the first exam upload. A
 * likely duplicate is shown above the form, which keeps what was typed: open the existing card, or "Create
 * anyway" (a button, never Enter in a field, so that a duplicate is created only on purpose).
 */
export function AddPatientDialog({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const { t } = useTranslation('patientList');
  const { t: tPatients } = useTranslation('patients');
  const { t: tCommon } = useTranslation('common');
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
  const [duplicates, setDuplicates] = useState<Duplicates>();
  const create = useCreatePatient({
    mutation: {
      onError: (error, { data }) => {
        const patients = likelyDuplicatesOf(error);
        if (patients) setDuplicates({ message: (error as Error).message, patients, entry: data });
        else showServerFieldErrors(error, form.setError, PATIENT_FORM_FIELDS);
      },
      onSuccess: async (answer) => {
        notify({ intent: 'success', message: answer.message ?? t('add.added') });
        await queryClient.invalidateQueries({ queryKey: getListPatientsQueryKey() });
        close();
        void navigate(paths.physician.patientCard.getHref(answer.data.id));
      },
    },
  });
  const [name, secondName, birthday] = form.watch(['name', 'secondName', 'birthday']);
  // The warning holds for the entry it was given for; another name or birthday is asked about anew.
  const warned = duplicates && isSameEntry(duplicates.entry, { name, secondName, birthday }) ? duplicates : undefined;
  const failureText = useFailureText(create.error);
  const failure = likelyDuplicatesOf(create.error) ? undefined : failureText;

  const close = () => {
    form.reset(EMPTY_PATIENT_FORM);
    create.reset();
    setDuplicates(undefined);
    onClose();
  };

  const openCard = (patientId: string) => {
    close();
    void navigate(paths.physician.patientCard.getHref(patientId));
  };

  const createAnyway = form.handleSubmit((values) => create.mutate({ data: { ...bodyOf(values), confirmDuplicate: true } }));

  return (
    <Dialog isOpen={isOpen} onClose={close} title={t('add.title')} className="mp-dialog" canOutsideClickClose={false}>
      <form noValidate onSubmit={form.handleSubmit((values) => create.mutate({ data: bodyOf(values) }))}>
        <DialogBody>
          {failure && <FormAlert>{failure}</FormAlert>}
          {warned && <LikelyDuplicateWarning message={warned.message} patients={warned.patients} onOpen={openCard} />}
          <PatientFields register={form.register} control={form.control} watch={form.watch} errors={form.formState.errors} />
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button size="large" onClick={close}>
                {t('add.cancel')}
              </Button>
              {warned ? (
                <Button
                  size="large"
                  intent="warning"
                  disabled={create.isPending}
                  aria-busy={create.isPending}
                  icon={create.isPending ? <Spinner size={16} aria-label={tCommon('loading')} /> : undefined}
                  onClick={() => void createAnyway()}
                >
                  {tPatients('duplicate.createAnyway')}
                </Button>
              ) : (
                <SubmitButton label={t('add.submit')} pending={create.isPending} fill={false} />
              )}
            </>
          }
        />
      </form>
    </Dialog>
  );
}
