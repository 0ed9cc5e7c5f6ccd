import { describe, expect, it } from 'vitest';
import {
  updateDeviceLaserProfileBodyLaserProfileModesContinuousMinSpacingMax,
  updateDeviceLaserProfileBodyLaserProfileWavelengthNmMax,
  updateDeviceLaserProfileBodyLaserProfileWavelengthNmMin,
} from '@generated/zod/clinic/clinic.zod';
import { laserProfileProblems, PROFILE_BOUNDS, type LaserProfile } from '@/domain/planning/clinical-limits';
import { formPathOfServerField, LASER_PROFILE_ERROR_PATHS, laserProfileFormValues, modesOf, type LaserProfileFormInput } from './laser-profile-form';
import { LASER_PROFILE_PARSE_OPTIONS, laserProfileSchema } from './laser-profile-schema';

// The demo seed's 577 nm laser (server/seed/laser-profiles.ts), with a fractional power and a spacing.
const YELLOW: LaserProfile = {
  wavelengthNm: 577,
  spotSizeUm: { min: 50, max: 500 },
  modes: {
    continuous: { powerMw: { min: 0.1, max: 1500 }, pulseMs: { min: 10, max: 200 }, minSpacing: 1.5 },
    micropulse: { powerMw: { min: 50, max: 1500 }, pulseMs: { min: 0.05, max: 300 }, dutyCyclePercent: { min: 5, max: 15 } },
  },
};

const GREEN_FORM_DE: LaserProfileFormInput = {
  wavelengthNm: '532',
  spotSizeUm: { min: '50', max: '500' },
  modes: {
    continuous: { enabled: true, powerMw: { min: '0,1', max: '1500' }, pulseMs: { min: '10', max: '200' }, minSpacing: '' },
    // Switched off, with something left typed in it: neither read nor sent.
    micropulse: { enabled: false, powerMw: { min: 'abc', max: '' }, pulseMs: { min: '', max: '' }, dutyCyclePercent: { min: '9', max: '1' } },
  },
};

/** The form's texts read in `language`: the profile, or the messages by path. */
function read(form: LaserProfileFormInput, language: string) {
  const result = laserProfileSchema(language).safeParse(form, LASER_PROFILE_PARSE_OPTIONS);
  if (result.success) return { profile: result.data };
  return { errors: Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), issue.message])) };
}

/** GREEN_FORM_DE with `change` applied to a copy. */
function changed(change: (form: LaserProfileFormInput) => void): LaserProfileFormInput {
  const form = structuredClone(GREEN_FORM_DE);
  change(form);
  return form;
}

describe('laserProfileSchema', () => {
  it('reads German figures with a decimal comma: "0,1" mW is 0.1', () => {
    expect(read(GREEN_FORM_DE, 'de')).toEqual({
      profile: {
        wavelengthNm: 532,
        spotSizeUm: { min: 50, max: 500 },
        modes: { continuous: { powerMw: { min: 0.1, max: 1500 }, pulseMs: { min: 10, max: 200 } } },
      },
    });
  });

  it('refuses the other language’s decimal mark instead of guessing: "0.1" in German, "0,1" in English', () => {
    expect(read(changed((form) => (form.modes.continuous.powerMw.min = '0.1')), 'de').errors).toEqual({
      'modes.continuous.powerMw.min': 'wrong_separator',
    });
    expect(read(GREEN_FORM_DE, 'en').errors).toEqual({ 'modes.continuous.powerMw.min': 'wrong_separator' });
    expect(read(changed((form) => (form.modes.continuous.powerMw.min = '0.1')), 'en').profile?.modes.continuous?.powerMw.min).toBe(0.1);
  });

  it('refuses more decimals than a figure takes rather than rounding them away', () => {
    expect(read(changed((form) => (form.wavelengthNm = '577,5')), 'de').errors).toEqual({ wavelengthNm: 'too_many_decimals' });
    expect(read(changed((form) => (form.modes.continuous.powerMw.min = '0,15')), 'de').errors).toEqual({
      'modes.continuous.powerMw.min': 'too_many_decimals',
    });
    expect(read(changed((form) => (form.modes.continuous.pulseMs.min = '0,05')), 'de').profile?.modes.continuous?.pulseMs.min).toBe(0.05);
  });

  it('names an empty, a non-numeric and an out-of-bounds figure on its field', () => {
    const form = changed((form) => {
      form.wavelengthNm = '';
      form.spotSizeUm.max = '5 µm';
      form.modes.continuous.powerMw.max = '3001';
      form.modes.continuous.minSpacing = '0,5';
    });
    expect(read(form, 'de').errors).toEqual({
      wavelengthNm: 'empty',
      'spotSizeUm.max': 'not_a_number',
      'modes.continuous.powerMw.max': 'out_of_bounds',
      'modes.continuous.minSpacing': 'out_of_bounds',
    });
  });

  it('refuses a reversed range on the range, and only once both ends are numbers', () => {
    expect(read(changed((form) => (form.spotSizeUm = { min: '600', max: '500' })), 'de').errors).toEqual({ spotSizeUm: 'reversed' });
    expect(read(changed((form) => (form.spotSizeUm = { min: '600', max: 'x' })), 'de').errors).toEqual({ 'spotSizeUm.max': 'not_a_number' });
    // Equal ends are a range of one value.
    expect(read(changed((form) => (form.modes.continuous.pulseMs = { min: '100', max: '100' })), 'de').profile).toBeDefined();
  });

  it('asks for at least one mode', () => {
    expect(read(changed((form) => (form.modes.continuous.enabled = false)), 'de').errors).toEqual({ modes: 'no_mode' });
  });

  it('reads a micropulse mode with its duty cycle, and the continuous spacing when one is typed', () => {
    const form = changed((form) => {
      form.modes.continuous.minSpacing = '1,5';
      form.modes.micropulse = { enabled: true, powerMw: { min: '50', max: '1500' }, pulseMs: { min: '0,05', max: '300' }, dutyCyclePercent: { min: '5', max: '15' } };
      form.wavelengthNm = '577';
    });
    expect(read(form, 'de').profile).toEqual(YELLOW);
  });

  it('gives only profiles the domain (and so the server) accepts', () => {
    const { profile } = read(GREEN_FORM_DE, 'de');
    expect(profile && laserProfileProblems(profile)).toEqual([]);
  });
});

describe('laserProfileFormValues', () => {
  it.each(['en', 'de'])('shows a stored profile so that it reads back unchanged (%s)', (language) => {
    const form = laserProfileFormValues(YELLOW, language);
    expect(form.modes.continuous.powerMw.min).toBe(language === 'de' ? '0,1' : '0.1');
    expect(read(form, language).profile).toEqual(YELLOW);
  });

  it('shows a figure with more decimals than its field takes as it is, so saving refuses it instead of rounding', () => {
    const stored: LaserProfile = { ...YELLOW, modes: { continuous: { powerMw: { min: 0.15, max: 1500 }, pulseMs: { min: 10, max: 200 } } } };
    const form = laserProfileFormValues(stored, 'de');
    expect(form.modes.continuous.powerMw.min).toBe('0,15');
    expect(read(form, 'de').errors).toEqual({ 'modes.continuous.powerMw.min': 'too_many_decimals' });
  });

  it('is an empty form with both modes off for a device without a profile', () => {
    const form = laserProfileFormValues(null, 'de');
    expect(form.wavelengthNm).toBe('');
    expect(form.modes.continuous.enabled).toBe(false);
    expect(form.modes.micropulse.enabled).toBe(false);
    expect(read(form, 'de').errors).toEqual({ wavelengthNm: 'empty', 'spotSizeUm.min': 'empty', 'spotSizeUm.max': 'empty', modes: 'no_mode' });
  });
});

describe('the profile in the table and the server’s field names', () => {
  it('lists the modes a profile offers, continuous first', () => {
    expect(modesOf(YELLOW)).toEqual(['continuous', 'micropulse']);
    expect(modesOf({ ...YELLOW, modes: { micropulse: YELLOW.modes.micropulse } })).toEqual(['micropulse']);
  });

  it('places every field the server names (laserProfileProblems’ paths) on the form', () => {
    expect(formPathOfServerField('laserProfile.modes.continuous.powerMw')).toBe('modes.continuous.powerMw');
    expect(formPathOfServerField('laserProfile.spotSizeUm.min')).toBe('spotSizeUm.min');
    expect(formPathOfServerField('laserProfile.modes')).toBe('modes');
    expect(formPathOfServerField('laserProfile.modes.continuous.enabled')).toBeUndefined();
    expect(formPathOfServerField('deviceId')).toBeUndefined();
    const broken: LaserProfile = {
      wavelengthNm: 1,
      spotSizeUm: { min: 2, max: 1 },
      modes: {
        continuous: { powerMw: { min: 2, max: 1 }, pulseMs: { min: 2, max: 1 }, minSpacing: 9 },
        micropulse: { powerMw: { min: 2, max: 1 }, pulseMs: { min: 2, max: 1 }, dutyCyclePercent: { min: 2, max: 1 } },
      },
    };
    const paths = [...laserProfileProblems(broken), ...laserProfileProblems({ ...broken, modes: {} })];
    expect(paths.length).toBeGreaterThan(8);
    for (const path of paths) expect(LASER_PROFILE_ERROR_PATHS, path).toContain(formPathOfServerField(`laserProfile.${path}`));
  });

  it('keeps the bounds the contract states', () => {
    expect(PROFILE_BOUNDS.wavelengthNm).toEqual({ min: updateDeviceLaserProfileBodyLaserProfileWavelengthNmMin, max: updateDeviceLaserProfileBodyLaserProfileWavelengthNmMax });
    expect(PROFILE_BOUNDS.minSpacing.max).toBe(updateDeviceLaserProfileBodyLaserProfileModesContinuousMinSpacingMax);
  });
});
