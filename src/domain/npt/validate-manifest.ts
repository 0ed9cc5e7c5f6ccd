// Field-by-field validation of a parsed manifest.json. Each problem names the dotted path of the field
// (`patient.birthday`, `images[0].sha256`) so the clinic can be told exactly what is wrong. The result is
// a fresh object holding only the known fields, in the documented order, so the writer can serialise it
// deterministically and the reader never hands out anything it did not check.
import {
  NPT_FORMAT,
  NPT_MAJOR_VERSION,
  NPT_MINOR_VERSION,
  NPT_RANGES as R,
  type ExamManifest,
  type NptDevice,
  type NptDiagnostics,
  type NptExamInfo,
  type NptExclusionZone,
  type NptImageEntry,
  type NptLaser,
  type NptManifest,
  type NptPatient,
  type NptPlan,
  type NptPlanLaser,
  type NptPoint,
  type NptSignOff,
  type NptSpot,
  type NptSynthetic,
  type ParameterSetManifest,
} from './manifest';
import { displayName, fail, fieldInvalid, ok, type NptResult } from './npt-error';

/** Thrown inside this module only, caught by validateManifest: the first invalid field ends validation. */
class FieldProblem {
  constructor(readonly field: string) {}
}

type JsonObject = Record<string, unknown>;
type Range = { readonly min?: number; readonly minExclusive?: number; readonly max: number };

interface Context {
  /**
   * A file of a minor version this codec knows completely may hold no unknown field; a newer minor may add
   * optional fields, which are ignored.
   */
  strict: boolean;
}

const at = (path: string, key: string): string => (path ? `${path}.${key}` : key);
const item = (path: string, index: number): string => `${path}[${index}]`;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function object(value: unknown, path: string): JsonObject {
  if (!isObject(value)) throw new FieldProblem(path);
  return value;
}

function array(value: unknown, path: string, min: number, max: number): unknown[] {
  if (!Array.isArray(value) || value.length < min || value.length > max) throw new FieldProblem(path);
  return value;
}

function noUnknownKeys(value: JsonObject, path: string, known: readonly string[], context: Context): void {
  if (!context.strict) return;
  for (const key of Object.keys(value)) if (!known.includes(key)) throw new FieldProblem(at(path, key));
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
// eslint-disable-next-line no-control-regex -- control characters are what single-line texts must not hold
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
// eslint-disable-next-line no-control-regex -- as CONTROL, but tab and line breaks are fine in notes
const CONTROL_EXCEPT_LINES = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/** Length in Unicode code points: a name in any script counts its characters, not its UTF-16 units. */
function codePoints(text: string): number {
  let surrogatePairs = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) surrogatePairs++;
  }
  // Lone surrogates are refused before this is asked, so every high surrogate starts a pair.
  return text.length - surrogatePairs;
}

/** A single-line text of 1…max code points with at least one visible character. */
function text(value: unknown, path: string, max: number): string {
  if (typeof value !== 'string' || LONE_SURROGATE.test(value) || CONTROL.test(value)) throw new FieldProblem(path);
  if (value.trim() === '' || codePoints(value) > max) throw new FieldProblem(path);
  return value;
}

function notes(value: unknown, path: string): string | null {
  if (value === null) return null;
  if (typeof value !== 'string' || LONE_SURROGATE.test(value) || CONTROL_EXCEPT_LINES.test(value)) {
    throw new FieldProblem(path);
  }
  if (codePoints(value) > R.notes) throw new FieldProblem(path);
  return value;
}

function number(value: unknown, path: string, range: Range): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new FieldProblem(path);
  if (range.min !== undefined && value < range.min) throw new FieldProblem(path);
  if (range.minExclusive !== undefined && value <= range.minExclusive) throw new FieldProblem(path);
  if (value > range.max) throw new FieldProblem(path);
  return value;
}

function integer(value: unknown, path: string, range: Range): number {
  if (!Number.isInteger(value)) throw new FieldProblem(path);
  return number(value, path, range);
}

function oneOf<T extends string>(value: unknown, path: string, values: readonly T[]): T {
  if (typeof value !== 'string' || !(values as readonly string[]).includes(value)) throw new FieldProblem(path);
  return value as T;
}

function required(o: JsonObject, key: string, path: string): unknown {
  if (!(key in o)) throw new FieldProblem(at(path, key));
  return o[key];
}

function nullable<T>(value: unknown, read: (value: unknown) => T): T | null {
  return value === null ? null : read(value);
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?:Z|[+-](\d{2}):(\d{2}))$/;

function isCalendarDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  return day <= days;
}

function inDateRange(date: string): boolean {
  return date >= R.earliestDate && date <= R.latestDate;
}

/** `YYYY-MM-DD`, a real calendar date between 1900-01-01 and 2100-12-31. */
function calendarDate(value: unknown, path: string): string {
  const match = typeof value === 'string' ? DATE.exec(value) : null;
  if (!match || !isCalendarDate(Number(match[1]), Number(match[2]), Number(match[3]))) throw new FieldProblem(path);
  if (!inDateRange(match[0])) throw new FieldProblem(path);
  return match[0];
}

/** ISO 8601 / RFC 3339 date-time with seconds and an offset (`Z` or `±hh:mm`). */
function timestamp(value: unknown, path: string): string {
  const match = typeof value === 'string' ? TIMESTAMP.exec(value) : null;
  if (!match) throw new FieldProblem(path);
  const [, year, month, day, hour, minute, second, offsetHour, offsetMinute] = match;
  if (!isCalendarDate(Number(year), Number(month), Number(day)) || !inDateRange(`${year}-${month}-${day}`)) {
    throw new FieldProblem(path);
  }
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) throw new FieldProblem(path);
  if (offsetHour !== undefined && (Number(offsetHour) > 14 || Number(offsetMinute) > 59)) {
    throw new FieldProblem(path);
  }
  return match[0];
}

const SHA256_HEX = /^[0-9a-f]{64}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
// Relative path of plain segments; each segment starts with a letter or digit, so no '.', '..' or hidden names.
const IMAGE_FILE = /^[A-Za-z0-9][A-Za-z0-9._-]*(?:\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;
const IMAGE_EXTENSION = { 'image/jpeg': /\.jpe?g$/i, 'image/png': /\.png$/i } as const;

function pattern(value: unknown, path: string, expression: RegExp): string {
  if (typeof value !== 'string' || !expression.test(value)) throw new FieldProblem(path);
  return value;
}

function point(value: unknown, path: string, context: Context): NptPoint {
  const o = object(value, path);
  const result = { x: number(o.x, at(path, 'x'), R.pixelCoordinate), y: number(o.y, at(path, 'y'), R.pixelCoordinate) };
  noUnknownKeys(o, path, ['x', 'y'], context);
  return result;
}

function device(value: unknown, path: string, context: Context): NptDevice {
  const o = object(value, path);
  const result: NptDevice = {
    deviceId: text(o.deviceId, at(path, 'deviceId'), R.shortText),
    opticalHeadId: text(o.opticalHeadId, at(path, 'opticalHeadId'), R.shortText),
    camera: text(o.camera, at(path, 'camera'), R.cameraText),
  };
  noUnknownKeys(o, path, Object.keys(result), context);
  return result;
}

function patient(value: unknown, path: string, context: Context): NptPatient {
  const o = object(value, path);
  const result: NptPatient = {
    deviceSideId: text(o.deviceSideId, at(path, 'deviceSideId'), R.shortText),
    name: text(o.name, at(path, 'name'), R.personName),
    secondName: text(o.secondName, at(path, 'secondName'), R.personName),
    birthday: calendarDate(o.birthday, at(path, 'birthday')),
    gender: oneOf(o.gender, at(path, 'gender'), ['male', 'female', 'other'] as const),
  };
  noUnknownKeys(o, path, Object.keys(result), context);
  return result;
}

function examInfo(value: unknown, path: string, context: Context): NptExamInfo {
  const o = object(value, path);
  const result: NptExamInfo = {
    eye: oneOf(o.eye, at(path, 'eye'), ['OD', 'OS'] as const),
    capturedAt: timestamp(o.capturedAt, at(path, 'capturedAt')),
    fieldOfViewDeg: number(o.fieldOfViewDeg, at(path, 'fieldOfViewDeg'), R.fieldOfViewDeg),
    umPerPixel: nullable(required(o, 'umPerPixel', path), (v) => number(v, at(path, 'umPerPixel'), R.umPerPixel)),
  };
  noUnknownKeys(o, path, Object.keys(result), context);
  return result;
}

const LASER_MODES = ['micropulse', 'continuous'] as const;

function laserDefaults(value: unknown, path: string, context: Context): NptLaser {
  const o = object(value, path);
  const result: NptLaser = {};
  // Absent stays absent and null stays null, so a file reads back exactly as it was written.
  const optional = <K extends keyof NptLaser>(key: K, read: (value: unknown) => NonNullable<NptLaser[K]>) => {
    if (key in o) result[key] = nullable(o[key], read) as NptLaser[K];
  };
  optional('spotSizeUm', (v) => number(v, at(path, 'spotSizeUm'), R.spotSizeUm));
  optional('spotSpacing', (v) => number(v, at(path, 'spotSpacing'), R.spotSpacing));
  optional('pulseDurationMs', (v) => number(v, at(path, 'pulseDurationMs'), R.pulseDurationMs));
  optional('laserMode', (v) => oneOf(v, at(path, 'laserMode'), LASER_MODES));
  optional('laserDose', (v) => number(v, at(path, 'laserDose'), R.laserDose));
  optional('dutyCyclePercent', (v) => number(v, at(path, 'dutyCyclePercent'), R.dutyCyclePercent));
  noUnknownKeys(o, path, ['spotSizeUm', 'spotSpacing', 'pulseDurationMs', 'laserMode', 'laserDose', 'dutyCyclePercent'], context);
  return result;
}

function diagnostics(value: unknown, path: string, context: Context): NptDiagnostics {
  const o = object(value, path);
  const result: NptDiagnostics = {
    iolStatus: nullable(required(o, 'iolStatus', path), (v) =>
      oneOf(v, at(path, 'iolStatus'), ['phakic', 'pseudophakic', 'aphakic'] as const),
    ),
    centralRetinalThicknessUm: nullable(required(o, 'centralRetinalThicknessUm', path), (v) =>
      number(v, at(path, 'centralRetinalThicknessUm'), R.centralRetinalThicknessUm),
    ),
    visualAcuityLogMar: nullable(required(o, 'visualAcuityLogMar', path), (v) =>
      number(v, at(path, 'visualAcuityLogMar'), R.visualAcuityLogMar),
    ),
    notes: notes(required(o, 'notes', path), at(path, 'notes')),
  };
  noUnknownKeys(o, path, Object.keys(result), context);
  const additional = unknownFields(o, Object.keys(result));
  if (additional.length > 0) result.additional = additional;
  return result;
}

/** Longest value of an unknown diagnostic field kept, in code points (as long as the notes). */
const ADDITIONAL_VALUE_MAX = R.notes;

/**
 * The diagnostic fields of a newer minor version, in the file's order: shown to the clinic as they are
 * written (a string as such, anything else as JSON), never dropped. Control characters other than line
 * breaks and tabs become U+FFFD; a value longer than the notes may be is cut with "…". The manifest's own
 * size limit bounds how many there can be.
 */
function unknownFields(o: JsonObject, known: readonly string[]): { key: string; value: string }[] {
  return Object.entries(o)
    .filter(([key]) => !known.includes(key))
    .map(([key, value]) => ({ key: displayName(key), value: shownValue(value) }));
}

const UNSHOWABLE = new RegExp(`${CONTROL_EXCEPT_LINES.source}|${LONE_SURROGATE.source}`, 'g');

function shownValue(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  const visible = text.replace(UNSHOWABLE, '\ufffd');
  const points = [...visible];
  return points.length > ADDITIONAL_VALUE_MAX ? `${points.slice(0, ADDITIONAL_VALUE_MAX - 1).join('')}…` : visible;
}

const MAX_ENTRY_BYTES = 0xfffffffe;

function image(value: unknown, path: string, context: Context): NptImageEntry {
  const o = object(value, path);
  const role = oneOf(o.role, at(path, 'role'), ['fundus', 'infrared', 'red_free'] as const);
  const file = pattern(o.file, at(path, 'file'), IMAGE_FILE);
  const mediaType = oneOf(o.mediaType, at(path, 'mediaType'), ['image/jpeg', 'image/png'] as const);
  if (file.length > R.imageFile || !IMAGE_EXTENSION[mediaType].test(file)) throw new FieldProblem(at(path, 'file'));
  const result: NptImageEntry = {
    role,
    file,
    mediaType,
    width: integer(o.width, at(path, 'width'), R.imageSidePx),
    height: integer(o.height, at(path, 'height'), R.imageSidePx),
    size: integer(o.size, at(path, 'size'), { min: 1, max: MAX_ENTRY_BYTES }),
    sha256: pattern(o.sha256, at(path, 'sha256'), SHA256_HEX),
  };
  noUnknownKeys(o, path, Object.keys(result), context);
  return result;
}

function images(value: unknown, path: string, context: Context): NptImageEntry[] {
  const list = array(value, path, R.images.min, R.images.max).map((entry, i) => image(entry, item(path, i), context));
  const files = new Set<string>();
  let fundus = 0;
  list.forEach((entry, i) => {
    if (files.has(entry.file)) throw new FieldProblem(at(item(path, i), 'file'));
    files.add(entry.file);
    if (entry.role === 'fundus' && ++fundus > 1) throw new FieldProblem(at(item(path, i), 'role'));
  });
  if (fundus === 0) throw new FieldProblem(path);
  return list;
}

function synthetic(value: unknown, path: string, context: Context): NptSynthetic {
  const o = object(value, path);
  const discPath = at(path, 'opticDisc');
  const disc = object(o.opticDisc, discPath);
  const opticDisc = {
    center: point(disc.center, at(discPath, 'center'), context),
    radiusPx: number(disc.radiusPx, at(discPath, 'radiusPx'), R.radiusPx),
  };
  noUnknownKeys(disc, discPath, ['center', 'radiusPx'], context);
  const result: NptSynthetic = { opticDisc, fovea: point(o.fovea, at(path, 'fovea'), context) };
  noUnknownKeys(o, path, ['opticDisc', 'fovea'], context);
  return result;
}

function exclusionZone(value: unknown, path: string, context: Context): NptExclusionZone {
  const o = object(value, path);
  const result: NptExclusionZone = {
    kind: oneOf(o.kind, at(path, 'kind'), ['FAZ', 'ONH'] as const),
    center: point(o.center, at(path, 'center'), context),
    radiusXPx: number(o.radiusXPx, at(path, 'radiusXPx'), R.radiusPx),
    radiusYPx: number(o.radiusYPx, at(path, 'radiusYPx'), R.radiusPx),
    rotationDeg: number(o.rotationDeg, at(path, 'rotationDeg'), R.rotationDeg),
    radiusXUm: number(o.radiusXUm, at(path, 'radiusXUm'), R.radiusUm),
    radiusYUm: number(o.radiusYUm, at(path, 'radiusYUm'), R.radiusUm),
  };
  if ('marginUm' in o) result.marginUm = number(o.marginUm, at(path, 'marginUm'), R.marginUm);
  noUnknownKeys(o, path, [...Object.keys(result), 'marginUm'], context);
  return result;
}

function planLaser(value: unknown, path: string, context: Context): NptPlanLaser {
  const o = object(value, path);
  const result: NptPlanLaser = {
    spotSizeUm: number(o.spotSizeUm, at(path, 'spotSizeUm'), R.spotSizeUm),
    spotSpacing: number(o.spotSpacing, at(path, 'spotSpacing'), R.spotSpacing),
    pulseDurationMs: number(o.pulseDurationMs, at(path, 'pulseDurationMs'), R.pulseDurationMs),
    laserMode: oneOf(o.laserMode, at(path, 'laserMode'), LASER_MODES),
    laserDose: number(o.laserDose, at(path, 'laserDose'), R.laserDose),
  };
  // Version 1.1: the duty cycle (null in continuous mode, required in micropulse) and the wavelength.
  if ('dutyCyclePercent' in o) result.dutyCyclePercent = nullable(o.dutyCyclePercent, (v) => number(v, at(path, 'dutyCyclePercent'), R.dutyCyclePercent));
  if ('wavelengthNm' in o) result.wavelengthNm = number(o.wavelengthNm, at(path, 'wavelengthNm'), R.wavelengthNm);
  if (result.laserMode === 'micropulse' && 'dutyCyclePercent' in o && result.dutyCyclePercent == null) throw new FieldProblem(at(path, 'dutyCyclePercent'));
  if (result.laserMode === 'continuous' && result.dutyCyclePercent != null) throw new FieldProblem(at(path, 'dutyCyclePercent'));
  noUnknownKeys(o, path, ['spotSizeUm', 'spotSpacing', 'pulseDurationMs', 'laserMode', 'laserDose', 'dutyCyclePercent', 'wavelengthNm'], context);
  return result;
}

const SPOT_KEYS = ['id', 'x', 'y', 'xUm', 'yUm', 'powerMw'];

function spots(value: unknown, path: string, context: Context): NptSpot[] {
  const list = array(value, path, 0, R.spots);
  const ids = new Set<number>();
  return list.map((entry, i) => {
    const spotPath = item(path, i);
    const o = object(entry, spotPath);
    const spot: NptSpot = {
      id: integer(o.id, at(spotPath, 'id'), { min: 0, max: Number.MAX_SAFE_INTEGER }),
      x: number(o.x, at(spotPath, 'x'), R.pixelCoordinate),
      y: number(o.y, at(spotPath, 'y'), R.pixelCoordinate),
      xUm: number(o.xUm, at(spotPath, 'xUm'), R.retinaUm),
      yUm: number(o.yUm, at(spotPath, 'yUm'), R.retinaUm),
      powerMw: number(o.powerMw, at(spotPath, 'powerMw'), R.powerMw),
    };
    if (ids.has(spot.id)) throw new FieldProblem(at(spotPath, 'id'));
    ids.add(spot.id);
    noUnknownKeys(o, spotPath, SPOT_KEYS, context);
    return spot;
  });
}

function signOff(value: unknown, path: string, context: Context): NptSignOff {
  const o = object(value, path);
  const byPath = at(path, 'by');
  const by = object(o.by, byPath);
  const result: NptSignOff = {
    by: { id: text(by.id, at(byPath, 'id'), R.shortText), name: text(by.name, at(byPath, 'name'), R.signOffName) },
    at: timestamp(o.at, at(path, 'at')),
  };
  noUnknownKeys(by, byPath, ['id', 'name'], context);
  noUnknownKeys(o, path, ['by', 'at'], context);
  return result;
}

function plan(value: unknown, path: string, context: Context): NptPlan {
  const o = object(value, path);
  const scalePath = at(path, 'scale');
  const scale = object(o.scale, scalePath);
  const result: NptPlan = {
    treatmentId: pattern(o.treatmentId, at(path, 'treatmentId'), UUID),
    scale: {
      umPerPixel: number(scale.umPerPixel, at(scalePath, 'umPerPixel'), R.umPerPixel),
      source: oneOf(scale.source, at(scalePath, 'source'), ['manifest', 'estimated'] as const),
    },
    fovea: point(o.fovea, at(path, 'fovea'), context),
    exclusionZones: array(o.exclusionZones, at(path, 'exclusionZones'), 0, R.exclusionZones).map((zone, i) =>
      exclusionZone(zone, item(at(path, 'exclusionZones'), i), context),
    ),
    laser: planLaser(o.laser, at(path, 'laser'), context),
    spots: spots(o.spots, at(path, 'spots'), context),
    signOff: signOff(o.signOff, at(path, 'signOff'), context),
  };
  noUnknownKeys(scale, scalePath, ['umPerPixel', 'source'], context);
  noUnknownKeys(o, path, Object.keys(result), context);
  return result;
}

const VERSION = /^(0|[1-9]\d{0,5})\.(0|[1-9]\d{0,5})$/;

/** The format name and version, checked before anything else: a newer major may mean anything. */
function checkFormat(o: JsonObject): NptResult<{ version: string; minor: number }> {
  const version = typeof o.version === 'string' ? o.version : '–';
  if (o.format !== NPT_FORMAT) {
    const format = typeof o.format === 'string' ? o.format : '–';
    return fail('unknown_version', { version: displayName(`${format} ${version}`) });
  }
  const match = VERSION.exec(version);
  if (!match || Number(match[1]) !== NPT_MAJOR_VERSION) return fail('unknown_version', { version: displayName(version) });
  return ok({ version, minor: Number(match[2]) });
}

const HEADER_KEYS = ['format', 'version', 'kind', 'createdAt', 'device', 'patient', 'exam'];
const EXAM_KEYS = [...HEADER_KEYS, 'laser', 'diagnostics', 'images', 'synthetic'];
const PARAMETER_SET_KEYS = [...HEADER_KEYS, 'plan', 'planSha256'];

/**
 * Checks a parsed manifest.json. Order of errors: not an object (manifest_invalid), format or major
 * version (unknown_version), then each field in documented order (field_invalid, first problem only).
 */
export function validateManifest(raw: unknown): NptResult<NptManifest> {
  if (!isObject(raw)) return fail('manifest_invalid');
  const format = checkFormat(raw);
  if (!format.ok) return format;
  const context: Context = { strict: format.value.minor <= NPT_MINOR_VERSION };
  try {
    const kind = oneOf(raw.kind, 'kind', ['exam', 'parameter-set'] as const);
    // `kind` sits third in the header so that the written manifest keeps the documented key order.
    const header = {
      format: NPT_FORMAT,
      version: format.value.version,
      kind,
      createdAt: timestamp(raw.createdAt, 'createdAt'),
      device: device(raw.device, 'device', context),
      patient: patient(raw.patient, 'patient', context),
      exam: examInfo(raw.exam, 'exam', context),
    } as const;
    if (kind === 'exam') {
      const laser = 'laser' in raw ? laserDefaults(raw.laser, 'laser', context) : undefined;
      const manifest: ExamManifest = {
        ...header,
        kind,
        ...(laser && { laser }),
        diagnostics: diagnostics(raw.diagnostics, 'diagnostics', context),
        images: images(raw.images, 'images', context),
      };
      if ('synthetic' in raw) manifest.synthetic = synthetic(raw.synthetic, 'synthetic', context);
      noUnknownKeys(raw, '', EXAM_KEYS, context);
      return ok(manifest);
    }
    const manifest: ParameterSetManifest = {
      ...header,
      kind,
      plan: plan(raw.plan, 'plan', context),
      planSha256: pattern(raw.planSha256, 'planSha256', SHA256_HEX),
    };
    noUnknownKeys(raw, '', PARAMETER_SET_KEYS, context);
    return ok(manifest);
  } catch (problem) {
    if (problem instanceof FieldProblem) return fieldInvalid(problem.field);
    throw problem;
  }
}
