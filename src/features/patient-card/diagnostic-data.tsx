import { HTMLTable } from '@blueprintjs/core';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { ExamDiagnostics } from '@generated/model/examDiagnostics';
import { formatNumber } from '@/lib/format';

/** Decimal visual acuity (as German clinics write it, "Visus 0,5") from logMAR: 10^−logMAR. */
export const decimalAcuity = (logMar: number): number => 10 ** -logMar;

/**
 * The exam file's diagnostic data (npt-format §4.7), with units, in a table that opens on request; fields of
 * a newer file version that this version does not know are listed as the file writes them.
 */
export function DiagnosticData({ diagnostics, sessionNumber }: { diagnostics: ExamDiagnostics | null; sessionNumber: number }) {
  const { t, i18n } = useTranslation('patientCard');
  const captionId = useId();
  const notRecorded = <span className="mp-muted-text">{t('diagnostics.notRecorded')}</span>;
  const number = (value: number, digits: number) => formatNumber(value, i18n.language, digits);

  return (
    <details className="mp-diagnostics">
      <summary>{t('diagnostics.title')}</summary>
      {diagnostics === null ? (
        <p className="mp-muted-text">{t('diagnostics.notKept')}</p>
      ) : (
        <HTMLTable compact className="mp-diagnostics-table" aria-labelledby={captionId}>
          <caption id={captionId} className="mp-visually-hidden">
            {t('diagnostics.caption', { number: sessionNumber })}
          </caption>
          <tbody>
            <tr>
              <th scope="row">{t('settings.iolStatus')}</th>
              <td>{diagnostics.iolStatus ? t(`settings.iolStatuses.${diagnostics.iolStatus}`) : notRecorded}</td>
            </tr>
            <tr>
              <th scope="row">{t('diagnostics.centralRetinalThickness')}</th>
              <td>
                {diagnostics.centralRetinalThicknessUm === null
                  ? notRecorded
                  : `${number(diagnostics.centralRetinalThicknessUm, 0)} µm`}
              </td>
            </tr>
            <tr>
              <th scope="row">{t('diagnostics.visualAcuity')}</th>
              <td>
                {diagnostics.visualAcuityLogMar === null
                  ? notRecorded
                  : t('diagnostics.visualAcuityValue', {
                      logMar: number(diagnostics.visualAcuityLogMar, 2),
                      decimal: number(decimalAcuity(diagnostics.visualAcuityLogMar), 2),
                    })}
              </td>
            </tr>
            <tr>
              <th scope="row">{t('diagnostics.notes')}</th>
              <td className={diagnostics.notes ? 'mp-preformatted' : undefined}>{diagnostics.notes || notRecorded}</td>
            </tr>
            {diagnostics.additional.map((field, index) => (
              <tr key={`${index}:${field.key}`}>
                <th scope="row">
                  <code>{field.key}</code>
                  <span className="mp-muted-text mp-diagnostics-unknown">{t('diagnostics.unknownField')}</span>
                </th>
                <td className="mp-preformatted">{field.value}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
    </details>
  );
}
