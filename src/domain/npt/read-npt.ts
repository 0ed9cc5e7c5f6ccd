// Reads an NPT file strictly. Any input — random bytes, a truncated upload, a hostile ZIP — gives either the
// checked manifest (and image bytes) or one specific NptError; it never throws, and nothing it allocates
// exceeds the limits. The order of the checks is documented in docs/npt-format.md ("Reading order").
import { canonicalJson } from './canonical-json';
import { readImageSize } from './image-header';
import { resolveLimits, limitInMb, type NptLimits } from './limits';
import { MANIFEST_ENTRY, type ExamManifest, type NptKind, type NptManifest, type ParameterSetManifest } from './manifest';
import { displayName, fail, ok, type NptResult } from './npt-error';
import { sha256Hex, sha256HexOfText } from './sha256';
import { validateManifest } from './validate-manifest';
import { extractEntry, readZipDirectory, type ZipEntry } from './zip';

export interface NptExamFile {
  manifest: ExamManifest;
  /** Image bytes keyed by entry name (the manifest's `images[].file`). */
  images: Record<string, Uint8Array>;
}

export interface NptParameterSetFile {
  manifest: ParameterSetManifest;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function parseManifest(bytes: Uint8Array): NptResult<unknown> {
  try {
    return ok(JSON.parse(utf8.decode(bytes)));
  } catch {
    return fail('manifest_invalid');
  }
}

function readImages(bytes: Uint8Array, manifest: ExamManifest, entries: ZipEntry[]): NptResult<NptExamFile> {
  const byName = new Map(entries.map((entry) => [entry.name, entry]));
  const listed = new Set(manifest.images.map((image) => image.file));
  for (const image of manifest.images) {
    if (!byName.has(image.file)) return fail('image_missing', { file: displayName(image.file) });
  }
  for (const entry of entries) {
    if (entry.name !== MANIFEST_ENTRY && !listed.has(entry.name)) {
      return fail('unexpected_entry', { entry: displayName(entry.name) });
    }
  }
  const images: Record<string, Uint8Array> = {};
  for (const image of manifest.images) {
    const entry = byName.get(image.file) as ZipEntry;
    const file = displayName(image.file);
    // The declared size is compared before anything is inflated: a mismatch needs no decompression.
    if (entry.uncompressedSize !== image.size) return fail('checksum_mismatch', { file });
    const content = extractEntry(bytes, entry);
    if (!content.ok) return content;
    if (sha256Hex(content.value) !== image.sha256) return fail('checksum_mismatch', { file });
    const size = readImageSize(content.value, image.mediaType);
    if (!size || size.width !== image.width || size.height !== image.height) return fail('image_invalid', { file });
    images[image.file] = content.value;
  }
  return ok({ manifest, images });
}

function checkPlan(raw: unknown, manifest: ParameterSetManifest, entries: ZipEntry[]): NptResult<NptParameterSetFile> {
  const stray = entries.find((entry) => entry.name !== MANIFEST_ENTRY);
  if (stray) return fail('unexpected_entry', { entry: displayName(stray.name) });
  // Over the plan as written, not as validated: under a later minor version it may hold fields we do not know.
  const plan = (raw as { plan: unknown }).plan;
  let checksum: string;
  try {
    checksum = sha256HexOfText(canonicalJson(plan));
  } catch {
    return fail('checksum_mismatch', { file: MANIFEST_ENTRY });
  }
  if (checksum !== manifest.planSha256) return fail('checksum_mismatch', { file: MANIFEST_ENTRY });
  return ok({ manifest });
}

function read(
  bytes: Uint8Array,
  limits: NptLimits,
  expected: NptKind | undefined,
): NptResult<NptExamFile | NptParameterSetFile> {
  const directory = readZipDirectory(bytes, limits);
  if (!directory.ok) return directory;
  const entries = directory.value;

  const manifestEntry = entries.find((entry) => entry.name === MANIFEST_ENTRY);
  if (!manifestEntry) return fail('manifest_missing');
  if (manifestEntry.uncompressedSize > limits.maxManifestBytes) {
    return fail('too_large', { limitMb: limitInMb(limits.maxManifestBytes) });
  }
  const manifestBytes = extractEntry(bytes, manifestEntry);
  if (!manifestBytes.ok) return manifestBytes;
  const raw = parseManifest(manifestBytes.value);
  if (!raw.ok) return raw;

  const validated = validateManifest(raw.value);
  if (!validated.ok) return validated;
  const manifest: NptManifest = validated.value;
  if (expected && manifest.kind !== expected) return fail('wrong_kind', { kind: manifest.kind });

  return manifest.kind === 'exam' ? readImages(bytes, manifest, entries) : checkPlan(raw.value, manifest, entries);
}

function guarded<T>(run: () => NptResult<T>): NptResult<T> {
  try {
    return run();
  } catch {
    // Every library call above is already guarded where it can fail; this is the last line for the
    // unforeseen (e.g. an allocation the engine refuses), so a bad upload can never become a 500.
    return fail('not_a_zip');
  }
}

/** Reads an exam or a parameter set. */
export function readNpt(
  bytes: Uint8Array,
  limits?: Partial<NptLimits>,
): NptResult<NptExamFile | NptParameterSetFile> {
  return guarded(() => read(bytes, resolveLimits(limits), undefined));
}

/** Reads an exam; a parameter set is refused with wrong_kind. */
export function readExam(bytes: Uint8Array, limits?: Partial<NptLimits>): NptResult<NptExamFile> {
  return guarded(() => read(bytes, resolveLimits(limits), 'exam') as NptResult<NptExamFile>);
}

/** Reads a parameter set; an exam is refused with wrong_kind. */
export function readParameterSet(bytes: Uint8Array, limits?: Partial<NptLimits>): NptResult<NptParameterSetFile> {
  return guarded(() => read(bytes, resolveLimits(limits), 'parameter-set') as NptResult<NptParameterSetFile>);
}

/**
 * readNpt without the last-resort catch. Only for the property tests, which prove that the catch is never
 * needed (any input ends in a specific NptError); production code calls readNpt, readExam or readParameterSet.
 */
export function readNptUnguarded(
  bytes: Uint8Array,
  limits?: Partial<NptLimits>,
): NptResult<NptExamFile | NptParameterSetFile> {
  return read(bytes, resolveLimits(limits), undefined);
}
