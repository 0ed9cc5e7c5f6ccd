import {
  getAddDeviceResponseMock,
  getIssueDeviceEnrolmentCodeResponseMock,
  getListDevicesMockHandler,
  getListDevicesResponseMock,
  getRevokeDeviceCredentialResponseMock,
  getUpdateDeviceLaserProfileResponseMock,
} from '@generated/hooks/clinic/clinic.msw';
import type { Device } from '@generated/model/device';
import type { DeviceInput } from '@generated/model/deviceInput';
import type { LaserProfileInput } from '@generated/model/laserProfileInput';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { act } from 'react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UiLanguage } from '@/lib/i18n';
import { formatDateTime } from '@/lib/format';
import { cleanup, click, getByLabel, renderRoutes, type, waitFor } from '@/testing/render';
import { DevicesPage } from './devices-page';

// /admin/devices against the contract's examples: NAV-533-00412 has a 577 nm profile with both modes,
// NAV-533-00587 none. The save is answered per test.
const server = setupServer();
const [YELLOW, BARE] = getListDevicesResponseMock().data as [Device, Device];

/** The bodies of the PUTs the page sent. */
let saved: LaserProfileInput[];
/** The devices as the server keeps them (a saved profile is listed after it). */
let devices: Device[];
/** Answers PUT /clinic/devices/{id}/laser-profile. */
let answer: (body: LaserProfileInput) => Response;
/** The bodies of POST /clinic/devices, and the ids of the devices given a new code or revoked. */
let addedBodies: DeviceInput[];
let issuedFor: string[];
let revokedFor: string[];
/** Answers POST /clinic/devices (by default: added, with the contract's example code). */
let answerAdd: (body: DeviceInput) => Response;
// The contract's examples: NAV-533-00633 added with code 4HZ9W-QM2TC; a new code 7KQ2M-XR4PD.
// Their codes run out a quarter of an hour from now (the examples' time has passed).
const inAQuarterOfAnHour = new Date(Date.now() + 15 * 60_000).toISOString();
const ADDED = getAddDeviceResponseMock();
ADDED.data.enrolment.expiresAt = inAQuarterOfAnHour;
ADDED.data.device.enrolmentCodeExpiresAt = inAQuarterOfAnHour;
const ISSUED = getIssueDeviceEnrolmentCodeResponseMock();
ISSUED.data.enrolment.expiresAt = inAQuarterOfAnHour;

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => {
  saved = [];
  devices = [YELLOW, BARE];
  answer = (body) => HttpResponse.json({ ...getUpdateDeviceLaserProfileResponseMock(), data: { ...BARE, laserProfile: body.laserProfile } });
  addedBodies = [];
  issuedFor = [];
  revokedFor = [];
  answerAdd = () => HttpResponse.json(ADDED, { status: 201 });
  localStorage.setItem('token', 'demo-token');
  server.use(
    getListDevicesMockHandler(() => ({ ...getListDevicesResponseMock(), data: devices })),
    http.put('*/clinic/devices/:id/laser-profile', async ({ request, params }) => {
      const body = (await request.json()) as LaserProfileInput;
      saved.push(body);
      const response = answer(body);
      if (response.ok) devices = devices.map((device) => (device.id === params.id ? { ...device, laserProfile: body.laserProfile } : device));
      return response;
    }),
    http.post('*/clinic/devices', async ({ request }) => {
      const body = (await request.json()) as DeviceInput;
      addedBodies.push(body);
      const response = answerAdd(body);
      if (response.ok) devices = [...devices, ADDED.data.device];
      return response;
    }),
    http.post('*/clinic/devices/:id/enrolment-code', ({ params }) => {
      issuedFor.push(String(params.id));
      const device = { ...devices.find((row) => row.id === params.id)!, enrolment: 'code_issued' as const, enrolmentCodeExpiresAt: ISSUED.data.enrolment.expiresAt };
      devices = devices.map((row) => (row.id === device.id ? device : row));
      return HttpResponse.json({ ...ISSUED, data: { ...ISSUED.data, device } });
    }),
    http.delete('*/clinic/devices/:id/credential', ({ params, request }) => {
      revokedFor.push(String(params.id));
      const device = { ...devices.find((row) => row.id === params.id)!, enrolment: 'revoked' as const, online: false, enrolledAt: null };
      devices = devices.map((row) => (row.id === device.id ? device : row));
      // The server answers in the language the page asks in (locales/*/api.json).
      const message = request.headers.get('Language') === 'de' ? 'Der Zugangsschlüssel des Geräts wurde widerrufen.' : getRevokeDeviceCredentialResponseMock().message;
      return HttpResponse.json({ ...getRevokeDeviceCredentialResponseMock(), message, data: device });
    }),
  );
});
afterEach(() => {
  cleanup();
  server.resetHandlers();
  localStorage.clear();
});
afterAll(() => server.close());

async function renderPage(language: UiLanguage = 'en') {
  const rendered = await renderRoutes([{ path: '/admin/devices', element: <DevicesPage /> }], { path: '/admin/devices', language });
  await waitFor(() => expect(rowOf(rendered.container, BARE.deviceId)).toBeDefined());
  return rendered;
}

const rowOf = (container: HTMLElement, deviceId: string) =>
  [...container.querySelectorAll('tbody tr')].find((row) => row.textContent?.includes(deviceId)) as HTMLElement | undefined;
const text = (element: Element | null | undefined) => (element?.textContent ?? '').replace(/\s+/g, ' ').trim();
const profileDialog = () =>
  waitFor(() => {
    const dialog = document.querySelector<HTMLFormElement>('[role="dialog"] form');
    if (!dialog) throw new Error('no laser profile dialog');
    return dialog;
  });
/** A field of the dialog by its accessible name (its label, or a range's label and "from"/"to"). */
function field(dialog: HTMLElement, name: string): HTMLInputElement {
  const inputs = [...dialog.querySelectorAll<HTMLInputElement>('input[type="text"]')];
  const nameOf = (input: HTMLInputElement) =>
    input.getAttribute('aria-labelledby')
      ? input.getAttribute('aria-labelledby')!.split(' ').map((id) => text(document.getElementById(id))).join(' ')
      : text(dialog.querySelector(`label[for="${input.id}"]`));
  const found = inputs.filter((input) => nameOf(input) === name);
  if (found.length !== 1) throw new Error(`${found.length} fields named "${name}"`);
  return found[0];
}
const describedBy = (input: HTMLElement) =>
  (input.getAttribute('aria-describedby') ?? '').split(' ').map((id) => text(document.getElementById(id))).join(' ');
const button = (scope: HTMLElement, name: string) => {
  const found = [...scope.querySelectorAll<HTMLButtonElement>('button')].find((element) => text(element) === name);
  if (!found) throw new Error(`no button "${name}"`);
  return found;
};
const submit = (dialog: HTMLFormElement) => act(async () => void dialog.requestSubmit());

describe('the laser column', () => {
  it('names wavelength and modes, and a device without a profile with what that means (de)', async () => {
    const { container } = await renderPage('de');
    expect(text(rowOf(container, YELLOW.deviceId))).toContain('577 nm · kontinuierlich, Mikropuls');
    const bare = rowOf(container, BARE.deviceId)!;
    expect(text(bare.querySelector('.mp-laser-summary .bp6-tag'))).toBe('Kein Laserprofil');
    expect(text(bare.querySelector('.mp-laser-summary .mp-muted-text'))).toBe('Keine Freigabe von Plänen möglich.');
    expect(rowOf(container, BARE.deviceId)?.querySelector('.mp-laser-cell button')?.getAttribute('aria-label')).toBe('Laserprofil von NAV-533-00587');
  });
});

describe('the laser profile dialog', () => {
  it('sends the German "0,1" as 0.1, shows the server’s message and the new profile, and gives the focus back', async () => {
    const { container } = await renderPage('de');
    const open = rowOf(container, BARE.deviceId)!.querySelector<HTMLElement>('.mp-laser-cell button')!;
    await click(open);
    const dialog = await profileDialog();
    await type(field(dialog, 'Wellenlänge (nm)'), '532');
    await type(field(dialog, 'Spotgröße (µm) von'), '50');
    await type(field(dialog, 'Spotgröße (µm) bis'), '500');
    await click(dialog.querySelector<HTMLInputElement>('input[type="checkbox"]')!);
    await type(field(dialog, 'Leistung (mW) von'), '0,1');
    await type(field(dialog, 'Leistung (mW) bis'), '1500');
    await type(field(dialog, 'Pulsdauer (ms) von'), '10');
    await type(field(dialog, 'Pulsdauer (ms) bis'), '200');
    await type(field(dialog, 'Kleinster Spotabstand (in Spotdurchmessern)'), '1,5');
    await submit(dialog);
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toEqual({
      laserProfile: {
        wavelengthNm: 532,
        spotSizeUm: { min: 50, max: 500 },
        modes: { continuous: { powerMw: { min: 0.1, max: 1500 }, pulseMs: { min: 10, max: 200 }, minSpacing: 1.5 } },
      },
    });
    await waitFor(() => expect(text(container.querySelector('.mp-notifications'))).toContain('Laser profile saved.'));
    await waitFor(() => expect(document.querySelector('[role="dialog"]')).toBeNull());
    expect(text(rowOf(container, BARE.deviceId))).toContain('532 nm · kontinuierlich');
    await waitFor(() => expect(document.activeElement).toBe(open));
  });

  it('shows the server’s field errors (422) on their fields and keeps the dialog open', async () => {
    const message = 'Please check the laser profile: a range’s minimum may not exceed its maximum.';
    answer = () =>
      HttpResponse.json(
        { status: 'Error', message, errors: { 'laserProfile.modes.micropulse.dutyCyclePercent': [message], 'laserProfile.wavelengthNm': ['Too long.'] } },
        { status: 422 },
      );
    const { container } = await renderPage();
    await click(rowOf(container, YELLOW.deviceId)!.querySelector<HTMLElement>('.mp-laser-cell button')!);
    const dialog = await profileDialog();
    expect(field(dialog, 'Wavelength (nm)').value).toBe('577');
    await submit(dialog);
    await waitFor(() => expect(saved).toHaveLength(1));
    const from = field(dialog, 'Duty cycle (%) from');
    await waitFor(() => expect(from.getAttribute('aria-invalid')).toBe('true'));
    expect(describedBy(from)).toBe(message);
    expect(describedBy(field(dialog, 'Duty cycle (%) to'))).toBe(message);
    expect(describedBy(field(dialog, 'Wavelength (nm)'))).toBe('Too long.');
    // Placed on the fields, so no second copy above them.
    expect(dialog.querySelector('[role="alert"]')).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(field(dialog, 'Wavelength (nm)')));
  });

  it('shows a failure no field can show (404) above the form', async () => {
    answer = () => HttpResponse.json({ status: 'Error', message: 'Not found.' }, { status: 404 });
    const { container } = await renderPage();
    await click(rowOf(container, YELLOW.deviceId)!.querySelector<HTMLElement>('.mp-laser-cell button')!);
    const dialog = await profileDialog();
    await submit(dialog);
    await waitFor(() => expect(text(dialog.querySelector('[role="alert"]'))).toBe('Not found.'));
  });

  it('refuses a reversed range and a wrong decimal mark without sending, and asks for a mode', async () => {
    const { container } = await renderPage();
    await click(rowOf(container, YELLOW.deviceId)!.querySelector<HTMLElement>('.mp-laser-cell button')!);
    const dialog = await profileDialog();
    await type(field(dialog, 'Spot size (µm) from'), '600');
    // Micropulse power "from" (the continuous mode's has the same name).
    const micropulse = dialog.querySelectorAll('section')[1];
    const power = micropulse.querySelector<HTMLInputElement>('input[type="text"]')!;
    await type(power, '0,1');
    await submit(dialog);
    await waitFor(() => expect(describedBy(field(dialog, 'Spot size (µm) from'))).toBe('“from” may not be greater than “to”.'));
    expect(describedBy(power)).toBe('from: Use a decimal point and no thousands separators, e.g. 1.5.');
    // The first wrong field in the order shown takes the focus.
    await waitFor(() => expect(document.activeElement).toBe(field(dialog, 'Spot size (µm) from')));
    for (const toggle of dialog.querySelectorAll<HTMLInputElement>('input[type="checkbox"]')) await click(toggle);
    await submit(dialog);
    await waitFor(() => expect(text(dialog.querySelector('[role="alert"]'))).toBe('Switch on at least one mode the device offers.'));
    await click(button(dialog, 'Cancel'));
    expect(saved).toEqual([]);
  });
});

const openDialog = () =>
  waitFor(() => {
    const dialog = document.querySelector<HTMLElement>('[role="dialog"]');
    if (!dialog) throw new Error('no dialog');
    return dialog;
  });
const dialogTitle = (dialog: HTMLElement) => text(document.getElementById(dialog.getAttribute('aria-labelledby') ?? ''));
const labelled = (scope: ParentNode, name: string) => {
  const found = scope.querySelector<HTMLElement>(`[aria-label="${name}"]`);
  if (!found) throw new Error(`nothing labelled "${name}"`);
  return found;
};
/** Opens a row's "Access" menu and chooses an item. */
async function chooseAccess(deviceId: string, accessOf: string, item: string) {
  const toggle = labelled(document, accessOf.replace('{{deviceId}}', deviceId));
  await click(toggle);
  expect(toggle.getAttribute('aria-expanded')).toBe('true');
  const menu = document.getElementById(toggle.getAttribute('aria-controls')!)!;
  expect(menu.getAttribute('role')).toBe('menu');
  const found = [...menu.querySelectorAll<HTMLElement>('[role="menuitem"]')].find((element) => text(element) === item);
  if (!found) throw new Error(`no menu item "${item}"`);
  await click(found);
  return openDialog();
}
const notification = (container: HTMLElement) => text(container.querySelector('.mp-notifications'));

describe('the sync app column', () => {
  it('says how each device is enrolled and which sync app version it runs', async () => {
    devices = [YELLOW, { ...BARE, enrolment: 'none', enrolledAt: null, syncAppVersion: null }];
    const { container } = await renderPage();
    const yellow = text(rowOf(container, YELLOW.deviceId));
    expect(yellow).toContain(`Enrolled since ${formatDateTime(YELLOW.enrolledAt!, 'en')}`);
    expect(yellow).toContain('App version 1.4.2');
    expect(text(rowOf(container, BARE.deviceId))).toContain('Not enrolled');
    // Nothing to revoke on a device that never enrolled: only a new code is offered.
    const toggle = labelled(document, `Access of ${BARE.deviceId}`);
    await click(toggle);
    const menu = document.getElementById(toggle.getAttribute('aria-controls')!)!;
    const items = [...menu.querySelectorAll<HTMLElement>('[role="menuitem"]')];
    expect(items.map(text)).toEqual(['New enrolment code']);
    // The menu takes the focus; Escape closes it and gives the focus back to its button.
    expect(document.activeElement).toBe(items[0]);
    await act(async () => void items[0].dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true })));
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(toggle);

    // The arrow keys move between the items, round the ends.
    await click(labelled(document, `Access of ${YELLOW.deviceId}`));
    const [newCode, revoke] = [...document.querySelectorAll<HTMLElement>('[role="menuitem"]')];
    expect([newCode, revoke].map(text)).toEqual(['New enrolment code', 'Revoke access']);
    const press = (key: string) => act(async () => void document.activeElement!.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true })));
    await press('ArrowDown');
    expect(document.activeElement).toBe(revoke);
    await press('ArrowDown');
    expect(document.activeElement).toBe(newCode);
    await press('ArrowUp');
    expect(document.activeElement).toBe(revoke);
  });
});

describe('adding a device', () => {
  it('shows its enrolment code once with the expiry, reads the list again and gives the focus back', async () => {
    const { container } = await renderPage();
    const open = button(container, 'Add device');
    await click(open);
    const dialog = await openDialog();
    expect(dialogTitle(dialog)).toBe('Add device');
    const form = dialog.querySelector('form')!;
    await type(getByLabel(dialog, 'Device ID'), ' NAV-533-00633 ');
    await type(getByLabel(dialog, 'Optical head ID'), 'OH-2317');
    await type(getByLabel(dialog, 'Camera'), 'Fundus CCD 5MP');
    await submit(form);
    await waitFor(() => expect(dialogTitle(dialog)).toBe('Enrolment code for NAV-533-00633'));
    expect(addedBodies).toEqual([{ deviceId: 'NAV-533-00633', opticalHeadId: 'OH-2317', camera: 'Fundus CCD 5MP' }]);
    expect(text(dialog.querySelector('.mp-enrolment-code'))).toBe('4HZ9W-QM2TC');
    expect(text(dialog)).toContain(`Valid until ${formatDateTime(ADDED.data.enrolment.expiresAt, 'en')}`);
    expect(text(dialog)).toContain('--enrol 4HZ9W-QM2TC');
    expect(text(dialog)).toContain('The code is shown only now.');
    expect(notification(container)).toContain('Device added. Enter the enrolment code in its sync app within 15 minutes.');
    // The list was read again: the new device stands in it.
    await waitFor(() => expect(text(rowOf(container, 'NAV-533-00633'))).toContain('Enrolment code issued, valid until'));
    await click(button(dialog, 'Done'));
    await waitFor(() => expect(document.querySelector('[role="dialog"]')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(open));
  });

  it('copies the code, or selects it where the clipboard cannot be written', async () => {
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    try {
      const { container } = await renderPage();
      await click(button(container, 'Add device'));
      const dialog = await openDialog();
      await type(getByLabel(dialog, 'Device ID'), 'NAV-533-00633');
      await type(getByLabel(dialog, 'Optical head ID'), 'OH-2317');
      await type(getByLabel(dialog, 'Camera'), 'Fundus CCD 5MP');
      await submit(dialog.querySelector('form')!);
      const copy = await waitFor(() => button(dialog, 'Copy code'));
      await click(copy);
      await waitFor(() => expect(text(copy)).toBe('Copied'));
      expect(writeText).toHaveBeenCalledWith('4HZ9W-QM2TC');
      expect(text(dialog.querySelector('[role="status"]'))).toBe('The code is copied to the clipboard.');

      writeText.mockRejectedValueOnce(new DOMException('Write permission denied.', 'NotAllowedError'));
      await click(copy);
      await waitFor(() => expect(text(dialog.querySelector('[role="status"]'))).toBe('The code is selected: press Ctrl+C (⌘C on a Mac) to copy it.'));
      expect(String(window.getSelection())).toBe('4HZ9W-QM2TC');
    } finally {
      Reflect.deleteProperty(navigator, 'clipboard');
    }
  });

  it('shows the server’s "ID taken" (409) at Device ID and keeps what was typed', async () => {
    const taken = 'Die Klinik hat bereits ein Gerät mit dieser ID.';
    answerAdd = () =>
      HttpResponse.json({ status: 'Error', message: 'Bitte prüfen Sie die markierten Felder.', code: 'device.duplicate', errors: { deviceId: [taken] } }, { status: 409 });
    const { container } = await renderPage('de');
    await click(button(container, 'Gerät hinzufügen'));
    const dialog = await openDialog();
    const deviceId = getByLabel(dialog, 'Geräte-ID');
    await type(deviceId, YELLOW.deviceId);
    await type(getByLabel(dialog, 'ID des optischen Kopfes'), 'OH-2317');
    await type(getByLabel(dialog, 'Kamera'), 'Fundus CCD 5MP');
    await submit(dialog.querySelector('form')!);
    await waitFor(() => expect(deviceId.getAttribute('aria-invalid')).toBe('true'));
    expect(describedBy(deviceId)).toBe(taken);
    expect(deviceId.value).toBe(YELLOW.deviceId);
    // Said at the field, so no second copy above the form.
    expect(dialog.querySelector('[role="alert"]')).toBeNull();
    expect(dialogTitle(dialog)).toBe('Gerät hinzufügen');
    await waitFor(() => expect(document.activeElement).toBe(deviceId));
  });

  it('refuses missing values and a serial with other characters before sending (de)', async () => {
    const { container } = await renderPage('de');
    await click(button(container, 'Gerät hinzufügen'));
    const dialog = await openDialog();
    await type(getByLabel(dialog, 'ID des optischen Kopfes'), 'OH 2317');
    await submit(dialog.querySelector('form')!);
    const deviceId = getByLabel(dialog, 'Geräte-ID');
    await waitFor(() => expect(describedBy(deviceId)).toBe('Bitte einen Wert eingeben.'));
    expect(describedBy(getByLabel(dialog, 'ID des optischen Kopfes'))).toBe(
      'Bitte nur Buchstaben, Ziffern, „.“, „_“ und „-“ verwenden, am Anfang ein Buchstabe oder eine Ziffer.',
    );
    expect(describedBy(getByLabel(dialog, 'Kamera'))).toBe('Bitte einen Wert eingeben.');
    await waitFor(() => expect(document.activeElement).toBe(deviceId));
    await click(button(dialog, 'Abbrechen'));
    expect(addedBodies).toEqual([]);
  });
});

describe('a device’s access', () => {
  it('revokes only after a confirmation that names the device and what follows (de)', async () => {
    const { container } = await renderPage('de');
    let dialog = await chooseAccess(YELLOW.deviceId, 'Zugang von {{deviceId}}', 'Zugang widerrufen');
    expect(dialogTitle(dialog)).toBe('Zugang von NAV-533-00412 widerrufen?');
    // The focus starts on the harmless choice.
    await waitFor(() => expect(document.activeElement).toBe(button(dialog, 'Abbrechen')));
    expect(text(dialog)).toContain('Die Sync-App von NAV-533-00412 wird sofort getrennt.');
    expect(text(dialog)).toContain('erst mit einem neuen Registrierungscode wieder verbinden');
    await click(button(dialog, 'Abbrechen'));
    await waitFor(() => expect(document.querySelector('[role="dialog"]')).toBeNull());
    expect(revokedFor).toEqual([]);

    dialog = await chooseAccess(YELLOW.deviceId, 'Zugang von {{deviceId}}', 'Zugang widerrufen');
    await click(button(dialog, 'Zugang widerrufen'));
    await waitFor(() => expect(revokedFor).toEqual([YELLOW.id]));
    await waitFor(() => expect(document.querySelector('[role="dialog"]')).toBeNull());
    expect(notification(container)).toContain('Der Zugangsschlüssel des Geräts wurde widerrufen.');
    await waitFor(() => expect(text(rowOf(container, YELLOW.deviceId))).toContain('Zugang widerrufen'));
    expect(text(rowOf(container, YELLOW.deviceId))).toContain('Offline');
    await waitFor(() => expect(document.activeElement).toBe(labelled(document, 'Zugang von NAV-533-00412')));
  });

  it('creates a new enrolment code on request and shows it', async () => {
    const { container } = await renderPage();
    const dialog = await chooseAccess(BARE.deviceId, 'Access of {{deviceId}}', 'New enrolment code');
    expect(dialogTitle(dialog)).toBe('New enrolment code for NAV-533-00587');
    expect(text(dialog)).toContain('current credential stays valid until the new code is entered');
    expect(issuedFor).toEqual([]);
    await click(button(dialog, 'Create code'));
    await waitFor(() => expect(text(dialog.querySelector('.mp-enrolment-code'))).toBe('7KQ2M-XR4PD'));
    expect(issuedFor).toEqual([BARE.id]);
    expect(text(dialog)).toContain(`Valid until ${formatDateTime(ISSUED.data.enrolment.expiresAt, 'en')}`);
    expect(notification(container)).toContain('Enrolment code issued. It is shown only now.');
    await waitFor(() => expect(text(rowOf(container, BARE.deviceId))).toContain('Enrolment code issued, valid until'));
    await click(button(dialog, 'Done'));
    await waitFor(() => expect(document.activeElement).toBe(labelled(document, 'Access of NAV-533-00587')));
  });
});
