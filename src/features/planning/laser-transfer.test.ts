import { describe, expect, it } from 'vitest';
import type { SessionTransfer } from '@generated/model/sessionTransfer';
import type { TransferStatus } from '@generated/model/transferStatus';
import type { TreatmentDevice } from '@generated/model/treatmentDevice';
import { canCancel, canSend, firstChoice, sendRefusal, transferTime } from './laser-transfer';

const profile = (wavelengthNm: number) => ({
  wavelengthNm,
  spotSizeUm: { min: 50, max: 500 },
  modes: { continuous: { powerMw: { min: 50, max: 1500 }, pulseMs: { min: 10, max: 200 } } },
});
const device = (id: string, overrides: Partial<TreatmentDevice> = {}): TreatmentDevice => ({
  id,
  deviceId: `MLS-${id}`,
  description: null,
  enrolled: true,
  laserProfile: profile(577),
  ...overrides,
});
const transfer = (status: TransferStatus, deviceId = 'room-1', overrides: Partial<SessionTransfer> = {}): SessionTransfer => ({
  id: 't-1',
  status,
  device: { id: deviceId, deviceId: `MLS-${deviceId}`, description: null },
  queuedAt: '2026-11-21T10:14:00Z',
  receivedAt: null,
  finishedAt: null,
  failureReason: null,
  deliveredSpots: null,
  ...overrides,
});

describe('canSend and canCancel', () => {
  it('sends until a laser has received it, and withdraws only what waits', () => {
    const statuses: (TransferStatus | null)[] = [null, 'queued', 'received', 'treated', 'failed', 'cancelled'];
    const of = (status: TransferStatus | null) => (status ? transfer(status) : null);
    expect(statuses.filter((status) => canSend(of(status)))).toEqual([null, 'queued', 'failed', 'cancelled']);
    expect(statuses.filter((status) => canCancel(of(status)))).toEqual(['queued']);
    expect(canSend(undefined)).toBe(true);
    expect(canCancel(undefined)).toBe(false);
  });
});

describe('transferTime', () => {
  it('is the time of the state the transfer is in', () => {
    expect(transferTime(transfer('queued'))).toBe('2026-11-21T10:14:00Z');
    expect(transferTime(transfer('received', 'room-1', { receivedAt: '2026-11-21T10:15:00Z' }))).toBe('2026-11-21T10:15:00Z');
    expect(
      transferTime(transfer('treated', 'room-1', { receivedAt: '2026-11-21T10:15:00Z', finishedAt: '2026-11-21T10:41:00Z', deliveredSpots: 748 })),
    ).toBe('2026-11-21T10:41:00Z');
    // Withdrawn before the laser fetched it: the time of the withdrawal.
    expect(transferTime(transfer('cancelled', 'room-1', { finishedAt: '2026-11-21T10:16:00Z' }))).toBe('2026-11-21T10:16:00Z');
  });
});

describe('sendRefusal', () => {
  it('offers an enrolled laser of the packed wavelength', () => {
    expect(sendRefusal(device('room-2'), null, 577)).toBeNull();
    expect(sendRefusal(device('room-2'), transfer('failed'), 577)).toBeNull();
  });

  it('refuses a laser without a sync app, first', () => {
    expect(sendRefusal(device('room-2', { enrolled: false }), null, 577)).toBe('notEnrolled');
    // An older server that does not say: not offered either (the contract marks it optional).
    expect(sendRefusal(device('room-2', { enrolled: undefined }), null, 577)).toBe('notEnrolled');
    expect(sendRefusal(device('room-2', { enrolled: false, laserProfile: profile(532) }), null, 577)).toBe('notEnrolled');
  });

  it('refuses another wavelength than the parameter set was packed for, unless that is not known', () => {
    expect(sendRefusal(device('room-2', { laserProfile: profile(532) }), null, 577)).toBe('otherWavelength');
    expect(sendRefusal(device('room-2', { laserProfile: null }), null, 577)).toBe('otherWavelength');
    expect(sendRefusal(device('room-2', { laserProfile: profile(532) }), null, null)).toBeNull();
  });

  it('refuses the laser the plan already waits for, not one it failed on or was withdrawn from', () => {
    expect(sendRefusal(device('room-1'), transfer('queued', 'room-1'), 577)).toBe('waiting');
    expect(sendRefusal(device('room-2'), transfer('queued', 'room-1'), 577)).toBeNull();
    expect(sendRefusal(device('room-1'), transfer('failed', 'room-1'), 577)).toBeNull();
    expect(sendRefusal(device('room-1'), transfer('cancelled', 'room-1'), 577)).toBeNull();
  });
});

describe('firstChoice', () => {
  const devices = [device('room-1'), device('room-2'), device('room-3', { enrolled: false })];

  it('offers the laser it last went to again after a failure', () => {
    expect(firstChoice(devices, transfer('failed', 'room-2'), 577)).toBe('room-2');
    expect(firstChoice(devices, transfer('cancelled', 'room-2'), 577)).toBe('room-2');
  });

  it('else the first laser that can take it', () => {
    expect(firstChoice(devices, null, 577)).toBe('room-1');
    expect(firstChoice(devices, transfer('queued', 'room-1'), 577)).toBe('room-2');
    expect(firstChoice(devices, transfer('failed', 'room-3'), 577)).toBe('room-1');
  });

  it('offers none when no laser can take it', () => {
    expect(firstChoice([], null, 577)).toBe('');
    expect(firstChoice([device('room-3', { enrolled: false }), device('room-4', { laserProfile: profile(532) })], null, 577)).toBe('');
  });
});
