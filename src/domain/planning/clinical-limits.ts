// The clinical limits a plan keeps whatever is drawn, as data with their published sources
// (docs/clinical-limits.md is this table in prose). Each limit has a default (the protocol's figure) and a
// floor, the loosest value the product accepts: a clinic may make a limit stricter, never looser than its
// floor. The laser itself is described by the treating device's laser profile (wavelength, modes, ranges);
// the plan's settings must lie within both.

/** Published sources the limits rest on (full citations in docs/clinical-limits.md). */
export const SOURCES = {
  drcr2011: 'Diabetic Retinopathy Clinical Research Network, focal/grid laser protocol (Ophthalmology 2011;118:e5–e14, Table 5; Arch Ophthalmol 2007;125:469–480)',
  etdrs2: 'ETDRS Research Group, Report Number 2: techniques for scatter and local photocoagulation (Ophthalmology 1987;94:761–774)',
  kernt2012: 'Kernt M et al., navigated focal laser, 96 % of 5,423 spots within 100 µm of the plan (Clin Ophthalmol 2012;6:289)',
  jonas2015: 'Jonas RA et al., optic disc–fovea distance 4.76 ± 0.34 mm, range 3.76–6.53 mm (PLoS One 2015)',
  luttrull2012: 'Luttrull JK et al., subvisible 810 nm micropulse: no damage below 350 W/cm², damage from 590 W/cm² (Retina 2012;32:375–386)',
  lavinsky2016: 'Lavinsky D et al., Endpoint Management: titration to a barely visible burn = 100 % (IOVS 2016;57:2488)',
  paulus2016: 'Paulus YM, Blumenkranz MS, conventional continuous-wave photocoagulation 100–500 µm, 100–200 ms, 250–750 mW (AAO, Laser treatment of diabetic retinopathy)',
  leys2013: 'Leys C et al., outliers beyond 2.5 median absolute deviations (J Exp Soc Psychol 2013;49:764–766)',
} as const;

export type SourceId = keyof typeof SOURCES;

/** `atLeast`: the plan's value must be at least the limit (stricter = larger); `atMost`: at most (stricter = smaller). */
export type LimitKind = 'atLeast' | 'atMost';

export interface ClinicalLimit {
  kind: LimitKind;
  unit: 'µm' | 'diameters' | 'ms' | '%' | 'W/cm²' | 'factor' | 'MAD';
  /** The protocol's figure, used unless the clinic sets a stricter one. */
  default: number;
  /** The loosest value accepted (a clinic's setting never goes beyond it). */
  floor: number;
  /** The strictest value a clinic may set (keeps a setting from making every plan impossible). */
  strictest: number;
  sources: readonly SourceId[];
}

const limit = (kind: LimitKind, unit: ClinicalLimit['unit'], value: number, strictest: number, sources: readonly SourceId[], floor = value): ClinicalLimit => ({
  kind,
  unit,
  default: value,
  floor,
  strictest,
  sources,
});

/**
 * Every limit, by name. The defaults are the floors: the protocols' figures are the loosest a plan may be.
 * - fovealClearanceUm: no spot edge closer to the foveal centre (DRCR.net: no burns within 500 µm of the centre);
 * - discClearanceUm: no spot edge closer to the optic disc margin (ETDRS: grid not within 500 µm of the disc);
 * - aimingMarginUm: added to every no-go distance for where the laser lands (Navilas: 96 % within 100 µm);
 * - outerRadiusUm: the treated ring ends this far from the fovea (DRCR.net: 3000 µm superiorly, nasally, inferiorly);
 * - spacingDiameters: spots never overlap (centre to centre at least one diameter);
 * - continuousSpacingDiameters: continuous burns at least two burn widths apart (DRCR.net), unless the device's
 *   profile allows less (never below one);
 * - continuousPulseMs: continuous burns of 50–100 ms in the macula (DRCR.net);
 * - micropulseDutyCyclePercent: duty cycle at most 15 % (the higher of Luttrull's two regimens);
 * - micropulseIrradiance: average irradiance (power × duty cycle over the spot's area) below 350 W/cm² (Luttrull);
 * - continuousIrradiance: power over the spot's area at most 9,550 W/cm², 750 mW on a 100 µm spot, the top of
 *   conventional continuous photocoagulation (Paulus & Blumenkranz);
 * - maxPowerFactor: no spot above the titrated power (Endpoint Management: 100 % = the titration burn) unless the
 *   physician sets a higher bound explicitly;
 * - brightnessOutlierMad: spots further than this many median absolute deviations from the median brightness are
 *   left out of the median and capped at the titrated power (Leys et al.).
 */
export const CLINICAL_LIMITS = {
  fovealClearanceUm: limit('atLeast', 'µm', 500, 1000, ['drcr2011']),
  discClearanceUm: limit('atLeast', 'µm', 500, 1000, ['etdrs2']),
  aimingMarginUm: limit('atLeast', 'µm', 100, 300, ['kernt2012']),
  outerRadiusUm: limit('atMost', 'µm', 3000, 1500, ['drcr2011']),
  spacingDiameters: limit('atLeast', 'diameters', 1, 4, ['drcr2011']),
  continuousSpacingDiameters: limit('atLeast', 'diameters', 2, 4, ['drcr2011'], 1),
  continuousPulseMs: limit('atMost', 'ms', 100, 10, ['drcr2011']),
  micropulseDutyCyclePercent: limit('atMost', '%', 15, 5, ['luttrull2012']),
  micropulseIrradiance: limit('atMost', 'W/cm²', 350, 50, ['luttrull2012']),
  continuousIrradiance: limit('atMost', 'W/cm²', 9550, 500, ['paulus2016']),
  maxPowerFactor: limit('atMost', 'factor', 1, 1, ['lavinsky2016']),
  brightnessOutlierMad: limit('atMost', 'MAD', 2.5, 1.5, ['leys2013']),
} as const satisfies Record<string, ClinicalLimit>;

export type LimitName = keyof typeof CLINICAL_LIMITS;

/** The values a plan is checked against: the defaults, or a clinic's stricter settings. */
export type ClinicalLimits = Record<LimitName, number>;

export const DEFAULT_CLINICAL_LIMITS: ClinicalLimits = Object.fromEntries(
  Object.entries(CLINICAL_LIMITS).map(([name, entry]) => [name, entry.default]),
) as ClinicalLimits;

/** True when `value` is at least as strict as the limit's floor and no stricter than its strictest setting. */
export function allowedSetting(name: LimitName, value: number): boolean {
  const entry: ClinicalLimit = CLINICAL_LIMITS[name];
  if (!Number.isFinite(value)) return false;
  return entry.kind === 'atLeast' ? value >= entry.floor && value <= entry.strictest : value <= entry.floor && value >= entry.strictest;
}

/**
 * A clinic's limits: its settings over the defaults. A setting looser than the floor (or stricter than the
 * strictest) is refused by name, never applied.
 */
export function clinicLimits(settings: Partial<ClinicalLimits>): { limits: ClinicalLimits; refused: LimitName[] } {
  const limits = { ...DEFAULT_CLINICAL_LIMITS };
  const refused: LimitName[] = [];
  for (const [name, value] of Object.entries(settings) as [LimitName, number | undefined][]) {
    if (value === undefined || !(name in CLINICAL_LIMITS)) continue;
    if (allowedSetting(name, value)) limits[name] = value;
    else refused.push(name);
  }
  return { limits, refused };
}

/** The closest a spot's edge may come to the fovea: the clearance plus the aiming margin. */
export const fovealMinimumUm = (limits: ClinicalLimits) => limits.fovealClearanceUm + limits.aimingMarginUm;

/** The margin the ONH zone must keep around the optic disc's edge: the clearance plus the aiming margin. */
export const discMarginUm = (limits: ClinicalLimits) => limits.discClearanceUm + limits.aimingMarginUm;

// ---------------------------------------------------------------------------------------------------
// Anatomy (Jonas et al. 2015)

export const DISC_FOVEA = { meanUm: 4760, sdUm: 340, minUm: 3760, maxUm: 6530 } as const;

/** Relative uncertainty (one standard deviation) of a scale estimated from the disc–fovea distance: ±7.1 %. */
export const ESTIMATED_SCALE_UNCERTAINTY = DISC_FOVEA.sdUm / DISC_FOVEA.meanUm;

// ---------------------------------------------------------------------------------------------------
// The laser profile of a device

export type LaserModeName = 'continuous' | 'micropulse';

export interface Range {
  min: number;
  max: number;
}

export interface LaserModeProfile {
  /** Power the device can set, mW. */
  powerMw: Range;
  /** Pulse duration (micropulse: the envelope), ms. */
  pulseMs: Range;
}

export interface ContinuousModeProfile extends LaserModeProfile {
  /** The least spacing (spot diameters) the device's patterns allow, ≥ 1 (absent: the protocol's 2, DRCR.net). */
  minSpacing?: number;
}

export interface MicropulseModeProfile extends LaserModeProfile {
  /** The duty cycle the device can set, %. */
  dutyCyclePercent: Range;
}

export interface LaserProfile {
  /** Treatment wavelength, nm (e.g. 532, 577, 810). */
  wavelengthNm: number;
  /** Spot diameters on the retina the device delivers, µm. */
  spotSizeUm: Range;
  modes: { continuous?: ContinuousModeProfile; micropulse?: MicropulseModeProfile };
}

/** The bounds a profile's figures must keep (the NPT format's power range, sensible optics). */
export const PROFILE_BOUNDS = {
  wavelengthNm: { min: 400, max: 1100 },
  spotSizeUm: { min: 25, max: 1000 },
  powerMw: { min: 0.1, max: 3000 },
  pulseMs: { min: 0.01, max: 5000 },
  dutyCyclePercent: { min: 1, max: 100 },
  minSpacing: { min: 1, max: 4 },
} as const;

const within = (range: Range, value: number) => Number.isFinite(value) && value >= range.min && value <= range.max;
const validRange = (range: Range | undefined, bounds: Range) => !!range && within(bounds, range.min) && within(bounds, range.max) && range.min <= range.max;

/** The fields of a profile that are wrong (dotted paths), none for a usable profile. */
export function laserProfileProblems(profile: LaserProfile): string[] {
  const problems: string[] = [];
  if (!within(PROFILE_BOUNDS.wavelengthNm, profile.wavelengthNm)) problems.push('wavelengthNm');
  if (!validRange(profile.spotSizeUm, PROFILE_BOUNDS.spotSizeUm)) problems.push('spotSizeUm');
  const { continuous, micropulse } = profile.modes ?? {};
  if (!continuous && !micropulse) problems.push('modes');
  for (const [name, mode] of [
    ['continuous', continuous],
    ['micropulse', micropulse],
  ] as const) {
    if (!mode) continue;
    if (!validRange(mode.powerMw, PROFILE_BOUNDS.powerMw)) problems.push(`modes.${name}.powerMw`);
    if (!validRange(mode.pulseMs, PROFILE_BOUNDS.pulseMs)) problems.push(`modes.${name}.pulseMs`);
  }
  if (micropulse && !validRange(micropulse.dutyCyclePercent, PROFILE_BOUNDS.dutyCyclePercent)) problems.push('modes.micropulse.dutyCyclePercent');
  if (continuous?.minSpacing !== undefined && !within(PROFILE_BOUNDS.minSpacing, continuous.minSpacing)) problems.push('modes.continuous.minSpacing');
  return problems;
}

// ---------------------------------------------------------------------------------------------------
// Dose

/** Spot area on the retina, cm², of a spot of `spotSizeUm` diameter. */
export const spotAreaCm2 = (spotSizeUm: number) => Math.PI * (spotSizeUm / 2 / 1e4) ** 2;

/**
 * Irradiance of a spot, W/cm²: power over the spot's area, in micropulse averaged over the duty cycle (the
 * figure Luttrull's thresholds are stated in).
 */
export function irradianceWPerCm2(powerMw: number, spotSizeUm: number, dutyCyclePercent: number | null): number {
  const duty = dutyCyclePercent === null ? 1 : dutyCyclePercent / 100;
  return ((powerMw / 1000) * duty) / spotAreaCm2(spotSizeUm);
}

/** The irradiance ceiling of a mode. */
export const irradianceCeiling = (limits: ClinicalLimits, mode: LaserModeName) => (mode === 'micropulse' ? limits.micropulseIrradiance : limits.continuousIrradiance);

/** The least spacing (diameters) a plan in `mode` may have on a device with `profile`. */
export function minimumSpacing(limits: ClinicalLimits, mode: LaserModeName | null, profile: LaserProfile | null): number {
  if (mode !== 'continuous') return limits.spacingDiameters;
  const clinic = limits.continuousSpacingDiameters;
  const device = profile?.modes.continuous?.minSpacing;
  // The device may allow less than the protocol's two widths, unless the clinic made the protocol stricter;
  // never overlapping spots.
  const allowed = clinic > CLINICAL_LIMITS.continuousSpacingDiameters.default || device === undefined ? clinic : device;
  return Math.max(limits.spacingDiameters, CLINICAL_LIMITS.continuousSpacingDiameters.floor, allowed);
}
