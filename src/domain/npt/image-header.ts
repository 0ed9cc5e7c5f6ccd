// Width and height from the header of a JPEG or PNG, without decoding pixels (the server decodes with
// sharp later). Enough to tell that the bytes are the declared type and the declared size.
import { crc32 } from './crc32';

export type ImageMediaType = 'image/jpeg' | 'image/png';

export interface ImageSize {
  width: number;
  height: number;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const IHDR = [0x49, 0x48, 0x44, 0x52];

function u32be(bytes: Uint8Array, at: number): number {
  return ((bytes[at] << 24) | (bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3]) >>> 0;
}

function u16be(bytes: Uint8Array, at: number): number {
  return (bytes[at] << 8) | bytes[at + 1];
}

function startsWith(bytes: Uint8Array, at: number, expected: readonly number[]): boolean {
  return expected.every((value, i) => bytes[at + i] === value);
}

/** PNG: the signature, then IHDR as the first chunk (13 bytes, with a correct CRC). */
export function readPngSize(bytes: Uint8Array): ImageSize | null {
  if (bytes.length < 33 || !startsWith(bytes, 0, PNG_SIGNATURE)) return null;
  if (u32be(bytes, 8) !== 13 || !startsWith(bytes, 12, IHDR)) return null;
  if (crc32(bytes.subarray(12, 29)) !== u32be(bytes, 29)) return null;
  const width = u32be(bytes, 16);
  const height = u32be(bytes, 20);
  return width > 0 && height > 0 ? { width, height } : null;
}

// Start-of-frame markers: every SOFn except DHT (C4), JPG (C8) and DAC (CC), which share the range.
function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

/** JPEG: SOI, then marker segments up to the first start-of-frame, which holds height and width. */
export function readJpegSize(bytes: Uint8Array): ImageSize | null {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return null;
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1];
    if (marker === 0xff) {
      // Fill byte before a marker.
      at += 1;
      continue;
    }
    // Markers without a length: TEM and RSTn. SOI again, EOI or SOS before a frame header mean no image.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    if (marker === 0xd8 || marker === 0xd9 || marker === 0xda || marker === 0x00) return null;
    const length = u16be(bytes, at + 2);
    if (length < 2 || at + 2 + length > bytes.length) return null;
    if (isStartOfFrame(marker)) {
      if (length < 8) return null;
      const height = u16be(bytes, at + 5);
      const width = u16be(bytes, at + 7);
      return width > 0 && height > 0 ? { width, height } : null;
    }
    at += 2 + length;
  }
  return null;
}

export function readImageSize(bytes: Uint8Array, mediaType: ImageMediaType): ImageSize | null {
  return mediaType === 'image/png' ? readPngSize(bytes) : readJpegSize(bytes);
}
