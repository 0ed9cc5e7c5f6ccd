// Writes NPT files: the exams our generator makes, and the signed-off parameter set handed back to the
// laser. The writer fills in what it can compute (image size and SHA-256, planSha256) and checks the result
// with the reader's own validation, so it never produces a file the reader would refuse. Output is
// deterministic: the same input gives the same bytes.
import { canonicalJson } from './canonical-json';
import { readImageSize } from './image-header';
import { DEFAULT_NPT_LIMITS } from './limits';
import {
  MANIFEST_ENTRY,
  NPT_FORMAT,
  NPT_VERSION,
  type ExamManifest,
  type NptImageEntry,
  type NptManifest,
  type ParameterSetManifest,
} from './manifest';
import type { NptError } from './npt-error';
import { sha256Hex, sha256HexOfText } from './sha256';
import { validateManifest } from './validate-manifest';
import { writeZip, type ZipWriteEntry } from './zip-writer';

export { canonicalJson };

export type ExamManifestInput = Omit<ExamManifest, 'format' | 'version' | 'kind' | 'images'> & {
  images: Omit<NptImageEntry, 'size' | 'sha256'>[];
};

export type ParameterSetManifestInput = Omit<ParameterSetManifest, 'format' | 'version' | 'kind' | 'planSha256'>;

/** The input would give a file that readers refuse; `error` says why, as the reader would. */
export class NptWriteError extends Error {
  constructor(readonly error: NptError) {
    const detail = error.field ?? Object.values(error.params).join(', ');
    super(`Cannot write the NPT file: ${error.code}${detail ? ` (${detail})` : ''}`);
    this.name = 'NptWriteError';
  }
}

/** Dotted path of the first NaN or ±Infinity in `value`, or null. */
function nonFiniteNumberAt(value: unknown, path: string): string | null {
  if (typeof value === 'number') return Number.isFinite(value) ? null : path;
  if (typeof value !== 'object' || value === null) return null;
  const members: [string, unknown][] = Array.isArray(value)
    ? value.map((element, i): [string, unknown] => [`${path}[${i}]`, element])
    : Object.entries(value).map(([key, member]): [string, unknown] => [path ? `${path}.${key}` : key, member]);
  for (const [memberPath, member] of members) {
    const found = nonFiniteNumberAt(member, memberPath);
    if (found !== null) return found;
  }
  return null;
}

/**
 * The manifest as a reader will see it: JSON drops undefined members, and NaN or Infinity would silently
 * turn into null, which for a nullable field would change its meaning, so they are refused here.
 */
function asJsonData(value: unknown): unknown {
  const field = nonFiniteNumberAt(value, '');
  if (field !== null) throw new NptWriteError({ code: 'field_invalid', field, params: { field } });
  return JSON.parse(JSON.stringify(value));
}

function validated(raw: unknown): NptManifest {
  const result = validateManifest(asJsonData(raw));
  if (!result.ok) throw new NptWriteError(result.error);
  return result.value;
}

function manifestEntry(manifest: NptManifest): ZipWriteEntry {
  // Pretty-printed so that support staff can read a file with any ZIP tool.
  const data = new TextEncoder().encode(`${JSON.stringify(manifest, null, 2)}\n`);
  if (data.length > DEFAULT_NPT_LIMITS.maxManifestBytes) {
    throw new NptWriteError({ code: 'too_large', params: { limitMb: DEFAULT_NPT_LIMITS.maxManifestBytes / 2 ** 20 } });
  }
  return { name: MANIFEST_ENTRY, data, deflate: true };
}

export function writeExam(input: { manifest: ExamManifestInput; images: Record<string, Uint8Array> }): Uint8Array {
  const listed = new Set(input.manifest.images.map((image) => image.file));
  for (const name of Object.keys(input.images)) {
    if (!listed.has(name)) throw new NptWriteError({ code: 'unexpected_entry', params: { entry: name } });
  }
  const images = input.manifest.images.map((image): NptImageEntry => {
    const bytes = Object.hasOwn(input.images, image.file) ? input.images[image.file] : undefined;
    if (!bytes) throw new NptWriteError({ code: 'image_missing', params: { file: image.file } });
    return { ...image, size: bytes.length, sha256: sha256Hex(bytes) };
  });
  const manifest = validated({ ...input.manifest, format: NPT_FORMAT, version: NPT_VERSION, kind: 'exam', images });
  if (manifest.kind !== 'exam') throw new TypeError('unreachable: the exam manifest changed kind');

  let total = 0;
  const entries = [manifestEntry(manifest)];
  for (const image of manifest.images) {
    const bytes = input.images[image.file];
    const size = readImageSize(bytes, image.mediaType);
    if (!size || size.width !== image.width || size.height !== image.height) {
      throw new NptWriteError({ code: 'image_invalid', params: { file: image.file } });
    }
    total += bytes.length;
    // JPEG and PNG are compressed already: storing them costs nothing and keeps writing fast.
    entries.push({ name: image.file, data: bytes, deflate: false });
  }
  if (total + entries[0].data.length > DEFAULT_NPT_LIMITS.maxUncompressedBytes) {
    throw new NptWriteError({
      code: 'too_large',
      params: { limitMb: DEFAULT_NPT_LIMITS.maxUncompressedBytes / 2 ** 20 },
    });
  }
  return writeZip(entries);
}

export function writeParameterSet(input: { manifest: ParameterSetManifestInput }): Uint8Array {
  const raw = asJsonData({ ...input.manifest, format: NPT_FORMAT, version: NPT_VERSION, kind: 'parameter-set' });
  const plan = (raw as { plan?: unknown }).plan;
  // A plan that is not JSON data fails validation below with the field that is wrong; the checksum is moot.
  const planSha256 = plan === undefined ? '' : sha256HexOfText(canonicalJson(plan));
  const manifest = validated({ ...(raw as object), planSha256 });
  return writeZip([manifestEntry(manifest)]);
}
