// A strict, bounded ZIP reader for NPT containers. The central directory and every local header are
// parsed here with explicit bounds checks instead of trusting a general-purpose unzip: the input is an
// upload from anywhere, and every way it can lie (sizes, offsets, counts, names) must end in a specific
// NptError before anything is allocated from the lie.
import { Inflate } from 'fflate';
import { crc32 } from './crc32';
import { displayName, fail, ok, type NptResult } from './npt-error';
import { limitInMb, type NptLimits } from './limits';

export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflate. */
  method: 0 | 8;
  crc32: number;
  compressedSize: number;
  uncompressedSize: number;
  /** Where the entry's (compressed) bytes start, after its local header. */
  dataOffset: number;
}

/** Record signatures of the ZIP format, shared with the writer. */
export const EOCD_SIGNATURE = 0x06054b50;
const ZIP64_LOCATOR_SIGNATURE = 0x07064b50;
export const CENTRAL_SIGNATURE = 0x02014b50;
export const LOCAL_SIGNATURE = 0x04034b50;
const EOCD_SIZE = 22;
const CENTRAL_SIZE = 46;
const LOCAL_SIZE = 30;
const MAX_COMMENT = 0xffff;

const FLAG_ENCRYPTED = 0x0001;
const FLAG_DATA_DESCRIPTOR = 0x0008;
const FLAG_STRONG_ENCRYPTION = 0x0040;
const FLAG_MASKED_HEADERS = 0x2000;

// ignoreBOM keeps a leading U+FEFF in the name, so '\ufeffmanifest.json' is not taken for the manifest.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function u16(bytes: Uint8Array, at: number): number {
  return bytes[at] | (bytes[at + 1] << 8);
}

function u32(bytes: Uint8Array, at: number): number {
  return (bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16) | (bytes[at + 3] << 24)) >>> 0;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Whether an entry name is unsafe to use as a path. Checked before the name is used for anything else, because a
 * consumer may one day write entries to disk or object storage under their names.
 */
export function unsafeEntryName(name: string): boolean {
  if (name.length === 0) return true;
  // eslint-disable-next-line no-control-regex -- NUL and control characters are what we refuse
  if (/[\u0000-\u001f\u007f]/.test(name)) return true;
  if (name.includes('\\')) return true;
  if (name.startsWith('/')) return true;
  if (/^[A-Za-z]:/.test(name)) return true;
  const segments = name.split('/');
  // A trailing '/' (a directory entry) leaves one empty last segment; that is not traversal.
  const inner = name.endsWith('/') ? segments.slice(0, -1) : segments;
  return inner.some((segment) => segment === '' || segment === '.' || segment === '..');
}

function findEndOfCentralDirectory(bytes: Uint8Array): number {
  const last = bytes.length - EOCD_SIZE;
  const first = Math.max(0, last - MAX_COMMENT);
  for (let at = last; at >= first; at--) {
    // The comment must run exactly to the end of the file: no trailing bytes, no stray signature in a comment.
    if (u32(bytes, at) === EOCD_SIGNATURE && u16(bytes, at + 20) === bytes.length - at - EOCD_SIZE) return at;
  }
  return -1;
}

interface CentralRecord {
  nameBytes: Uint8Array;
  name: string;
  flags: number;
  method: 0 | 8;
  crc32: number;
  compressedSize: number;
  uncompressedSize: number;
  localOffset: number;
}

/**
 * Reads and checks the container's structure: end record, central directory, local headers.
 * Does not decompress anything.
 */
export function readZipDirectory(bytes: Uint8Array, limits: NptLimits): NptResult<ZipEntry[]> {
  if (bytes.length > limits.maxFileBytes) return fail('too_large', { limitMb: limitInMb(limits.maxFileBytes) });
  if (bytes.length < EOCD_SIZE) return fail('not_a_zip');

  const eocd = findEndOfCentralDirectory(bytes);
  if (eocd < 0) return fail('not_a_zip');
  const diskNumber = u16(bytes, eocd + 4);
  const directoryDisk = u16(bytes, eocd + 6);
  const entriesOnDisk = u16(bytes, eocd + 8);
  const entryCount = u16(bytes, eocd + 10);
  const directorySize = u32(bytes, eocd + 12);
  const directoryOffset = u32(bytes, eocd + 16);
  // Multi-disk archives and ZIP64 (whose markers are these all-ones values) are not part of the format.
  if (diskNumber !== 0 || directoryDisk !== 0 || entriesOnDisk !== entryCount) return fail('not_a_zip');
  if (entryCount === 0xffff || directorySize === 0xffffffff || directoryOffset === 0xffffffff) return fail('not_a_zip');
  if (eocd >= 20 && u32(bytes, eocd - 20) === ZIP64_LOCATOR_SIGNATURE) return fail('not_a_zip');

  if (entryCount > limits.maxEntries) return fail('too_many_entries', { limit: limits.maxEntries });
  if (directoryOffset + directorySize !== eocd) return fail('not_a_zip');

  const records: CentralRecord[] = [];
  const seen = new Set<string>();
  let at = directoryOffset;
  for (let index = 0; index < entryCount; index++) {
    if (at + CENTRAL_SIZE > eocd || u32(bytes, at) !== CENTRAL_SIGNATURE) return fail('not_a_zip');
    const flags = u16(bytes, at + 8);
    const method = u16(bytes, at + 10);
    const nameLength = u16(bytes, at + 28);
    const extraLength = u16(bytes, at + 30);
    const commentLength = u16(bytes, at + 32);
    const startDisk = u16(bytes, at + 34);
    const next = at + CENTRAL_SIZE + nameLength + extraLength + commentLength;
    if (next > eocd || startDisk !== 0) return fail('not_a_zip');

    const nameBytes = bytes.subarray(at + CENTRAL_SIZE, at + CENTRAL_SIZE + nameLength);
    let name: string;
    try {
      name = utf8.decode(nameBytes);
    } catch {
      return fail('not_a_zip');
    }
    if (unsafeEntryName(name)) return fail('path_traversal', { entry: displayName(name) });
    if (seen.has(name)) return fail('duplicate_entry', { entry: displayName(name) });
    seen.add(name);

    if (flags & (FLAG_ENCRYPTED | FLAG_STRONG_ENCRYPTION | FLAG_MASKED_HEADERS)) return fail('not_a_zip');
    if (method !== 0 && method !== 8) return fail('not_a_zip');
    const compressedSize = u32(bytes, at + 20);
    const uncompressedSize = u32(bytes, at + 24);
    const localOffset = u32(bytes, at + 42);
    if (compressedSize === 0xffffffff || uncompressedSize === 0xffffffff || localOffset === 0xffffffff) {
      return fail('not_a_zip');
    }
    if (method === 0 && compressedSize !== uncompressedSize) return fail('not_a_zip');
    records.push({
      nameBytes,
      name,
      flags,
      method,
      crc32: u32(bytes, at + 16),
      compressedSize,
      uncompressedSize,
      localOffset,
    });
    at = next;
  }
  if (at !== eocd) return fail('not_a_zip');

  const totalUncompressed = records.reduce((sum, record) => sum + record.uncompressedSize, 0);
  if (totalUncompressed > limits.maxUncompressedBytes) {
    return fail('too_large', { limitMb: limitInMb(limits.maxUncompressedBytes) });
  }

  const entries: ZipEntry[] = [];
  const spans: [number, number][] = [];
  for (const record of records) {
    const local = record.localOffset;
    if (local + LOCAL_SIZE > directoryOffset || u32(bytes, local) !== LOCAL_SIGNATURE) return fail('not_a_zip');
    const localFlags = u16(bytes, local + 6);
    const localNameLength = u16(bytes, local + 26);
    const localExtraLength = u16(bytes, local + 28);
    const dataOffset = local + LOCAL_SIZE + localNameLength + localExtraLength;
    if (dataOffset + record.compressedSize > directoryOffset) return fail('not_a_zip');
    if (!sameBytes(bytes.subarray(local + LOCAL_SIZE, local + LOCAL_SIZE + localNameLength), record.nameBytes)) {
      return fail('not_a_zip');
    }
    if (u16(bytes, local + 8) !== record.method) return fail('not_a_zip');
    if (localFlags & (FLAG_ENCRYPTED | FLAG_STRONG_ENCRYPTION)) return fail('not_a_zip');
    // With a data descriptor the local header may carry zeros; the central directory is authoritative.
    if (!(record.flags & FLAG_DATA_DESCRIPTOR) && !(localFlags & FLAG_DATA_DESCRIPTOR)) {
      if (
        u32(bytes, local + 14) !== record.crc32 ||
        u32(bytes, local + 18) !== record.compressedSize ||
        u32(bytes, local + 22) !== record.uncompressedSize
      ) {
        return fail('not_a_zip');
      }
    }
    spans.push([local, dataOffset + record.compressedSize]);
    entries.push({
      name: record.name,
      method: record.method,
      crc32: record.crc32,
      compressedSize: record.compressedSize,
      uncompressedSize: record.uncompressedSize,
      dataOffset,
    });
  }
  // Overlapping entries are the classic way to make a small ZIP expand many times over.
  spans.sort((a, b) => a[0] - b[0]);
  for (let i = 1; i < spans.length; i++) if (spans[i][0] < spans[i - 1][1]) return fail('not_a_zip');

  return ok(entries);
}

// fflate's largest output per input byte is ~1032 (deflate's maximum ratio).
const DEFLATE_MAX_RATIO = 1032;
// Slices of ≥ 16 KiB keep fflate's per-push copying cheap (measured: 1 KiB slices are 5–10× slower).
const MIN_INFLATE_STEP = 16 * 1024;
const MAX_INFLATE_STEP = 256 * 1024;

/**
 * Inflates `data` into exactly `size` bytes, or null. The input is fed in slices of about size / 1032 and
 * the output is counted as it appears, so a header that lies about the size costs at most one slice's
 * worth of output (≤ max(16 MiB, size)) before it is refused. inflateSync with a fixed `out` buffer would
 * not do: it silently truncates but keeps decoding the whole bomb (≈ 3.5 s per GiB of output, measured).
 */
function inflateExactly(data: Uint8Array, size: number): Uint8Array | null {
  if (data.length === 0) return null;
  const out = new Uint8Array(size);
  let written = 0;
  const inflater = new Inflate((chunk) => {
    // Thrown through fflate to stop decoding at once; caught below.
    if (written + chunk.length > size) throw new RangeError('inflated data larger than declared');
    out.set(chunk, written);
    written += chunk.length;
  });
  const step = Math.min(MAX_INFLATE_STEP, Math.max(MIN_INFLATE_STEP, Math.floor(size / DEFLATE_MAX_RATIO)));
  try {
    for (let offset = 0; offset < data.length; offset += step) {
      const end = Math.min(data.length, offset + step);
      inflater.push(data.subarray(offset, end), end === data.length);
    }
  } catch {
    return null;
  }
  return written === size ? out : null;
}

/** The entry's uncompressed bytes (a copy), checked against its declared size and CRC-32. */
export function extractEntry(bytes: Uint8Array, entry: ZipEntry): NptResult<Uint8Array> {
  const data = bytes.subarray(entry.dataOffset, entry.dataOffset + entry.compressedSize);
  // A fresh Uint8Array: the caller may pass a Node Buffer, whose slice() would share memory.
  const content = entry.method === 0 ? new Uint8Array(data) : inflateExactly(data, entry.uncompressedSize);
  if (content === null || content.length !== entry.uncompressedSize) return fail('not_a_zip');
  if (crc32(content) !== entry.crc32) return fail('not_a_zip');
  return ok(content);
}
