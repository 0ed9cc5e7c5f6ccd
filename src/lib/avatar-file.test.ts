import { describe, expect, it } from 'vitest';
import { AVATAR_MAX_BYTES, avatarProblem, isAcceptableAvatar } from './avatar-file';

const PNG_HEADER = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG_HEADER = [0xff, 0xd8, 0xff, 0xe0];

/** A file of `size` bytes that starts with `header`. */
function fileOf(header: number[], size: number, name: string): File {
  const bytes = new Uint8Array(size);
  bytes.set(header);
  return new File([bytes], name);
}

describe('isAcceptableAvatar', () => {
  it('accepts PNG and JPEG content up to exactly 3 MB', async () => {
    expect(AVATAR_MAX_BYTES).toBe(3_145_728);
    expect(await isAcceptableAvatar(fileOf(PNG_HEADER, 64, 'a.png'))).toBe(true);
    expect(await isAcceptableAvatar(fileOf(JPEG_HEADER, 64, 'a.jpg'))).toBe(true);
    expect(await isAcceptableAvatar(fileOf(PNG_HEADER, AVATAR_MAX_BYTES, 'a.png'))).toBe(true);
  });

  it('refuses one byte over 3 MB', async () => {
    expect(await isAcceptableAvatar(fileOf(PNG_HEADER, AVATAR_MAX_BYTES + 1, 'a.png'))).toBe(false);
  });

  it('goes by content, not by name or declared type', async () => {
    expect(await isAcceptableAvatar(new File(['not an image'], 'x.png', { type: 'image/png' }))).toBe(false);
    expect(await isAcceptableAvatar(fileOf(PNG_HEADER, 64, 'picture.gif'))).toBe(true);
    // GIF, and a PNG signature cut short.
    expect(await isAcceptableAvatar(fileOf([0x47, 0x49, 0x46, 0x38], 64, 'a.gif'))).toBe(false);
    expect(await isAcceptableAvatar(new File([new Uint8Array(PNG_HEADER.slice(0, 4))], 'a.png'))).toBe(false);
  });

  it('refuses an empty file', async () => {
    expect(await isAcceptableAvatar(new File([], 'a.png'))).toBe(false);
  });
});

describe('avatarProblem', () => {
  it('names a file too large with its size to a tenth of a MB, just over the limit as 3.1', async () => {
    expect(await avatarProblem(fileOf(PNG_HEADER, Math.round(4.2 * 1024 * 1024), 'big.png'))).toEqual({ kind: 'tooLarge', megabytes: 4.2 });
    expect(await avatarProblem(fileOf(PNG_HEADER, AVATAR_MAX_BYTES + 1, 'a.png'))).toEqual({ kind: 'tooLarge', megabytes: 3.1 });
    expect(await avatarProblem(fileOf(PNG_HEADER, 4 * 1024 * 1024 + 8, 'a.png'))).toEqual({ kind: 'tooLarge', megabytes: 4 });
  });

  it('names a GIF, a text file and an empty file a wrong format', async () => {
    expect(await avatarProblem(fileOf([0x47, 0x49, 0x46, 0x38], 64, 'a.gif'))).toEqual({ kind: 'format' });
    expect(await avatarProblem(new File(['not an image'], 'x.png'))).toEqual({ kind: 'format' });
    expect(await avatarProblem(new File([], 'a.png'))).toEqual({ kind: 'format' });
    expect(await avatarProblem(fileOf(JPEG_HEADER, 64, 'a.jpg'))).toBeNull();
  });
});
