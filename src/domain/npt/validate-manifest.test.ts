// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { readExam, readParameterSet } from './read-npt';
import { sampleExam, sampleParameterSet } from './test-fixtures';
import { validateManifest } from './validate-manifest';
import { writeExam, writeParameterSet } from './write-npt';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- free-form JSON edits in tests

function examJson(): Json {
  const read = readExam(writeExam(sampleExam()));
  if (!read.ok) throw new Error(read.error.code);
  return JSON.parse(JSON.stringify(read.value.manifest));
}

function parameterSetJson(): Json {
  const read = readParameterSet(writeParameterSet(sampleParameterSet()));
  if (!read.ok) throw new Error(read.error.code);
  return JSON.parse(JSON.stringify(read.value.manifest));
}

function fieldOf(manifest: unknown): string | undefined {
  const result = validateManifest(manifest);
  if (result.ok) return undefined;
  expect(result.error.code).toBe('field_invalid');
  expect(result.error.params.field).toBe(result.error.field);
  return result.error.field;
}

const examCases: [string, (m: Json) => void, string][] = [
  ['kind unknown', (m) => (m.kind = 'report'), 'kind'],
  ['createdAt without offset', (m) => (m.createdAt = '2026-11-20T09:15:00'), 'createdAt'],
  ['createdAt with hour 24', (m) => (m.createdAt = '2026-11-20T24:00:00Z'), 'createdAt'],
  ['createdAt with offset +15:00', (m) => (m.createdAt = '2026-11-20T09:15:00+15:00'), 'createdAt'],
  ['device missing', (m) => delete m.device, 'device'],
  ['deviceId empty', (m) => (m.device.deviceId = ''), 'device.deviceId'],
  ['deviceId blank', (m) => (m.device.deviceId = '   '), 'device.deviceId'],
  ['deviceId 65 characters', (m) => (m.device.deviceId = 'x'.repeat(65)), 'device.deviceId'],
  ['camera with a line break', (m) => (m.device.camera = 'Fundus\n45'), 'device.camera'],
  ['name a number', (m) => (m.patient.name = 42), 'patient.name'],
  ['name 101 characters', (m) => (m.patient.name = 'ü'.repeat(101)), 'patient.name'],
  ['name with a lone surrogate', (m) => (m.patient.name = 'A\ud800B'), 'patient.name'],
  ['secondName missing', (m) => delete m.patient.secondName, 'patient.secondName'],
  ['birthday 2023-02-29', (m) => (m.patient.birthday = '2023-02-29'), 'patient.birthday'],
  ['birthday 1900-02-29', (m) => (m.patient.birthday = '1900-02-29'), 'patient.birthday'],
  ['birthday 1899-12-31', (m) => (m.patient.birthday = '1899-12-31'), 'patient.birthday'],
  ['birthday 2101-01-01', (m) => (m.patient.birthday = '2101-01-01'), 'patient.birthday'],
  ['birthday 1956-13-01', (m) => (m.patient.birthday = '1956-13-01'), 'patient.birthday'],
  ['birthday with a time', (m) => (m.patient.birthday = '1956-02-01T00:00:00Z'), 'patient.birthday'],
  ['gender unknown', (m) => (m.patient.gender = 'f'), 'patient.gender'],
  ['eye lower case', (m) => (m.exam.eye = 'od'), 'exam.eye'],
  ['field of view 9°', (m) => (m.exam.fieldOfViewDeg = 9), 'exam.fieldOfViewDeg'],
  ['field of view as text', (m) => (m.exam.fieldOfViewDeg = '45'), 'exam.fieldOfViewDeg'],
  ['umPerPixel 0', (m) => (m.exam.umPerPixel = 0), 'exam.umPerPixel'],
  ['umPerPixel missing', (m) => delete m.exam.umPerPixel, 'exam.umPerPixel'],
  ['laser spot 49 µm', (m) => (m.laser.spotSizeUm = 49), 'laser.spotSizeUm'],
  ['laser mode unknown', (m) => (m.laser.laserMode = 'pulsed'), 'laser.laserMode'],
  ['laser dose 0', (m) => (m.laser.laserDose = 0), 'laser.laserDose'],
  ['laser null', (m) => (m.laser = null), 'laser'],
  ['laser duty cycle 0 %', (m) => (m.laser.dutyCyclePercent = 0), 'laser.dutyCyclePercent'],
  ['laser duty cycle 101 %', (m) => (m.laser.dutyCyclePercent = 101), 'laser.dutyCyclePercent'],
  ['laser duty cycle as text', (m) => (m.laser.dutyCyclePercent = '5'), 'laser.dutyCyclePercent'],
  ['iolStatus missing', (m) => delete m.diagnostics.iolStatus, 'diagnostics.iolStatus'],
  ['visual acuity 3.5 logMAR', (m) => (m.diagnostics.visualAcuityLogMar = 3.5), 'diagnostics.visualAcuityLogMar'],
  ['notes 2001 characters', (m) => (m.diagnostics.notes = 'n'.repeat(2001)), 'diagnostics.notes'],
  ['notes with NUL', (m) => (m.diagnostics.notes = 'a\u0000b'), 'diagnostics.notes'],
  ['images empty', (m) => (m.images = []), 'images'],
  ['nine images', (m) => (m.images = Array.from({ length: 9 }, () => m.images[1])), 'images'],
  ['no fundus image', (m) => (m.images[0].role = 'red_free'), 'images'],
  ['two fundus images', (m) => (m.images[1].role = 'fundus'), 'images[1].role'],
  ['same file twice', (m) => (m.images[1] = { ...m.images[0], role: 'infrared' }), 'images[1].file'],
  ['file with ..', (m) => (m.images[0].file = 'images/../fundus.jpg'), 'images[0].file'],
  ['file hidden', (m) => (m.images[0].file = '.fundus.jpg'), 'images[0].file'],
  ['file extension not the media type', (m) => (m.images[0].file = 'images/fundus.png'), 'images[0].file'],
  ['file 129 characters', (m) => (m.images[0].file = `${'f'.repeat(125)}.jpg`), 'images[0].file'],
  ['media type gif', (m) => (m.images[0].mediaType = 'image/gif'), 'images[0].mediaType'],
  ['width 63', (m) => (m.images[0].width = 63), 'images[0].width'],
  ['height fractional', (m) => (m.images[1].height = 64.5), 'images[1].height'],
  ['size 0', (m) => (m.images[0].size = 0), 'images[0].size'],
  ['sha256 upper case', (m) => (m.images[0].sha256 = m.images[0].sha256.toUpperCase()), 'images[0].sha256'],
  ['synthetic disc radius 0', (m) => (m.synthetic.opticDisc.radiusPx = 0), 'synthetic.opticDisc.radiusPx'],
  ['synthetic fovea negative', (m) => (m.synthetic.fovea.x = -1), 'synthetic.fovea.x'],
  ['unknown top-level field', (m) => (m.comment = 'hi'), 'comment'],
  ['unknown nested field', (m) => (m.patient.nickname = 'Jü'), 'patient.nickname'],
  ['unknown image field', (m) => (m.images[1].dpi = 300), 'images[1].dpi'],
  ['plan in an exam', (m) => (m.plan = {}), 'plan'],
];

describe('validateManifest: exams', () => {
  it('accepts the sample as written', () => {
    expect(validateManifest(examJson())).toMatchObject({ ok: true });
  });

  it.each(examCases)('%s → field_invalid at the field', (_, mutate, field) => {
    const manifest = examJson();
    mutate(manifest);
    expect(fieldOf(manifest)).toBe(field);
  });

  it('accepts leap days, boundaries and absent optional parts', () => {
    const manifest = examJson();
    manifest.patient.birthday = '2000-02-29';
    manifest.createdAt = '2100-12-31T23:59:59.123456789-12:00';
    manifest.exam.fieldOfViewDeg = 120;
    manifest.exam.umPerPixel = null;
    manifest.laser = { spotSizeUm: null, laserMode: 'continuous' };
    manifest.diagnostics = { iolStatus: null, centralRetinalThicknessUm: null, visualAcuityLogMar: -0.2, notes: 'a\nb' };
    manifest.patient.name = '😀'.repeat(100);
    delete manifest.synthetic;
    const result = validateManifest(manifest);
    expect(result.ok && result.value).toEqual(manifest);
  });
});

describe('validateManifest: parameter sets', () => {
  const cases: [string, (m: Json) => void, string][] = [
    ['treatmentId not a uuid', (m) => (m.plan.treatmentId = 'T-1'), 'plan.treatmentId'],
    ['scale source unknown', (m) => (m.plan.scale.source = 'guess'), 'plan.scale.source'],
    ['zone kind unknown', (m) => (m.plan.exclusionZones[1].kind = 'VESSEL'), 'plan.exclusionZones[1].kind'],
    ['zone rotation 181°', (m) => (m.plan.exclusionZones[0].rotationDeg = 181), 'plan.exclusionZones[0].rotationDeg'],
    ['zone margin negative', (m) => (m.plan.exclusionZones[1].marginUm = -1), 'plan.exclusionZones[1].marginUm'],
    ['plan laser field missing', (m) => delete m.plan.laser.laserDose, 'plan.laser.laserDose'],
    ['plan laser null', (m) => (m.plan.laser.spotSpacing = null), 'plan.laser.spotSpacing'],
    ['duty cycle null in micropulse', (m) => (m.plan.laser.dutyCyclePercent = null), 'plan.laser.dutyCyclePercent'],
    ['duty cycle 0.5 %', (m) => (m.plan.laser.dutyCyclePercent = 0.5), 'plan.laser.dutyCyclePercent'],
    ['duty cycle 100.5 %', (m) => (m.plan.laser.dutyCyclePercent = 100.5), 'plan.laser.dutyCyclePercent'],
    ['duty cycle in continuous mode', (m) => (m.plan.laser.laserMode = 'continuous'), 'plan.laser.dutyCyclePercent'],
    ['wavelength 399 nm', (m) => (m.plan.laser.wavelengthNm = 399), 'plan.laser.wavelengthNm'],
    ['wavelength 1101 nm', (m) => (m.plan.laser.wavelengthNm = 1101), 'plan.laser.wavelengthNm'],
    ['wavelength null', (m) => (m.plan.laser.wavelengthNm = null), 'plan.laser.wavelengthNm'],
    ['unknown plan laser field', (m) => (m.plan.laser.repetitionHz = 500), 'plan.laser.repetitionHz'],
    ['spot id twice', (m) => (m.plan.spots[1].id = 0), 'plan.spots[1].id'],
    ['spot id negative', (m) => (m.plan.spots[0].id = -1), 'plan.spots[0].id'],
    ['spot power 0', (m) => (m.plan.spots[1].powerMw = 0), 'plan.spots[1].powerMw'],
    ['spot outside the image', (m) => (m.plan.spots[0].x = 8193), 'plan.spots[0].x'],
    ['20,001 spots', (m) => (m.plan.spots = Array.from({ length: 20_001 }, (_, id) => ({ ...m.plan.spots[0], id }))), 'plan.spots'],
    ['sign-off without a name', (m) => delete m.plan.signOff.by.name, 'plan.signOff.by.name'],
    ['sign-off time invalid', (m) => (m.plan.signOff.at = 'yesterday'), 'plan.signOff.at'],
    ['planSha256 missing', (m) => delete m.planSha256, 'planSha256'],
    ['images in a parameter set', (m) => (m.images = []), 'images'],
  ];

  it('accepts the sample as written', () => {
    expect(validateManifest(parameterSetJson())).toMatchObject({ ok: true });
  });

  it.each(cases)('%s → field_invalid at the field', (_, mutate, field) => {
    const manifest = parameterSetJson();
    mutate(manifest);
    expect(fieldOf(manifest)).toBe(field);
  });

  it('reads the 1.1 laser fields: a duty cycle in micropulse, none in continuous, the wavelength, their bounds', () => {
    const manifest = parameterSetJson();
    expect(manifest.plan.laser).toMatchObject({ laserMode: 'micropulse', dutyCyclePercent: 5, wavelengthNm: 577 });
    const laserOf = (patch: Json) => {
      const result = validateManifest({ ...manifest, plan: { ...manifest.plan, laser: { ...manifest.plan.laser, ...patch } } });
      return result.ok && result.value.kind === 'parameter-set' ? result.value.plan.laser : result.ok || result.error.field;
    };
    expect(laserOf({ laserMode: 'continuous', dutyCyclePercent: null })).toMatchObject({ laserMode: 'continuous', dutyCyclePercent: null });
    expect(laserOf({ dutyCyclePercent: 1, wavelengthNm: 400 })).toMatchObject({ dutyCyclePercent: 1, wavelengthNm: 400 });
    expect(laserOf({ dutyCyclePercent: 100, wavelengthNm: 1100 })).toMatchObject({ dutyCyclePercent: 100, wavelengthNm: 1100 });
  });

  it('reads a plan laser of version 1.0, without duty cycle and wavelength, and adds neither', () => {
    const manifest = parameterSetJson();
    manifest.version = '1.0';
    delete manifest.plan.laser.dutyCyclePercent;
    delete manifest.plan.laser.wavelengthNm;
    const result = validateManifest(manifest);
    expect(result.ok).toBe(true);
    if (!result.ok || result.value.kind !== 'parameter-set') return;
    expect(result.value.version).toBe('1.0');
    expect(result.value.plan.laser).toEqual({ spotSizeUm: 100, spotSpacing: 2, pulseDurationMs: 15, laserMode: 'micropulse', laserDose: 90 });
  });
});

describe('validateManifest: format, version and shape', () => {
  it('refuses anything but a JSON object as manifest_invalid', () => {
    for (const raw of [null, [], 'macula-npt', 42, true]) {
      expect(validateManifest(raw)).toEqual({ ok: false, error: { code: 'manifest_invalid', params: {} } });
    }
  });

  it('refuses another format or another major version as unknown_version, naming the version', () => {
    const versionOf = (patch: Json) => {
      const result = validateManifest({ ...examJson(), ...patch });
      return result.ok ? 'accepted' : `${result.error.code} ${result.error.params.version}`;
    };
    expect(versionOf({ version: '2.0' })).toBe('unknown_version 2.0');
    expect(versionOf({ version: '0.9' })).toBe('unknown_version 0.9');
    expect(versionOf({ version: '1' })).toBe('unknown_version 1');
    expect(versionOf({ version: '1.0.1' })).toBe('unknown_version 1.0.1');
    expect(versionOf({ version: '01.0' })).toBe('unknown_version 01.0');
    expect(versionOf({ version: 1 })).toBe('unknown_version –');
    expect(versionOf({ format: 'other-npt' })).toBe('unknown_version other-npt 1.1');
    expect(versionOf({ format: undefined })).toBe('unknown_version – 1.1');
    expect(versionOf({ version: '1.0' })).toBe('accepted');
    expect(versionOf({ version: '1.1' })).toBe('accepted');
  });

  it('checks the version before any field', () => {
    const manifest = { ...examJson(), version: '2.0', patient: null };
    expect(validateManifest(manifest)).toMatchObject({ ok: false, error: { code: 'unknown_version' } });
  });

  it('under a later minor version ignores unknown fields and drops them from the result', () => {
    const manifest = examJson();
    manifest.version = '1.7';
    manifest.comment = 'added in 1.7';
    manifest.patient.nickname = 'Jü';
    manifest.images[0].dpi = 300;
    const result = validateManifest(manifest);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.version).toBe('1.7');
    expect(result.value).not.toHaveProperty('comment');
    expect(result.value.patient).not.toHaveProperty('nickname');
    expect(result.value.kind === 'exam' && result.value.images[0]).not.toHaveProperty('dpi');
  });

  it('under a later minor version keeps unknown diagnostic fields as written, for the clinic to read', () => {
    const manifest = examJson();
    manifest.version = '1.2';
    Object.assign(manifest.diagnostics, {
      intraocularPressureMmHg: 17,
      octDevice: 'Spectralis',
      'fluid\u0007': { subretinal: true },
      remark: `a\tb\n${'x'.repeat(2100)}`,
    });
    const result = validateManifest(manifest);
    expect(result.ok).toBe(true);
    if (!result.ok || result.value.kind !== 'exam') return;
    const additional = result.value.diagnostics.additional ?? [];
    expect(additional.slice(0, 3)).toEqual([
      { key: 'intraocularPressureMmHg', value: '17' },
      { key: 'octDevice', value: 'Spectralis' },
      { key: 'fluid\ufffd', value: '{"subretinal":true}' },
    ]);
    expect(additional[3]?.value.startsWith('a\tb\nxxx')).toBe(true);
    expect([...(additional[3]?.value ?? '')]).toHaveLength(2000);
    expect(additional[3]?.value.endsWith('…')).toBe(true);
  });

  it('a file of the version this reader knows has no additional diagnostic fields', () => {
    const result = validateManifest(examJson());
    expect(result.ok && result.value.kind === 'exam' && result.value.diagnostics).not.toHaveProperty('additional');
  });

  it('under a later minor version still refuses a known field that is invalid', () => {
    const manifest = examJson();
    manifest.version = '1.2';
    manifest.patient.birthday = '2023-02-29';
    expect(fieldOf(manifest)).toBe('patient.birthday');
  });

  it('writes the result in the documented key order', () => {
    const result = validateManifest(examJson());
    expect(result.ok && Object.keys(result.value)).toEqual([
      'format', 'version', 'kind', 'createdAt', 'device', 'patient', 'exam', 'laser', 'diagnostics', 'images', 'synthetic',
    ]);
  });
});
