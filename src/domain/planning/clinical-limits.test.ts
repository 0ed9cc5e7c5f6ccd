// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  allowedSetting,
  CLINICAL_LIMITS,
  clinicLimits,
  DEFAULT_CLINICAL_LIMITS,
  discMarginUm,
  DISC_FOVEA,
  ESTIMATED_SCALE_UNCERTAINTY,
  fovealMinimumUm,
  irradianceCeiling,
  irradianceWPerCm2,
  laserProfileProblems,
  minimumSpacing,
  SOURCES,
  spotAreaCm2,
  type ClinicalLimit,
  type LaserProfile,
  type LimitName,
} from './clinical-limits';

const LIMITS = Object.entries(CLINICAL_LIMITS) as [LimitName, ClinicalLimit][];

/** A 577 nm device offering both modes. */
const PROFILE: LaserProfile = {
  wavelengthNm: 577,
  spotSizeUm: { min: 50, max: 500 },
  modes: {
    continuous: { powerMw: { min: 50, max: 2000 }, pulseMs: { min: 10, max: 1000 } },
    micropulse: { powerMw: { min: 50, max: 2000 }, pulseMs: { min: 5, max: 500 }, dutyCyclePercent: { min: 2, max: 50 } },
  },
};

describe('the limits table', () => {
  it.each(LIMITS)('%s rests on at least one published source', (_, entry) => {
    expect(entry.sources.length).toBeGreaterThanOrEqual(1);
    for (const source of entry.sources) expect(Object.keys(SOURCES)).toContain(source);
  });

  it.each(LIMITS)('%s has its default between its strictest setting and its floor, in the direction of its kind', (_, entry) => {
    for (const value of [entry.default, entry.floor, entry.strictest]) expect(Number.isFinite(value)).toBe(true);
    if (entry.kind === 'atLeast') {
      expect(entry.floor).toBeLessThanOrEqual(entry.default);
      expect(entry.default).toBeLessThanOrEqual(entry.strictest);
    } else {
      expect(entry.strictest).toBeLessThanOrEqual(entry.default);
      expect(entry.default).toBeLessThanOrEqual(entry.floor);
    }
    expect(allowedSetting(LIMITS.find(([, candidate]) => candidate === entry)![0], entry.default)).toBe(true);
  });

  it('holds the protocols\' figures as defaults', () => {
    expect(DEFAULT_CLINICAL_LIMITS).toEqual({
      fovealClearanceUm: 500,
      discClearanceUm: 500,
      aimingMarginUm: 100,
      outerRadiusUm: 3000,
      spacingDiameters: 1,
      continuousSpacingDiameters: 2,
      continuousPulseMs: 100,
      micropulseDutyCyclePercent: 15,
      micropulseIrradiance: 350,
      continuousIrradiance: 9550,
      maxPowerFactor: 1,
      brightnessOutlierMad: 2.5,
    });
    // Only the continuous spacing may be loosened by a device (to one width, never overlapping); every other
    // default is its floor.
    for (const [name, entry] of LIMITS) if (name !== 'continuousSpacingDiameters') expect(entry.floor, name).toBe(entry.default);
    expect(CLINICAL_LIMITS.continuousSpacingDiameters.floor).toBe(1);
  });

  it('adds the aiming margin to both no-go distances: 600 µm from the fovea, 600 µm around the disc', () => {
    expect(fovealMinimumUm(DEFAULT_CLINICAL_LIMITS)).toBe(600);
    expect(discMarginUm(DEFAULT_CLINICAL_LIMITS)).toBe(600);
    expect(fovealMinimumUm({ ...DEFAULT_CLINICAL_LIMITS, fovealClearanceUm: 750, aimingMarginUm: 150 })).toBe(900);
    expect(discMarginUm({ ...DEFAULT_CLINICAL_LIMITS, discClearanceUm: 800, aimingMarginUm: 200 })).toBe(1000);
  });

  it('takes the disc–fovea anatomy from Jonas 2015: 4.76 ± 0.34 mm, 3.76–6.53 mm', () => {
    expect(DISC_FOVEA).toEqual({ meanUm: 4760, sdUm: 340, minUm: 3760, maxUm: 6530 });
    expect(ESTIMATED_SCALE_UNCERTAINTY).toBeCloseTo(0.0714, 4);
  });
});

describe('a clinic\'s settings', () => {
  it('are allowed from the floor to the strictest value, nothing beyond either and nothing but a finite number', () => {
    for (const [name, entry] of LIMITS) {
      const looser = entry.kind === 'atLeast' ? -1 : 1;
      expect(allowedSetting(name, entry.floor), name).toBe(true);
      expect(allowedSetting(name, entry.strictest), name).toBe(true);
      expect(allowedSetting(name, entry.floor + looser * 0.01), name).toBe(false);
      expect(allowedSetting(name, entry.strictest - looser * 0.01), name).toBe(false);
      for (const value of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) expect(allowedSetting(name, value), name).toBe(false);
    }
  });

  it('apply when stricter and leave the rest at the defaults', () => {
    const { limits, refused } = clinicLimits({ fovealClearanceUm: 700, outerRadiusUm: 2500, micropulseDutyCyclePercent: 10, maxPowerFactor: 1 });
    expect(refused).toEqual([]);
    expect(limits).toEqual({ ...DEFAULT_CLINICAL_LIMITS, fovealClearanceUm: 700, outerRadiusUm: 2500, micropulseDutyCyclePercent: 10 });
    expect(fovealMinimumUm(limits)).toBe(800);
  });

  it('are refused by name when looser than the floor (or stricter than the strictest), never applied', () => {
    const { limits, refused } = clinicLimits({
      fovealClearanceUm: 400,
      outerRadiusUm: 3500,
      continuousIrradiance: 12_000,
      maxPowerFactor: 1.2,
      aimingMarginUm: 150,
      micropulseDutyCyclePercent: 2,
      continuousPulseMs: Number.NaN,
    });
    expect(refused.sort()).toEqual(['continuousIrradiance', 'continuousPulseMs', 'fovealClearanceUm', 'maxPowerFactor', 'micropulseDutyCyclePercent', 'outerRadiusUm']);
    expect(limits).toEqual({ ...DEFAULT_CLINICAL_LIMITS, aimingMarginUm: 150 });
  });

  it('ignore names that are not limits and values left out', () => {
    const settings = { fovealClearanceUm: undefined, perimeter: 1 } as unknown as Parameters<typeof clinicLimits>[0];
    expect(clinicLimits(settings)).toEqual({ limits: DEFAULT_CLINICAL_LIMITS, refused: [] });
    // The defaults are never changed by a clinic's settings.
    clinicLimits({ outerRadiusUm: 2000 });
    expect(DEFAULT_CLINICAL_LIMITS.outerRadiusUm).toBe(3000);
  });
});

describe('laserProfileProblems', () => {
  it('finds none in a usable profile, one mode or two', () => {
    expect(laserProfileProblems(PROFILE)).toEqual([]);
    expect(laserProfileProblems({ ...PROFILE, modes: { micropulse: PROFILE.modes.micropulse } })).toEqual([]);
    expect(laserProfileProblems({ ...PROFILE, modes: { continuous: { ...PROFILE.modes.continuous!, minSpacing: 1 } } })).toEqual([]);
  });

  it('names each wrong field by its path', () => {
    expect(laserProfileProblems({ ...PROFILE, wavelengthNm: 300 })).toEqual(['wavelengthNm']);
    expect(laserProfileProblems({ ...PROFILE, wavelengthNm: Number.NaN })).toEqual(['wavelengthNm']);
    expect(laserProfileProblems({ ...PROFILE, spotSizeUm: { min: 500, max: 50 } })).toEqual(['spotSizeUm']);
    expect(laserProfileProblems({ ...PROFILE, spotSizeUm: { min: 10, max: 500 } })).toEqual(['spotSizeUm']);
    expect(laserProfileProblems({ ...PROFILE, modes: {} })).toEqual(['modes']);
    expect(laserProfileProblems({ ...PROFILE, modes: undefined } as unknown as LaserProfile)).toEqual(['modes']);
    const continuous = PROFILE.modes.continuous!;
    const micropulse = PROFILE.modes.micropulse!;
    expect(
      laserProfileProblems({
        ...PROFILE,
        modes: {
          continuous: { ...continuous, powerMw: { min: 50, max: 3500 }, minSpacing: 0.5 },
          micropulse: { ...micropulse, pulseMs: { min: 0, max: 500 }, dutyCyclePercent: { min: 5, max: 120 } },
        },
      }),
    ).toEqual(['modes.continuous.powerMw', 'modes.micropulse.pulseMs', 'modes.micropulse.dutyCyclePercent', 'modes.continuous.minSpacing']);
    const withoutDuty = { ...micropulse, dutyCyclePercent: undefined } as unknown as NonNullable<LaserProfile['modes']['micropulse']>;
    expect(laserProfileProblems({ ...PROFILE, modes: { micropulse: withoutDuty } })).toEqual(['modes.micropulse.dutyCyclePercent']);
  });
});

describe('irradiance', () => {
  it('is power over the spot\'s area, in micropulse averaged over the duty cycle', () => {
    expect(spotAreaCm2(100)).toBeCloseTo(7.853982e-5, 10);
    // 90 mW × 5 % on 100 µm: 0.0045 W / 7.854e-5 cm².
    expect(irradianceWPerCm2(90, 100, 5)).toBeCloseTo(57.3, 1);
    // 757.5 mW continuous on 50 µm.
    expect(irradianceWPerCm2(757.5, 50, null)).toBeCloseTo(38_579.6, 0);
    // The continuous ceiling is 750 mW on a 100 µm spot.
    expect(irradianceWPerCm2(750, 100, null)).toBeCloseTo(9549.3, 1);
    expect(irradianceWPerCm2(750, 100, null)).toBeLessThanOrEqual(DEFAULT_CLINICAL_LIMITS.continuousIrradiance);
    expect(irradianceWPerCm2(751, 100, null)).toBeGreaterThan(DEFAULT_CLINICAL_LIMITS.continuousIrradiance);
    // Luttrull's damage-free 350 W/cm²: e.g. 1100 mW × 5 % on 200 µm ≈ 175, 1100 mW × 15 % on 200 µm ≈ 525.
    expect(irradianceWPerCm2(1100, 200, 5)).toBeCloseTo(175.1, 1);
    expect(irradianceWPerCm2(1100, 200, 15)).toBeCloseTo(525.2, 1);
    expect(irradianceWPerCm2(100, 100, 100)).toBe(irradianceWPerCm2(100, 100, null));
  });

  it('has its ceiling by mode', () => {
    expect(irradianceCeiling(DEFAULT_CLINICAL_LIMITS, 'micropulse')).toBe(350);
    expect(irradianceCeiling(DEFAULT_CLINICAL_LIMITS, 'continuous')).toBe(9550);
    expect(irradianceCeiling({ ...DEFAULT_CLINICAL_LIMITS, micropulseIrradiance: 200 }, 'micropulse')).toBe(200);
  });
});

describe('minimumSpacing', () => {
  const device = (minSpacing?: number): LaserProfile => ({ ...PROFILE, modes: { ...PROFILE.modes, continuous: { ...PROFILE.modes.continuous!, minSpacing } } });

  it('keeps spots from overlapping in micropulse (and before a mode is set)', () => {
    expect(minimumSpacing(DEFAULT_CLINICAL_LIMITS, 'micropulse', PROFILE)).toBe(1);
    expect(minimumSpacing(DEFAULT_CLINICAL_LIMITS, null, null)).toBe(1);
    expect(minimumSpacing({ ...DEFAULT_CLINICAL_LIMITS, spacingDiameters: 1.5 }, 'micropulse', PROFILE)).toBe(1.5);
  });

  it('keeps continuous burns two widths apart by default, with or without a device', () => {
    expect(minimumSpacing(DEFAULT_CLINICAL_LIMITS, 'continuous', PROFILE)).toBe(2);
    expect(minimumSpacing(DEFAULT_CLINICAL_LIMITS, 'continuous', null)).toBe(2);
  });

  it('allows what the device\'s patterns allow, never below one width', () => {
    expect(minimumSpacing(DEFAULT_CLINICAL_LIMITS, 'continuous', device(1))).toBe(1);
    expect(minimumSpacing(DEFAULT_CLINICAL_LIMITS, 'continuous', device(1.5))).toBe(1.5);
    expect(minimumSpacing(DEFAULT_CLINICAL_LIMITS, 'continuous', device(0.5))).toBe(1);
  });

  it('lets a stricter clinic win over the device', () => {
    const { limits } = clinicLimits({ continuousSpacingDiameters: 3 });
    expect(minimumSpacing(limits, 'continuous', device(1))).toBe(3);
    expect(minimumSpacing(limits, 'continuous', null)).toBe(3);
    expect(minimumSpacing({ ...DEFAULT_CLINICAL_LIMITS, spacingDiameters: 2.5 }, 'continuous', device(1))).toBe(2.5);
  });
});
