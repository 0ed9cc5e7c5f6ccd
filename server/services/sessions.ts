// Sign-in sessions: bearer tokens (stored only as hashes) with their lifetime, and how fresh a sign-in is.
// Starting one after the password (and second factor) is server/services/sign-in.ts; checking one on every request
// is server/security/authenticate.ts.
import type { AppContext } from '../context';
import { insertSession, sessionCreatedAt } from '../repositories/sessions';
import { hashToken, newToken } from '../security/tokens';

const HOUR_MS = 60 * 60 * 1000;
/** Token lifetime with "remember me" (persistent storage) and without (session storage). */
export const REMEMBERED_SESSION_MS = 30 * 24 * HOUR_MS;
export const SHORT_SESSION_MS = 12 * HOUR_MS;

/** What the sign-in check found a session must do before anything else (server/security/authenticate.ts). */
export interface SessionState {
  /** Set when the user must choose a new password before anything else. */
  passwordChangeRequired: 'forced' | 'expired' | null;
  /** Set when the session signed in while the clinic required a second factor for the role and none was set up. */
  twoFactorEnrolmentRequired: boolean;
}

export interface NewSession {
  token: string;
  sessionId: string;
  expiresAt: Date;
}

export async function createSession(
  ctx: AppContext,
  user: { id: string },
  options: { remember: boolean; ip?: string | null; userAgent?: string | null; secondFactorSetup?: boolean },
): Promise<NewSession> {
  const now = ctx.clock.now();
  const token = newToken();
  const expiresAt = new Date(now.getTime() + (options.remember ? REMEMBERED_SESSION_MS : SHORT_SESSION_MS));
  const sessionId = await insertSession(ctx.db, {
    userId: user.id,
    tokenHash: hashToken(token),
    remember: options.remember,
    ip: options.ip ?? null,
    userAgent: options.userAgent ? options.userAgent.slice(0, 300) : null,
    now,
    expiresAt,
    secondFactorSetup: options.secondFactorSetup ?? false,
  });
  return { token, sessionId, expiresAt };
}

/**
 * How long a sign-in stands for the password it was made with: a user sent on to renew an expired password or to
 * set up a required second factor is not asked for it again right after signing in.
 */
export const FRESH_SIGN_IN_MS = 15 * 60 * 1000;

/** Did this session sign in within the last 15 minutes? */
export async function freshlySignedIn(ctx: AppContext, sessionId: string): Promise<boolean> {
  const createdAt = await sessionCreatedAt(ctx.db, sessionId);
  return createdAt !== undefined && ctx.clock.now().getTime() - createdAt.getTime() <= FRESH_SIGN_IN_MS;
}
