import { Button, Callout, Checkbox, DialogBody, DialogFooter, FormGroup, HTMLTable, InputGroup } from '@blueprintjs/core';
import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useSearchParams } from 'react-router-dom';
import { getListPatientsQueryKey, useBulkUpdatePatients, useDeletePatients, useListPatients } from '@generated/hooks/patients/patients';
import type { Patient } from '@generated/model/patient';
import { Dialog } from '@/components/dialog';
import { useFailureMessage } from '@/components/form-fields';
import { RangePaging, SkeletonRows, useSearchAfterPause } from '@/components/list-table/list-table';
import { useNotify } from '@/components/notifications';
import { Select } from '@/components/select';
import { paths } from '@/config/paths';
import { formatCalendarDate, formatDate, formatDateTime } from '@/lib/format';
import {
  ACTIONS_OF,
  adminPatientsParams,
  erasureConfirmed,
  PATIENT_LISTS,
  readAdminPatientsView,
  SEARCH_MAX,
  SORTS,
  writeAdminPatientsView,
  type AdminPatientsView,
  type PatientAction,
  type PatientListName,
} from './admin-patients-view';
import './admin-patients.css';
import './icons';

/** Names shown in a confirmation before "and N more". */
const NAMES_SHOWN = 5;

const nameOf = (patient: Patient) => `${patient.secondName}, ${patient.name}`;

/** The three lists as tabs (links: each has its own address). */
function ListTabs({ list }: { list: PatientListName }) {
  const { t } = useTranslation('adminPatients');
  return (
    <nav aria-label={t('tabs.label')} className="mp-tabs">
      {PATIENT_LISTS.map((name) => (
        <NavLink
          key={name}
          to={paths.admin.patientList.getHref(name)}
          className={`mp-tab${name === list ? ' mp-tab-active' : ''}`}
          aria-current={name === list ? 'page' : undefined}
        >
          {t(`tabs.${name}`)}
        </NavLink>
      ))}
    </nav>
  );
}

type ActionDialogProps = { action: PatientAction; patients: Patient[]; onClose: () => void; onDone: () => void };

/**
 * Confirms an action on the chosen patients: names them and says what happens; erasing says that sessions
 * and files are removed for good (GDPR Art. 17) and cannot be undone.
 */
function ActionDialog({ action, patients, onClose, onDone }: ActionDialogProps) {
  const { t, i18n } = useTranslation('adminPatients');
  const queryClient = useQueryClient();
  const notify = useNotify();
  const failureMessage = useFailureMessage();
  const finish = async (message: string | undefined) => {
    await queryClient.invalidateQueries({ queryKey: getListPatientsQueryKey() });
    notify({ intent: 'success', message: message ?? t(`done.${action}`, { count: patients.length }) });
    onDone();
  };
  const update = useBulkUpdatePatients({ mutation: { onSuccess: (answer) => finish(answer.message) } });
  const erase = useDeletePatients({ mutation: { onSuccess: (answer) => finish(answer.message) } });
  const mutation = action === 'erase' ? erase : update;
  const ids = patients.map((patient) => patient.id);
  const count = patients.length;
  const confirmId = useId();
  const [confirmation, setConfirmation] = useState('');
  const confirmed = action !== 'erase' || erasureConfirmed(patients, confirmation);

  return (
    <Dialog isOpen onClose={mutation.isPending ? undefined : onClose} title={t(`title.${action}`, { count })} className="mp-dialog">
      <DialogBody>
        <p className="mp-dialog-text">
          <strong>{t(`question.${action}`, { count })}</strong>
        </p>
        <ul className="mp-dialog-text mp-admin-patient-names">
          {patients.slice(0, NAMES_SHOWN).map((patient) => (
            <li key={patient.id}>
              {nameOf(patient)} <span className="mp-muted-text">({t('born', { date: formatCalendarDate(patient.birthday, i18n.language) })})</span>
              {/* What goes with the patient: their sessions, each with its exam files, images, plan and report. */}
              {action === 'erase' && <span className="mp-erase-sessions">{t('eraseSessions', { count: patient.treatmentsCount })}</span>}
            </li>
          ))}
          {count > NAMES_SHOWN && <li>{t('andMore', { count: count - NAMES_SHOWN })}</li>}
        </ul>
        {action === 'erase' && count > 1 && (
          <p className="mp-dialog-text">{t('eraseSessionsTotal', { count: patients.reduce((sum, patient) => sum + patient.treatmentsCount, 0) })}</p>
        )}
        <p className="mp-dialog-text">{t(`effect.${action}`, { count })}</p>
        {action === 'erase' && (
          <>
            <Callout intent="danger" className="mp-dialog-callout">
              {t('erasePermanent')}
            </Callout>
            <FormGroup
              label={count === 1 ? t('eraseTypeName', { name: nameOf(patients[0]) }) : t('eraseTypeCount', { count })}
              labelFor={confirmId}
              className="mp-erase-confirmation"
            >
              <InputGroup id={confirmId} value={confirmation} onValueChange={setConfirmation} autoComplete="off" spellCheck={false} />
            </FormGroup>
          </>
        )}
        {mutation.error && (
          <Callout intent="danger" role="alert" className="mp-dialog-callout">
            {failureMessage(mutation.error)}
          </Callout>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button onClick={onClose} disabled={mutation.isPending}>
              {t('cancel')}
            </Button>
            <Button
              intent={action === 'erase' ? 'danger' : 'primary'}
              loading={mutation.isPending}
              disabled={!confirmed}
              onClick={() => (action === 'erase' ? erase.mutate({ data: { ids } }) : update.mutate({ data: { ids, action } }))}
            >
              {t(`confirm.${action}`, { count })}
            </Button>
          </>
        }
      />
    </Dialog>
  );
}

/**
 * /admin/patient-list/active, /deleting and /archived (IT admins only): the clinic's patients per status, the
 * deletion requests with reason, requester and date; archive, unarchive, restore and erase for good.
 */
export function AdminPatientsPage({ list }: { list: PatientListName }) {
  const { t, i18n } = useTranslation(['adminPatients', 'patients']);
  const failureMessage = useFailureMessage();
  const [params, setParams] = useSearchParams();
  const view = readAdminPatientsView(params);
  const [chosen, setChosen] = useState<ReadonlyMap<string, Patient>>(new Map());
  // The action being confirmed, with the patients chosen when it was asked for.
  const [action, setAction] = useState<{ action: PatientAction; patients: Patient[] } | null>(null);
  const ids = { search: useId(), sort: useId(), caption: useId() };

  const show = (next: AdminPatientsView, replace: boolean) => {
    setChosen(new Map());
    setParams(writeAdminPatientsView(next), { replace });
  };
  // A search is over the whole list: it leaves a notification's one patient.
  const [typed, setTyped] = useSearchAfterPause(view.search, (search) => show({ ...view, search, page: 1, patientId: null }, true));
  // Another list, another selection.
  useEffect(() => setChosen(new Map()), [list]);

  const query = useListPatients(adminPatientsParams(list, view), { query: { placeholderData: keepPreviousData } });
  const patients = query.data?.data ?? [];
  const meta = query.data?.meta;
  const allChosen = patients.length > 0 && patients.every((patient) => chosen.has(patient.id));
  const toggle = (patient: Patient) => {
    const next = new Map(chosen);
    if (next.has(patient.id)) next.delete(patient.id);
    else next.set(patient.id, patient);
    setChosen(next);
  };
  const columns = list === 'deleting' ? 6 : 5;

  return (
    <>
      <h1 className="mp-page-title">{t(`titles.${list}`)}</h1>
      <p className="mp-page-intro">{t(`intros.${list}`)}</p>
      <ListTabs list={list} />
      <div className="mp-list-filters" role="search">
        <div className="mp-list-filter mp-list-search">
          <label htmlFor={ids.search}>{t('search')}</label>
          <InputGroup id={ids.search} type="search" leftIcon="search" value={typed} maxLength={SEARCH_MAX} placeholder={t('searchPlaceholder')} onValueChange={setTyped} />
        </div>
        <div className="mp-list-filter">
          <label htmlFor={ids.sort}>{t('sort.label')}</label>
          <Select id={ids.sort} value={view.sort} onChange={(event) => show({ ...view, sort: event.currentTarget.value as AdminPatientsView['sort'], page: 1 }, true)}>
            {SORTS.map((sort) => (
              <option key={sort} value={sort}>
                {t(`sort.${sort}`)}
              </option>
            ))}
          </Select>
        </div>
      </div>
      {view.patientId && (
        <Callout intent="primary" icon={null} className="mp-one-patient">
          <span>{t('onePatient.text')}</span>
          <Button variant="minimal" intent="primary" onClick={() => show({ ...view, patientId: null, page: 1 }, false)}>
            {t('onePatient.showAll')}
          </Button>
        </Callout>
      )}
      <div className="mp-selection-bar" aria-live="polite">
        {chosen.size > 0 ? (
          <>
            <span className="mp-selection-count">{t('selection.count', { count: chosen.size })}</span>
            <Button variant="minimal" onClick={() => setChosen(new Map())}>
              {t('selection.clear')}
            </Button>
            <div className="mp-selection-actions" role="group" aria-label={t('selection.actions')}>
              {ACTIONS_OF[list].map((candidate) => (
                <Button key={candidate} size="small" intent={candidate === 'erase' ? 'danger' : 'none'} onClick={() => setAction({ action: candidate, patients: [...chosen.values()] })}>
                  {t(`actions.${candidate}`)}
                </Button>
              ))}
            </div>
          </>
        ) : (
          <span className="mp-muted-text">{t(`selection.hint.${list}`)}</span>
        )}
      </div>
      {query.isError && (
        <p role="alert" className="mp-field-error">
          {failureMessage(query.error)}
        </p>
      )}
      <div className={`mp-table-wrap ${query.isFetching && query.isPlaceholderData ? 'mp-table-stale' : ''}`} aria-busy={query.isFetching}>
        <HTMLTable className="mp-list-table" striped aria-describedby={ids.caption}>
          <caption id={ids.caption} className="mp-visually-hidden">
            {t(`titles.${list}`)}
          </caption>
          <thead>
            <tr>
              <th scope="col" className="mp-check-cell">
                <Checkbox
                  className="mp-check-cellbox"
                  aria-label={t('selection.page')}
                  checked={allChosen}
                  indeterminate={!allChosen && chosen.size > 0}
                  disabled={patients.length === 0}
                  onChange={() => setChosen(allChosen ? new Map() : new Map(patients.map((patient) => [patient.id, patient])))}
                />
              </th>
              <th scope="col">{t('columns.patient')}</th>
              <th scope="col">{t('patients:field.birthday')}</th>
              {list === 'deleting' ? (
                <>
                  <th scope="col">{t('columns.reason')}</th>
                  <th scope="col">{t('columns.requestedBy')}</th>
                  <th scope="col">{t('columns.requestedAt')}</th>
                </>
              ) : (
                <>
                  <th scope="col">{t('columns.sessions')}</th>
                  <th scope="col">{t('columns.latestSession')}</th>
                </>
              )}
            </tr>
          </thead>
          <tbody>
            {query.isPending && <SkeletonRows columns={columns} />}
            {patients.map((patient) => (
              <tr key={patient.id} className={chosen.has(patient.id) ? 'mp-row-selected' : undefined}>
                <td className="mp-check-cell">
                  <Checkbox className="mp-check-cellbox" aria-label={t('selection.one', { name: nameOf(patient) })} checked={chosen.has(patient.id)} onChange={() => toggle(patient)} />
                </td>
                <td className="mp-admin-patient-name">
                  {nameOf(patient)}
                  <Link to={paths.admin.accessLog.getHref(patient.id)} className="mp-admin-access-log-link" aria-label={t('accessLogOf', { name: nameOf(patient) })}>
                    {t('accessLog')}
                  </Link>
                </td>
                <td className="mp-nowrap">{formatCalendarDate(patient.birthday, i18n.language)}</td>
                {list === 'deleting' ? (
                  <>
                    <td className="mp-admin-reason">{patient.deletionRequest?.reason ?? '—'}</td>
                    <td>{patient.deletionRequest ? (patient.deletionRequest.requestedBy?.name ?? t('formerStaff')) : '—'}</td>
                    <td className="mp-nowrap">{patient.deletionRequest ? formatDateTime(patient.deletionRequest.requestedAt, i18n.language) : '—'}</td>
                  </>
                ) : (
                  <>
                    <td>{patient.treatmentsCount}</td>
                    <td className="mp-nowrap">{patient.latestSessionDate ? formatDate(patient.latestSessionDate, i18n.language) : '—'}</td>
                  </>
                )}
              </tr>
            ))}
            {query.isSuccess && patients.length === 0 && (
              <tr>
                <td colSpan={columns} className="mp-table-empty">
                  {view.search ? t('noMatch') : t(`empty.${list}`)}
                </td>
              </tr>
            )}
          </tbody>
        </HTMLTable>
      </div>
      {meta && meta.total > 0 && <RangePaging namespace="adminPatients" meta={meta} onPage={(page) => show({ ...view, page }, false)} />}
      {action && (
        <ActionDialog
          action={action.action}
          patients={action.patients}
          onClose={() => setAction(null)}
          onDone={() => {
            setAction(null);
            setChosen(new Map());
          }}
        />
      )}
    </>
  );
}
