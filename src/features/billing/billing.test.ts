import { describe, expect, it } from 'vitest';
import { billingCsv } from './billing-csv';
import { defaultRange, monthLabel, offeredMonths, readRange, withFrom, withTo } from './billing-range';

const NOW = new Date('2026-01-15T10:00:00Z');

describe('billing range', () => {
  it('defaults to the last three months, across a year boundary', () => {
    expect(defaultRange(NOW)).toEqual({ from: '2025-11', to: '2026-01' });
    expect(offeredMonths(NOW)).toHaveLength(36);
    expect(offeredMonths(NOW).at(-1)).toBe('2023-02');
  });

  it('takes a range from the URL only when both months are offered and in order', () => {
    expect(readRange(new URLSearchParams('from=2025-03&to=2025-06'), NOW)).toEqual({ from: '2025-03', to: '2025-06' });
    for (const query of ['from=2025-06&to=2025-03', 'from=2022-01&to=2025-01', 'from=2026-02&to=2026-02', 'from=2025-3&to=2025-06', 'to=2025-06']) {
      expect(readRange(new URLSearchParams(query), NOW)).toEqual(defaultRange(NOW));
    }
  });

  it('moves the other end along when one end passes it', () => {
    expect(withFrom({ from: '2025-01', to: '2025-03' }, '2025-05')).toEqual({ from: '2025-05', to: '2025-05' });
    expect(withTo({ from: '2025-05', to: '2025-08' }, '2025-02')).toEqual({ from: '2025-02', to: '2025-02' });
  });

  it('names a month in the reader’s language', () => {
    expect(monthLabel('2026-03', 'de')).toBe('März 2026');
    expect(monthLabel('2026-03', 'en')).toBe('March 2026');
  });
});

describe('billingCsv', () => {
  it('writes a row per month and device, the totals, quoting what needs it', () => {
    const csv = billingCsv(
      {
        from: '2026-10',
        to: '2026-11',
        rows: [
          { month: '2026-10', deviceId: 'NAV,1', examsUploaded: 2, plansSignedOff: 1, parameterSetsProduced: 1 },
          { month: '2026-11', deviceId: null, examsUploaded: 1, plansSignedOff: 0, parameterSetsProduced: 0 },
        ],
        totals: { examsUploaded: 3, plansSignedOff: 1, parameterSetsProduced: 1 },
      },
      { month: 'Monat', device: 'Gerät', examsUploaded: 'Hochgeladene Untersuchungen', plansSignedOff: 'Freigegebene Pläne', parameterSetsProduced: 'Parametersätze', noDevice: 'Kein "Gerät"', total: 'Summe' },
    );
    expect(csv).toBe(
      '\uFEFFMonat,Gerät,Hochgeladene Untersuchungen,Freigegebene Pläne,Parametersätze\r\n' +
        '2026-10,"NAV,1",2,1,1\r\n' +
        '2026-11,"Kein ""Gerät""",1,0,0\r\n' +
        'Summe 2026-10 – 2026-11,,3,1,1\r\n',
    );
  });

  it('lists every month of the range, one without usage as zeros, with the separator asked for', () => {
    const csv = billingCsv(
      {
        from: '2025-11',
        to: '2026-02',
        rows: [{ month: '2026-01', deviceId: 'NAV-1', examsUploaded: 2, plansSignedOff: 1, parameterSetsProduced: 1 }],
        totals: { examsUploaded: 2, plansSignedOff: 1, parameterSetsProduced: 1 },
      },
      { month: 'Monat', device: 'Gerät', examsUploaded: 'Untersuchungen', plansSignedOff: 'Pläne', parameterSetsProduced: 'Parametersätze', noDevice: 'Kein Gerät', total: 'Summe' },
      ';',
    );
    expect(csv.replace('\uFEFF', '').split('\r\n')).toEqual([
      'Monat;Gerät;Untersuchungen;Pläne;Parametersätze',
      '2025-11;;0;0;0',
      '2025-12;;0;0;0',
      '2026-01;NAV-1;2;1;1',
      '2026-02;;0;0;0',
      'Summe 2025-11 – 2026-02;;2;1;1',
      '',
    ]);
  });

  it('writes a device id from an uploaded file that a spreadsheet would run as a formula as text', () => {
    const csv = billingCsv(
      {
        from: '2026-11',
        to: '2026-11',
        rows: [{ month: '2026-11', deviceId: '=HYPERLINK("http://evil.example","NAV-1")', examsUploaded: 1, plansSignedOff: 0, parameterSetsProduced: 0 }],
        totals: { examsUploaded: 1, plansSignedOff: 0, parameterSetsProduced: 0 },
      },
      { month: 'Month', device: 'Device', examsUploaded: 'Exams', plansSignedOff: 'Plans', parameterSetsProduced: 'Sets', noDevice: 'None', total: 'Total' },
    );
    expect(csv.split('\r\n')[1]).toBe(`2026-11,"'=HYPERLINK(""http://evil.example"",""NAV-1"")",1,0,0`);
  });
});
