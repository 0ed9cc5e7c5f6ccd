// @vitest-environment node
import { inflateSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { DEFAULT_NPT_LIMITS, type NptLimits } from './limits';
import { extractEntry, readZipDirectory, unsafeEntryName, type ZipEntry } from './zip';
import { deflateBomb } from './test-fixtures';
import { writeZip } from './zip-writer';

const text = (value: string) => new TextEncoder().encode(value);
const limits: NptLimits = { ...DEFAULT_NPT_LIMITS };

function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Offsets of the local headers, central headers and end record of a ZIP whose contents hold no signatures. */
function layout(zip: Uint8Array): { locals: number[]; centrals: number[]; eocd: number } {
  const find = (signature: number) => {
    const found: number[] = [];
    for (let i = 0; i + 4 <= zip.length; i++) if (view(zip).getUint32(i, true) === signature) found.push(i);
    return found;
  };
  return { locals: find(0x04034b50), centrals: find(0x02014b50), eocd: find(0x06054b50)[0] };
}

function twoEntries(): Uint8Array {
  return writeZip([
    { name: 'manifest.json', data: text('{"a":1}'), deflate: true },
    { name: 'images/fundus.jpg', data: text('not really a jpeg'), deflate: false },
  ]);
}

function directory(zip: Uint8Array, overrides: Partial<NptLimits> = {}) {
  return readZipDirectory(zip, { ...limits, ...overrides });
}

function codeOf(zip: Uint8Array, overrides: Partial<NptLimits> = {}): string {
  const result = directory(zip, overrides);
  return result.ok ? 'ok' : result.error.code;
}

function entries(zip: Uint8Array): ZipEntry[] {
  const result = directory(zip);
  if (!result.ok) throw new Error(result.error.code);
  return result.value;
}

function contentOf(zip: Uint8Array, entry: ZipEntry): string {
  const result = extractEntry(zip, entry);
  return result.ok ? new TextDecoder().decode(result.value) : result.error.code;
}

describe('reading the directory', () => {
  it('reads our own container and one written by fflate (deflated, with timestamps and a comment)', () => {
    const own = twoEntries();
    expect(entries(own).map((entry) => [entry.name, entry.method, contentOf(own, entry)])).toEqual([
      ['manifest.json', 8, '{"a":1}'],
      ['images/fundus.jpg', 0, 'not really a jpeg'],
    ]);
    const foreign = zipSync(
      { 'manifest.json': text('{"b":2}'), 'images/x.png': [text('x'.repeat(1000)), { level: 9 }] },
      { mtime: new Date('2024-03-01T12:00:00Z'), comment: 'exported by MLS' },
    );
    expect(entries(foreign).map((entry) => contentOf(foreign, entry))).toEqual(['{"b":2}', 'x'.repeat(1000)]);
  });

  it('refuses what is not a ZIP', () => {
    expect(codeOf(new Uint8Array(0))).toBe('not_a_zip');
    expect(codeOf(new Uint8Array(21))).toBe('not_a_zip');
    expect(codeOf(text('%PDF-1.7 this is a PDF, not an NPT file at all'))).toBe('not_a_zip');
  });

  it('refuses bytes after the end record, or a comment length that does not reach the end', () => {
    const zip = twoEntries();
    expect(codeOf(Uint8Array.from([...zip, 0]))).toBe('not_a_zip');
    const comment = zip.slice();
    view(comment).setUint16(comment.length - 2, 5, true);
    expect(codeOf(comment)).toBe('not_a_zip');
  });

  it('refuses multi-disk and ZIP64 archives', () => {
    const { eocd } = layout(twoEntries());
    for (const [offset, value, size] of [
      [4, 1, 2], // this disk
      [6, 1, 2], // disk of the central directory
      [8, 1, 2], // entries on this disk ≠ total
      [10, 0xffff, 2], // ZIP64 entry count marker
      [16, 0xffffffff, 4], // ZIP64 offset marker
    ] as const) {
      const zip = twoEntries();
      if (size === 2) view(zip).setUint16(eocd + offset, value, true);
      else view(zip).setUint32(eocd + offset, value, true);
      expect(codeOf(zip), `EOCD+${offset}`).toBe('not_a_zip');
    }
    const zip = twoEntries();
    const withLocator = new Uint8Array(zip.length + 20);
    withLocator.set(zip.subarray(0, eocd));
    view(withLocator).setUint32(eocd, 0x07064b50, true);
    withLocator.set(zip.subarray(eocd), eocd + 20);
    view(withLocator).setUint32(eocd + 20 + 16, eocd + 20, true);
    expect(codeOf(withLocator)).toBe('not_a_zip');
  });

  it('checks the entry count of the end record against the limit before walking the directory', () => {
    const zip = twoEntries();
    const { eocd } = layout(zip);
    view(zip).setUint16(eocd + 8, 33, true);
    view(zip).setUint16(eocd + 10, 33, true);
    expect(directory(zip)).toEqual({ ok: false, error: { code: 'too_many_entries', params: { limit: 32 } } });
    expect(codeOf(twoEntries(), { maxEntries: 1 })).toBe('too_many_entries');
    expect(codeOf(twoEntries(), { maxEntries: 2 })).toBe('ok');
  });

  it('refuses a directory that does not end at the end record or holds fewer records than counted', () => {
    const shifted = twoEntries();
    const { eocd } = layout(shifted);
    view(shifted).setUint32(eocd + 16, view(shifted).getUint32(eocd + 16, true) + 1, true);
    expect(codeOf(shifted)).toBe('not_a_zip');
    const counted = twoEntries();
    view(counted).setUint16(eocd + 8, 3, true);
    view(counted).setUint16(eocd + 10, 3, true);
    expect(codeOf(counted)).toBe('not_a_zip');
  });

  it('refuses file and uncompressed sizes over the limits', () => {
    const zip = twoEntries();
    expect(directory(zip, { maxFileBytes: zip.length - 1 })).toMatchObject({ ok: false, error: { code: 'too_large' } });
    expect(codeOf(zip, { maxFileBytes: zip.length })).toBe('ok');
    expect(directory(zip, { maxUncompressedBytes: 23 })).toEqual({
      ok: false,
      error: { code: 'too_large', params: { limitMb: 0 } },
    });
    expect(codeOf(zip, { maxUncompressedBytes: 24 })).toBe('ok');
    const big = twoEntries();
    const { centrals, locals } = layout(big);
    view(big).setUint32(centrals[0] + 24, 300 * 2 ** 20, true);
    view(big).setUint32(locals[0] + 22, 300 * 2 ** 20, true);
    expect(directory(big)).toEqual({ ok: false, error: { code: 'too_large', params: { limitMb: 256 } } });
  });
});

describe('entry names', () => {
  it.each([
    ['../evil.jpg'],
    ['images/../../evil.jpg'],
    ['/etc/passwd'],
    ['C:evil.jpg'],
    ['c:/windows/evil.jpg'],
    ['images\\evil.jpg'],
    ['evil\u0000.jpg'],
    ['evil\n.jpg'],
    ['images/./fundus.jpg'],
    ['images//fundus.jpg'],
    ['..'],
    [''],
  ])('%j is path_traversal', (name) => {
    expect(unsafeEntryName(name)).toBe(true);
    const zip = writeZip([
      { name: 'manifest.json', data: text('{}'), deflate: false },
      { name, data: text('x'), deflate: false },
    ]);
    const result = directory(zip);
    expect(result).toMatchObject({ ok: false, error: { code: 'path_traversal' } });
    expect(result.ok || String(result.error.params.entry)).not.toMatch(/[\u0000-\u001f]/); // eslint-disable-line no-control-regex
  });

  it('allows ordinary names, non-ASCII names and directory entries (refused later as unexpected)', () => {
    for (const name of ['manifest.json', 'images/fundus.jpg', 'Bilder/Größe 1.png', 'images/', 'a..b.jpg']) {
      expect(unsafeEntryName(name), name).toBe(false);
    }
    const zip = writeZip([
      { name: 'images/', data: new Uint8Array(0), deflate: false },
      { name: 'Bilder/Größe.png', data: text('x'), deflate: false },
    ]);
    expect(entries(zip).map((entry) => entry.name)).toEqual(['images/', 'Bilder/Größe.png']);
  });

  it('refuses names that are not UTF-8', () => {
    const zip = writeZip([{ name: 'ab.jpg', data: text('x'), deflate: false }]);
    const { locals, centrals } = layout(zip);
    zip[locals[0] + 30] = 0xff;
    zip[centrals[0] + 46] = 0xff;
    expect(codeOf(zip)).toBe('not_a_zip');
  });

  it('refuses the same name twice as duplicate_entry', () => {
    const zip = writeZip([
      { name: 'images/a.jpg', data: text('1'), deflate: false },
      { name: 'images/a.jpg', data: text('2'), deflate: false },
    ]);
    expect(directory(zip)).toEqual({ ok: false, error: { code: 'duplicate_entry', params: { entry: 'images/a.jpg' } } });
  });

  it('shortens a very long name for messages', () => {
    const name = `${'../'.repeat(400)}x`;
    const zip = writeZip([{ name, data: text('x'), deflate: false }]);
    const result = directory(zip);
    expect(result.ok ? '' : String(result.error.params.entry).length).toBe(120);
  });
});

describe('entry headers', () => {
  function patched(patch: (zip: Uint8Array, at: { locals: number[]; centrals: number[] }) => void): Uint8Array {
    const zip = twoEntries();
    patch(zip, layout(zip));
    return zip;
  }

  it('refuses encrypted entries and unsupported compression methods', () => {
    expect(codeOf(patched((zip, at) => { view(zip).setUint16(at.centrals[1] + 8, 1, true); view(zip).setUint16(at.locals[1] + 6, 1, true); }))).toBe('not_a_zip');
    expect(codeOf(patched((zip, at) => view(zip).setUint16(at.centrals[1] + 8, 0x40, true)))).toBe('not_a_zip');
    expect(codeOf(patched((zip, at) => { view(zip).setUint16(at.centrals[0] + 10, 12, true); view(zip).setUint16(at.locals[0] + 8, 12, true); }))).toBe('not_a_zip');
    expect(codeOf(patched((zip, at) => { view(zip).setUint16(at.centrals[0] + 10, 0, true); view(zip).setUint16(at.locals[0] + 8, 0, true); }))).toBe('not_a_zip');
  });

  it('refuses local headers that disagree with the central directory', () => {
    expect(codeOf(patched((zip, at) => (zip[at.locals[1]] = 0x51)))).toBe('not_a_zip');
    expect(codeOf(patched((zip, at) => (zip[at.locals[1] + 30] = 0x49)))).toBe('not_a_zip');
    expect(codeOf(patched((zip, at) => view(zip).setUint16(at.locals[1] + 8, 8, true)))).toBe('not_a_zip');
    expect(codeOf(patched((zip, at) => view(zip).setUint32(at.locals[1] + 14, 1, true)))).toBe('not_a_zip');
    expect(codeOf(patched((zip, at) => view(zip).setUint32(at.centrals[1] + 42, 1, true)))).toBe('not_a_zip');
  });

  it('refuses entries whose data overlaps another entry', () => {
    const zip = twoEntries();
    const { locals, centrals } = layout(zip);
    const grown = view(zip).getUint32(centrals[0] + 20, true) + 10;
    view(zip).setUint32(centrals[0] + 20, grown, true);
    view(zip).setUint32(locals[0] + 18, grown, true);
    expect(codeOf(zip)).toBe('not_a_zip');
  });

  it('takes sizes and CRC from the central directory when the entry uses a data descriptor', () => {
    const zip = twoEntries();
    const { locals, centrals } = layout(zip);
    view(zip).setUint16(centrals[1] + 8, 0x08, true);
    view(zip).setUint16(locals[1] + 6, 0x08, true);
    for (const field of [14, 18, 22]) view(zip).setUint32(locals[1] + field, 0, true);
    expect(contentOf(zip, entries(zip)[1])).toBe('not really a jpeg');
  });
});

describe('extracting an entry', () => {
  function deflatedEntry(content: Uint8Array, declaredSize: number, crc?: number): { zip: Uint8Array; entry: ZipEntry } {
    const zip = writeZip([{ name: 'manifest.json', data: content, deflate: true }]);
    const { locals, centrals } = layout(zip);
    for (const [at, offset] of [[centrals[0], 24], [locals[0], 22]]) view(zip).setUint32(at + offset, declaredSize, true);
    if (crc !== undefined) for (const [at, offset] of [[centrals[0], 16], [locals[0], 14]]) view(zip).setUint32(at + offset, crc, true);
    return { zip, entry: entries(zip)[0] };
  }

  it('refuses a wrong CRC', () => {
    const { zip, entry } = deflatedEntry(text('{"a":1}'), 7, 0x12345678);
    expect(contentOf(zip, entry)).toBe('not_a_zip');
  });

  it('refuses output shorter or longer than declared', () => {
    const shorter = deflatedEntry(text('{"a":1}'), 8);
    expect(contentOf(shorter.zip, shorter.entry)).toBe('not_a_zip');
    const longer = deflatedEntry(text('{"a":1}'), 6);
    expect(contentOf(longer.zip, longer.entry)).toBe('not_a_zip');
  });

  it('builds a real bomb for the next test', () => {
    const small = inflateSync(deflateBomb(10));
    expect(small.length).toBe(1 + 258 * 10);
    expect(small.every((byte) => byte === 0)).toBe(true);
  });

  it('stops a deflate bomb whose header declares a small size after one slice, without inflating it', () => {
    const bomb = deflateBomb(4_200_000); // 6.8 MB that inflate to 1 GiB of zeros
    const entry: ZipEntry = { name: 'm', method: 8, crc32: 0, compressedSize: bomb.length, uncompressedSize: 1024, dataOffset: 0 };
    const started = performance.now();
    const result = extractEntry(bomb, entry);
    const elapsed = performance.now() - started;
    expect(result).toEqual({ ok: false, error: { code: 'not_a_zip', params: {} } });
    // Decoding the whole gigabyte takes seconds (inflateSync into a capped buffer: ~3.5 s per GiB).
    expect(elapsed).toBeLessThan(300);
  });

  it('refuses data that is not deflate, and empty deflate data', () => {
    const garbage = Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0xff, 0xff);
    expect(extractEntry(garbage, { name: 'x', method: 8, crc32: 0, compressedSize: 6, uncompressedSize: 10, dataOffset: 0 }))
      .toMatchObject({ ok: false, error: { code: 'not_a_zip' } });
    expect(extractEntry(garbage, { name: 'x', method: 8, crc32: 0, compressedSize: 0, uncompressedSize: 0, dataOffset: 0 }))
      .toMatchObject({ ok: false, error: { code: 'not_a_zip' } });
  });

  it('returns a copy, not a view into the file', () => {
    const zip = twoEntries();
    const result = extractEntry(zip, entries(zip)[1]);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.buffer).not.toBe(zip.buffer);
  });
});

describe('names with a byte order mark', () => {
  it('keeps the mark, so the entry is not taken for manifest.json', () => {
    const zip = writeZip([{ name: '\ufeffmanifest.json', data: text('{}'), deflate: false }]);
    const result = readZipDirectory(zip, DEFAULT_NPT_LIMITS);
    expect(result.ok && result.value[0].name).toBe('\ufeffmanifest.json');
  });
});
