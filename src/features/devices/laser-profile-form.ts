/*
 * The laser profile dialog's form (issue 26, docs/clinical-limits.md "The laser profile of a device"): every
 * figure is held as the text typed in the UI language's format and read by src/lib/locale-number.ts when the
 * form is checked (laser-profile-schema.ts), so "0,1" in German is 0.1 and never another number. A mode that is
 * switched off keeps what was typed in it (switching it on again brings it back) but is not sent.
 */
import type { Device } from '@generated/model/device';
import { PROFILE_BOUNDS, type LaserModeName, type LaserProfile, type Range } from '@/domain/planning/clinical-limits';
import { formatNumberText } from '@/lib/locale-number';

/** A figure of the profile: its bounds (PROFILE_BOUNDS) and the decimals its field takes. */
export interface Quantity {
  bounds: Range;
  digits: number;
}

/*
 * Decimals per figure: as fine as the bounds go (0.1 mW, 0.01 ms) and as makers state them; wavelengths and spot
 * sizes are whole numbers. More decimals are refused with the reason, never rounded away.
 */
export const QUANTITIES = {
  wavelengthNm: { bounds: PROFILE_BOUNDS.wavelengthNm, digits: 0 },
  spotSizeUm: { bounds: PROFILE_BOUNDS.spotSizeUm, digits: 0 },
  powerMw: { bounds: PROFILE_BOUNDS.powerMw, digits: 1 },
  pulseMs: { bounds: PROFILE_BOUNDS.pulseMs, digits: 2 },
  dutyCyclePercent: { bounds: PROFILE_BOUNDS.dutyCyclePercent, digits: 1 },
  minSpacing: { bounds: PROFILE_BOUNDS.minSpacing, digits: 1 },
} as const satisfies Record<string, Quantity>;

export type QuantityName = keyof typeof QUANTITIES;

export interface RangeText {
  min: string;
  max: string;
}

export interface LaserProfileFormInput {
  wavelengthNm: string;
  spotSizeUm: RangeText;
  modes: {
    continuous: { enabled: boolean; powerMw: RangeText; pulseMs: RangeText; minSpacing: string };
    micropulse: { enabled: boolean; powerMw: RangeText; pulseMs: RangeText; dutyCyclePercent: RangeText };
  };
}

/** The modes in the order the table and the dialog name them. */
export const MODE_NAMES: readonly LaserModeName[] = ['continuous', 'micropulse'];

/** The modes a profile offers, in MODE_NAMES' order. */
export const modesOf = (profile: LaserProfile): LaserModeName[] => MODE_NAMES.filter((mode) => profile.modes[mode]);

/*
 * A stored figure is shown with all its decimals (up to 6), not rounded to what the field takes: a profile
 * entered through the API with 0.15 mW shows "0.15" and is refused on saving, rather than saved as 0.2 unseen.
 */
const SHOWN_DIGITS = 6;

const text = (value: number | undefined, language: string) => (value === undefined ? '' : formatNumberText(value, language, SHOWN_DIGITS));
const rangeText = (range: Range | undefined, language: string): RangeText => ({ min: text(range?.min, language), max: text(range?.max, language) });

/** What the dialog shows for a device's profile; an empty form, both modes off, when it has none. */
export function laserProfileFormValues(profile: Device['laserProfile'], language: string): LaserProfileFormInput {
  const continuous = profile?.modes.continuous;
  const micropulse = profile?.modes.micropulse;
  return {
    wavelengthNm: text(profile?.wavelengthNm, language),
    spotSizeUm: rangeText(profile?.spotSizeUm, language),
    modes: {
      continuous: {
        enabled: !!continuous,
        powerMw: rangeText(continuous?.powerMw, language),
        pulseMs: rangeText(continuous?.pulseMs, language),
        minSpacing: text(continuous?.minSpacing, language),
      },
      micropulse: {
        enabled: !!micropulse,
        powerMw: rangeText(micropulse?.powerMw, language),
        pulseMs: rangeText(micropulse?.pulseMs, language),
        dutyCyclePercent: rangeText(micropulse?.dutyCyclePercent, language),
      },
    },
  };
}

/** The form's paths an error can be shown on: single figures, ranges (min > max), their ends, and "modes". */
export const LASER_PROFILE_ERROR_PATHS = [
  'wavelengthNm',
  'spotSizeUm',
  'spotSizeUm.min',
  'spotSizeUm.max',
  'modes',
  ...(['powerMw', 'pulseMs'] as const).flatMap((range) =>
    MODE_NAMES.flatMap((mode) => [`modes.${mode}.${range}`, `modes.${mode}.${range}.min`, `modes.${mode}.${range}.max`] as const),
  ),
  'modes.continuous.minSpacing',
  'modes.micropulse.dutyCyclePercent',
  'modes.micropulse.dutyCyclePercent.min',
  'modes.micropulse.dutyCyclePercent.max',
] as const;

export type LaserProfileErrorPath = (typeof LASER_PROFILE_ERROR_PATHS)[number];

/** The server names a field of the body (`laserProfile.modes.continuous.powerMw`); the form's path for it. */
export function formPathOfServerField(field: string): LaserProfileErrorPath | undefined {
  const path = field.replace(/^laserProfile\./, '');
  return (LASER_PROFILE_ERROR_PATHS as readonly string[]).includes(path) ? (path as LaserProfileErrorPath) : undefined;
}
