// Bearer, invite and reset tokens: 256 random bits, stored only as SHA-256 hashes.
import { createHash, randomBytes } from 'node:crypto';

export const newToken = (): string => randomBytes(32).toString('base64url');

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');
