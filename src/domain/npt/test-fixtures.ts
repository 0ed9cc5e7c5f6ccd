// Test-only builders of small, valid NPT inputs and image headers (used by the *.test.ts files here).
import { zlibSync } from 'fflate';
import { crc32 } from './crc32';
import type { ExamManifestInput, ParameterSetManifestInput } from './write-npt';

function be32(value: number): number[] {
  return [(value >>> 24) & 0xff, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff];
}

function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const typeBytes = [...type].map((c) => c.charCodeAt(0));
  const body = Uint8Array.from([...typeBytes, ...data]);
  return Uint8Array.from([...be32(data.length), ...body, ...be32(crc32(body))]);
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

const PNG_SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);

/** PNG signature and IHDR (8-bit RGB) followed by `rest` as is. */
export function pngHeader(width: number, height: number, rest: Uint8Array = new Uint8Array(0)): Uint8Array {
  const ihdr = Uint8Array.from([...be32(width), ...be32(height), 8, 2, 0, 0, 0]);
  return concat(PNG_SIGNATURE, pngChunk('IHDR', ihdr), rest);
}

/** A complete, decodable black RGB PNG. */
export function blackPng(width: number, height: number): Uint8Array {
  const rows = new Uint8Array((width * 3 + 1) * height);
  return pngHeader(
    width,
    height,
    concat(pngChunk('IDAT', zlibSync(rows)), pngChunk('IEND', new Uint8Array(0))),
  );
}

/** JPEG SOI, a JFIF APP0 segment and a baseline SOF0 frame header, followed by `rest` and EOI. */
export function jpegHeader(width: number, height: number, rest: Uint8Array = new Uint8Array(0)): Uint8Array {
  const app0 = [0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0, 0];
  const sof0 = [
    0xff, 0xc0, 0x00, 0x11, 0x08, (height >> 8) & 0xff, height & 0xff, (width >> 8) & 0xff, width & 0xff, 0x03,
    0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01,
  ];
  return concat(Uint8Array.from([0xff, 0xd8, ...app0, ...sof0]), rest, Uint8Array.of(0xff, 0xd9));
}

export const FUNDUS_FILE = 'images/fundus.jpg';
export const INFRARED_FILE = 'images/infrared.png';

export function sampleExam(): { manifest: ExamManifestInput; images: Record<string, Uint8Array> } {
  return {
    manifest: {
      createdAt: '2026-11-20T09:15:00+01:00',
      device: { deviceId: 'MLS-2041-0117', opticalHeadId: 'OH-7731', camera: 'Fundus 45 CFP' },
      patient: {
        deviceSideId: 'NPT-0004711',
        name: 'Jürgen',
        secondName: 'Müller-Lüdenscheidt',
        birthday: '1956-02-29',
        gender: 'male',
      },
      exam: { eye: 'OD', capturedAt: '2026-11-20T09:12:31.250+01:00', fieldOfViewDeg: 45, umPerPixel: 6.2 },
      laser: { spotSizeUm: 100, spotSpacing: 2, pulseDurationMs: 15, laserMode: 'micropulse', laserDose: 90, dutyCyclePercent: 5 },
      diagnostics: { iolStatus: 'phakic', centralRetinalThicknessUm: 412, visualAcuityLogMar: 0.3, notes: 'DME, OD' },
      images: [
        { role: 'fundus', file: FUNDUS_FILE, mediaType: 'image/jpeg', width: 96, height: 72 },
        { role: 'infrared', file: INFRARED_FILE, mediaType: 'image/png', width: 64, height: 64 },
      ],
      synthetic: { opticDisc: { center: { x: 70, y: 34 }, radiusPx: 6.5 }, fovea: { x: 46, y: 38 } },
    },
    images: {
      [FUNDUS_FILE]: jpegHeader(96, 72, Uint8Array.of(1, 2, 3, 4, 5)),
      [INFRARED_FILE]: blackPng(64, 64),
    },
  };
}

export function sampleParameterSet(): { manifest: ParameterSetManifestInput } {
  const { createdAt, device, patient, exam } = sampleExam().manifest;
  return {
    manifest: {
      createdAt,
      device,
      patient,
      exam,
      plan: {
        treatmentId: '3f1c2a9e-8b7d-4c6e-9a5f-1d2e3c4b5a69',
        scale: { umPerPixel: 6.2, source: 'manifest' },
        fovea: { x: 46, y: 38 },
        exclusionZones: [
          { kind: 'FAZ', center: { x: 46, y: 38 }, radiusXPx: 80.6, radiusYPx: 80.6, rotationDeg: 0, radiusXUm: 500, radiusYUm: 500 },
          {
            kind: 'ONH',
            center: { x: 70, y: 34 },
            radiusXPx: 9.5,
            radiusYPx: 10.2,
            rotationDeg: -12.5,
            radiusXUm: 890,
            radiusYUm: 950,
            marginUm: 300,
          },
        ],
        laser: { spotSizeUm: 100, spotSpacing: 2, pulseDurationMs: 15, laserMode: 'micropulse', laserDose: 90, dutyCyclePercent: 5, wavelengthNm: 577 },
        spots: [
          { id: 0, x: 30.5, y: 38, xUm: -961, yUm: 0, powerMw: 88.2 },
          { id: 1, x: 61.5, y: 38, xUm: 961, yUm: 0, powerMw: 93.75 },
        ],
        signOff: { by: { id: 'u-17', name: 'Dr. Anna Schäfer' }, at: '2026-11-21T10:02:00Z' },
      },
    },
  };
}

/**
 * A raw deflate stream of 1 + 258 × repeats zero bytes: one fixed-Huffman block of a literal 0 followed by
 * (length 258, distance 1) copies, 13 bits each — about 1 : 159, cheap to build at any size.
 */
export function deflateBomb(repeats: number): Uint8Array {
  const out = new Uint8Array(Math.ceil((3 + 8 + repeats * 13 + 7) / 8) + 1);
  let bit = 0;
  const put = (value: number, count: number) => {
    for (let i = 0; i < count; i++, bit++) if ((value >>> i) & 1) out[bit >>> 3] |= 1 << (bit & 7);
  };
  // Huffman codes go into the stream most significant bit first.
  const code = (value: number, length: number) => {
    for (let i = length - 1; i >= 0; i--, bit++) if ((value >>> i) & 1) out[bit >>> 3] |= 1 << (bit & 7);
  };
  put(1, 1); // BFINAL
  put(1, 2); // BTYPE fixed Huffman
  code(0x30, 8); // literal 0
  for (let i = 0; i < repeats; i++) {
    code(0xc5, 8); // length code 285 = 258
    code(0, 5); // distance code 0 = 1
  }
  code(0, 7); // end of block
  return out.subarray(0, Math.ceil(bit / 8));
}
