import { Button, Callout, HTMLTable, Tag } from '@blueprintjs/core';
import { keepPreviousData } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { listAccessLog, useListAccessLog } from '@generated/hooks/clinic/clinic';
import { useListUsers } from '@generated/hooks/users/users';
import type { AccessLogEntry } from '@generated/model/accessLogEntry';
import { DateInput, useDateText } from '@/components/date-input';
import { useFailureMessage } from '@/components/form-fields';
import { RangePaging, SkeletonRows } from '@/components/list-table/list-table';
import { Select } from '@/components/select';
import { paths } from '@/config/paths';
import { csvSeparatorFor } from '@/lib/csv';
import { formatDateTime, formatNumber } from '@/lib/format';
import { canonicalRole } from '@/lib/roles';
import { saveBlob } from '@/lib/save-blob';
import { accessLogCsv, localTimestamp } from './access-log-csv';
import { ACTION_GROUPS, MAX_EXPORT, actionKey, isReversed, readView, requestOf, writeView, type AccessLogView } from './access-log-view';
import './access-log.css';
import './icons';

const EXPORT_PAGE = 100;
/** No entry is older than the product: an earlier day is a typo (21.11.1026). */
const EARLIEST_DAY = '2000-01-01';

/**
 * The clinic's access log (issue 27; GET /clinic/access-log): who read or changed patient data, what, when and
 * from where, newest first. Reached from the navigation, or from a patient list's row for one patient's history
 * (`?patientId=`); filtered by user, action and days; the filtered entries download as CSV.
 */
export function AccessLogPage() {
  const { t, i18n } = useTranslation(['accessLog', 'common']);
  const failureMessage = useFailureMessage();
  const [params, setParams] = useSearchParams();
  const view = readView(params);
  const reversed = isReversed(view);
  const ids = { user: useId(), action: useId(), from: useId(), to: useId(), caption: useId(), rangeError: useId(), fromError: useId(), toError: useId() };
  const show = (next: AccessLogView) => setParams(writeView(next), { replace: true });
  const filter = (change: Partial<AccessLogView>) => show({ ...view, ...change, page: 1 });
  // A day is taken once it is a date from EARLIEST_DAY on; what is refused is marked and never asked for.
  const day = (name: 'from' | 'to') => ({
    value: view[name] ?? '',
    onChange: (value: string, valid: boolean) => {
      if (valid) filter({ [name]: value || undefined });
    },
    min: EARLIEST_DAY,
  });
  const from = useDateText(day('from'));
  const to = useDateText(day('to'));

  const query = useListAccessLog(requestOf(view), { query: { placeholderData: keepPreviousData, enabled: !reversed } });
  const users = useListUsers({ page: 1, perPage: 100, sort: 'name' }, { query: { meta: { realtime: false } } });
  const entries = query.data?.data ?? [];
  const meta = query.data?.meta;
  // A user chosen from a row who is not among the listed ones (a clinic with more staff than the list holds).
  const chosenActor =
    view.actorId && users.data && !users.data.data.some((user) => user.id === view.actorId)
      ? (entries.find((entry) => entry.actor?.id === view.actorId)?.actor ?? null)
      : null;
  const [exporting, setExporting] = useState(false);
  const [exportProblem, setExportProblem] = useState<string | null>(null);

  const roleOf = (entry: AccessLogEntry) => {
    if (entry.device) return t('deviceRole');
    const role = canonicalRole(entry.actor?.role);
    return role ? t(`common:roles.${role}`) : '';
  };
  const userOf = (entry: AccessLogEntry) => {
    if (entry.actor) return entry.actor.name ?? t('formerStaff');
    return entry.device ? t('device', { deviceId: entry.device.deviceId }) : t('system');
  };
  const actionOf = (entry: AccessLogEntry) => {
    const key = actionKey(entry.action);
    return key ? t(`actions.${key}`) : entry.action;
  };
  const patientText = (entry: AccessLogEntry) => {
    if (!entry.patient) return entry.patientCount > 0 ? t('patients', { count: entry.patientCount }) : '';
    const name = entry.patient.name ?? t('erasedPatient', { id: entry.patient.id.slice(0, 8) });
    return entry.patientCount > 1 ? `${name} (${t('patients', { count: entry.patientCount })})` : name;
  };
  const shownPatient = view.patientId ? entries.find((entry) => entry.patient?.id === view.patientId)?.patient : undefined;
  const patientLabel = view.patientId
    ? shownPatient
      ? (shownPatient.name ?? t('erasedPatient', { id: view.patientId.slice(0, 8) }))
      : t('unknownPatient', { id: view.patientId.slice(0, 8) })
    : null;

  // The file holds every filtered entry, not only this page: the pages are read one after another.
  const download = async () => {
    if (!meta) return;
    setExporting(true);
    setExportProblem(null);
    try {
      const all: AccessLogEntry[] = [];
      const pages = Math.ceil(meta.total / EXPORT_PAGE);
      for (let page = 1; page <= pages; page++) all.push(...(await listAccessLog(requestOf(view, page, EXPORT_PAGE))).data);
      const csv = accessLogCsv(all, {
        headings: {
          when: t('csv.when'),
          user: t('csv.user'),
          role: t('csv.role'),
          action: t('csv.action'),
          outcome: t('csv.outcome'),
          patient: t('csv.patient'),
          patientId: t('csv.patientId'),
          patientCount: t('csv.patientCount'),
          ip: t('csv.ip'),
          seq: t('csv.seq'),
        },
        user: userOf,
        role: roleOf,
        action: actionOf,
        outcome: (entry) => t(`outcome.${entry.outcome}`),
        patient: patientText,
      }, csvSeparatorFor(i18n.language));
      const date = localTimestamp(new Date().toISOString()).slice(0, 10);
      saveBlob(new Blob([csv], { type: 'text/csv;charset=utf-8' }), t('fileName', { date }));
    } catch (error) {
      setExportProblem(failureMessage(error));
    } finally {
      setExporting(false);
    }
  };
  const tooMany = meta !== undefined && meta.total > MAX_EXPORT;
  // One patient's history names that patient in every row: the column goes, a list's size stays with the action.
  const columns = view.patientId ? 4 : 5;

  return (
    <>
      <h1 className="mp-page-title">{patientLabel ? t('patientTitle', { name: patientLabel }) : t('title')}</h1>
      <p className="mp-page-intro">{t('intro')}</p>
      {view.patientId && (
        <p className="mp-access-log-patient">
          <Tag large minimal>
            {patientLabel}
          </Tag>
          <Link to={paths.admin.accessLog.getHref()}>{t('showAll')}</Link>
        </p>
      )}
      <div className="mp-list-filters">
        <div className="mp-list-filter">
          <label htmlFor={ids.user}>{t('filters.user')}</label>
          <Select id={ids.user} value={view.actorId ?? ''} onChange={(event) => filter({ actorId: event.currentTarget.value || undefined })}>
            <option value="">{t('filters.allUsers')}</option>
            {chosenActor && (
              <option value={chosenActor.id}>{chosenActor.name ?? t('formerStaff')}</option>
            )}
            {users.data?.data.map((user) => (
              <option key={user.id} value={user.id}>
                {`${user.lastName}, ${user.firstName}`}
              </option>
            ))}
          </Select>
        </div>
        <div className="mp-list-filter">
          <label htmlFor={ids.action}>{t('filters.action')}</label>
          <Select id={ids.action} value={view.action ?? ''} onChange={(event) => filter({ action: event.currentTarget.value || undefined })}>
            <option value="">{t('filters.allActions')}</option>
            {(Object.keys(ACTION_GROUPS) as (keyof typeof ACTION_GROUPS)[]).map((group) => (
              <optgroup key={group} label={t(`groups.${group}`)}>
                {Object.entries(ACTION_GROUPS[group]).map(([action, key]) => (
                  <option key={action} value={action}>
                    {t(`actions.${key}`)}
                  </option>
                ))}
              </optgroup>
            ))}
          </Select>
        </div>
        <div className="mp-list-filter">
          <label htmlFor={ids.from}>{t('filters.from')}</label>
          <DateInput
            date={from}
            id={ids.from}
            invalid={Boolean(from.problem) || reversed}
            describedBy={from.problem ? ids.fromError : reversed ? ids.rangeError : undefined}
          />
        </div>
        <div className="mp-list-filter">
          <label htmlFor={ids.to}>{t('filters.to')}</label>
          <DateInput
            date={to}
            id={ids.to}
            invalid={Boolean(to.problem) || reversed}
            describedBy={to.problem ? ids.toError : reversed ? ids.rangeError : undefined}
          />
        </div>
        {(view.actorId || view.action || view.from || view.to || from.problem || to.problem) && (
          <Button
            variant="minimal"
            icon="cross"
            onClick={() => {
              from.clear();
              to.clear();
              show({ patientId: view.patientId, page: 1 });
            }}
            className="mp-access-log-action"
          >
            {t('filters.reset')}
          </Button>
        )}
        <Button
          icon="download"
          loading={exporting}
          disabled={!meta || meta.total === 0 || tooMany || query.isPlaceholderData || reversed}
          onClick={() => void download()}
          className="mp-access-log-action mp-access-log-download"
        >
          {t('download')}
        </Button>
      </div>
      {from.problem && (
        <p id={ids.fromError} role="alert" className="mp-field-error">
          {`${t('filters.from')}: ${from.problem}`}
        </p>
      )}
      {to.problem && (
        <p id={ids.toError} role="alert" className="mp-field-error">
          {`${t('filters.to')}: ${to.problem}`}
        </p>
      )}
      {reversed && (
        <p id={ids.rangeError} role="alert" className="mp-field-error">
          {t('filters.rangeReversed')}
        </p>
      )}
      {tooMany && <p className="mp-muted-text">{t('tooMany', { max: formatNumber(MAX_EXPORT, i18n.language) })}</p>}
      {exporting && (
        <p className="mp-muted-text" aria-live="polite">
          {t('downloading')}
        </p>
      )}
      {(query.isError || exportProblem) && (
        <Callout intent="danger" role="alert" className="mp-dialog-callout">
          {exportProblem ?? failureMessage(query.error)}
        </Callout>
      )}
      <div className={`mp-table-wrap ${query.isFetching && query.isPlaceholderData ? 'mp-table-stale' : ''}`} aria-busy={query.isFetching}>
        <HTMLTable className="mp-list-table mp-access-log-table" striped aria-describedby={ids.caption}>
          <caption id={ids.caption} className="mp-visually-hidden">
            {t('caption')}
          </caption>
          <thead>
            <tr>
              <th scope="col">{t('columns.when')}</th>
              <th scope="col">{t('columns.who')}</th>
              <th scope="col">{t('columns.what')}</th>
              {!view.patientId && <th scope="col">{t('columns.patient')}</th>}
              <th scope="col">{t('columns.where')}</th>
            </tr>
          </thead>
          <tbody>
            {query.isPending && !reversed && <SkeletonRows columns={columns} />}
            {!reversed &&
              entries.map((entry) => (
                <tr key={entry.id}>
                  <td className="mp-nowrap">
                    <time dateTime={entry.at}>{formatDateTime(entry.at, i18n.language)}</time>
                  </td>
                  <td>
                    {entry.actor && entry.actor.id !== view.actorId ? (
                      <Link
                        className="mp-access-log-who"
                        to={{ search: writeView({ ...view, actorId: entry.actor.id, page: 1 }).toString() }}
                        replace
                        aria-label={t('onlyUser', { name: userOf(entry) })}
                      >
                        {userOf(entry)}
                      </Link>
                    ) : (
                      <span className="mp-access-log-who">{userOf(entry)}</span>
                    )}
                    {roleOf(entry) && <span className="mp-muted-text mp-access-log-role">{roleOf(entry)}</span>}
                  </td>
                  <td>
                    {actionOf(entry)}
                    {view.patientId && entry.patientCount > 1 && (
                      <span className="mp-muted-text mp-access-log-count">{t('patients', { count: entry.patientCount })}</span>
                    )}
                    {entry.outcome !== 'success' && (
                      <Tag minimal multiline intent={entry.outcome === 'denied' ? 'danger' : 'warning'} className="mp-access-log-outcome mp-nowrap">
                        {t(`outcome.${entry.outcome}`)}
                      </Tag>
                    )}
                  </td>
                  {!view.patientId && (
                    <td className={entry.patient?.name === null ? 'mp-muted-text' : undefined}>{patientText(entry) || '—'}</td>
                  )}
                  <td className="mp-access-log-ip">{entry.ip ?? '—'}</td>
                </tr>
              ))}
            {query.isSuccess && !reversed && entries.length === 0 && (
              <tr>
                <td colSpan={columns} className="mp-table-empty">
                  {t('empty')}
                </td>
              </tr>
            )}
          </tbody>
        </HTMLTable>
      </div>
      {meta && meta.total > 0 && !reversed && <RangePaging namespace="accessLog" meta={meta} onPage={(page) => show({ ...view, page })} />}
    </>
  );
}
