import { Button, Callout, HTMLTable } from '@blueprintjs/core';
import type { PatientComparison } from '@generated/model/patientComparison';
import type { PatientField } from '@generated/model/patientField';
import type { UploadPatientMismatchError } from '@generated/model/uploadPatientMismatchError';
import { useTranslation } from 'react-i18next';
import { formatCalendarDate, formatList } from '@/lib/format';
import { agreeingFields, sentenceStart } from './patient-comparison';

type PatientMismatchProps = {
  /** The file's patient: the clinic's (with id) when it knows them. */
  filePatient: UploadPatientMismatchError['patient'];
  comparison: PatientComparison;
  onGoTo: (patientId: string) => void;
  onCreateFromFile: () => void;
  /** Adds the session to this card although the device patient id differs (offered when nothing else does). */
  onUploadAnyway: () => void;
};

/**
 * An exam of another patient than the card's: what differs between the file and the card, side by side, and
 * what agrees; then the ways on: the file's patient, a new patient from the file, or, when only the device
 * patient id differs, this card anyway.
 */
export function PatientMismatch({ filePatient, comparison, onGoTo, onCreateFromFile, onUploadAnyway }: PatientMismatchProps) {
  const { t, i18n } = useTranslation('examUpload');
  const { t: tPatients } = useTranslation('patients');
  const { differences, file, uploadedFor, confirmable } = comparison;
  const valueOf = (side: PatientComparison['file'] | PatientComparison['uploadedFor'], field: PatientField): string => {
    switch (field) {
      case 'birthday':
        return formatCalendarDate(side.birthday, i18n.language);
      case 'gender':
        return tPatients(`gender.${side.gender}`);
      default:
        // A patient without a device id is not compared by it: no row shows this dash.
        return side[field] ?? '—';
    }
  };
  const agreeing = agreeingFields(comparison);
  const agreeingList = formatList(agreeing.map((field) => t(`mismatch.fields.${field}`)), i18n.language);
  const cardPatient = `${uploadedFor.name} ${uploadedFor.secondName}`;

  return (
    <Callout intent="warning" title={confirmable ? t('mismatch.deviceIdTitle') : t('mismatch.title')} className="mp-upload-callout">
      <p>
        {confirmable
          ? t('mismatch.deviceIdText', { patient: cardPatient })
          : t('mismatch.text', {
              patient: cardPatient,
              filePatient: `${filePatient.name} ${filePatient.secondName}`,
              birthday: formatCalendarDate(filePatient.birthday, i18n.language),
            })}
      </p>
      <HTMLTable compact className="mp-mismatch-table">
        <caption className="mp-visually-hidden">{t('mismatch.table')}</caption>
        <thead>
          <tr>
            <th scope="col">
              <span className="mp-visually-hidden">{t('mismatch.field')}</span>
            </th>
            <th scope="col">{t('mismatch.inFile')}</th>
            <th scope="col">{t('mismatch.onCard')}</th>
          </tr>
        </thead>
        <tbody>
          {differences.map((field) => (
            <tr key={field}>
              <th scope="row">{tPatients(`field.${field}`)}</th>
              <td className={field === 'deviceId' ? 'mp-mismatch-id' : undefined}>{valueOf(file, field)}</td>
              <td className={field === 'deviceId' ? 'mp-mismatch-id' : undefined}>{valueOf(uploadedFor, field)}</td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
      {agreeing.length > 0 && <p>{t('mismatch.agree', { count: agreeing.length, fields: sentenceStart(agreeingList, i18n.language) })}</p>}
      {confirmable && (
        <div className="mp-mismatch-choice">
          <p>{t('mismatch.confirmHint')}</p>
          <Button intent="warning" onClick={onUploadAnyway}>
            {t('mismatch.uploadAnyway')}
          </Button>
        </div>
      )}
      {filePatient.id ? (
        <div className="mp-mismatch-choice">
          {confirmable && <p>{t('mismatch.otherPatient')}</p>}
          <Button intent={confirmable ? 'none' : 'primary'} onClick={() => onGoTo(filePatient.id as string)}>
            {t('mismatch.goToPatient')}
          </Button>
        </div>
      ) : (
        <div className="mp-mismatch-choice">
          <p>{confirmable ? t('mismatch.anotherPerson') : t('mismatch.unknown')}</p>
          <Button intent={confirmable ? 'none' : 'primary'} onClick={onCreateFromFile}>
            {t('mismatch.createPatient')}
          </Button>
        </div>
      )}
    </Callout>
  );
}
