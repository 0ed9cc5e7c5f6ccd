// Seed-spec §5: an avatar is a PNG, JPG or JPEG of at most 3 MB. Checked here before anything is sent, by
// content as the server does (server/services/avatars.ts), so a renamed text file is refused at once.

/** The server's limit (AVATAR_MAX_BYTES): 3 MB of 1024 × 1024 bytes. */
export const AVATAR_MAX_BYTES = 3 * 1024 * 1024;

/** What the file chooser offers; the content decides. */
export const AVATAR_ACCEPT = '.png,.jpg,.jpeg,image/png,image/jpeg';

const SIGNATURES = {
  png: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  jpeg: [0xff, 0xd8, 0xff],
} as const;

const LONGEST_SIGNATURE = Math.max(...Object.values(SIGNATURES).map((signature) => signature.length));

/**
 * Why a file is no avatar, so that the admin learns what to change: too large (with its size in MB of 1024 × 1024
 * bytes, to one decimal, and a file just over the limit at least "3.1 MB", never "3.0 MB"), or not a PNG or
 * JPEG (an empty file included). Null for a file that will do.
 */
export type AvatarProblem = { kind: 'tooLarge'; megabytes?: number } | { kind: 'format' };

/** The server's refusal of a picture (413 too large, without the size it did not read; 415 not an image), else null. */
export function avatarRefusal(error: { status?: number }): AvatarProblem | null {
  if (error.status === 413) return { kind: 'tooLarge' };
  return error.status === 415 ? { kind: 'format' } : null;
}

const MB = 1024 * 1024;

export async function avatarProblem(file: Blob): Promise<AvatarProblem | null> {
  if (file.size > AVATAR_MAX_BYTES) return { kind: 'tooLarge', megabytes: Math.max(Math.round((file.size / MB) * 10) / 10, 3.1) };
  if (file.size === 0) return { kind: 'format' };
  const head = new Uint8Array(await file.slice(0, LONGEST_SIGNATURE).arrayBuffer());
  const image = Object.values(SIGNATURES).some((signature) => signature.every((byte, index) => head[index] === byte));
  return image ? null : { kind: 'format' };
}

/** True for a non-empty PNG or JPEG image of at most 3 MB. */
export async function isAcceptableAvatar(file: Blob): Promise<boolean> {
  return (await avatarProblem(file)) === null;
}
