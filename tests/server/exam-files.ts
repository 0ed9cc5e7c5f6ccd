// NPT files for the upload tests: valid exams from the project's generator and malformed variants of them,
// made by editing the container's entries (fflate) or its bytes.
import { deflateSync, strToU8, unzipSync, zipSync } from 'fflate';
import { buildSampleExam, type SampleExamOptions } from '../../server/seed/sample-exam';

type Manifest = Record<string, unknown> & {
  patient: Record<string, unknown>;
  exam: Record<string, unknown>;
  images: Record<string, unknown>[];
};

/** A small valid exam (640 × 480 fundus) for fast tests. */
export async function smallExam(options: SampleExamOptions = {}) {
  return buildSampleExam({ width: 640, height: 480, ...options });
}

export function entriesOf(bytes: Uint8Array): Record<string, Uint8Array> {
  return unzipSync(bytes);
}

export function repack(bytes: Uint8Array, edit: (entries: Record<string, Uint8Array>) => void): Uint8Array {
  const entries = entriesOf(bytes);
  edit(entries);
  return zipSync(entries, { level: 0 });
}

export function withManifest(bytes: Uint8Array, edit: (manifest: Manifest) => void): Uint8Array {
  return repack(bytes, (entries) => {
    const manifest = JSON.parse(new TextDecoder().decode(entries['manifest.json'])) as Manifest;
    edit(manifest);
    entries['manifest.json'] = strToU8(JSON.stringify(manifest));
  });
}

export const fundusEntry = (bytes: Uint8Array) => {
  const manifest = JSON.parse(new TextDecoder().decode(entriesOf(bytes)['manifest.json'])) as Manifest;
  return String(manifest.images[0].file);
};

/** A ZIP whose single entry claims 1,000 bytes but inflates to `realBytes` zeros. */
export function lyingZipBomb(realBytes: number): Uint8Array {
  const data = deflateSync(new Uint8Array(realBytes), { level: 9 });
  return rawZip('manifest.json', data, 8, 1000, 0);
}

/** A ZIP whose single entry declares `declaredBytes` uncompressed (e.g. 4 GB from a few bytes). */
export function declaredZipBomb(declaredBytes: number): Uint8Array {
  const data = deflateSync(new Uint8Array(1024));
  return rawZip('manifest.json', data, 8, declaredBytes, 0);
}

/** One-entry ZIP written by hand, so that headers can say what a normal writer would never write. */
export function rawZip(name: string, data: Uint8Array, method: number, uncompressed: number, flags: number): Uint8Array {
  const nameBytes = strToU8(name);
  const local = new Uint8Array(30 + nameBytes.length);
  const lv = new DataView(local.buffer);
  lv.setUint32(0, 0x04034b50, true);
  lv.setUint16(4, 20, true);
  lv.setUint16(6, flags, true);
  lv.setUint16(8, method, true);
  lv.setUint32(14, 0, true);
  lv.setUint32(18, data.length, true);
  lv.setUint32(22, uncompressed >>> 0, true);
  lv.setUint16(26, nameBytes.length, true);
  local.set(nameBytes, 30);
  const central = new Uint8Array(46 + nameBytes.length);
  const cv = new DataView(central.buffer);
  cv.setUint32(0, 0x02014b50, true);
  cv.setUint16(4, 20, true);
  cv.setUint16(6, 20, true);
  cv.setUint16(8, flags, true);
  cv.setUint16(10, method, true);
  cv.setUint32(20, data.length, true);
  cv.setUint32(24, uncompressed >>> 0, true);
  cv.setUint16(28, nameBytes.length, true);
  cv.setUint32(42, 0, true);
  central.set(nameBytes, 46);
  const end = new Uint8Array(22);
  const ev = new DataView(end.buffer);
  ev.setUint32(0, 0x06054b50, true);
  ev.setUint16(8, 1, true);
  ev.setUint16(10, 1, true);
  ev.setUint32(12, central.length, true);
  ev.setUint32(16, local.length + data.length, true);
  const out = new Uint8Array(local.length + data.length + central.length + end.length);
  out.set(local, 0);
  out.set(data, local.length);
  out.set(central, local.length + data.length);
  out.set(end, local.length + data.length + central.length);
  return out;
}

/** A JPEG whose header is intact (SOI, APP0, DQT, SOF0 with the given size) but whose pixels are noise. */
export function undecodableJpeg(header: Uint8Array): Uint8Array {
  // Keep everything up to the start of scan (FFDA), then garbage without a valid Huffman stream.
  let sos = -1;
  for (let i = 2; i < header.length - 1; i += 1) {
    if (header[i] === 0xff && header[i + 1] === 0xda) {
      sos = i;
      break;
    }
  }
  const head = header.subarray(0, sos > 0 ? sos : header.length);
  const garbage = new Uint8Array(4096).map((_, i) => (i * 37 + 11) & 0xfe);
  const out = new Uint8Array(head.length + garbage.length + 2);
  out.set(head, 0);
  out.set(garbage, head.length);
  out.set([0xff, 0xd9], head.length + garbage.length);
  return out;
}
