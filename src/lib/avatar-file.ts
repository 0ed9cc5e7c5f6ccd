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

/** True for a non-empty PNG or JPEG image of at most 3 MB. */
export async function isAcceptableAvatar(file: Blob): Promise<boolean> {
  if (file.size === 0 || file.size > AVATAR_MAX_BYTES) return false;
  const head = new Uint8Array(await file.slice(0, LONGEST_SIGNATURE).arrayBuffer());
  return Object.values(SIGNATURES).some((signature) => signature.every((byte, index) => head[index] === byte));
}
