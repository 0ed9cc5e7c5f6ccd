// SHA-256 as lower-case hex, the form the manifest records for images and for the plan.
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';

export function sha256Hex(bytes: Uint8Array): string {
  return bytesToHex(sha256(bytes));
}

/** planSha256: SHA-256 of the UTF-8 bytes of the plan's canonical JSON. */
export function sha256HexOfText(text: string): string {
  return sha256Hex(new TextEncoder().encode(text));
}
