import type { PlanAuditEntry } from '@generated/model/planAuditEntry';
import { describe, expect, it } from 'vitest';
import { changesBetween, sameSettings, settingChanges, type SignOffSettings } from './plan-change';

const SEEN: SignOffSettings = { revision: 6, laserDose: 110, pulseDurationMs: 15, laserMode: 'micropulse', dutyCyclePercent: 5, treatmentDeviceId: 'laser-1', disabled: [3, 9] };

const entry = (revision: number, by: string | null, summary = `change ${revision}`): PlanAuditEntry => ({
  id: `00000000-0000-4000-8000-00000000000${revision}`,
  at: '2026-11-24T10:00:00Z',
  by: by === null ? null : { id: `id-${by}`, name: by },
  action: 'final_adjustments_saved',
  step: 'confirm_sign_off',
  revision,
  summary,
});

describe('what changed in the sign-off step’s plan', () => {
  it('names the laser power that another user changed, and nothing else', () => {
    expect(settingChanges(SEEN, { ...SEEN, revision: 7, laserDose: 130 })).toEqual([{ setting: 'laserDose', before: 110, after: 130 }]);
  });

  it('names every setting changed, in the order the step shows them', () => {
    const after: SignOffSettings = { revision: 8, laserDose: 100, pulseDurationMs: 20, laserMode: 'continuous', dutyCyclePercent: null, treatmentDeviceId: 'laser-2', disabled: [3] };
    expect(settingChanges(SEEN, after).map((change) => change.setting)).toEqual(['treatmentDevice', 'laserDose', 'pulseDurationMs', 'laserMode', 'dutyCyclePercent', 'removedSpots']);
  });

  it('names a new duty cycle and another treating laser (the same revision read again with them is not the same state)', () => {
    expect(settingChanges(SEEN, { ...SEEN, revision: 7, dutyCyclePercent: 15 })).toEqual([{ setting: 'dutyCyclePercent', before: 5, after: 15 }]);
    expect(settingChanges(SEEN, { ...SEEN, revision: 7, treatmentDeviceId: 'laser-2' })).toEqual([{ setting: 'treatmentDevice', before: 'laser-1', after: 'laser-2' }]);
    expect(sameSettings(SEEN, { ...SEEN, dutyCyclePercent: 15 })).toBe(false);
    expect(sameSettings(SEEN, { ...SEEN, treatmentDeviceId: null })).toBe(false);
  });

  it('sees other spots removed in the same number', () => {
    expect(settingChanges(SEEN, { ...SEEN, disabled: [3, 10] })).toEqual([{ setting: 'removedSpots', before: 2, after: 2 }]);
  });

  it('finds nothing for a new revision that kept the laser settings (it is worded from the trail)', () => {
    expect(settingChanges(SEEN, { ...SEEN, revision: 7 })).toEqual([]);
    expect(sameSettings(SEEN, { ...SEEN, revision: 7 })).toBe(false);
    expect(sameSettings(SEEN, { ...SEEN, disabled: [3, 9] })).toBe(true);
    expect(sameSettings(SEEN, { ...SEEN, laserDose: 111 })).toBe(false);
  });
});

describe('who changed the plan', () => {
  const trail = [entry(5, 'Eva Roth'), entry(6, 'Eva Roth'), entry(7, 'Anna Krüger'), entry(8, null, 'packing'), entry(9, 'Max Vogel'), entry(10, 'Anna Krüger')];

  it('names the people of the revisions after the one seen, once each, not the system', () => {
    expect(changesBetween(trail, 6, 10)).toEqual({
      known: true,
      names: ['Anna Krüger', 'Max Vogel'],
      summaries: ['change 7', 'change 9', 'change 10'],
    });
    expect(changesBetween(trail, 6, 7).names).toEqual(['Anna Krüger']);
  });

  it('names nobody while the trail read so far ends before the change', () => {
    expect(changesBetween(trail.slice(0, 2), 6, 7)).toEqual({ known: false, names: [], summaries: [] });
    expect(changesBetween(undefined, 6, 7).known).toBe(false);
  });
});
