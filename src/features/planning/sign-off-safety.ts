// The final adjustments checked in the browser before they are saved, as the server checks them
// (src/domain/planning/plan-invariants.ts `checkLaser`, `checkGridSettings`, `checkPowers`; docs/clinical-limits.md):
// the treating device's laser profile and the clinic's limits give the ranges the fields offer, and a draft
// the server would refuse is refused here first, with the same figures.
import { DEFAULT_POWER_LIMITS, withinPowerLimits } from '@/domain/planning/brightness';
import {
  irradianceCeiling,
  irradianceWPerCm2,
  minimumSpacing,
  type ClinicalLimits,
  type LaserModeName,
  type LaserProfile,
  type Range,
} from '@/domain/planning/clinical-limits';

/** The laser settings as drafted in the step, with the plan's grid and the powers its spots would get. */
export interface LaserDraft {
  mode: LaserModeName | null;
  pulseMs: number | null;
  dutyCyclePercent: number | null;
  spotSizeUm: number;
  spacing: number;
  /** Power of every treated spot, mW. */
  powersMw: readonly number[];
}

/** What the fields may offer for a mode on a device: the profile's ranges within the clinical limits. */
export interface LaserRanges {
  modes: LaserModeName[];
  powerMw: Range;
  pulseMs: Range | null;
  /** Micropulse only. */
  dutyCyclePercent: Range | null;
}

/** The field of the final adjustments a refusal belongs on (the server's field errors use the same names). */
export type AdjustmentField = 'treatmentDeviceId' | 'laserMode' | 'pulseDurationMs' | 'dutyCyclePercent' | 'laserDose' | 'spacing';

export type LaserRefusal = { field: AdjustmentField; blocksSave: boolean } & (
  | { code: 'device_profile_missing' }
  | { code: 'mode_not_offered' }
  | { code: 'spot_size_not_offered'; spotSizeUm: number; min: number; max: number }
  | { code: 'pulse_out_of_range'; pulseMs: number; min: number; max: number }
  | { code: 'duty_cycle_missing'; min: number; max: number }
  | { code: 'duty_cycle_out_of_range'; dutyCyclePercent: number; min: number; max: number }
  | { code: 'spacing_too_small'; spacing: number; minimum: number }
  | { code: 'power_out_of_limits'; count: number; min: number; max: number }
  | { code: 'irradiance_too_high'; count: number; highest: number; ceiling: number }
);

const MODES: readonly LaserModeName[] = ['micropulse', 'continuous'];

export function laserRanges(profile: LaserProfile | null, limits: ClinicalLimits, mode: LaserModeName | null): LaserRanges {
  const modes = profile ? MODES.filter((name) => profile.modes[name]) : [...MODES];
  const modeProfile = mode ? profile?.modes[mode] : undefined;
  if (!modeProfile) return { modes, powerMw: { min: DEFAULT_POWER_LIMITS.minMw, max: DEFAULT_POWER_LIMITS.maxMw }, pulseMs: null, dutyCyclePercent: null };
  const pulseMax = mode === 'continuous' ? Math.min(modeProfile.pulseMs.max, limits.continuousPulseMs) : modeProfile.pulseMs.max;
  const duty = mode === 'micropulse' ? profile!.modes.micropulse!.dutyCyclePercent : null;
  return {
    modes,
    powerMw: modeProfile.powerMw,
    pulseMs: { min: modeProfile.pulseMs.min, max: pulseMax },
    dutyCyclePercent: duty && { min: duty.min, max: Math.min(duty.max, limits.micropulseDutyCyclePercent) },
  };
}

const outside = (range: Range, value: number) => value < range.min || value > range.max;

/**
 * What the server would refuse of the draft, most serious first. `blocksSave`: refused when the adjustments are
 * saved (422/409); the others (no profile, micropulse without a duty cycle) only block the sign-off.
 */
export function laserRefusals(draft: LaserDraft, profile: LaserProfile | null, limits: ClinicalLimits): LaserRefusal[] {
  const refusals: LaserRefusal[] = [];
  const { mode } = draft;
  const minimum = minimumSpacing(limits, mode, profile);
  if (draft.spacing < minimum - 1e-9) refusals.push({ code: 'spacing_too_small', field: 'spacing', blocksSave: true, spacing: draft.spacing, minimum });
  if (!profile) {
    refusals.push({ code: 'device_profile_missing', field: 'treatmentDeviceId', blocksSave: false });
    return withPowers(refusals, draft, DEFAULT_POWER_LIMITS.minMw, DEFAULT_POWER_LIMITS.maxMw, null);
  }
  if (mode === null) return refusals;
  const ranges = laserRanges(profile, limits, mode);
  if (!ranges.pulseMs) {
    refusals.push({ code: 'mode_not_offered', field: 'laserMode', blocksSave: true });
    return refusals;
  }
  if (outside(profile.spotSizeUm, draft.spotSizeUm)) {
    refusals.push({ code: 'spot_size_not_offered', field: 'laserMode', blocksSave: true, spotSizeUm: draft.spotSizeUm, ...profile.spotSizeUm });
  }
  if (draft.pulseMs !== null && outside(ranges.pulseMs, draft.pulseMs)) {
    refusals.push({ code: 'pulse_out_of_range', field: 'pulseDurationMs', blocksSave: true, pulseMs: draft.pulseMs, ...ranges.pulseMs });
  }
  if (ranges.dutyCyclePercent) {
    if (draft.dutyCyclePercent === null) refusals.push({ code: 'duty_cycle_missing', field: 'dutyCyclePercent', blocksSave: false, ...ranges.dutyCyclePercent });
    else if (outside(ranges.dutyCyclePercent, draft.dutyCyclePercent)) {
      refusals.push({ code: 'duty_cycle_out_of_range', field: 'dutyCyclePercent', blocksSave: true, dutyCyclePercent: draft.dutyCyclePercent, ...ranges.dutyCyclePercent });
    }
  }
  // The irradiance once it is known (micropulse: with its duty cycle), as the server computes it.
  const duty = mode === 'micropulse' ? draft.dutyCyclePercent : null;
  const irradiance = mode === 'micropulse' && duty === null ? null : { ceiling: irradianceCeiling(limits, mode), duty };
  return withPowers(refusals, draft, ranges.powerMw.min, ranges.powerMw.max, irradiance);
}

function withPowers(
  refusals: LaserRefusal[],
  draft: LaserDraft,
  min: number,
  max: number,
  irradiance: { ceiling: number; duty: number | null } | null,
): LaserRefusal[] {
  let outOfLimits = 0;
  let above = 0;
  let highest = 0;
  for (const power of draft.powersMw) {
    if (!withinPowerLimits({ minMw: min, maxMw: max }, power)) outOfLimits++;
    if (!irradiance) continue;
    const value = irradianceWPerCm2(power, draft.spotSizeUm, irradiance.duty);
    if (value > irradiance.ceiling) {
      above++;
      highest = Math.max(highest, value);
    }
  }
  if (outOfLimits) refusals.push({ code: 'power_out_of_limits', field: 'laserDose', blocksSave: true, count: outOfLimits, min, max });
  if (above && irradiance) refusals.push({ code: 'irradiance_too_high', field: 'laserDose', blocksSave: true, count: above, highest, ceiling: irradiance.ceiling });
  return refusals;
}
