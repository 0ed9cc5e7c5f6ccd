// @vitest-environment node
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { canonicalJson as canonicalJsonItself } from './canonical-json';
import { DEFAULT_NPT_LIMITS } from './limits';
import { readExam, readParameterSet } from './read-npt';
import { FUNDUS_FILE, INFRARED_FILE, jpegHeader, sampleExam, sampleParameterSet } from './test-fixtures';
import { canonicalJson, NptWriteError, writeExam, writeParameterSet } from './write-npt';

function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

async function webCryptoSha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

function writeError(write: () => unknown): NptWriteError {
  try {
    write();
  } catch (error) {
    if (error instanceof NptWriteError) return error;
    throw error;
  }
  throw new Error('written without complaint');
}

describe('writeExam', () => {
  it('is deterministic: the same content gives the same bytes, whatever the key order of the input', () => {
    const input = sampleExam();
    const reordered = sampleExam();
    reordered.manifest = Object.fromEntries(Object.entries(reordered.manifest).reverse()) as typeof input.manifest;
    reordered.manifest.patient = { ...input.manifest.patient, gender: 'male', name: 'Jürgen' };
    expect(writeExam(reordered)).toEqual(writeExam(input));
  });

  it('writes manifest.json first (deflated), then the images in manifest order (stored), with fixed timestamps', () => {
    const zip = writeExam(sampleExam());
    const names: string[] = [];
    let at = 0;
    while (view(zip).getUint32(at, true) === 0x04034b50) {
      expect(view(zip).getUint16(at + 10, true)).toBe(0); // DOS time 00:00:00
      expect(view(zip).getUint16(at + 12, true)).toBe(0x21); // DOS date 1980-01-01
      const nameLength = view(zip).getUint16(at + 26, true);
      names.push(`${new TextDecoder().decode(zip.subarray(at + 30, at + 30 + nameLength))}:${view(zip).getUint16(at + 8, true)}`);
      at += 30 + nameLength + view(zip).getUint32(at + 18, true);
    }
    expect(names).toEqual(['manifest.json:8', `${FUNDUS_FILE}:0`, `${INFRARED_FILE}:0`]);
  });

  it('fills in size and SHA-256 and writes readable, pretty-printed JSON in the documented order', () => {
    const input = sampleExam();
    const files = unzipSync(writeExam(input));
    const json = new TextDecoder().decode(files['manifest.json']);
    expect(json.endsWith('}\n')).toBe(true);
    expect(json).toContain('\n  "format": "macula-npt",\n  "version": "1.1",\n  "kind": "exam",\n  "createdAt"');
    const manifest = JSON.parse(json);
    expect(manifest.images[1]).toEqual({
      ...input.manifest.images[1],
      size: input.images[INFRARED_FILE].length,
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(files[INFRARED_FILE]).toEqual(input.images[INFRARED_FILE]);
  });

  it('refuses input a reader would refuse, saying why', () => {
    const badBirthday = sampleExam();
    badBirthday.manifest.patient.birthday = '2023-02-29';
    expect(writeError(() => writeExam(badBirthday)).error).toMatchObject({ code: 'field_invalid', field: 'patient.birthday' });

    const nan = sampleExam();
    nan.manifest.exam.umPerPixel = Number.NaN;
    expect(writeError(() => writeExam(nan)).error).toMatchObject({ code: 'field_invalid', field: 'exam.umPerPixel' });

    const missing = sampleExam();
    delete missing.images[INFRARED_FILE];
    expect(writeError(() => writeExam(missing)).error).toMatchObject({ code: 'image_missing' });

    const unlisted = sampleExam();
    unlisted.images['images/other.jpg'] = jpegHeader(64, 64);
    expect(writeError(() => writeExam(unlisted)).error).toMatchObject({ code: 'unexpected_entry' });

    const wrongSize = sampleExam();
    wrongSize.manifest.images[0].width = 97;
    expect(writeError(() => writeExam(wrongSize)).error).toMatchObject({ code: 'image_invalid', params: { file: FUNDUS_FILE } });

    const extraField = sampleExam();
    Object.assign(extraField.manifest, { comment: 'not in 1.1' });
    expect(writeError(() => writeExam(extraField)).error).toMatchObject({ field: 'comment' });
    expect(writeError(() => writeExam(extraField)).message).toBe('Cannot write the NPT file: field_invalid (comment)');
  });
});

describe('writeParameterSet', () => {
  it('fills in planSha256 as SHA-256 over the canonical JSON of the plan', async () => {
    const input = sampleParameterSet();
    const read = readParameterSet(writeParameterSet(input));
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.value.manifest.planSha256).toBe(await webCryptoSha256(canonicalJson(input.manifest.plan)));
    expect(read.value.manifest.plan).toEqual(input.manifest.plan);
  });

  it('is deterministic and holds nothing but manifest.json', () => {
    const zip = writeParameterSet(sampleParameterSet());
    expect(writeParameterSet(sampleParameterSet())).toEqual(zip);
    expect(Object.keys(unzipSync(zip))).toEqual(['manifest.json']);
  });

  it('exports the canonical JSON the checksum uses', () => {
    expect(canonicalJson).toBe(canonicalJsonItself);
  });

  it('writes and reads back the largest plan (20,000 spots of full-precision numbers) within the limits', () => {
    const input = sampleParameterSet();
    input.manifest.plan.spots = Array.from({ length: 20_000 }, (_, id) => ({
      id: 1_000_000_000 + id,
      x: 8191.123456789012 - id / 7,
      y: 4095.987654321098 + id / 9,
      xUm: -49_999.12345678901 + id / 3,
      yUm: 49_999.98765432109 - id / 11,
      powerMw: 999.1234567890123 - id / 29,
    }));
    const started = performance.now();
    const zip = writeParameterSet(input);
    const written = performance.now();
    const read = readParameterSet(zip);
    const done = performance.now();
    const manifestBytes = unzipSync(zip)['manifest.json'].length;
    console.info(
      `20,000-spot parameter set: manifest ${(manifestBytes / 2 ** 20).toFixed(2)} MiB, file ${(zip.length / 2 ** 20).toFixed(2)} MiB, ` +
        `write ${(written - started).toFixed(0)} ms, read ${(done - written).toFixed(0)} ms`,
    );
    expect(manifestBytes).toBeLessThan(DEFAULT_NPT_LIMITS.maxManifestBytes);
    expect(read.ok && read.value.manifest.plan.spots).toEqual(input.manifest.plan.spots);
  });

  it('refuses a plan a reader would refuse', () => {
    const input = sampleParameterSet();
    input.manifest.plan.spots[1].id = 0;
    expect(writeError(() => writeParameterSet(input)).error).toMatchObject({ field: 'plan.spots[1].id' });
    expect(readExam(writeExam(sampleExam())).ok).toBe(true);
  });

  it('writes version 1.1 with the plan laser\'s duty cycle and wavelength, and refuses micropulse without a duty cycle', () => {
    const input = sampleParameterSet();
    const manifest = JSON.parse(new TextDecoder().decode(unzipSync(writeParameterSet(input))['manifest.json']));
    expect(manifest.version).toBe('1.1');
    expect(manifest.plan.laser).toEqual({ spotSizeUm: 100, spotSpacing: 2, pulseDurationMs: 15, laserMode: 'micropulse', laserDose: 90, dutyCyclePercent: 5, wavelengthNm: 577 });
    input.manifest.plan.laser.dutyCyclePercent = null;
    expect(writeError(() => writeParameterSet(input)).error).toMatchObject({ code: 'field_invalid', field: 'plan.laser.dutyCyclePercent' });
  });
});
