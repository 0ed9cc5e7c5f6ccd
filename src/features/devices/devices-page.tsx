import { Button, Classes, HTMLTable, InputGroup, SegmentedControl, Tag } from '@blueprintjs/core';
import { keepPreviousData } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { useListDevices } from '@generated/hooks/clinic/clinic';
import type { Device } from '@generated/model/device';
import { useFailureMessage } from '@/components/form-fields';
import { RangePaging, SkeletonRows, useSearchAfterPause } from '@/components/list-table/list-table';
import { formatDateTime } from '@/lib/format';
import { formatNumberText } from '@/lib/locale-number';
import { devicesParams, readDevicesView, SEARCH_MAX, writeDevicesView, type DevicesView, type SyncFilter } from './devices-view';
import { modesOf } from './laser-profile-form';
import './devices.css';
import './icons';

const FILTERS: SyncFilter[] = ['all', 'online', 'offline'];
const COLUMNS = 6;

// The dialog and its form library load after the table has shown (an effect below), not with the page.
const loadProfileDialog = () => import('./laser-profile-dialog');
const LaserProfileDialog = lazy(async () => ({ default: (await loadProfileDialog()).LaserProfileDialog }));

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

/** What the device's laser delivers in a few words; without a profile, that its plans cannot be signed off. */
function LaserSummary({ device }: { device: Device }) {
  const { t, i18n } = useTranslation('devices');
  const profile = device.laserProfile;
  if (!profile) {
    return (
      <div className="mp-laser-summary">
        <Tag intent="warning" minimal round icon="warning-sign">
          {t('laser.none')}
        </Tag>
        <div className="mp-muted-text">{t('laser.noneHint')}</div>
      </div>
    );
  }
  const modes = modesOf(profile)
    .map((mode) => t(`laser.modes.${mode}`))
    .join(', ');
  // "577 nm ·" stays on one line; the modes wrap after it in a narrow column.
  return (
    <div className="mp-laser-summary">
      <span className="mp-laser-wavelength">{formatNumberText(profile.wavelengthNm, i18n.language)} nm ·</span> {modes}
    </div>
  );
}

/** /admin/devices: the clinic's laser systems and whether their sync app is reachable (seed-spec §2, §3). */
export function DevicesPage() {
  const { t } = useTranslation('devices');
  const failureMessage = useFailureMessage();
  const [params, setParams] = useSearchParams();
  const view = readDevicesView(params);
  const searchId = useId();
  const captionId = useId();
  // The device whose laser profile is open; its row's button gets the focus back when the dialog closes.
  const [editing, setEditing] = useState<Device | null>(null);
  const profileButtons = useRef(new Map<string, HTMLElement>());
  useEffect(() => {
    loadProfileDialog().catch(() => undefined);
  }, []);
  const closeProfile = () => {
    const id = editing?.id;
    setEditing(null);
    requestAnimationFrame(() => id && profileButtons.current.get(id)?.focus());
  };

  const show = (next: DevicesView, replace: boolean) => setParams(writeDevicesView(next), { replace });
  // The search follows the typing once it pauses; it replaces the history entry (a filter, not a page).
  const [typed, setTyped] = useSearchAfterPause(view.search, (search) => show({ ...view, search, page: 1 }, true));

  const query = useListDevices(devicesParams(view), { query: { placeholderData: keepPreviousData } });
  const devices = query.data?.data ?? [];
  const meta = query.data?.meta;

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
              <th scope="col">{t('columns.laser')}</th>
            </tr>
          </thead>
          <tbody>
            {query.isPending && <SkeletonRows columns={COLUMNS} />}
            {devices.map((device) => (
              <tr key={device.id}>
                <td className="mp-device-id">{device.deviceId}</td>
                <td className="mp-device-id">{device.opticalHeadId}</td>
                <td>{device.camera}</td>
                <td>{device.description ?? <span className="mp-muted-text">—</span>}</td>
                <td>
                  <SyncStatus device={device} />
                </td>
                <td>
                  <div className="mp-laser-cell">
                    <LaserSummary device={device} />
                    <Button
                      ref={(button) => {
                        if (button) profileButtons.current.set(device.id, button);
                        else profileButtons.current.delete(device.id);
                      }}
                      size="small"
                      variant="outlined"
                      aria-label={t('laser.openFor', { deviceId: device.deviceId })}
                      onClick={() => setEditing(device)}
                    >
                      {t('laser.open')}
                    </Button>
                  </div>
                </td>
              </tr>
            ))}
            {query.isSuccess && devices.length === 0 && (
              <tr>
                <td colSpan={COLUMNS} className="mp-table-empty">
                  {view.search || view.status !== 'all' ? t('noMatch') : t('empty')}
                </td>
              </tr>
            )}
          </tbody>
        </HTMLTable>
      </div>
      {meta && meta.total > 0 && <RangePaging namespace="devices" meta={meta} onPage={(page) => show({ ...view, page }, false)} />}
      {editing && (
        <Suspense fallback={null}>
          <LaserProfileDialog device={editing} onClose={closeProfile} />
        </Suspense>
      )}
    </>
  );
}
