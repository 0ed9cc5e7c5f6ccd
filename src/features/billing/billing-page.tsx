import { Button, Callout, Classes, HTMLTable } from '@blueprintjs/core';
import { keepPreviousData } from '@tanstack/react-query';
import { useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { useGetBillingUsage } from '@generated/hooks/clinic/clinic';
import { useFailureMessage } from '@/components/form-fields';
import { Select } from '@/components/select';
import { csvSeparatorFor } from '@/lib/csv';
import { formatNumber } from '@/lib/format';
import { saveBlob } from '@/lib/save-blob';
import { billingCsv } from './billing-csv';
import { monthLabel, offeredMonths, readRange, withFrom, withTo, type BillingRange } from './billing-range';
import './billing.css';
import './icons';

const COLUMNS = 5;

/**
 * The billing tab of /admin (the user screens name it; the contract's GET /clinic/billing): per month and laser
 * system, the exams uploaded, plans signed off and parameter sets produced in a chosen range, with a CSV.
 */
export function BillingPage() {
  const { t, i18n } = useTranslation('billing');
  const failureMessage = useFailureMessage();
  const [params, setParams] = useSearchParams();
  // The months offered follow the day the page was opened on.
  const now = useMemo(() => new Date(), []);
  const range = readRange(params, now);
  const months = offeredMonths(now);
  const ids = { from: useId(), to: useId(), caption: useId() };
  const show = (next: BillingRange) => setParams(new URLSearchParams({ from: next.from, to: next.to }), { replace: true });

  const query = useGetBillingUsage(range, { query: { placeholderData: keepPreviousData } });
  const usage = query.data?.data;
  const number = (value: number) => formatNumber(value, i18n.language);
  const month = (value: string) => monthLabel(value, i18n.language);

  const download = () => {
    if (!usage) return;
    const csv = billingCsv(usage, {
      month: t('columns.month'),
      device: t('columns.device'),
      examsUploaded: t('columns.examsUploaded'),
      plansSignedOff: t('columns.plansSignedOff'),
      parameterSetsProduced: t('columns.parameterSetsProduced'),
      noDevice: t('noDevice'),
      total: t('total'),
    }, csvSeparatorFor(i18n.language));
    saveBlob(new Blob([csv], { type: 'text/csv;charset=utf-8' }), t('fileName', { from: usage.from, to: usage.to }));
  };

  return (
    <>
      <h1 className="mp-page-title">{t('title')}</h1>
      <p className="mp-page-intro">{t('intro')}</p>
      <div className="mp-list-filters">
        <div className="mp-list-filter">
          <label htmlFor={ids.from}>{t('from')}</label>
          <Select id={ids.from} value={range.from} onChange={(event) => show(withFrom(range, event.currentTarget.value))}>
            {months.map((value) => (
              <option key={value} value={value}>
                {month(value)}
              </option>
            ))}
          </Select>
        </div>
        <div className="mp-list-filter">
          <label htmlFor={ids.to}>{t('to')}</label>
          <Select id={ids.to} value={range.to} onChange={(event) => show(withTo(range, event.currentTarget.value))}>
            {months.map((value) => (
              <option key={value} value={value}>
                {month(value)}
              </option>
            ))}
          </Select>
        </div>
        <Button icon="download" disabled={!usage || query.isPlaceholderData} onClick={download} className="mp-billing-download">
          {t('download')}
        </Button>
      </div>
      {query.isError && (
        <Callout intent="danger" role="alert" className="mp-dialog-callout">
          {failureMessage(query.error)}
        </Callout>
      )}
      <div className={`mp-table-wrap ${query.isFetching && query.isPlaceholderData ? 'mp-table-stale' : ''}`} aria-busy={query.isFetching}>
        <HTMLTable className="mp-list-table mp-billing-table" striped aria-describedby={ids.caption}>
          <caption id={ids.caption} className="mp-visually-hidden">
            {t('caption', { from: month(range.from), to: month(range.to) })}
          </caption>
          <thead>
            <tr>
              <th scope="col">{t('columns.month')}</th>
              <th scope="col">{t('columns.device')}</th>
              <th scope="col" className="mp-billing-number">
                {t('columns.examsUploaded')}
              </th>
              <th scope="col" className="mp-billing-number">
                {t('columns.plansSignedOff')}
              </th>
              <th scope="col" className="mp-billing-number">
                {t('columns.parameterSetsProduced')}
              </th>
            </tr>
          </thead>
          <tbody>
            {query.isPending &&
              Array.from({ length: 3 }, (_, row) => (
                <tr key={row} aria-hidden="true">
                  {Array.from({ length: COLUMNS }, (_, cell) => (
                    <td key={cell}>
                      <span className={Classes.SKELETON}>&nbsp;&nbsp;&nbsp;&nbsp;&nbsp;&nbsp;</span>
                    </td>
                  ))}
                </tr>
              ))}
            {usage?.rows.map((row) => (
              <tr key={`${row.month} ${row.deviceId ?? ''}`}>
                <td className="mp-nowrap">{month(row.month)}</td>
                <td className="mp-device-cell">{row.deviceId ?? <span className="mp-muted-text">{t('noDevice')}</span>}</td>
                <td className="mp-billing-number">{number(row.examsUploaded)}</td>
                <td className="mp-billing-number">{number(row.plansSignedOff)}</td>
                <td className="mp-billing-number">{number(row.parameterSetsProduced)}</td>
              </tr>
            ))}
            {usage && usage.rows.length === 0 && (
              <tr>
                <td colSpan={COLUMNS} className="mp-table-empty">
                  {t('empty')}
                </td>
              </tr>
            )}
          </tbody>
          {usage && (
            <tfoot>
              <tr>
                <th scope="row" colSpan={2}>
                  {t('totalOf', { from: month(usage.from), to: month(usage.to) })}
                </th>
                <td className="mp-billing-number">{number(usage.totals.examsUploaded)}</td>
                <td className="mp-billing-number">{number(usage.totals.plansSignedOff)}</td>
                <td className="mp-billing-number">{number(usage.totals.parameterSetsProduced)}</td>
              </tr>
            </tfoot>
          )}
        </HTMLTable>
      </div>
      <p className="mp-muted-text mp-billing-note">{t('note')}</p>
    </>
  );
}
