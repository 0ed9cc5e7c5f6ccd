// The manifest.json of an NPT file: what the laser system exports (kind "exam") and what we hand back to
// it (kind "parameter-set"). docs/npt-format.md is the definitive description; the types follow it field
// by field. Lengths of strings count Unicode code points; pixel positions are in the fundus image
// (origin top-left, y down); µm positions are on the retina relative to the fovea (x right, y up).

export const NPT_FORMAT = 'macula-npt';
export const NPT_VERSION = '1.1';
/** The major version this codec reads; any minor version of it is accepted. */
export const NPT_MAJOR_VERSION = 1;
/** The newest minor version this codec knows every field of (see "Compatibility" in the format document). */
export const NPT_MINOR_VERSION = 1;

export const MANIFEST_ENTRY = 'manifest.json';

export type NptKind = 'exam' | 'parameter-set';
export type NptGender = 'male' | 'female' | 'other';
export type NptEye = 'OD' | 'OS';
export type NptLaserMode = 'micropulse' | 'continuous';
export type NptIolStatus = 'phakic' | 'pseudophakic' | 'aphakic';
export type NptImageRole = 'fundus' | 'infrared' | 'red_free';
export type NptMediaType = 'image/jpeg' | 'image/png';
export type NptExclusionZoneKind = 'FAZ' | 'ONH';
export type NptScaleSource = 'manifest' | 'estimated';

export interface NptDevice {
  deviceId: string;
  opticalHeadId: string;
  camera: string;
}

export interface NptPatient {
  /** The patient's id in the laser system. */
  deviceSideId: string;
  name: string;
  secondName: string;
  /** Calendar date `YYYY-MM-DD`. */
  birthday: string;
  gender: NptGender;
}

export interface NptExamInfo {
  eye: NptEye;
  /** ISO 8601 timestamp with offset. */
  capturedAt: string;
  fieldOfViewDeg: number;
  /** Micrometres on the retina per pixel of the fundus image, or null when the device does not know. */
  umPerPixel: number | null;
}

/** The device's default laser settings for this exam; every field may be absent or null. */
export interface NptLaser {
  spotSizeUm?: number | null;
  /** In spot diameters (centre-to-centre distance / spot size). */
  spotSpacing?: number | null;
  pulseDurationMs?: number | null;
  laserMode?: NptLaserMode | null;
  /** Sub-visible power in mW. */
  laserDose?: number | null;
  /** Micropulse duty cycle, % (version 1.1). */
  dutyCyclePercent?: number | null;
}

export interface NptDiagnostics {
  iolStatus: NptIolStatus | null;
  centralRetinalThicknessUm: number | null;
  visualAcuityLogMar: number | null;
  notes: string | null;
  /**
   * Diagnostic fields of a newer minor version this reader does not know (docs/npt-format.md §8): kept as
   * written, for the clinic to read, never interpreted. Only a reader sets it; a writer leaves it out.
   */
  additional?: NptAdditionalField[];
}

/** An unknown diagnostic field: its name and its value as text (JSON for anything but a string). */
export interface NptAdditionalField {
  key: string;
  value: string;
}

export interface NptImageEntry {
  role: NptImageRole;
  /** Entry name in the ZIP. */
  file: string;
  mediaType: NptMediaType;
  width: number;
  height: number;
  /** Bytes of the entry. */
  size: number;
  /** SHA-256 of the entry's bytes, 64 lower-case hex digits. */
  sha256: string;
}

/** A point in fundus-image pixels (origin top-left, y down). */
export interface NptPoint {
  x: number;
  y: number;
}

/** Where our generator painted the optic disc and fovea. Readers must not rely on it. */
export interface NptSynthetic {
  opticDisc: { center: NptPoint; radiusPx: number };
  fovea: NptPoint;
}

export interface NptPlanScale {
  umPerPixel: number;
  /** `manifest`: from the exam's umPerPixel; `estimated`: from the disc–fovea distance. */
  source: NptScaleSource;
}

export interface NptExclusionZone {
  kind: NptExclusionZoneKind;
  center: NptPoint;
  radiusXPx: number;
  radiusYPx: number;
  /** Rotation of the ellipse's x axis, degrees, clockwise on the image (y down). */
  rotationDeg: number;
  radiusXUm: number;
  radiusYUm: number;
  /** Safety margin already included in the radii, µm. */
  marginUm?: number;
}

/** The settings a signed-off plan is lasered with: all required. */
export interface NptPlanLaser {
  spotSizeUm: number;
  spotSpacing: number;
  pulseDurationMs: number;
  laserMode: NptLaserMode;
  laserDose: number;
  /** Micropulse duty cycle, %; null in continuous mode (version 1.1, required from it). */
  dutyCyclePercent?: number | null;
  /** Treatment wavelength of the device the plan was made for, nm (version 1.1, required from it). */
  wavelengthNm?: number;
}

export interface NptSpot {
  id: number;
  /** Image pixels. */
  x: number;
  y: number;
  /** µm relative to the fovea, x right, y up. */
  xUm: number;
  yUm: number;
  powerMw: number;
}

export interface NptSignOff {
  by: { id: string; name: string };
  /** ISO 8601 timestamp with offset. */
  at: string;
}

export interface NptPlan {
  treatmentId: string;
  scale: NptPlanScale;
  fovea: NptPoint;
  exclusionZones: NptExclusionZone[];
  laser: NptPlanLaser;
  spots: NptSpot[];
  signOff: NptSignOff;
}

interface ManifestHeader {
  format: typeof NPT_FORMAT;
  /** `major.minor` as read; the writer always writes NPT_VERSION. */
  version: string;
  /** ISO 8601 timestamp with offset. */
  createdAt: string;
  device: NptDevice;
  patient: NptPatient;
  exam: NptExamInfo;
}

export interface ExamManifest extends ManifestHeader {
  kind: 'exam';
  laser?: NptLaser;
  diagnostics: NptDiagnostics;
  images: NptImageEntry[];
  synthetic?: NptSynthetic;
}

export interface ParameterSetManifest extends ManifestHeader {
  kind: 'parameter-set';
  plan: NptPlan;
  /** SHA-256 (hex) of canonicalJson(plan). */
  planSha256: string;
}

export type NptManifest = ExamManifest | ParameterSetManifest;

/** Ranges of the manifest's numbers and sizes, shared by the validator and the documentation's tables. */
export const NPT_RANGES = {
  shortText: 64,
  cameraText: 128,
  personName: 100,
  signOffName: 200,
  notes: 2000,
  earliestDate: '1900-01-01',
  latestDate: '2100-12-31',
  fieldOfViewDeg: { min: 10, max: 120 },
  umPerPixel: { minExclusive: 0, max: 100 },
  spotSizeUm: { min: 50, max: 500 },
  spotSpacing: { min: 0.5, max: 4 },
  pulseDurationMs: { minExclusive: 0, max: 1000 },
  laserDose: { minExclusive: 0, max: 1000 },
  dutyCyclePercent: { min: 1, max: 100 },
  wavelengthNm: { min: 400, max: 1100 },
  centralRetinalThicknessUm: { minExclusive: 0, max: 2000 },
  visualAcuityLogMar: { min: -0.5, max: 3 },
  images: { min: 1, max: 8 },
  imageSidePx: { min: 64, max: 8192 },
  imageFile: 128,
  pixelCoordinate: { min: 0, max: 8192 },
  radiusPx: { minExclusive: 0, max: 8192 },
  retinaUm: { min: -50_000, max: 50_000 },
  radiusUm: { minExclusive: 0, max: 20_000 },
  marginUm: { min: 0, max: 2000 },
  rotationDeg: { min: -180, max: 180 },
  exclusionZones: 16,
  spots: 20_000,
  powerMw: { minExclusive: 0, max: 1000 },
} as const;
