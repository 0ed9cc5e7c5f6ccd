import {
  getListDevicesMockHandler,
  getListDevicesResponseMock,
  getUpdateDeviceLaserProfileResponseMock,
} from '@generated/hooks/clinic/clinic.msw';
import type { Device } from '@generated/model/device';
import type { LaserProfileInput } from '@generated/model/laserProfileInput';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { act } from 'react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { UiLanguage } from '@/lib/i18n';
import { cleanup, click, renderRoutes, type, waitFor } from '@/testing/render';
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

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => {
  saved = [];
  devices = [YELLOW, BARE];
  answer = (body) => HttpResponse.json({ ...getUpdateDeviceLaserProfileResponseMock(), data: { ...BARE, laserProfile: body.laserProfile } });
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
    expect(rowOf(container, BARE.deviceId)?.querySelector('button')?.getAttribute('aria-label')).toBe('Laserprofil von NAV-533-00587');
  });
});

describe('the laser profile dialog', () => {
  it('sends the German "0,1" as 0.1, shows the server’s message and the new profile, and gives the focus back', async () => {
    const { container } = await renderPage('de');
    const open = rowOf(container, BARE.deviceId)!.querySelector('button')!;
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
    await click(rowOf(container, YELLOW.deviceId)!.querySelector('button')!);
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
    await click(rowOf(container, YELLOW.deviceId)!.querySelector('button')!);
    const dialog = await profileDialog();
    await submit(dialog);
    await waitFor(() => expect(text(dialog.querySelector('[role="alert"]'))).toBe('Not found.'));
  });

  it('refuses a reversed range and a wrong decimal mark without sending, and asks for a mode', async () => {
    const { container } = await renderPage();
    await click(rowOf(container, YELLOW.deviceId)!.querySelector('button')!);
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
