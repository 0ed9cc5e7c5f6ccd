// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { readImageSize, readJpegSize, readPngSize } from './image-header';
import { blackPng, jpegHeader, pngHeader } from './test-fixtures';

describe('readPngSize', () => {
  it('reads width and height from IHDR', () => {
    expect(readPngSize(blackPng(64, 100))).toEqual({ width: 64, height: 100 });
    expect(readPngSize(pngHeader(8192, 70_000))).toEqual({ width: 8192, height: 70_000 });
  });

  it('refuses a wrong signature, a damaged IHDR and zero sizes', () => {
    const png = blackPng(64, 64);
    const badSignature = png.slice();
    badSignature[1] = 0x51;
    expect(readPngSize(badSignature)).toBeNull();
    const badCrc = png.slice();
    badCrc[18] ^= 0x01; // width changed, CRC not
    expect(readPngSize(badCrc)).toBeNull();
    expect(readPngSize(pngHeader(0, 64))).toBeNull();
    expect(readPngSize(jpegHeader(64, 64))).toBeNull();
  });
});

describe('readJpegSize', () => {
  it('reads the baseline frame header after APP segments', () => {
    expect(readJpegSize(jpegHeader(1600, 1200))).toEqual({ width: 1600, height: 1200 });
  });

  it('reads a progressive frame (SOF2) after DHT and fill bytes', () => {
    const dht = [0xff, 0xc4, 0x00, 0x04, 0x00, 0x00];
    const sof2 = [0xff, 0xff, 0xc2, 0x00, 0x0b, 0x08, 0x01, 0x00, 0x02, 0x00, 0x01, 0x01, 0x11, 0x00];
    const jpeg = Uint8Array.from([0xff, 0xd8, ...dht, ...sof2, 0xff, 0xd9]);
    expect(readJpegSize(jpeg)).toEqual({ width: 512, height: 256 });
  });

  it('refuses a missing SOI, scan data before a frame, a zero height and PNG bytes', () => {
    const jpeg = jpegHeader(64, 64);
    expect(readJpegSize(jpeg.subarray(1))).toBeNull();
    expect(readJpegSize(Uint8Array.of(0xff, 0xd8, 0xff, 0xda, 0x00, 0x02, 0xff, 0xd9))).toBeNull();
    expect(readJpegSize(jpegHeader(64, 0))).toBeNull();
    expect(readJpegSize(blackPng(64, 64))).toBeNull();
  });

  it('never reads past the end: every truncation gives null or the size, never an exception', () => {
    for (const full of [jpegHeader(300, 200), blackPng(64, 64)]) {
      for (let length = 0; length < full.length; length++) {
        const part = full.subarray(0, length);
        expect(() => readImageSize(part, 'image/jpeg')).not.toThrow();
        expect(() => readImageSize(part, 'image/png')).not.toThrow();
      }
    }
    expect(readJpegSize(jpegHeader(300, 200).subarray(0, 30))).toBeNull();
  });
});
