// @vitest-environment node
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { crc32 } from './crc32';

const ascii = (text: string) => new TextEncoder().encode(text);

describe('crc32', () => {
  it('gives the check value of CRC-32/ISO-HDLC', () => {
    expect(crc32(ascii('123456789'))).toBe(0xcbf43926);
    expect(crc32(new Uint8Array(0))).toBe(0);
    expect(crc32(ascii('The quick brown fox jumps over the lazy dog'))).toBe(0x414fa339);
  });

  it('agrees with the CRC fflate writes into a ZIP', () => {
    const data = Uint8Array.from({ length: 5000 }, (_, i) => (i * 31 + 7) & 0xff);
    const zip = zipSync({ 'a.bin': data }, { level: 0 });
    const stored = new DataView(zip.buffer, zip.byteOffset).getUint32(14, true);
    expect(crc32(data)).toBe(stored);
  });
});
