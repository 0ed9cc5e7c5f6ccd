import { describe, expect, it } from 'vitest';
import type { AccessLogEntry } from '@generated/model/accessLogEntry';
import { accessLogCsv, localTimestamp } from './access-log-csv';
import { actionKey, isReversed, readView, requestOf, writeView } from './access-log-view';

const PATIENT = 'a1c3e5f7-0b2d-4e6f-8a9b-1c2d3e4f5a61';

describe('the access log view', () => {
  it('reads an address, leaving out what is malformed, and writes it back', () => {
    const view = readView(new URLSearchParams(`patientId=${PATIENT}&actorId=nope&action=plan.sign_off&from=2026-11-01&to=2026-11-30&page=3`));
    expect(view).toEqual({ patientId: PATIENT, actorId: undefined, action: 'plan.sign_off', from: '2026-11-01', to: '2026-11-30', page: 3 });
    expect(writeView(view).toString()).toBe(`patientId=${PATIENT}&action=plan.sign_off&from=2026-11-01&to=2026-11-30&page=3`);
    expect(readView(new URLSearchParams('action=x%3D1&from=1.11.2026&page=0'))).toEqual({ page: 1 });
    // Days the calendar does not have are left out too.
    expect(readView(new URLSearchParams('from=2026-02-30&to=2026-13-01'))).toEqual({ page: 1 });
  });

  it('asks for whole days in the user’s zone, the last one included', () => {
    const request = requestOf({ from: '2026-11-01', to: '2026-11-30', page: 2 });
    expect(request).toMatchObject({ page: 2, perPage: 50 });
    expect(new Date(request.from!).getTime()).toBe(new Date(2026, 10, 1).getTime());
    expect(new Date(request.to!).getTime()).toBe(new Date(2026, 11, 1).getTime());
    expect(isReversed({ from: '2026-11-02', to: '2026-11-01', page: 1 })).toBe(true);
    expect(isReversed({ from: '2026-11-01', to: '2026-11-01', page: 1 })).toBe(false);
  });

  it('knows the actions it names and leaves others as they are', () => {
    expect(actionKey('treatment.image_read')).toBe('treatmentImageRead');
    expect(actionKey('signIn')).toBe('signIn');
    expect(actionKey('totp.enabled')).toBeUndefined();
  });
});

describe('the CSV', () => {
  const entry: AccessLogEntry = {
    id: '7',
    seq: 7,
    at: '2026-11-21T10:02:44Z',
    actor: { id: '9a4e2c71-6d3b-4f85-b0e2-1c7d5a9f3b62', name: '=cmd|calc', role: 'clinic_physicians' },
    device: null,
    action: 'patient.read',
    outcome: 'success',
    ip: '10.20.4.17',
    patient: { id: PATIENT, name: 'Maria Schneider' },
    patientCount: 1,
  };

  it('writes one row per entry with the ids an audit needs, a formula as text', () => {
    const csv = accessLogCsv([entry], {
      headings: { when: 'When', user: 'User', role: 'Role', action: 'Action', outcome: 'Outcome', patient: 'Patient', patientId: 'Patient ID', patientCount: 'Patients', ip: 'IP', seq: 'Entry' },
      user: (e) => e.actor?.name ?? '',
      role: () => 'Physician',
      action: () => 'Patient card opened',
      outcome: () => 'Done',
      patient: (e) => e.patient?.name ?? '',
    });
    const lines = csv.replace('\uFEFF', '').split('\r\n');
    expect(lines[0]).toBe('When,User,Role,Action,Outcome,Patient,Patient ID,Patients,IP,Entry');
    expect(lines[1]).toBe(`${localTimestamp(entry.at)},'=cmd|calc,Physician,Patient card opened,Done,Maria Schneider,${PATIENT},1,10.20.4.17,7`);
  });
});
