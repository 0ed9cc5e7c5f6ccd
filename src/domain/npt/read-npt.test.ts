// @vitest-environment node
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json';
import { readExam, readNpt, readParameterSet } from './read-npt';
import { sha256Hex, sha256HexOfText } from './sha256';
import { blackPng, FUNDUS_FILE, INFRARED_FILE, sampleExam, sampleParameterSet } from './test-fixtures';
import { writeExam, writeParameterSet } from './write-npt';
import { writeZip, type ZipWriteEntry } from './zip-writer';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- free-form JSON edits in tests

const text = (value: string) => new TextEncoder().encode(value);

function examManifest(): Json {
  const read = readExam(writeExam(sampleExam()));
  if (!read.ok) throw new Error(read.error.code);
  return JSON.parse(JSON.stringify(read.value.manifest));
}

function parameterSetManifest(): Json {
  const read = readParameterSet(writeParameterSet(sampleParameterSet()));
  if (!read.ok) throw new Error(read.error.code);
  return JSON.parse(JSON.stringify(read.value.manifest));
}

/** An exam container built entry by entry, so that any part can be wrong. */
function examZip(
  manifest: Json | string | Uint8Array = examManifest(),
  images: Record<string, Uint8Array> = sampleExam().images,
  extra: ZipWriteEntry[] = [],
): Uint8Array {
  const data = manifest instanceof Uint8Array ? manifest : text(typeof manifest === 'string' ? manifest : JSON.stringify(manifest));
  return writeZip([
    { name: 'manifest.json', data, deflate: true },
    ...Object.entries(images).map(([name, bytes]) => ({ name, data: bytes, deflate: false })),
    ...extra,
  ]);
}

function indexOfBytes(haystack: Uint8Array, needle: Uint8Array): number {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  throw new Error('not found');
}

function errorOf(result: ReturnType<typeof readNpt>) {
  return result.ok ? { code: 'accepted' } : result.error;
}

describe('a valid exam', () => {
  it('reads back the manifest and the image bytes keyed by entry name', () => {
    const input = sampleExam();
    const result = readExam(writeExam(input));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.images).toEqual(input.images);
    expect(result.value.manifest.images[0]).toEqual({
      ...input.manifest.images[0],
      size: input.images[FUNDUS_FILE].length,
      sha256: sha256Hex(input.images[FUNDUS_FILE]),
    });
    expect(readNpt(writeExam(input))).toEqual(result);
  });

  it('reads an exam zipped by another tool (deflated images, timestamps, entries in another order)', () => {
    const { images } = sampleExam();
    const zip = zipSync(
      { [INFRARED_FILE]: images[INFRARED_FILE], [FUNDUS_FILE]: images[FUNDUS_FILE], 'manifest.json': text(JSON.stringify(examManifest())) },
      { level: 9, mtime: new Date('2026-11-20T09:15:00Z') },
    );
    expect(readExam(zip)).toMatchObject({ ok: true, value: { images } });
  });

  it('accepts a manifest with a UTF-8 byte order mark', () => {
    expect(readExam(examZip(`\ufeff${JSON.stringify(examManifest())}`)).ok).toBe(true);
  });

  it('reads a later minor version with fields it does not know', () => {
    const manifest = { ...examManifest(), version: '1.4', operator: 'N. Nurse' };
    const result = readExam(examZip(manifest));
    expect(result.ok && result.value.manifest.version).toBe('1.4');
  });

  it('reads an exam of version 1.0, whose laser defaults have no duty cycle', () => {
    const manifest = examManifest();
    expect(manifest.version).toBe('1.1');
    manifest.version = '1.0';
    delete manifest.laser.dutyCyclePercent;
    const result = readExam(examZip(manifest));
    expect(result.ok && result.value.manifest).toEqual(manifest);
  });
});

describe('a parameter set of version 1.0', () => {
  it('reads back as written, its plan checksum over the plan without the 1.1 laser fields', () => {
    const manifest = parameterSetManifest();
    expect(manifest.version).toBe('1.1');
    manifest.version = '1.0';
    delete manifest.plan.laser.dutyCyclePercent;
    delete manifest.plan.laser.wavelengthNm;
    manifest.planSha256 = sha256HexOfText(canonicalJson(manifest.plan));
    const result = readParameterSet(writeZip([{ name: 'manifest.json', data: text(JSON.stringify(manifest)), deflate: true }]));
    expect(result.ok && result.value.manifest).toEqual(manifest);
  });
});

describe('each error code', () => {
  it('not_a_zip: random bytes, a truncated file, a damaged image', () => {
    expect(errorOf(readNpt(Uint8Array.from({ length: 500 }, (_, i) => (i * 37) & 0xff)))).toEqual({ code: 'not_a_zip', params: {} });
    const valid = writeExam(sampleExam());
    expect(errorOf(readNpt(valid.subarray(0, valid.length >> 1))).code).toBe('not_a_zip');
    // A stored image byte changed: the ZIP's CRC-32 catches it before the manifest's checksum is asked.
    const damaged = examZip();
    damaged[indexOfBytes(damaged, sampleExam().images[FUNDUS_FILE]) + 30] ^= 0xff;
    expect(errorOf(readNpt(damaged)).code).toBe('not_a_zip');
  });

  it('manifest_missing: no manifest.json at the root (names are case-sensitive)', () => {
    const png = blackPng(64, 64);
    expect(errorOf(readNpt(writeZip([{ name: 'a.png', data: png, deflate: false }])))).toEqual({ code: 'manifest_missing', params: {} });
    expect(errorOf(readNpt(writeZip([{ name: 'Manifest.json', data: text('{}'), deflate: true }]))).code).toBe('manifest_missing');
    expect(errorOf(readNpt(writeZip([{ name: 'x/manifest.json', data: text('{}'), deflate: true }]))).code).toBe('manifest_missing');
    expect(errorOf(readNpt(writeZip([]))).code).toBe('manifest_missing');
  });

  it('manifest_invalid: not JSON, not UTF-8, not an object', () => {
    for (const manifest of ['', 'manifest', '{"format":"macula-npt",', '[1,2]', 'null', '"macula-npt"', Uint8Array.of(0x7b, 0xff, 0x7d)]) {
      expect(errorOf(readNpt(examZip(manifest)))).toEqual({ code: 'manifest_invalid', params: {} });
    }
  });

  it('unknown_version: another major version or another format', () => {
    expect(errorOf(readNpt(examZip({ ...examManifest(), version: '2.0' })))).toEqual({
      code: 'unknown_version',
      params: { version: '2.0' },
    });
    expect(errorOf(readNpt(examZip({ ...examManifest(), format: 'dicom-npt' }))).code).toBe('unknown_version');
  });

  it('wrong_kind: an exam where a parameter set is expected and the other way round', () => {
    const exam = writeExam(sampleExam());
    const parameterSet = writeParameterSet(sampleParameterSet());
    expect(errorOf(readExam(parameterSet))).toEqual({ code: 'wrong_kind', params: { kind: 'parameter-set' } });
    expect(errorOf(readParameterSet(exam))).toEqual({ code: 'wrong_kind', params: { kind: 'exam' } });
    expect(readNpt(parameterSet).ok && readNpt(exam).ok).toBe(true);
  });

  it('field_invalid: names the field', () => {
    const manifest = examManifest();
    manifest.patient.birthday = '2023-02-29';
    expect(errorOf(readNpt(examZip(manifest)))).toEqual({
      code: 'field_invalid',
      field: 'patient.birthday',
      params: { field: 'patient.birthday' },
    });
  });

  it('image_missing: an image the manifest lists is not in the container', () => {
    const { images } = sampleExam();
    expect(errorOf(readNpt(examZip(examManifest(), { [FUNDUS_FILE]: images[FUNDUS_FILE] })))).toEqual({
      code: 'image_missing',
      params: { file: INFRARED_FILE },
    });
  });

  it('image_invalid: other bytes than the declared type, or another size than declared', () => {
    const png = blackPng(96, 72);
    const manifest = examManifest();
    Object.assign(manifest.images[0], { size: png.length, sha256: sha256Hex(png) });
    expect(errorOf(readNpt(examZip(manifest, { ...sampleExam().images, [FUNDUS_FILE]: png })))).toEqual({
      code: 'image_invalid',
      params: { file: FUNDUS_FILE },
    });
    const wider = examManifest();
    wider.images[1].width = 65;
    expect(errorOf(readNpt(examZip(wider)))).toEqual({ code: 'image_invalid', params: { file: INFRARED_FILE } });
  });

  it('checksum_mismatch: image sha256 or size, planSha256, or a plan changed after sign-off', () => {
    const sha = examManifest();
    sha.images[1].sha256 = 'f'.repeat(64);
    expect(errorOf(readNpt(examZip(sha)))).toEqual({ code: 'checksum_mismatch', params: { file: INFRARED_FILE } });
    const size = examManifest();
    size.images[0].size += 1;
    expect(errorOf(readNpt(examZip(size)))).toEqual({ code: 'checksum_mismatch', params: { file: FUNDUS_FILE } });

    const parameterSetZip = (manifest: Json) => writeZip([{ name: 'manifest.json', data: text(JSON.stringify(manifest)), deflate: true }]);
    const wrongSum = parameterSetManifest();
    wrongSum.planSha256 = '0'.repeat(64);
    expect(errorOf(readNpt(parameterSetZip(wrongSum)))).toEqual({ code: 'checksum_mismatch', params: { file: 'manifest.json' } });
    const changed = parameterSetManifest();
    changed.plan.spots[0].powerMw += 1;
    expect(errorOf(readParameterSet(parameterSetZip(changed))).code).toBe('checksum_mismatch');
  });

  it('too_large: the file, the uncompressed contents, the manifest', () => {
    const exam = writeExam(sampleExam());
    expect(errorOf(readNpt(exam, { maxFileBytes: 1024 * 1024 * 0.001 }))).toEqual({ code: 'too_large', params: { limitMb: 0 } });
    expect(errorOf(readNpt(exam, { maxFileBytes: 5 * 2 ** 20 })).code).toBe('accepted');
    expect(errorOf(readNpt(exam, { maxFileBytes: undefined, maxManifestBytes: 100 })).code).toBe('too_large');
    expect(errorOf(readNpt(exam, { maxUncompressedBytes: 1000 })).code).toBe('too_large');
    expect(errorOf(readNpt(exam, { maxManifestBytes: 100 }))).toEqual({ code: 'too_large', params: { limitMb: 0 } });
    expect(errorOf(readNpt(new Uint8Array(100 * 2 ** 20 + 1)))).toEqual({ code: 'too_large', params: { limitMb: 100 } });
  });

  it('too_many_entries: more than 32 entries', () => {
    const extra = Array.from({ length: 31 }, (_, i) => ({ name: `x${i}.txt`, data: text('x'), deflate: false }));
    expect(errorOf(readNpt(examZip(examManifest(), sampleExam().images, extra)))).toEqual({
      code: 'too_many_entries',
      params: { limit: 32 },
    });
  });

  it('path_traversal: an entry that could escape a folder, checked before anything else about entries', () => {
    const evil = [{ name: '../../etc/cron.d/x', data: text('x'), deflate: false }];
    expect(errorOf(readNpt(examZip(examManifest(), sampleExam().images, evil)))).toEqual({
      code: 'path_traversal',
      params: { entry: '../../etc/cron.d/x' },
    });
    expect(errorOf(readNpt(writeZip(evil))).code).toBe('path_traversal');
  });

  it('duplicate_entry: the same name twice', () => {
    const twice = [{ name: FUNDUS_FILE, data: sampleExam().images[FUNDUS_FILE], deflate: false }];
    expect(errorOf(readNpt(examZip(examManifest(), sampleExam().images, twice)))).toEqual({
      code: 'duplicate_entry',
      params: { entry: FUNDUS_FILE },
    });
  });

  it('unexpected_entry: an entry not listed, a directory entry, anything beside a parameter set', () => {
    for (const name of ['readme.txt', 'images/', 'images/extra.jpg']) {
      const extra = [{ name, data: new Uint8Array(0), deflate: false }];
      expect(errorOf(readNpt(examZip(examManifest(), sampleExam().images, extra)))).toEqual({
        code: 'unexpected_entry',
        params: { entry: name },
      });
    }
    const withImage = writeZip([
      { name: 'manifest.json', data: text(JSON.stringify(parameterSetManifest())), deflate: true },
      { name: FUNDUS_FILE, data: sampleExam().images[FUNDUS_FILE], deflate: false },
    ]);
    expect(errorOf(readParameterSet(withImage))).toEqual({ code: 'unexpected_entry', params: { entry: FUNDUS_FILE } });
  });
});

describe('order of checks', () => {
  it('reports the size before the structure, and names before the manifest', () => {
    expect(errorOf(readNpt(new Uint8Array(2000), { maxFileBytes: 1000 })).code).toBe('too_large');
    expect(errorOf(readNpt(writeZip([{ name: '/abs.jpg', data: text('x'), deflate: false }]))).code).toBe('path_traversal');
  });

  it('reports a missing image before an unexpected one, and both before image contents', () => {
    const { images } = sampleExam();
    const renamed = examZip(examManifest(), { [FUNDUS_FILE]: images[FUNDUS_FILE], 'images/ir.png': images[INFRARED_FILE] });
    expect(errorOf(readNpt(renamed)).code).toBe('image_missing');
    const manifest = examManifest();
    manifest.images[0].sha256 = '0'.repeat(64);
    const extra = [{ name: 'readme.txt', data: text('x'), deflate: false }];
    expect(errorOf(readNpt(examZip(manifest, images, extra))).code).toBe('unexpected_entry');
  });

  it('checks the kind before the images', () => {
    const manifest = { ...parameterSetManifest() };
    expect(errorOf(readExam(examZip(manifest, {}))).code).toBe('wrong_kind');
  });
});

describe('the plan checksum under a later minor version', () => {
  it('is computed over the plan as written, including fields this reader does not know', () => {
    const manifest = parameterSetManifest();
    manifest.version = '1.2';
    manifest.plan.spots[0].pattern = 'ring';
    const zip = (planSha256: string) =>
      writeZip([{ name: 'manifest.json', data: text(JSON.stringify({ ...manifest, planSha256 })), deflate: true }]);
    expect(readParameterSet(zip(sha256HexOfText(canonicalJson(manifest.plan)))).ok).toBe(true);
    expect(errorOf(readParameterSet(zip(parameterSetManifest().planSha256))).code).toBe('checksum_mismatch');
  });
});
