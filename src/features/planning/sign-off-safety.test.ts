import { describe, expect, it } from 'vitest';
import { DEFAULT_CLINICAL_LIMITS, irradianceWPerCm2, type LaserProfile } from '@/domain/planning/clinical-limits';
import { laserRanges, laserRefusals, type LaserDraft } from './sign-off-safety';

// The demo's 577 nm laser (server/seed/laser-profiles.ts).
const YELLOW: LaserProfile = {
  wavelengthNm: 577,
  spotSizeUm: { min: 50, max: 500 },
  modes: {
    continuous: { powerMw: { min: 50, max: 1500 }, pulseMs: { min: 10, max: 200 } },
    micropulse: { powerMw: { min: 50, max: 1500 }, pulseMs: { min: 10, max: 300 }, dutyCyclePercent: { min: 5, max: 20 } },
  },
};
const GREEN: LaserProfile = { wavelengthNm: 532, spotSizeUm: { min: 50, max: 500 }, modes: { continuous: YELLOW.modes.continuous } };

const draft = (overrides: Partial<LaserDraft> = {}): LaserDraft => ({
  mode: 'micropulse',
  pulseMs: 15,
  dutyCyclePercent: 5,
  spotSizeUm: 100,
  spacing: 2,
  powersMw: [90, 80, 70],
  ...overrides,
});
const codes = (d: LaserDraft, profile: LaserProfile | null = YELLOW) => laserRefusals(d, profile, DEFAULT_CLINICAL_LIMITS).map((refusal) => refusal.code);

describe('laserRanges', () => {
  it('takes the profile’s ranges within the clinical limits', () => {
    const micropulse = laserRanges(YELLOW, DEFAULT_CLINICAL_LIMITS, 'micropulse');
    expect(micropulse.modes).toEqual(['micropulse', 'continuous']);
    expect(micropulse.pulseMs).toEqual({ min: 10, max: 300 });
    // The device allows 20 %, the clinical limit 15 %.
    expect(micropulse.dutyCyclePercent).toEqual({ min: 5, max: 15 });
    expect(micropulse.powerMw).toEqual({ min: 50, max: 1500 });
    const continuous = laserRanges(YELLOW, DEFAULT_CLINICAL_LIMITS, 'continuous');
    // The device allows 200 ms, DRCR.net 100 ms.
    expect(continuous.pulseMs).toEqual({ min: 10, max: 100 });
    expect(continuous.dutyCyclePercent).toBeNull();
  });

  it('offers only the modes the laser has', () => {
    expect(laserRanges(GREEN, DEFAULT_CLINICAL_LIMITS, 'continuous').modes).toEqual(['continuous']);
    expect(laserRanges(GREEN, DEFAULT_CLINICAL_LIMITS, 'micropulse').pulseMs).toBeNull();
  });
});

describe('laserRefusals', () => {
  it('refuses nothing of a plan within the profile and the limits', () => {
    expect(codes(draft())).toEqual([]);
    expect(codes(draft({ mode: 'continuous', dutyCyclePercent: null, pulseMs: 100 }))).toEqual([]);
  });

  it('refuses a duty cycle above 15 % although the laser allows 20 %', () => {
    const [refusal] = laserRefusals(draft({ dutyCyclePercent: 16 }), YELLOW, DEFAULT_CLINICAL_LIMITS);
    expect(refusal).toMatchObject({ code: 'duty_cycle_out_of_range', field: 'dutyCyclePercent', blocksSave: true, dutyCyclePercent: 16, min: 5, max: 15 });
    expect(codes(draft({ dutyCyclePercent: 15 }))).toEqual([]);
  });

  it('asks for a duty cycle in micropulse only at sign-off', () => {
    const refusals = laserRefusals(draft({ dutyCyclePercent: null }), YELLOW, DEFAULT_CLINICAL_LIMITS);
    expect(refusals).toEqual([expect.objectContaining({ code: 'duty_cycle_missing', blocksSave: false, min: 5, max: 15 })]);
  });

  it('refuses a continuous pulse above 100 ms and a mode the laser lacks', () => {
    expect(laserRefusals(draft({ mode: 'continuous', pulseMs: 150 }), YELLOW, DEFAULT_CLINICAL_LIMITS)).toEqual([
      expect.objectContaining({ code: 'pulse_out_of_range', field: 'pulseDurationMs', pulseMs: 150, min: 10, max: 100 }),
    ]);
    expect(codes(draft(), GREEN)).toEqual(['mode_not_offered']);
  });

  it('refuses continuous mode below two burn widths unless the profile allows less', () => {
    expect(codes(draft({ mode: 'continuous', spacing: 1.5 }))).toEqual(['spacing_too_small']);
    const closer: LaserProfile = { ...YELLOW, modes: { ...YELLOW.modes, continuous: { ...YELLOW.modes.continuous!, minSpacing: 1.5 } } };
    expect(codes(draft({ mode: 'continuous', spacing: 1.5 }), closer)).toEqual([]);
    expect(codes(draft({ spacing: 1.5 }))).toEqual([]);
  });

  it('counts the spots above the irradiance ceiling with the highest, as the server does', () => {
    // 200 µm at 15 %: 350 W/cm² at about 733 mW.
    const powersMw = [500, 800, 1400, 700];
    const [refusal] = laserRefusals(draft({ spotSizeUm: 200, dutyCyclePercent: 15, powersMw }), YELLOW, DEFAULT_CLINICAL_LIMITS);
    expect(refusal).toMatchObject({ code: 'irradiance_too_high', field: 'laserDose', count: 2, ceiling: 350 });
    expect(refusal.code === 'irradiance_too_high' && refusal.highest).toBeCloseTo(irradianceWPerCm2(1400, 200, 15));
    // The same powers at 5 % are below the ceiling.
    expect(codes(draft({ spotSizeUm: 200, dutyCyclePercent: 5, powersMw }))).toEqual([]);
  });

  it('counts the powers outside the laser’s range', () => {
    expect(laserRefusals(draft({ spotSizeUm: 500, powersMw: [40, 60, 1600] }), YELLOW, DEFAULT_CLINICAL_LIMITS)).toEqual([
      expect.objectContaining({ code: 'power_out_of_limits', count: 2, min: 50, max: 1500 }),
    ]);
  });

  it('without a laser profile refuses the sign-off, not the save', () => {
    expect(laserRefusals(draft({ dutyCyclePercent: 50 }), null, DEFAULT_CLINICAL_LIMITS)).toEqual([
      expect.objectContaining({ code: 'device_profile_missing', field: 'treatmentDeviceId', blocksSave: false }),
    ]);
  });

  it('follows a clinic’s stricter limits', () => {
    const strict = { ...DEFAULT_CLINICAL_LIMITS, micropulseDutyCyclePercent: 10 };
    expect(laserRefusals(draft({ dutyCyclePercent: 12 }), YELLOW, strict).map((refusal) => refusal.code)).toEqual(['duty_cycle_out_of_range']);
  });
});
