// @vitest-environment node
// Property tests of the NPT codec (issue acceptance): round trips of arbitrary exams and parameter sets,
// and that every truncation and every small corruption of a valid file ends in a specific NptError —
// never an exception, never a hang. Run counts are fixed so the file stays within a few seconds.
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { NptExclusionZone, NptImageEntry, NptLaser, NptPlanLaser, NptSpot } from './manifest';
import { NPT_ERROR_CODES, type NptErrorCode } from './npt-error';
import { readExam, readNptUnguarded, readParameterSet } from './read-npt';
import { sampleExam, sampleParameterSet, jpegHeader, pngHeader } from './test-fixtures';
import { writeExam, writeParameterSet, type ExamManifestInput, type ParameterSetManifestInput } from './write-npt';
import { sha256Hex } from './sha256';
import { writeZip } from './zip-writer';
import { unzipSync } from 'fflate';

const runs: Record<string, number> = {};
const outcomes: Record<string, number> = {};
afterAll(() => {
  console.info(`NPT property runs: ${JSON.stringify(runs)}; outcomes of corruption: ${JSON.stringify(outcomes)}`);
});

function counted<T>(name: string, predicate: (value: T) => void): (value: T) => void {
  return (value) => {
    runs[name] = (runs[name] ?? 0) + 1;
    predicate(value);
  };
}

// ---- arbitraries within the documented ranges -------------------------------------------------------------

// eslint-disable-next-line no-control-regex -- the validator refuses these in single-line texts
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const text = (max: number) =>
  fc.string({ unit: 'binary', minLength: 1, maxLength: max }).filter((s) => !CONTROL.test(s) && s.trim() !== '');
const between = (min: number, max: number) =>
  fc.double({ min, max, noNaN: true, noDefaultInfinity: true }).map((v) => v + 0); // -0 is written as 0
const above = (min: number, max: number) =>
  fc.double({ min, max, minExcluded: true, noNaN: true, noDefaultInfinity: true }).map((v) => v + 0);
const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const instant = fc.date({ min: new Date('1900-01-02T00:00:00Z'), max: new Date('2100-12-30T23:59:59Z'), noInvalidDate: true });
const calendarDate = instant.map((d) => `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`);
const offset = fc.oneof(
  fc.constant('Z'),
  fc.tuple(fc.constantFrom('+', '-'), fc.integer({ min: 0, max: 14 }), fc.constantFrom(0, 30, 45)).map(
    ([sign, h, m]) => `${sign}${pad(h)}:${pad(m)}`,
  ),
);
const timestamp = fc
  .tuple(instant, fc.option(fc.integer({ min: 0, max: 999_999_999 }), { nil: undefined }), offset)
  .map(
    ([d, fraction, zone]) =>
      `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:` +
      `${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}${fraction === undefined ? '' : `.${pad(fraction, 9)}`}${zone}`,
  );
const pixel = between(0, 8192);
const point = fc.record({ x: pixel, y: pixel });
const laserMode = fc.constantFrom('micropulse' as const, 'continuous' as const);

const device = fc.record({ deviceId: text(64), opticalHeadId: text(64), camera: text(128) });
const patient = fc.record({
  deviceSideId: text(64),
  name: text(100),
  secondName: text(100),
  birthday: calendarDate,
  gender: fc.constantFrom('male' as const, 'female' as const, 'other' as const),
});
const examInfo = fc.record({
  eye: fc.constantFrom('OD' as const, 'OS' as const),
  capturedAt: timestamp,
  fieldOfViewDeg: between(10, 120),
  umPerPixel: fc.option(above(0, 100), { nil: null }),
});
const laser: fc.Arbitrary<NptLaser> = fc.record(
  {
    spotSizeUm: fc.option(between(50, 500), { nil: null }),
    spotSpacing: fc.option(between(0.5, 4), { nil: null }),
    pulseDurationMs: fc.option(above(0, 1000), { nil: null }),
    laserMode: fc.option(laserMode, { nil: null }),
    laserDose: fc.option(above(0, 1000), { nil: null }),
    dutyCyclePercent: fc.option(between(1, 100), { nil: null }),
  },
  { requiredKeys: [] },
);
const diagnostics = fc.record({
  iolStatus: fc.option(fc.constantFrom('phakic' as const, 'pseudophakic' as const, 'aphakic' as const), { nil: null }),
  centralRetinalThicknessUm: fc.option(above(0, 2000), { nil: null }),
  visualAcuityLogMar: fc.option(between(-0.5, 3), { nil: null }),
  notes: fc.option(
    fc.string({ unit: 'binary', maxLength: 200 }).map((s) => s.replace(new RegExp(CONTROL.source, 'g'), '\n')),
    { nil: null },
  ),
});
const synthetic = fc.record({ opticDisc: fc.record({ center: point, radiusPx: above(0, 8192) }), fovea: point });

type ImageInput = Omit<NptImageEntry, 'size' | 'sha256'>;
const segment = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._-]{0,11}$/);
const side = fc.integer({ min: 64, max: 8192 });
const image = fc.record({
  role: fc.constantFrom('infrared' as const, 'red_free' as const),
  folder: fc.option(segment, { nil: undefined }),
  mediaType: fc.constantFrom('image/jpeg' as const, 'image/png' as const),
  width: side,
  height: side,
  payload: fc.uint8Array({ maxLength: 48 }),
});
const images = fc
  .uniqueArray(fc.tuple(segment, image), { minLength: 1, maxLength: 8, selector: ([name, { folder }]) => `${folder}/${name}`.toLowerCase() })
  .chain((list) => fc.tuple(fc.constant(list), fc.nat({ max: list.length - 1 })))
  .map(([list, fundusIndex]) => {
    const entries: ImageInput[] = [];
    const bytes: Record<string, Uint8Array> = {};
    list.forEach(([name, { role, folder, mediaType, width, height, payload }], i) => {
      const file = `${folder ? `${folder}/` : ''}${name}${mediaType === 'image/png' ? '.png' : '.jpg'}`;
      entries.push({ role: i === fundusIndex ? 'fundus' : role, file, mediaType, width, height });
      bytes[file] = mediaType === 'image/png' ? pngHeader(width, height, payload) : jpegHeader(width, height, payload);
    });
    return { entries, bytes };
  });

const exam = fc
  .record({
    createdAt: timestamp,
    device,
    patient,
    exam: examInfo,
    laser: fc.option(laser, { nil: undefined }),
    diagnostics,
    images,
    synthetic: fc.option(synthetic, { nil: undefined }),
  })
  .map(({ images: { entries, bytes }, laser: defaults, synthetic: truth, ...rest }) => {
    const manifest: ExamManifestInput = { ...rest, images: entries };
    if (defaults) manifest.laser = defaults;
    if (truth) manifest.synthetic = truth;
    return { manifest, images: bytes };
  });

const exclusionZone: fc.Arbitrary<NptExclusionZone> = fc.record(
  {
    kind: fc.constantFrom('FAZ' as const, 'ONH' as const),
    center: point,
    radiusXPx: above(0, 8192),
    radiusYPx: above(0, 8192),
    rotationDeg: between(-180, 180),
    radiusXUm: above(0, 20_000),
    radiusYUm: above(0, 20_000),
    marginUm: between(0, 2000),
  },
  { requiredKeys: ['kind', 'center', 'radiusXPx', 'radiusYPx', 'rotationDeg', 'radiusXUm', 'radiusYUm'] },
);
const spot: fc.Arbitrary<NptSpot> = fc.record({
  id: fc.nat(),
  x: pixel,
  y: pixel,
  xUm: between(-50_000, 50_000),
  yUm: between(-50_000, 50_000),
  powerMw: above(0, 1000),
});
// Version 1.1 fields: a duty cycle in micropulse, null (or, as in 1.0, absent) in continuous; the wavelength.
const planLaser: fc.Arbitrary<NptPlanLaser> = fc
  .record(
    {
      spotSizeUm: between(50, 500),
      spotSpacing: between(0.5, 4),
      pulseDurationMs: above(0, 1000),
      laserMode,
      laserDose: above(0, 1000),
      dutyCyclePercent: between(1, 100),
      wavelengthNm: between(400, 1100),
    },
    { requiredKeys: ['spotSizeUm', 'spotSpacing', 'pulseDurationMs', 'laserMode', 'laserDose'] },
  )
  .map((planned) => (planned.laserMode === 'continuous' && 'dutyCyclePercent' in planned ? { ...planned, dutyCyclePercent: null } : planned));
const parameterSet: fc.Arbitrary<{ manifest: ParameterSetManifestInput }> = fc
  .record({
    createdAt: timestamp,
    device,
    patient,
    exam: examInfo,
    plan: fc.record({
      treatmentId: fc.uuid(),
      scale: fc.record({ umPerPixel: above(0, 100), source: fc.constantFrom('manifest' as const, 'estimated' as const) }),
      fovea: point,
      exclusionZones: fc.array(exclusionZone, { maxLength: 16 }),
      laser: planLaser,
      spots: fc.uniqueArray(spot, { maxLength: 60, selector: (s) => s.id }),
      signOff: fc.record({ by: fc.record({ id: text(64), name: text(200) }), at: timestamp }),
    }),
  })
  .map((manifest) => ({ manifest }));

// ---- properties --------------------------------------------------------------------------------------------

describe('round trip', () => {
  it('any exam written and read back is equal, with size and sha256 filled in', () => {
    fc.assert(
      fc.property(
        exam,
        counted('exam round trip', (input) => {
          const bytes = writeExam(input);
          const read = readExam(bytes);
          expect(read.ok, JSON.stringify(read.ok || read.error)).toBe(true);
          if (!read.ok) return;
          expect(read.value.manifest).toEqual({
            format: 'macula-npt',
            version: '1.1',
            kind: 'exam',
            ...input.manifest,
            images: input.manifest.images.map((entry) => ({
              ...entry,
              size: input.images[entry.file].length,
              sha256: sha256Hex(input.images[entry.file]),
            })),
          });
          expect(read.value.images).toEqual(input.images);
          expect(writeExam(input)).toEqual(bytes);
        }),
      ),
      { numRuns: 150 },
    );
  });

  it('any parameter set written and read back is equal, with planSha256 filled in', () => {
    fc.assert(
      fc.property(
        parameterSet,
        counted('parameter set round trip', (input) => {
          const read = readParameterSet(writeParameterSet(input));
          expect(read.ok, JSON.stringify(read.ok || read.error)).toBe(true);
          if (!read.ok) return;
          const { planSha256, ...rest } = read.value.manifest;
          expect(rest).toEqual({ format: 'macula-npt', version: '1.1', kind: 'parameter-set', ...input.manifest });
          expect(planSha256).toMatch(/^[0-9a-f]{64}$/);
        }),
      ),
      { numRuns: 150 },
    );
  });
});

const CODES = new Set<NptErrorCode>(NPT_ERROR_CODES);

function manifestText(zip: Uint8Array): string {
  return new TextDecoder().decode(unzipSync(zip)['manifest.json']);
}
const SLOWEST_READ_MS = 250;

/** Reads without the safety net: an exception would fail the test instead of becoming not_a_zip. */
function refusedOrEqual(bytes: Uint8Array, original: unknown, label: string): void {
  const started = performance.now();
  const result = readNptUnguarded(bytes);
  expect(performance.now() - started).toBeLessThan(SLOWEST_READ_MS);
  const outcome = result.ok ? 'read back equal' : result.error.code;
  outcomes[`${label}: ${outcome}`] = (outcomes[`${label}: ${outcome}`] ?? 0) + 1;
  if (result.ok) expect(result.value).toEqual(original);
  else expect(CODES.has(result.error.code)).toBe(true);
}

function expectRefused(bytes: Uint8Array): void {
  const result = readNptUnguarded(bytes);
  expect(result.ok).toBe(false);
  if (!result.ok) expect(CODES.has(result.error.code)).toBe(true);
}

describe('truncation', () => {
  it('refuses every truncation of a small exam with a specific error', () => {
    const bytes = writeExam(sampleExam());
    for (let length = 0; length < bytes.length; length++) {
      runs['exam truncations (every length)'] = (runs['exam truncations (every length)'] ?? 0) + 1;
      expectRefused(bytes.subarray(0, length));
    }
  });

  it('refuses sampled truncations of a larger parameter set', () => {
    const input = sampleParameterSet();
    input.manifest.plan.spots = Array.from({ length: 2000 }, (_, id) => ({ id, x: id % 800, y: id / 3, xUm: id, yUm: -id, powerMw: 90 }));
    const bytes = writeParameterSet(input);
    fc.assert(
      fc.property(
        fc.nat({ max: bytes.length - 1 }),
        counted('parameter set truncations (sampled)', (length) => expectRefused(bytes.subarray(0, length))),
      ),
      { numRuns: 200 },
    );
  });
});

describe('corruption', () => {
  const changes = (length: number) =>
    fc.array(fc.tuple(fc.nat({ max: length - 1 }), fc.integer({ min: 1, max: 255 })), { minLength: 1, maxLength: 8 });
  const corrupt = (bytes: Uint8Array, edits: [number, number][]) => {
    const copy = bytes.slice();
    for (const [at, xor] of edits) copy[at] ^= xor;
    return copy;
  };

  it('refuses 1–8 changed bytes in an exam with a specific error, or reads it back equal', () => {
    const bytes = writeExam(sampleExam());
    const original = readExam(bytes);
    if (!original.ok) throw new Error('sample exam unreadable');
    fc.assert(
      fc.property(changes(bytes.length), counted('exam corruptions', (edits) => refusedOrEqual(corrupt(bytes, edits), original.value, 'exam'))),
      { numRuns: 1500 },
    );
  });

  it('refuses 1–8 changed bytes in a parameter set with a specific error, or reads it back equal', () => {
    const bytes = writeParameterSet(sampleParameterSet());
    const original = readParameterSet(bytes);
    if (!original.ok) throw new Error('sample parameter set unreadable');
    fc.assert(
      fc.property(
        changes(bytes.length),
        counted('parameter set corruptions', (edits) => refusedOrEqual(corrupt(bytes, edits), original.value, 'parameter set')),
      ),
      { numRuns: 1000 },
    );
  });

  it('gives a specific error or a valid reading for any edit of the manifest text in an intact container', () => {
    // Past the ZIP's CRC: this reaches the JSON parser, the validator and the image and plan checks.
    const { images } = sampleExam();
    const files = [
      { json: manifestText(writeExam(sampleExam())), images, label: 'exam manifest edits' },
      { json: manifestText(writeParameterSet(sampleParameterSet())), images: {}, label: 'parameter set manifest edits' },
    ];
    for (const { json, images: imageBytes, label } of files) {
      fc.assert(
        fc.property(
          fc.array(fc.tuple(fc.nat({ max: json.length - 1 }), fc.string({ unit: 'binary-ascii', maxLength: 2 })), { minLength: 1, maxLength: 4 }),
          (edits) => {
            runs[label] = (runs[label] ?? 0) + 1;
            let edited = json;
            for (const [at, replacement] of edits) edited = edited.slice(0, at) + replacement + edited.slice(at + 1);
            const zip = writeZip([
              { name: 'manifest.json', data: new TextEncoder().encode(edited), deflate: true },
              ...Object.entries(imageBytes).map(([name, data]) => ({ name, data, deflate: false })),
            ]);
            const result = readNptUnguarded(zip);
            const outcome = `${label}: ${result.ok ? 'read' : result.error.code}`;
            outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
            if (!result.ok) expect(CODES.has(result.error.code)).toBe(true);
          },
        ),
        { numRuns: 700 },
      );
    }
  });

  it('refuses random bytes, and random bytes behind a ZIP signature', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2048 }), fc.boolean(), (bytes, signed) => {
        runs['random inputs'] = (runs['random inputs'] ?? 0) + 1;
        const end = Uint8Array.of(0x50, 0x4b, 0x05, 0x06, ...new Uint8Array(18));
        expectRefused(signed ? Uint8Array.of(0x50, 0x4b, 0x03, 0x04, ...bytes, ...end) : bytes);
      }),
      { numRuns: 300 },
    );
  });
});
