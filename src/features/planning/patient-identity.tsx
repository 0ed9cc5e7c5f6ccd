import { Button, Classes } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { useGetPatient } from '@generated/hooks/patients/patients';
import type { Treatment } from '@generated/model/treatment';
import { formatCalendarDate, formatDate } from '@/lib/format';

interface PatientIdentityProps {
  treatment: Pick<Treatment, 'patientId' | 'eye' | 'number' | 'date'>;
  /**
   * Also the eye, spelled out, and the session's number and date: where the page's title (which names them)
   * is out of sight, the sign-off form.
   */
  withSession?: boolean;
}

/**
 * Whose eye is planned: the patient's name and birthday (read with the generated getPatient, one request the
 * whole wizard shares) under the title that names the session and the eye; at sign-off the eye and the session
 * too. While the patient is read, or when that failed, the line keeps its height, so nothing below it moves.
 */
export function PatientIdentity({ treatment, withSession = false }: PatientIdentityProps) {
  const { t, i18n } = useTranslation(['planning', 'patients']);
  const query = useGetPatient(treatment.patientId);
  const patient = query.data?.data;
  const who = (
    <p className="mp-patient-identity">
      {patient ? (
        <span>
          <strong className="mp-patient-name">
            {patient.name} {patient.secondName}
          </strong>
          ,{' '}
          <span className="mp-nowrap">{t('patient.born', { date: formatCalendarDate(patient.birthday, i18n.language) })}</span>
        </span>
      ) : query.isError ? (
        <span className="mp-patient-failed">
          {t('patient.loadFailed')}
          <Button size="small" variant="minimal" intent="primary" loading={query.isFetching} onClick={() => void query.refetch()}>
            {t('retry')}
          </Button>
        </span>
      ) : (
        // The size of a name and a birthday, greyed out: the line does not grow when they arrive.
        <span className={Classes.SKELETON}>{t('patient.loading')}</span>
      )}
    </p>
  );
  if (!withSession) return who;
  // Two lines, whatever the width: who, then which eye and session.
  return (
    <div className="mp-patient-identity-signing">
      {who}
      <p className="mp-patient-identity">
        <span>
          <strong className="mp-patient-eye mp-nowrap">{t(`patients:eye.${treatment.eye}`)}</strong>
          ,{' '}
          <span className="mp-nowrap">{t('patient.session', { number: treatment.number, date: formatDate(treatment.date, i18n.language) })}</span>
        </span>
      </p>
    </div>
  );
}
