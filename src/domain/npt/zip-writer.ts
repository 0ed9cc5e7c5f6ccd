// Writes the ZIP container of an NPT file. Deterministic on purpose: fixed timestamps, no extra fields,
// entries in the given order, so the same content always gives the same bytes (the server recognises a
// repeated upload by the file's SHA-256).
import { deflateSync } from 'fflate';
import { crc32 } from './crc32';
import { CENTRAL_SIGNATURE, EOCD_SIGNATURE, LOCAL_SIGNATURE } from './zip';

export interface ZipWriteEntry {
  name: string;
  data: Uint8Array;
  /** Deflate (method 8) instead of storing; images are already compressed and are stored. */
  deflate: boolean;
}

const VERSION_NEEDED = 20;
const FLAG_UTF8_NAME = 0x0800;
// MS-DOS date 1980-01-01 00:00:00, the earliest a ZIP can express: a timestamp would make output vary.
const DOS_TIME = 0;
const DOS_DATE = (0 << 9) | (1 << 5) | 1;
const DEFLATE_LEVEL = 6;

class ByteWriter {
  private readonly chunks: Uint8Array[] = [];
  length = 0;

  u16(value: number): void {
    this.raw(Uint8Array.of(value & 0xff, (value >>> 8) & 0xff));
  }

  u32(value: number): void {
    this.raw(Uint8Array.of(value & 0xff, (value >>> 8) & 0xff, (value >>> 16) & 0xff, (value >>> 24) & 0xff));
  }

  raw(bytes: Uint8Array): void {
    this.chunks.push(bytes);
    this.length += bytes.length;
  }

  toBytes(): Uint8Array {
    const out = new Uint8Array(this.length);
    let at = 0;
    for (const chunk of this.chunks) {
      out.set(chunk, at);
      at += chunk.length;
    }
    return out;
  }
}

interface Written {
  nameBytes: Uint8Array;
  flags: number;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  offset: number;
}

export function writeZip(entries: readonly ZipWriteEntry[]): Uint8Array {
  const encoder = new TextEncoder();
  const out = new ByteWriter();
  const written: Written[] = [];

  for (const entry of entries) {
    const nameBytes = encoder.encode(entry.name);
    const flags = nameBytes.length !== entry.name.length ? FLAG_UTF8_NAME : 0;
    const method = entry.deflate ? 8 : 0;
    const body = entry.deflate ? deflateSync(entry.data, { level: DEFLATE_LEVEL }) : entry.data;
    const record: Written = {
      nameBytes,
      flags,
      method,
      crc: crc32(entry.data),
      compressedSize: body.length,
      size: entry.data.length,
      offset: out.length,
    };
    out.u32(LOCAL_SIGNATURE);
    out.u16(VERSION_NEEDED);
    out.u16(flags);
    out.u16(method);
    out.u16(DOS_TIME);
    out.u16(DOS_DATE);
    out.u32(record.crc);
    out.u32(record.compressedSize);
    out.u32(record.size);
    out.u16(nameBytes.length);
    out.u16(0);
    out.raw(nameBytes);
    out.raw(body);
    written.push(record);
  }

  const directoryOffset = out.length;
  for (const record of written) {
    out.u32(CENTRAL_SIGNATURE);
    out.u16(VERSION_NEEDED);
    out.u16(VERSION_NEEDED);
    out.u16(record.flags);
    out.u16(record.method);
    out.u16(DOS_TIME);
    out.u16(DOS_DATE);
    out.u32(record.crc);
    out.u32(record.compressedSize);
    out.u32(record.size);
    out.u16(record.nameBytes.length);
    out.u16(0); // extra field length
    out.u16(0); // comment length
    out.u16(0); // disk number start
    out.u16(0); // internal attributes
    out.u32(0); // external attributes
    out.u32(record.offset);
    out.raw(record.nameBytes);
  }
  const directorySize = out.length - directoryOffset;

  out.u32(EOCD_SIGNATURE);
  out.u16(0);
  out.u16(0);
  out.u16(written.length);
  out.u16(written.length);
  out.u32(directorySize);
  out.u32(directoryOffset);
  out.u16(0);
  return out.toBytes();
}
