import { Button, Callout, H3 } from '@blueprintjs/core';
import type { PatientMatch } from '@generated/model/patientMatch';
import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { formatCalendarDate } from '@/lib/format';
import './likely-duplicate-warning.css';

type LikelyDuplicateWarningProps = {
  /** The server's message (409 `patient.likely_duplicate`), in the UI language. */
  message: string;
  patients: readonly PatientMatch[];
  /** Opens an active patient's card (an archived one is for an IT admin to bring back). */
  onOpen: (patientId: string) => void;
};

/**
 * The patients of the clinic a new patient may be, each with their card to open. Takes the focus when it
 * appears, so a screen reader reads it and the next Tab reaches the first "Open card".
 */
export function LikelyDuplicateWarning({ message, patients, onOpen }: LikelyDuplicateWarningProps) {
  const { t, i18n } = useTranslation('patients');
  const warning = useRef<HTMLDivElement>(null);
  const id = useId();

  useEffect(() => warning.current?.focus(), [patients]);

  return (
    <div ref={warning} tabIndex={-1} role="group" aria-labelledby={`${id}-title`} className="mp-duplicate-warning">
      <Callout intent="warning">
        <H3 id={`${id}-title`} className="mp-duplicate-title">
          {t('duplicate.title')}
        </H3>
        <p>{message}</p>
        <ul className="mp-duplicate-list">
          {patients.map((patient, index) => (
            <li key={patient.id}>
              <span id={`${id}-${index}`} className="mp-duplicate-patient">
                <strong>
                  {patient.name} {patient.secondName}
                </strong>
                <span>
                  {t('duplicate.born', {
                    birthday: formatCalendarDate(patient.birthday, i18n.language),
                    gender: t(`gender.${patient.gender}`),
                  })}
                </span>
              </span>
              {patient.status === 'active' ? (
                <Button onClick={() => onOpen(patient.id)} aria-describedby={`${id}-${index}`}>
                  {t('duplicate.openCard')}
                </Button>
              ) : (
                <span className="mp-duplicate-archived">{t('duplicate.archived')}</span>
              )}
            </li>
          ))}
        </ul>
        <p>{patients.some((patient) => patient.status === 'active') ? t('duplicate.hint') : t('duplicate.hintArchived')}</p>
      </Callout>
    </div>
  );
}
