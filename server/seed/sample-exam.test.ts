// @vitest-environment node
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readExam } from '../../src/domain/npt/read-npt';
import { buildSampleExam, SampleImageError } from './sample-exam';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

function readBack(bytes: Uint8Array) {
  const read = readExam(bytes);
  if (!read.ok) throw new Error(`not readable: ${read.error.code} ${read.error.field ?? ''}`);
  return read.value;
}

const small = { width: 480, height: 360 };

describe('buildSampleExam (painted fundus)', () => {
  it('writes an exam that reads back, whose truth is the manifest’s synthetic landmarks', async () => {
    const exam = await buildSampleExam({ seed: 7, ...small });
    const { manifest, images } = readBack(exam.bytes);
    expect(manifest).toEqual(exam.manifest);
    expect(exam.truth).not.toBeNull();
    expect(manifest.synthetic).toEqual(exam.truth);
    expect(manifest.images).toHaveLength(1);
    const [image] = manifest.images;
    expect(image).toMatchObject({ role: 'fundus', file: 'images/fundus.jpg', mediaType: 'image/jpeg', width: 480, height: 360 });
    // The JPEG decodes to the painted size, and the scale is the painter's: 4.76 mm from disc to fovea.
    const decoded = await sharp(images[image.file]).metadata();
    expect([decoded.format, decoded.width, decoded.height]).toEqual(['jpeg', 480, 360]);
    const truth = exam.truth!;
    const discFovea = Math.hypot(truth.opticDisc.center.x - truth.fovea.x, truth.opticDisc.center.y - truth.fovea.y);
    expect(manifest.exam.umPerPixel).toBeCloseTo(4760 / discFovea, 9);
    expect(manifest.exam.fieldOfViewDeg).toBe(45);
  });

  it('paints 1600 × 1200 by default', async () => {
    const exam = await buildSampleExam({ seed: 8 });
    expect(exam.manifest.images[0]).toMatchObject({ width: 1600, height: 1200 });
  });

  it('is reproducible from the seed, byte for byte', async () => {
    const a = await buildSampleExam({ seed: 12, ...small });
    const b = await buildSampleExam({ seed: 12, ...small });
    expect(sha256(a.bytes)).toBe(sha256(b.bytes));
    expect(a.seed).toBe(12);
    const c = await buildSampleExam({ seed: 13, ...small });
    expect(sha256(c.bytes)).not.toBe(sha256(a.bytes));
  });

  it('derives a plausible patient, device, exam and laser defaults from the seed', async () => {
    const exams = await Promise.all([1, 2, 3, 4, 5, 6].map((seed) => buildSampleExam({ seed, ...small })));
    for (const { manifest } of exams) {
      expect(manifest.device).toEqual({ deviceId: 'MLS-2041-0117', opticalHeadId: 'OH-7731', camera: 'Fundus 45 CFP' });
      expect(manifest.patient.deviceSideId).toMatch(/^NPT-\d{7}$/);
      expect(manifest.patient.name.trim()).not.toBe('');
      expect(manifest.patient.secondName.trim()).not.toBe('');
      expect(manifest.patient.birthday >= '1935-01-01' && manifest.patient.birthday <= '1985-12-31').toBe(true);
      expect(['male', 'female', 'other']).toContain(manifest.patient.gender);
      expect(['OD', 'OS']).toContain(manifest.exam.eye);
      expect(Date.parse(manifest.createdAt)).toBeGreaterThan(Date.parse(manifest.exam.capturedAt));
      // Captured in clinic hours, with the German offset of that date.
      const [, hour, offset] = /T(\d{2}):.*([+-]\d{2}:\d{2})$/.exec(manifest.exam.capturedAt) ?? [];
      expect(Number(hour)).toBeGreaterThanOrEqual(8);
      expect(Number(hour)).toBeLessThan(18);
      expect(['+01:00', '+02:00']).toContain(offset);
      expect(manifest.laser).toEqual({
        spotSizeUm: 100,
        spotSpacing: 2,
        pulseDurationMs: 15,
        laserMode: 'micropulse',
        laserDose: 90,
        dutyCyclePercent: 5,
      });
    }
    const ids = new Set(exams.map((exam) => exam.manifest.patient.deviceSideId));
    expect(ids.size).toBe(exams.length);
    const eyes = new Set(exams.map((exam) => exam.manifest.exam.eye));
    expect(eyes.size).toBe(2);
  });

  it('takes the given patient and exam details, leaving the rest of the seed’s draws unchanged', async () => {
    const plain = await buildSampleExam({ seed: 3, ...small });
    const given = await buildSampleExam({
      seed: 3,
      ...small,
      name: 'Zoë',
      secondName: 'Ångström-Łukasik',
      birthday: '1950-02-28',
      gender: 'female',
      deviceSideId: 'NPT-0004711',
      capturedAt: '2026-03-29T10:15:00+02:00',
    });
    expect(given.manifest.patient).toEqual({
      deviceSideId: 'NPT-0004711',
      name: 'Zoë',
      secondName: 'Ångström-Łukasik',
      birthday: '1950-02-28',
      gender: 'female',
    });
    expect(given.manifest.exam.capturedAt).toBe('2026-03-29T10:15:00+02:00');
    expect(given.manifest.createdAt.endsWith('+02:00')).toBe(true);
    expect(given.manifest.exam.eye).toBe(plain.manifest.exam.eye);
    expect(given.truth).toEqual(plain.truth);
  });

  it('paints the requested eye: the disc right of the fovea for OD, left for OS', async () => {
    const right = await buildSampleExam({ seed: 5, eye: 'OD', ...small });
    const left = await buildSampleExam({ seed: 5, eye: 'OS', ...small });
    expect(right.manifest.exam.eye).toBe('OD');
    expect(left.manifest.exam.eye).toBe('OS');
    expect(right.truth!.opticDisc.center.x).toBeGreaterThan(right.truth!.fovea.x);
    expect(left.truth!.opticDisc.center.x).toBeLessThan(left.truth!.fovea.x);
  });

  it('refuses a capture time that is not an ISO 8601 timestamp with offset', async () => {
    await expect(buildSampleExam({ seed: 1, ...small, capturedAt: '2026-03-29 10:15' })).rejects.toThrow(RangeError);
  });
});

describe('buildSampleExam (wrapping a photograph)', () => {
  let directory: string;
  let jpegPath: string;
  let jpegBytes: Uint8Array;
  let pngPath: string;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'sample-exam-'));
    const pixels = Buffer.alloc(200 * 150 * 3, 0x60);
    jpegBytes = new Uint8Array(await sharp(pixels, { raw: { width: 200, height: 150, channels: 3 } }).jpeg().toBuffer());
    jpegPath = join(directory, 'photo.jpeg');
    await writeFile(jpegPath, jpegBytes);
    pngPath = join(directory, 'photo.png');
    await writeFile(pngPath, await sharp(pixels, { raw: { width: 200, height: 150, channels: 3 } }).png().toBuffer());
    await writeFile(join(directory, 'photo.gif'), await sharp(pixels, { raw: { width: 200, height: 150, channels: 3 } }).gif().toBuffer());
    await writeFile(join(directory, 'notes.txt'), 'not an image');
  });

  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('keeps the photo’s bytes, records its real size and claims no scale or landmarks', async () => {
    const exam = await buildSampleExam({ seed: 4, image: jpegPath });
    const { manifest, images } = readBack(exam.bytes);
    expect(manifest.images[0]).toMatchObject({ file: 'images/fundus.jpg', mediaType: 'image/jpeg', width: 200, height: 150 });
    expect(manifest.images[0].sha256).toBe(sha256(jpegBytes));
    expect(sha256(images['images/fundus.jpg'])).toBe(sha256(jpegBytes));
    expect(manifest.exam.umPerPixel).toBeNull();
    expect(manifest.synthetic).toBeUndefined();
    expect(exam.truth).toBeNull();
  });

  it('wraps a PNG as a PNG', async () => {
    const exam = await buildSampleExam({ seed: 4, image: pngPath });
    expect(exam.manifest.images[0]).toMatchObject({ file: 'images/fundus.png', mediaType: 'image/png', width: 200, height: 150 });
  });

  it('refuses a missing file, a file that is no image, and an image that is neither JPEG nor PNG', async () => {
    await expect(buildSampleExam({ image: join(directory, 'missing.jpg') })).rejects.toThrow(SampleImageError);
    await expect(buildSampleExam({ image: join(directory, 'notes.txt') })).rejects.toThrow(/not a readable image/);
    await expect(buildSampleExam({ image: join(directory, 'photo.gif') })).rejects.toThrow(/only JPEG and PNG/);
  });
});
