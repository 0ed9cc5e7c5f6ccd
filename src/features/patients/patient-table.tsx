import { Classes, HTMLTable } from '@blueprintjs/core';
import { memo, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import type { Patient } from '@generated/model/patient';
import type { PatientSort } from '@generated/model/patientSort';
import { PlanStatusTag, shownPlanStatus } from '@/components/plan-status-tag';
import { SortHeader } from '@/components/sort-header/sort-header';
import { TransferStatusTag } from '@/components/transfer-state';
import { paths } from '@/config/paths';
import { formatCalendarDate, formatDate } from '@/lib/format';
import { nextSort, sortState, type SortColumn } from './list-view';

const SKELETON_ROWS = 5;
const COLUMN_COUNT = 6;

type ColumnHeaderProps = {
  column: SortColumn;
  label: string;
  sort: PatientSort;
  onSort: (sort: PatientSort) => void;
  className?: string;
};

function ColumnHeader({ column, label, sort, onSort, className }: ColumnHeaderProps) {
  return <SortHeader label={label} state={sortState(sort, column)} onSort={() => onSort(nextSort(sort, column))} className={className} />;
}

/** The name links of the table, in row order: the arrow keys move between them. */
const rowLinks = (table: HTMLElement | null) =>
  Array.from(table?.querySelectorAll<HTMLAnchorElement>('a[data-patient-link]') ?? []);

/** The first row's link takes the focus (ArrowDown in the list's search), when there are rows. */
export const focusFirstRow = () => rowLinks(document.body)[0]?.focus();

/**
 * Up and down move the focus from row to row (Home and End to the first and last), up from the first row to
 * `onUpFromFirstRow` (the search); Enter opens the focused patient's card, as any link does.
 */
function moveBetweenRows(event: KeyboardEvent<HTMLTableSectionElement>, onUpFromFirstRow: () => void) {
  const links = rowLinks(event.currentTarget);
  const index = links.indexOf(document.activeElement as HTMLAnchorElement);
  const target = {
    ArrowDown: Math.min(index + 1, links.length - 1),
    ArrowUp: index - 1,
    Home: 0,
    End: links.length - 1,
  }[event.key];
  if (target === undefined || index === -1) return;
  event.preventDefault();
  if (target < 0) onUpFromFirstRow();
  else links[target]?.focus();
}

type PatientTableProps = {
  patients: Patient[];
  loading: boolean;
  /** The rows shown are those of the previous view while the new one loads. */
  refreshing?: boolean;
  sort: PatientSort;
  onSort: (sort: PatientSort) => void;
  /** Id of the caption that names the table. */
  labelledBy: string;
  /** ArrowUp on the first row: the focus goes back above the table (to the search). */
  onUpFromFirstRow: () => void;
};

/**
 * The list's table. Memoised: the page renders again for what leaves the rows as they are (a query starting to
 * fetch, the realtime connection's state), and the rows are most of what such a render draws.
 */
export const PatientTable = memo(function PatientTable({
  patients,
  loading,
  refreshing = false,
  sort,
  onSort,
  labelledBy,
  onUpFromFirstRow,
}: PatientTableProps) {
  const { t, i18n } = useTranslation(['patients', 'patientList']);
  const navigate = useNavigate();

  return (
    <div className={`mp-table-scroll${refreshing ? ' mp-table-refreshing' : ''}`}>
      <HTMLTable
        className="mp-patient-table"
        interactive={!loading}
        aria-labelledby={labelledBy}
        aria-busy={loading || refreshing}
      >
        <thead>
          <tr>
            <ColumnHeader column="secondName" label={t('patientList:columns.patient')} sort={sort} onSort={onSort} />
            <ColumnHeader column="birthday" label={t('field.birthday')} sort={sort} onSort={onSort} />
            <th scope="col" className="mp-column-gender">
              {t('field.gender')}
            </th>
            <ColumnHeader column="latestSessionDate" label={t('field.latestSession')} sort={sort} onSort={onSort} />
            <th scope="col">{t('field.planStatus')}</th>
            <ColumnHeader
              column="treatmentsCount"
              label={t('patientList:columns.sessions')}
              sort={sort}
              onSort={onSort}
              className="mp-column-number"
            />
          </tr>
        </thead>
        <tbody onKeyDown={(event) => moveBetweenRows(event, onUpFromFirstRow)}>
          {loading
            ? Array.from({ length: SKELETON_ROWS }, (_, row) => (
                <tr key={row} aria-hidden="true">
                  {Array.from({ length: COLUMN_COUNT }, (_, cell) => (
                    <td key={cell}>
                      <span className={`${Classes.SKELETON} mp-skeleton-text`}>&nbsp;</span>
                    </td>
                  ))}
                </tr>
              ))
            : patients.map((patient, row) => {
                const href = paths.physician.patientCard.getHref(patient.id);
                return (
                  // A click anywhere on the row opens the card; keyboard and screen reader users have the link.
                  <tr
                    key={patient.id}
                    onClick={(event) => {
                      if (!(event.target as HTMLElement).closest('a')) void navigate(href);
                    }}
                  >
                    <td>
                      <Link to={href} data-patient-link tabIndex={row === 0 ? 0 : -1} className="mp-patient-link">
                        {t('patientList:patientName', { name: patient.name, secondName: patient.secondName })}
                      </Link>
                    </td>
                    <td>{formatCalendarDate(patient.birthday, i18n.language)}</td>
                    <td className="mp-column-gender">{t(`gender.${patient.gender}`)}</td>
                    <td>
                      {patient.latestSessionDate ? (
                        formatDate(patient.latestSessionDate, i18n.language)
                      ) : (
                        <span className="mp-muted-text">{t('patientList:noSession')}</span>
                      )}
                    </td>
                    <td>
                      {patient.treatmentsCount > 0 ? (
                        <PlanStatusTag status={shownPlanStatus(patient.planStatus, patient.latestSessionFailed)} />
                      ) : (
                        <span className="mp-muted-text">—</span>
                      )}
                      {/* Where the latest session's signed plan stands at the laser, when it was sent to one. */}
                      {patient.transferStatus && (
                        <>
                          {' '}
                          <TransferStatusTag status={patient.transferStatus} />
                        </>
                      )}
                    </td>
                    <td className="mp-column-number">{patient.treatmentsCount}</td>
                  </tr>
                );
              })}
        </tbody>
      </HTMLTable>
    </div>
  );
});
