import { Button, Classes, HTMLTable, InputGroup, SegmentedControl, Tag } from '@blueprintjs/core';
import { keepPreviousData } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { useListDevices } from '@generated/hooks/clinic/clinic';
import type { Device } from '@generated/model/device';
import { useFailureMessage } from '@/components/form-fields';
import { nextMenuIndex } from '@/components/menu-keyboard';
import { RangePaging, SkeletonRows, useSearchAfterPause } from '@/components/list-table/list-table';
import { formatDateTime } from '@/lib/format';
import { formatNumberText } from '@/lib/locale-number';
import { devicesParams, readDevicesView, SEARCH_MAX, writeDevicesView, type DevicesView, type SyncFilter } from './devices-view';
import { modesOf } from './laser-profile-form';
import './devices.css';
import './icons';

const FILTERS: SyncFilter[] = ['all', 'online', 'offline'];
const COLUMNS = 6;

// The dialogs and their form library load after the table has shown (an effect below), not with the page.
const loadProfileDialog = () => import('./laser-profile-dialog');
const loadAddDialog = () => import('./add-device-dialog');
const loadAccessDialogs = () => import('./device-access-dialogs');
const LaserProfileDialog = lazy(async () => ({ default: (await loadProfileDialog()).LaserProfileDialog }));
const AddDeviceDialog = lazy(async () => ({ default: (await loadAddDialog()).AddDeviceDialog }));
const NewEnrolmentCodeDialog = lazy(async () => ({ default: (await loadAccessDialogs()).NewEnrolmentCodeDialog }));
const RevokeAccessDialog = lazy(async () => ({ default: (await loadAccessDialogs()).RevokeAccessDialog }));

/** The dialog open on the page; a row's dialog gives the focus back to the button of that row that opened it. */
type OpenDialog = { kind: 'add' } | { kind: 'profile' | 'newCode' | 'revoke'; device: Device };

/** Whether the sync app holds a credential or a code waits for it: what "Revoke access" takes away. */
const hasAccess = (device: Device) => device.enrolment === 'enrolled' || device.enrolment === 'code_issued';

/** A date and time read as one: in a narrow column it goes to the next line whole, never split. */
const unbroken = (timestamp: string, language: string) => formatDateTime(timestamp, language).replace(/ /g, '\u00a0');

/** Where the device's access stands: enrolled since, a code valid until, revoked or never enrolled. */
function enrolmentText(device: Device, t: TFunction<'devices'>, language: string): string {
  const date = (timestamp: string) => unbroken(timestamp, language);
  switch (device.enrolment) {
    case 'enrolled':
      return device.enrolledAt ? t('enrolment.enrolledSince', { date: date(device.enrolledAt) }) : t('enrolment.enrolled');
    case 'code_issued': {
      const expiresAt = device.enrolmentCodeExpiresAt;
      if (!expiresAt) return t('enrolment.codeIssued');
      return Date.parse(expiresAt) < Date.now()
        ? t('enrolment.codeExpired', { date: date(expiresAt) })
        : t('enrolment.codeValidUntil', { date: date(expiresAt) });
    }
    case 'revoked':
      return t('enrolment.revoked');
    default:
      return t('enrolment.none');
  }
}

/** The sync app: online or offline and when last seen, its access (enrolment) and version. */
function SyncStatus({ device }: { device: Device }) {
  const { t, i18n } = useTranslation('devices');
  // A new code waits while the credential in use still works: both are said.
  const enrolledAt = device.enrolment === 'code_issued' ? device.enrolledAt : null;
  return (
    <>
      <div className="mp-sync-status">
        <Tag intent={device.online ? 'success' : 'danger'} minimal round multiline className="mp-nowrap" icon={device.online ? 'tick-circle' : 'offline'}>
          {t(device.online ? 'status.online' : 'status.offline')}
        </Tag>
        <span className="mp-muted-text">
          {device.lastSeenAt ? t('lastSeen', { date: unbroken(device.lastSeenAt, i18n.language) }) : t('neverSeen')}
        </span>
      </div>
      <ul className="mp-enrolment-state">
        {enrolledAt && <li>{t('enrolment.enrolledSince', { date: unbroken(enrolledAt, i18n.language) })}</li>}
        <li className={device.enrolment === 'revoked' ? 'mp-enrolment-revoked' : undefined}>{enrolmentText(device, t, i18n.language)}</li>
        {device.syncAppVersion && <li>{t('enrolment.version', { version: device.syncAppVersion })}</li>}
      </ul>
    </>
  );
}

type AccessActionsProps = { device: Device; buttonRef: (button: HTMLButtonElement | null) => void; onOpen: (kind: 'newCode' | 'revoke') => void };

/**
 * "Access ▾" of a row, a menu button: a new enrolment code and (with access to take) revoking it. The menu opens
 * under the button inside the cell, not in Blueprint's Popover/Menu: those would split the chunks the signed-in
 * layout shares with every signed-in route (+0.6–1.4 kB on each, measured with scripts/bundle-report.mjs), and a
 * popup would be clipped by the table's scroll box. The arrow keys move between the items; Escape, Tab or a
 * press outside closes it.
 */
function AccessActions({ device, buttonRef, onOpen }: AccessActionsProps) {
  const { t } = useTranslation('devices');
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const wrapper = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement | null>(null);
  const menu = useRef<HTMLDivElement>(null);
  const items = () => [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
  useEffect(() => {
    if (!open) return undefined;
    menu.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    const pressedOutside = (event: PointerEvent) => {
      if (!wrapper.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', pressedOutside);
    return () => document.removeEventListener('pointerdown', pressedOutside);
  }, [open]);
  const choose = (kind: 'newCode' | 'revoke') => {
    setOpen(false);
    onOpen(kind);
  };
  const label = t('enrolment.actionsFor', { deviceId: device.deviceId });
  return (
    <div ref={wrapper} className="mp-access">
      <Button
        ref={(button) => {
          toggle.current = button;
          buttonRef(button);
        }}
        size="small"
        variant="outlined"
        endIcon={open ? 'caret-up' : 'caret-down'}
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen(!open)}
        onKeyDown={(event) => {
          if (event.key !== 'ArrowDown' || open) return;
          event.preventDefault();
          setOpen(true);
        }}
      >
        {t('enrolment.actions')}
      </Button>
      {open && (
        <div
          ref={menu}
          id={menuId}
          role="menu"
          aria-label={label}
          className="mp-access-actions"
          onKeyDown={(event) => {
            if (event.key === 'Escape') {
              event.stopPropagation();
              setOpen(false);
              toggle.current?.focus();
              return;
            }
            if (event.key === 'Tab') {
              setOpen(false);
              return;
            }
            const all = items();
            const next = nextMenuIndex(event.key, all.indexOf(document.activeElement as HTMLElement), all.length);
            if (next === undefined) return;
            event.preventDefault();
            all[next].focus();
          }}
        >
          <Button role="menuitem" tabIndex={-1} size="small" variant="minimal" onClick={() => choose('newCode')}>
            {t('enrolment.newCode')}
          </Button>
          {hasAccess(device) && (
            <Button role="menuitem" tabIndex={-1} size="small" variant="minimal" intent="danger" onClick={() => choose('revoke')}>
              {t('enrolment.revoke')}
            </Button>
          )}
        </div>
      )}
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

/** /admin/devices: the clinic's laser systems and whether their sync app is reachable (Online/Offline). */
export function DevicesPage() {
  const { t } = useTranslation('devices');
  const failureMessage = useFailureMessage();
  const [params, setParams] = useSearchParams();
  const view = readDevicesView(params);
  const searchId = useId();
  const captionId = useId();
  const [dialog, setDialog] = useState<OpenDialog | null>(null);
  // The buttons that open a dialog, per row (the laser profile's, the access actions') and the page's own.
  const profileButtons = useRef(new Map<string, HTMLElement>());
  const accessButtons = useRef(new Map<string, HTMLElement>());
  const addButton = useRef<HTMLButtonElement>(null);
  const keep = (buttons: Map<string, HTMLElement>, id: string) => (button: HTMLElement | null) => {
    if (button) buttons.set(id, button);
    else buttons.delete(id);
  };
  useEffect(() => {
    for (const load of [loadProfileDialog, loadAddDialog, loadAccessDialogs]) load().catch(() => undefined);
  }, []);
  const closeDialog = () => {
    const closed = dialog;
    setDialog(null);
    requestAnimationFrame(() => {
      if (closed?.kind === 'add') addButton.current?.focus();
      else if (closed?.kind === 'profile') profileButtons.current.get(closed.device.id)?.focus();
      else if (closed) accessButtons.current.get(closed.device.id)?.focus();
    });
  };

  const show = (next: DevicesView, replace: boolean) => setParams(writeDevicesView(next), { replace });
  // The search follows the typing once it pauses; it replaces the history entry (a filter, not a page).
  const [typed, setTyped] = useSearchAfterPause(view.search, (search) => show({ ...view, search, page: 1 }, true));

  const query = useListDevices(devicesParams(view), { query: { placeholderData: keepPreviousData } });
  const devices = query.data?.data ?? [];
  const meta = query.data?.meta;

  return (
    <>
      <div className="mp-page-header">
        <h1 className="mp-page-title">{t('title')}</h1>
        <Button ref={addButton} intent="primary" icon="add" onClick={() => setDialog({ kind: 'add' })}>
          {t('add.open')}
        </Button>
      </div>
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
                  <div className="mp-sync-cell">
                    <SyncStatus device={device} />
                    <AccessActions device={device} buttonRef={keep(accessButtons.current, device.id)} onOpen={(kind) => setDialog({ kind, device })} />
                  </div>
                </td>
                <td>
                  <div className="mp-laser-cell">
                    <LaserSummary device={device} />
                    <Button
                      ref={keep(profileButtons.current, device.id)}
                      size="small"
                      variant="outlined"
                      aria-label={t('laser.openFor', { deviceId: device.deviceId })}
                      onClick={() => setDialog({ kind: 'profile', device })}
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
      <Suspense fallback={null}>
        {dialog?.kind === 'add' && <AddDeviceDialog onClose={closeDialog} />}
        {dialog?.kind === 'profile' && <LaserProfileDialog device={dialog.device} onClose={closeDialog} />}
        {dialog?.kind === 'newCode' && <NewEnrolmentCodeDialog device={dialog.device} onClose={closeDialog} />}
        {dialog?.kind === 'revoke' && <RevokeAccessDialog device={dialog.device} onClose={closeDialog} />}
      </Suspense>
    </>
  );
}
