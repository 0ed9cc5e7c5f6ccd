import { Button, Classes, HTMLTable, InputGroup, SegmentedControl, Tag } from '@blueprintjs/core';
import { keepPreviousData } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { useListDevices } from '@generated/hooks/clinic/clinic';
import type { Device } from '@generated/model/device';
import { useFailureMessage } from '@/components/form-fields';
import { formatDateTime } from '@/lib/format';
import { devicesParams, readDevicesView, SEARCH_MAX, writeDevicesView, type DevicesView, type SyncFilter } from './devices-view';
import './devices.css';
import './icons';

/** A search is sent once typing pauses this long. */
const SEARCH_DELAY_MS = 300;
const FILTERS: SyncFilter[] = ['all', 'online', 'offline'];

function SyncStatus({ device }: { device: Device }) {
  const { t, i18n } = useTranslation('devices');
  return (
    <div className="mp-sync-status">
      <Tag intent={device.online ? 'success' : 'danger'} minimal round icon={device.online ? 'tick-circle' : 'offline'}>
        {t(device.online ? 'status.online' : 'status.offline')}
      </Tag>
      <span className="mp-muted-text">
        {device.lastSeenAt ? t('lastSeen', { date: formatDateTime(device.lastSeenAt, i18n.language) }) : t('neverSeen')}
      </span>
    </div>
  );
}

/** /admin/devices: the clinic's laser systems and whether their sync app is reachable (seed-spec §2, §3). */
export function DevicesPage() {
  const { t } = useTranslation('devices');
  const failureMessage = useFailureMessage();
  const [params, setParams] = useSearchParams();
  const view = readDevicesView(params);
  const [typed, setTyped] = useState(view.search);
  const searchId = useId();
  const captionId = useId();

  const show = (next: DevicesView, replace: boolean) => setParams(writeDevicesView(next), { replace });
  // The search follows the typing once it pauses; it replaces the history entry (a filter, not a page).
  useEffect(() => {
    if (typed.trim() === view.search) return;
    const timer = window.setTimeout(() => show({ ...view, search: typed.trim(), page: 1 }, true), SEARCH_DELAY_MS);
    return () => window.clearTimeout(timer);
  });

  const query = useListDevices(devicesParams(view), { query: { placeholderData: keepPreviousData } });
  const devices = query.data?.data ?? [];
  const meta = query.data?.meta;
  const first = meta ? (meta.page - 1) * meta.perPage + 1 : 0;
  const last = meta ? Math.min(meta.page * meta.perPage, meta.total) : 0;

  return (
    <>
      <h1 className="mp-page-title">{t('title')}</h1>
      <p className="mp-page-intro">{t('intro')}</p>
      <div className="mp-devices-filters" role="search">
        <label htmlFor={searchId} className={Classes.TEXT_MUTED}>
          {t('search')}
        </label>
        <InputGroup
          id={searchId}
          type="search"
          leftIcon="search"
          value={typed}
          maxLength={SEARCH_MAX}
          placeholder={t('searchPlaceholder')}
          onValueChange={(value) => setTyped(value)}
        />
        <SegmentedControl
          aria-label={t('filter')}
          options={FILTERS.map((filter) => ({ value: filter, label: t(`filters.${filter}`) }))}
          value={view.status}
          onValueChange={(status) => show({ ...view, status: status as SyncFilter, page: 1 }, true)}
        />
      </div>
      {query.isError && (
        <p role="alert" className="mp-field-error">
          {failureMessage(query.error)}
        </p>
      )}
      <div className={`mp-table-wrap ${query.isFetching && query.isPlaceholderData ? 'mp-table-stale' : ''}`} aria-busy={query.isFetching}>
        <HTMLTable className="mp-list-table" striped aria-describedby={captionId}>
          <caption id={captionId} className="mp-visually-hidden">
            {t('caption')}
          </caption>
          <thead>
            <tr>
              <th scope="col">{t('columns.deviceId')}</th>
              <th scope="col">{t('columns.opticalHeadId')}</th>
              <th scope="col">{t('columns.camera')}</th>
              <th scope="col">{t('columns.description')}</th>
              <th scope="col">{t('columns.syncApp')}</th>
            </tr>
          </thead>
          <tbody>
            {query.isPending &&
              Array.from({ length: 3 }, (_, row) => (
                <tr key={row} aria-hidden="true">
                  {Array.from({ length: 5 }, (_, cell) => (
                    <td key={cell}>
                      <span className={Classes.SKELETON}>&nbsp;&nbsp;&nbsp;&nbsp;&nbsp;&nbsp;&nbsp;&nbsp;</span>
                    </td>
                  ))}
                </tr>
              ))}
            {devices.map((device) => (
              <tr key={device.id}>
                <td className="mp-device-id">{device.deviceId}</td>
                <td>{device.opticalHeadId}</td>
                <td>{device.camera}</td>
                <td>{device.description ?? <span className="mp-muted-text">—</span>}</td>
                <td>
                  <SyncStatus device={device} />
                </td>
              </tr>
            ))}
            {query.isSuccess && devices.length === 0 && (
              <tr>
                <td colSpan={5} className="mp-table-empty">
                  {view.search || view.status !== 'all' ? t('noMatch') : t('empty')}
                </td>
              </tr>
            )}
          </tbody>
        </HTMLTable>
      </div>
      {meta && meta.total > 0 && (
        <div className="mp-list-paging">
          <p className="mp-list-range" aria-live="polite">
            {t('range', { first, last, total: meta.total })}
          </p>
          {meta.lastPage > 1 && (
            <nav aria-label={t('paging')} className="mp-simple-paging">
              <Button icon="chevron-left" disabled={meta.page <= 1} onClick={() => show({ ...view, page: meta.page - 1 }, false)}>
                {t('previous')}
              </Button>
              <span>{t('pageOf', { page: meta.page, lastPage: meta.lastPage })}</span>
              <Button endIcon="chevron-right" disabled={meta.page >= meta.lastPage} onClick={() => show({ ...view, page: meta.page + 1 }, false)}>
                {t('next')}
              </Button>
            </nav>
          )}
        </div>
      )}
    </>
  );
}
