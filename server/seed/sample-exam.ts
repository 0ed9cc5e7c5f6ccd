// Builds a complete NPT exam file as a laser system would export it: a synthetic fundus (or a real photo
// wrapped as is) plus a plausible patient, device and diagnostics, all derived from one seed. Used by
// `npm run npt:sample`, the demo seed and the server tests.
import { randomInt } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import type { FundusLandmarks } from '../../src/domain/fundus/raster';
import { createSeededRandom, type SeededRandom } from '../../src/domain/fundus/seeded-random';
import { paintSyntheticFundus } from '../../src/domain/fundus/synthetic-fundus';
import type { ExamManifest, NptDiagnostics, NptGender, NptMediaType } from '../../src/domain/npt/manifest';
import { readExam } from '../../src/domain/npt/read-npt';
import { writeExam, type ExamManifestInput } from '../../src/domain/npt/write-npt';
import { applySimilarity, composeSimilarity, type Similarity } from '../../src/domain/registration/similarity';
import { warpRaster } from '../../src/domain/registration/warp';

export interface SampleExamOptions {
  name?: string;
  secondName?: string;
  /** `YYYY-MM-DD`. */
  birthday?: string;
  gender?: NptGender;
  eye?: 'OD' | 'OS';
  /** Everything not given is derived from it; without one a random seed is drawn. */
  seed?: number;
  deviceSideId?: string;
  /** The laser system named in the file (default SAMPLE_DEVICE's). */
  deviceId?: string;
  /** ISO 8601 with offset. */
  capturedAt?: string;
  /** A real fundus photograph (JPEG or PNG) to wrap, byte for byte, instead of painting one. */
  image?: string;
  /** Size of the painted fundus (default 1600 × 1200). */
  width?: number;
  height?: number;
  jpegQuality?: number;
  /**
   * The same eye as the exam of this seed, photographed another day: its painting under `pose` (pass the same
   * `eye`, width and height). For the previous treatment on today's image (issue 17).
   */
  sameEyeAs?: { seed: number; pose: SamplePose };
}

/** How another day's photograph lies on the first: turned and scaled about the image centre, shifted, exposed. */
export interface SamplePose {
  rotationDeg: number;
  scale: number;
  shiftPx: { x: number; y: number };
  /** Exposure factor (1 = the same). */
  gain: number;
}

/** The similarity of a pose: first-day pixels → that day's pixels. */
export function poseTransform(pose: SamplePose, width: number, height: number): Similarity {
  const rad = (pose.rotationDeg * Math.PI) / 180;
  const cx = width / 2;
  const cy = height / 2;
  return composeSimilarity(
    { a: 1, b: 0, tx: -cx, ty: -cy },
    { a: pose.scale * Math.cos(rad), b: pose.scale * Math.sin(rad), tx: cx + pose.shiftPx.x, ty: cy + pose.shiftPx.y },
  );
}

/** The seed of the painting an exam of `seed` has: the first draw after the two forks of its person and exam. */
function paintSeedOf(seed: number): number {
  const random = createSeededRandom(seed);
  random.fork();
  random.fork();
  return random.integer(0, 2 ** 32 - 1);
}

export interface SampleExam {
  /** The .npt file. */
  bytes: Uint8Array;
  /** The manifest as a reader sees it (read back from `bytes`). */
  manifest: ExamManifest;
  /** Where the disc and fovea were painted; null for a wrapped photograph. */
  truth: FundusLandmarks | null;
  /** The seed everything was derived from. */
  seed: number;
}

/** The photo given with `image` cannot be used (missing, unreadable, or neither JPEG nor PNG). */
export class SampleImageError extends Error {
  constructor(
    readonly path: string,
    reason: string,
  ) {
    super(`Cannot use the image ${path}: ${reason}`);
    this.name = 'SampleImageError';
  }
}

export const SAMPLE_DEVICE = { deviceId: 'MLS-2041-0117', opticalHeadId: 'OH-7731', camera: 'Fundus 45 CFP' };
const FIELD_OF_VIEW_DEG = 45;
const DEFAULT_JPEG_QUALITY = 90;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/;

const MALE_NAMES = [
  'Jürgen', 'Klaus', 'Hans-Peter', 'Wolfgang', 'Thomas', 'Michael', 'Stefan', 'Andreas', 'Manfred', 'Dieter',
  'Bernd', 'Uwe', 'Matthias', 'Karl-Heinz', 'Günter', 'Rainer', 'Horst', 'Frank', 'Lars', 'Henrik', 'Pieter',
  'Marco', 'Luca', 'Pierre', 'Tomasz', 'Jan', 'Erik', 'Josef',
];
const FEMALE_NAMES = [
  'Ursula', 'Monika', 'Petra', 'Sabine', 'Gabriele', 'Renate', 'Karin', 'Brigitte', 'Ingrid', 'Helga', 'Claudia',
  'Susanne', 'Andrea', 'Elisabeth', 'Birgit', 'Hannelore', 'Gisela', 'Anneliese', 'Marie-Luise', 'Katarzyna',
  'Sophie', 'Giulia', 'Ingeborg', 'Margarete', 'Agnieszka', 'Élise', 'Astrid', 'Jutta',
];
const OTHER_NAMES = ['Alex', 'Kim', 'Robin', 'Sascha', 'Toni', 'Chris', 'Maxime', 'Andrea'];
const FAMILY_NAMES = [
  'Müller', 'Schmidt', 'Schneider', 'Fischer', 'Weber', 'Meyer', 'Wagner', 'Becker', 'Schulz', 'Hoffmann',
  'Koch', 'Richter', 'Klein', 'Wolf', 'Schröder', 'Neumann', 'Schwarz', 'Zimmermann', 'Braun', 'Krüger',
  'Hartmann', 'Lange', 'Werner', 'Krause', 'Lehmann', 'Huber', 'Köhler', 'Bauer', 'Keller', 'Vogel', 'Jäger',
  'Nowak', 'Kowalski', 'Rossi', 'Dubois', 'Jansen', 'de Vries', 'Andersson', 'Novák', 'Müller-Lüdenscheidt',
  'von Bülow', 'Öztürk',
];
const NOTES = [
  'Diabetic macular oedema, centre-involving.',
  'DME, persistent after anti-VEGF loading phase.',
  'Central serous chorioretinopathy, chronic.',
  'DME; HbA1c 7.9 %.',
  'Follow-up after previous micropulse session.',
];

const DAY_MS = 86_400_000;

const pad = (value: number, digits = 2) => String(value).padStart(digits, '0');

function isoDate(time: number): string {
  const date = new Date(time);
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
}

const BERLIN_OFFSET = new Intl.DateTimeFormat('en-US', { timeZone: 'Europe/Berlin', timeZoneName: 'longOffset' });

/** A local time of day in Germany on the given UTC date, as ISO 8601 with the offset valid then. */
function berlinTimestamp(dayStartUtc: number, secondsIntoDay: number, milliseconds: number): string {
  // The offset of Central European (Summer) Time at that moment: "GMT+01:00" or "GMT+02:00".
  const probe = dayStartUtc + secondsIntoDay * 1000;
  const zone = BERLIN_OFFSET.formatToParts(new Date(probe)).find((part) => part.type === 'timeZoneName')?.value;
  const offset = /GMT([+-]\d{2}):(\d{2})/.exec(zone ?? '');
  const sign = offset ? offset[1] : '+01';
  const minutes = offset ? offset[2] : '00';
  const local = new Date(dayStartUtc + secondsIntoDay * 1000);
  return (
    `${isoDate(dayStartUtc)}T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}` +
    `.${pad(milliseconds, 3)}${sign}:${minutes}`
  );
}

/** Shifts an ISO 8601 timestamp by some seconds, keeping its offset notation. */
function later(timestamp: string, seconds: number): string {
  const moment = Date.parse(timestamp);
  const offset = /(Z|[+-]\d{2}:\d{2})$/.exec(timestamp)?.[1] ?? 'Z';
  const offsetMinutes = offset === 'Z' ? 0 : (offset.startsWith('-') ? -1 : 1) * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4)));
  const local = new Date(moment + seconds * 1000 + offsetMinutes * 60_000);
  return (
    `${isoDate(local.getTime())}T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}` +
    `${offset}`
  );
}

interface Person {
  name: string;
  secondName: string;
  birthday: string;
  gender: NptGender;
}

/** A person drawn from the seed; a given name or gender overrides without shifting the other draws. */
function invent(random: SeededRandom, given: SampleExamOptions): Person & { deviceSideId: string } {
  const roll = random.next();
  const drawnGender: NptGender = roll < 0.49 ? 'male' : roll < 0.98 ? 'female' : 'other';
  const firstNames = { male: random.pick(MALE_NAMES), female: random.pick(FEMALE_NAMES), other: random.pick(OTHER_NAMES) };
  const secondName = random.pick(FAMILY_NAMES);
  const from = Date.UTC(1935, 0, 1);
  const to = Date.UTC(1985, 11, 31);
  const birthday = isoDate(from + random.integer(0, Math.round((to - from) / DAY_MS)) * DAY_MS);
  const deviceSideId = `NPT-${pad(random.integer(1, 9_999_999), 7)}`;
  const gender = given.gender ?? drawnGender;
  return {
    name: given.name ?? firstNames[gender],
    secondName: given.secondName ?? secondName,
    birthday: given.birthday ?? birthday,
    gender,
    deviceSideId: given.deviceSideId ?? deviceSideId,
  };
}

function diagnose(random: SeededRandom, birthday: string, capturedAt: string): NptDiagnostics {
  const age = (Date.parse(capturedAt) - Date.parse(birthday)) / (365.25 * DAY_MS);
  // Cataract surgery is common from the sixties on.
  const pseudophakia = Math.min(0.8, Math.max(0.05, (age - 55) / 30));
  const roll = random.next();
  return {
    iolStatus: roll < 0.05 ? null : roll < 0.05 + pseudophakia ? 'pseudophakic' : roll < 0.98 ? 'phakic' : 'aphakic',
    centralRetinalThicknessUm: random.chance(0.9) ? random.integer(280, 560) : null,
    visualAcuityLogMar: random.chance(0.9) ? Math.round(random.uniform(0, 1) * 10) / 10 : null,
    notes: random.chance(0.7) ? random.pick(NOTES) : null,
  };
}

interface FundusImage {
  file: string;
  mediaType: NptMediaType;
  width: number;
  height: number;
  bytes: Uint8Array;
}

async function wrapPhoto(path: string): Promise<FundusImage> {
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await readFile(path));
  } catch (error) {
    throw new SampleImageError(path, (error as NodeJS.ErrnoException).code ?? String(error));
  }
  const metadata = await sharp(bytes)
    .metadata()
    .catch(() => {
      throw new SampleImageError(path, 'not a readable image');
    });
  if ((metadata.format !== 'jpeg' && metadata.format !== 'png') || !metadata.width || !metadata.height) {
    throw new SampleImageError(path, `a ${metadata.format ?? 'unknown'} file; only JPEG and PNG can be wrapped`);
  }
  // The stored size, not the EXIF-rotated one: the manifest describes the bytes as they are.
  const jpeg = metadata.format === 'jpeg';
  return {
    file: jpeg ? 'images/fundus.jpg' : 'images/fundus.png',
    mediaType: jpeg ? 'image/jpeg' : 'image/png',
    width: metadata.width,
    height: metadata.height,
    bytes,
  };
}

/** The painting of `sameEyeAs.seed`'s exam under the pose: the same eye, vessels and all, another day. */
function anotherDay(eye: 'OD' | 'OS', sameEyeAs: { seed: number; pose: SamplePose }, width?: number, height?: number) {
  const first = paintSyntheticFundus({ width, height, eye, seed: paintSeedOf(sameEyeAs.seed) });
  const t = poseTransform(sameEyeAs.pose, first.raster.width, first.raster.height);
  const raster = warpRaster(first.raster, t);
  for (let i = 0; i < raster.data.length; i += 1) raster.data[i] = raster.data[i] * sameEyeAs.pose.gain;
  const { opticDisc, fovea } = first.truth;
  return {
    raster,
    truth: {
      opticDisc: { center: applySimilarity(t, opticDisc.center), radiusPx: opticDisc.radiusPx * sameEyeAs.pose.scale },
      fovea: applySimilarity(t, fovea),
    },
    umPerPixel: first.umPerPixel / sameEyeAs.pose.scale,
  };
}

export async function buildSampleExam(options: SampleExamOptions = {}): Promise<SampleExam> {
  const seed = options.seed ?? randomInt(0, 2 ** 32);
  const random = createSeededRandom(seed);
  // Separate streams, so that giving e.g. a name does not change the eye or the picture of a seed.
  const personRandom = random.fork();
  const examRandom = random.fork();
  const paintSeed = paintSeedOf(seed);

  const { deviceSideId, ...person } = invent(personRandom, options);

  const eye = options.eye ?? (examRandom.chance(0.5) ? 'OD' : 'OS');
  const firstDay = Date.UTC(2025, 0, 2);
  const day = firstDay + examRandom.integer(0, 660) * DAY_MS;
  // Clinic hours: 08:00 … 17:59 local time, taken as UTC wall time and labelled with Berlin's offset.
  const drawnCapture = berlinTimestamp(day, examRandom.integer(8 * 3600, 18 * 3600 - 1), examRandom.integer(0, 999));
  const capturedAt = options.capturedAt ?? drawnCapture;
  if (!TIMESTAMP.test(capturedAt) || Number.isNaN(Date.parse(capturedAt))) {
    throw new RangeError(`capturedAt must be an ISO 8601 timestamp with seconds and an offset, got ${capturedAt}`);
  }
  // The laser exports the exam a few minutes after the capture.
  const createdAt = later(capturedAt, examRandom.integer(60, 1800));
  const diagnostics = diagnose(examRandom, person.birthday, capturedAt);

  let image: FundusImage;
  let truth: FundusLandmarks | null = null;
  let umPerPixel: number | null = null;
  if (options.image !== undefined) {
    image = await wrapPhoto(options.image);
  } else {
    const painted = options.sameEyeAs ? anotherDay(eye, options.sameEyeAs, options.width, options.height) : null;
    const fundus = painted ?? paintSyntheticFundus({ width: options.width, height: options.height, eye, seed: paintSeed });
    const { raster } = fundus;
    const jpeg = await sharp(Buffer.from(raster.data.buffer, raster.data.byteOffset, raster.data.byteLength), {
      raw: { width: raster.width, height: raster.height, channels: 3 },
    })
      .jpeg({ quality: options.jpegQuality ?? DEFAULT_JPEG_QUALITY, mozjpeg: false })
      .toBuffer();
    image = {
      file: 'images/fundus.jpg',
      mediaType: 'image/jpeg',
      width: raster.width,
      height: raster.height,
      bytes: new Uint8Array(jpeg.buffer, jpeg.byteOffset, jpeg.byteLength),
    };
    truth = fundus.truth;
    umPerPixel = fundus.umPerPixel;
  }

  const manifest: ExamManifestInput = {
    createdAt,
    device: { ...SAMPLE_DEVICE, ...(options.deviceId && { deviceId: options.deviceId }) },
    patient: { deviceSideId, ...person },
    exam: { eye, capturedAt, fieldOfViewDeg: FIELD_OF_VIEW_DEG, umPerPixel },
    laser: { spotSizeUm: 100, spotSpacing: 2, pulseDurationMs: 15, laserMode: 'micropulse', laserDose: 90, dutyCyclePercent: 5 },
    diagnostics,
    images: [
      { role: 'fundus', file: image.file, mediaType: image.mediaType, width: image.width, height: image.height },
    ],
    ...(truth ? { synthetic: { opticDisc: truth.opticDisc, fovea: truth.fovea } } : {}),
  };
  const bytes = writeExam({ manifest, images: { [image.file]: image.bytes } });
  const read = readExam(bytes);
  // The writer validates with the reader's rules, so this cannot fail unless the codec is broken.
  if (!read.ok) throw new Error(`The sample exam does not read back: ${read.error.code} ${read.error.field ?? ''}`);
  return { bytes, manifest: read.value.manifest, truth, seed };
}
