// Avatar uploads: PNG or JPEG of at most 3 MB, recognised by content (never by name or declared type).
import { HttpError } from '../http/errors';

export const AVATAR_MAX_BYTES = 3 * 1024 * 1024;

export interface AvatarUpload {
  data: Buffer;
  type: 'image/png' | 'image/jpeg';
}

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function imageTypeOf(data: Buffer): AvatarUpload['type'] | null {
  if (data.length > 24 && data.subarray(0, 8).equals(PNG) && data.subarray(12, 16).toString('latin1') === 'IHDR') {
    return 'image/png';
  }
  // SOI, then a marker segment, and the EOI marker at the end.
  if (data.length > 4 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) {
    const tail = data.subarray(-2);
    if (tail[0] === 0xff && tail[1] === 0xd9) return 'image/jpeg';
  }
  return null;
}

// Too large and not an image are told apart (issue 30): the user learns which limit to meet.
export const avatarTooLarge = () => new HttpError(413, 'avatar.too_large', 'avatar.too_large', {}, { avatar: ['avatar.too_large'] });

/**
 * An avatar part as it arrives, refused as soon as it grows past the limit: never more than 3 MB in memory,
 * and the client told at once (the rest of its body is not waited for).
 */
export async function readAvatarPart(file: AsyncIterable<Buffer>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of file) {
    size += chunk.length;
    if (size > AVATAR_MAX_BYTES) throw avatarTooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** Checks a multipart file part (a Buffer under attachFieldsToBody 'keyValues'). */
export function readAvatarUpload(value: unknown): AvatarUpload {
  const invalid = () =>
    new HttpError(415, 'avatar.invalid_format', 'avatar.invalid_format', {}, { avatar: ['avatar.invalid_format'] });
  if (!Buffer.isBuffer(value) || value.length === 0) throw invalid();
  if (value.length > AVATAR_MAX_BYTES) throw avatarTooLarge();
  const type = imageTypeOf(value);
  if (!type) throw invalid();
  return { data: value, type };
}

/** Where the SPA loads a user's picture (GET /users/{id}/avatar), or null when they have none. */
export const avatarUrl = (userId: string, storedKey: string | null): string | null => (storedKey ? `/api/users/${userId}/avatar` : null);
