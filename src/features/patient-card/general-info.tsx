import { Button, Card, Classes } from '@blueprintjs/core';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { TextEditor } from './text-editor';
import { useTranslation } from 'react-i18next';
import { getGetPatientQueryKey, useUpdatePatient } from '@generated/hooks/patients/patients';
import type { Patient } from '@generated/model/patient';
import { useFailureMessage } from '@/components/form-fields';
import { useNotify } from '@/components/notifications';
import { PATIENT_LIMITS } from '@/components/patient-form/patient-form-limits';
import { ageOn, formatCalendarDate, localToday } from '@/lib/format';

/** The patient's description, adjusted in place ("Adjust description", on the patient card). */
function DescriptionEditor({ patient, onDone }: { patient: Patient; onDone: () => void }) {
  const { t } = useTranslation('patientCard');
  const queryClient = useQueryClient();
  const notify = useNotify();
  const failureMessage = useFailureMessage();
  const update = useUpdatePatient({
    mutation: {
      onSuccess: (answer) => {
        queryClient.setQueryData(getGetPatientQueryKey(patient.id), answer);
        notify({ intent: 'success', message: t('description.saved') });
        onDone();
      },
      onError: (error) => notify({ intent: 'danger', message: failureMessage(error) }),
    },
  });
  return (
    <TextEditor
      label={t('description.label')}
      initial={patient.description ?? ''}
      max={PATIENT_LIMITS.description}
      pending={update.isPending}
      onSave={(text) => update.mutate({ id: patient.id, data: { description: text || null } })}
      onCancel={onDone}
    />
  );
}

/** General information of the card: who the patient is, and the description. */
export function GeneralInfo({ patient, onEdit }: { patient: Patient; onEdit: () => void }) {
  const { t, i18n } = useTranslation(['patientCard', 'patients']);
  const titleId = useId();
  const [editingDescription, setEditingDescription] = useState(false);

  return (
    <Card className="mp-card-section" aria-labelledby={titleId} role="region">
      <div className="mp-section-header">
        <h2 id={titleId} className="mp-card-title">
          {t('general.title')}
        </h2>
        <Button variant="minimal" icon="edit" onClick={onEdit}>
          {t('general.edit')}
        </Button>
      </div>
      <dl className="mp-definition-list">
        <dt>{t('patients:field.name')}</dt>
        <dd>{patient.name}</dd>
        <dt>{t('patients:field.secondName')}</dt>
        <dd>{patient.secondName}</dd>
        <dt>{t('patients:field.birthday')}</dt>
        <dd>
          {t('general.birthdayWithAge', {
            birthday: formatCalendarDate(patient.birthday, i18n.language),
            age: ageOn(patient.birthday, localToday()),
          })}
        </dd>
        <dt>{t('patients:field.gender')}</dt>
        <dd>{t(`patients:gender.${patient.gender}`)}</dd>
        <dt>{t('patients:field.deviceId')}</dt>
        <dd>{patient.deviceId ?? <span className="mp-muted-text">{t('general.noDeviceId')}</span>}</dd>
      </dl>
      <div className="mp-description">
        {editingDescription ? (
          <DescriptionEditor patient={patient} onDone={() => setEditingDescription(false)} />
        ) : (
          <>
            <div className="mp-section-header">
              <h3 className="mp-subtitle">{t('description.label')}</h3>
              <Button variant="minimal" icon="annotation" onClick={() => setEditingDescription(true)}>
                {t('description.adjust')}
              </Button>
            </div>
            <p className={patient.description ? 'mp-preformatted' : `mp-muted-text ${Classes.TEXT_MUTED}`}>
              {patient.description ?? t('description.none')}
            </p>
          </>
        )}
      </div>
    </Card>
  );
}
