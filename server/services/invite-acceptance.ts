// Accepting an invitation (the public side of invites.ts): the invite page reads its link, and the invited user
// chooses a first password and accepts the legal texts; the account becomes active and the clinic's IT admins
// are told.
import type { AcceptInvite } from '../../generated/model/acceptInvite';
import type { Invite } from '../../generated/model/invite';
import type { Role } from '../../generated/model/role';
import type { Origin } from '../actor';
import { type AppContext, logOf } from '../context';
import { conflict, HttpError, invalid } from '../http/errors';
import type { MessageKey } from '../i18n';
import { announce, event } from '../realtime/announce';
import { activateInvitedAccount } from '../repositories/accounts';
import { consumeLink, openAccountLink } from '../repositories/user-tokens';
import { hashPassword } from '../security/password-hash';
import { policyFor } from '../security/policy';
import { hashToken } from '../security/tokens';
import { notify } from './notifications';
import { assertNewPassword } from './passwords';
import { auditLinkUse } from './user-tokens';

/** Versions of the legal texts a user accepts on account setup (the SPA's /eula and /privacy-policy). */
export const EULA_VERSION = '2026-01';
export const PRIVACY_NOTICE_VERSION = '2026-01';

const inviteNotFound = () => new HttpError(404, 'invite.not_found', 'invite.not_found');

/** The open invite link of a user still waiting for their account (not e.g. a deactivated one); 404 for any other. Expired or not. */
async function openInvite(ctx: AppContext, token: string) {
  const link = await openAccountLink(ctx.db, hashToken(token), 'invite');
  if (!link || (link.status !== 'pending' && link.status !== 'invite_expired')) throw inviteNotFound();
  return link;
}

/** What the invite page shows: whom the invite is for, the clinic, the strength asked for, whether it has expired. */
export async function inviteOf(ctx: AppContext, token: string): Promise<Invite> {
  const link = await openInvite(ctx, token);
  const policy = await policyFor(ctx.db, link.clinic_id, link.userId);
  return {
    email: link.email,
    firstName: link.first_name,
    lastName: link.last_name,
    role: link.role as Role,
    clinicName: link.clinicName,
    // Who sent the link is not recorded with it (see the report of issue 3).
    invitedBy: null,
    passwordStrength: policy.strength,
    expiresAt: link.expires_at.toISOString(),
    expired: link.expires_at <= ctx.clock.now(),
    eulaVersion: EULA_VERSION,
    privacyNoticeVersion: PRIVACY_NOTICE_VERSION,
  };
}

/**
 * The invited user's first password with both legal texts accepted: the account becomes active (once: of two
 * requests with one link, one), the staff lists are told, and so are the clinic's IT admins. 409 once the link has
 * expired.
 */
export async function acceptInvite(ctx: AppContext, origin: Origin, body: AcceptInvite): Promise<void> {
  const { token, password, passwordConfirmation } = body;
  // The contract already insists on `true`; kept here so the rule holds whatever validates the body.
  const consent: Record<string, MessageKey[]> = {};
  if ((body.acceptEula as boolean) !== true) consent.acceptEula = ['validation.eula_required'];
  if ((body.acceptPrivacyNotice as boolean) !== true) consent.acceptPrivacyNotice = ['validation.privacy_required'];

  const link = await openInvite(ctx, token);
  if (link.expires_at <= ctx.clock.now()) throw conflict('invite.expired', 'invite.expired');
  const policy = await policyFor(ctx.db, link.clinic_id, link.userId);
  await assertNewPassword(
    { password, passwordConfirmation, strength: policy.strength, email: link.email, firstName: link.first_name, lastName: link.last_name, lang: origin.lang },
    consent,
  );
  if (Object.keys(consent).length) throw invalid(consent);

  const passwordHash = await hashPassword(password);
  const now = ctx.clock.now();
  const accepted = await ctx.db.transaction().execute(async (tx) => {
    if (!(await consumeLink(tx, link.tokenId, now))) return false;
    await activateInvitedAccount(tx, link.userId, { passwordHash, now, eulaVersion: EULA_VERSION, privacyVersion: PRIVACY_NOTICE_VERSION });
    return true;
  });
  if (!accepted) throw inviteNotFound();
  announce(ctx, [event('users.changed', link.clinic_id, { userIds: [link.userId] })]);
  await auditLinkUse(ctx.db, origin, link, 'acceptInvite', { eulaVersion: EULA_VERSION, privacyNoticeVersion: PRIVACY_NOTICE_VERSION });
  try {
    await notify(ctx, {
      clinicId: link.clinic_id,
      to: { role: 'clinic_it_admins' },
      event: 'invite_accepted',
      params: { name: `${link.first_name} ${link.last_name}`.trim() },
      link: '/admin/physicians',
    });
  } catch (error) {
    // The account is active either way; a notification e-mail that fails must not undo that answer.
    logOf(ctx).error({ err: error }, 'invite_accepted notification failed');
  }
}
