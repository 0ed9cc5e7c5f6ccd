// Staff users of the clinic as the IT admin screens manage them: the list and one user, adding (a draft or an
// invite), editing, the lifecycle actions (bulk and delete) and invites. Everything is scoped to the actor's
// clinic; other clinics' ids are 404. Who may call these at all is the contract's x-roles; the rules here are
// the ones about whom they touch: never one's own account's access or IT admin role, IT admin rights granted
// only with the acting admin's password, an address in use changed only by its owner.
import type { InviteStatus } from '../../generated/model/inviteStatus';
import type { ListUsersParams } from '../../generated/model/listUsersParams';
import type { PasswordStrength } from '../../generated/model/passwordStrength';
import type { Role } from '../../generated/model/role';
import type { User } from '../../generated/model/user';
import type { UserStatus } from '../../generated/model/userStatus';
import { ENDS_ACCESS, HIDDEN_STATUSES, type StaffAction, transition } from '../../src/domain/staff/lifecycle';
import type { Actor } from '../actor';
import { logOf, type AppContext } from '../context';
import { pageMeta } from '../db/listing';
import { cachePerDatabase, versionStamp } from '../db/freshness';
import type { Database, Queryable, UserUpdate } from '../db/tables';
import { conflict, HttpError, invalid, notFound } from '../http/errors';
import { type MessageKey, type MessageParams, translate } from '../i18n';
import { announce, event } from '../realtime/announce';
import { findSecuritySettings, settingsUserIds } from '../repositories/clinic';
import { revokeOpenLinks } from '../repositories/user-tokens';
import * as staff from '../repositories/users';
import type { StaffFilter, StaffRow } from '../repositories/users';
import { confirmPassword } from '../security/throttle';
import { DEFAULT_POLICY, nextPasswordChange, policyOf, type UserPolicy } from '../security/policy';
import { removeUnreferenced } from '../storage';
import { notifyItAdminGranted } from './account-notices';
import { audit } from './audit';
import { type AvatarUpload, avatarUrl } from './avatars';
import { requestEmailChange } from './email-change';
import { expireInvites, issueInvite } from './invites';
import { endUserSessions } from '../repositories/sessions';

/** Singular spellings of the login hints → canonical roles (the customer's role list). */
export const ROLE_ALIASES: Record<string, Role> = {
  clinic_physician: 'clinic_physicians',
  nurse: 'clinic_nurses',
  clinic_it_admin: 'clinic_it_admins',
};

export const canonicalRole = (role: string): string => ROLE_ALIASES[role] ?? role;

const iso = (value: Date | string | null | undefined): string | null =>
  value === null || value === undefined ? null : new Date(value).toISOString();

/** The clinic's password policy per user, loaded once for a whole list (no query per row). */
export async function policiesOf(db: Queryable, clinicId: string): Promise<(userId: string) => UserPolicy> {
  const settings = await findSecuritySettings(db, clinicId);
  if (!settings) return () => DEFAULT_POLICY;
  const rules = policyOf(settings, true);
  if (settings.user_scope === 'all') return () => rules;
  const others = policyOf(settings, false);
  const listed = new Set(await settingsUserIds(db, clinicId));
  return (userId) => (listed.has(userId) ? rules : others);
}

export function toUser(row: StaffRow, policy: UserPolicy): User {
  return {
    id: row.id,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    role: row.role as Role,
    status: row.status as UserStatus,
    inviteStatus: row.invite_status as InviteStatus,
    passwordType: policy.strength as PasswordStrength,
    physicianName: row.physician_name,
    avatar: avatarUrl(row.id, row.avatar_path),
    lastPasswordChange: iso(row.password_changed_at),
    nextPasswordChange: iso(nextPasswordChange(row.password_changed_at, policy)),
    inviteExpiresAt: iso(row.invite_expires_at),
    lastSignInAt: iso(row.last_sign_in_at),
    twoFactorEnabled: row.totp_enabled_at !== null,
    createdAt: iso(row.created_at) as string,
  };
}

/** A user of the clinic as the contract shows it; 404 for anyone else. */
async function userOf(db: Queryable, clinicId: string, id: string): Promise<User> {
  const row = await staff.findStaff(db, clinicId, id);
  if (!row) throw notFound();
  return toUser(row, (await policiesOf(db, clinicId))(row.id));
}

/** A unique-index violation (an e-mail address taken by a concurrent request). */
export const isUniqueViolation = (error: unknown): boolean =>
  !!error && typeof error === 'object' && (error as { code?: unknown }).code === '23505';

/** The 409 of an address another account uses (any spelling), named on the e-mail field. */
export const emailTakenError = () => new HttpError(409, 'user.email_taken', 'user.email_taken', {}, { email: ['user.email_taken'] });

/** Whether an address already belongs to an account (any clinic, any spelling: the address is the sign-in name). */
export async function emailTaken(db: Queryable, email: string, exceptUserId?: string): Promise<boolean> {
  return (await staff.userIdByEmail(db, email, exceptUserId)) !== undefined;
}

/** What a change answers besides the user: the message to show, with its placeholders. */
export interface StaffChange {
  user: User;
  message: MessageKey;
  params?: MessageParams;
}

// ---- Reading -------------------------------------------------------------------------------------------

// The staff list is served from memory while the clinic's staff is unchanged (the version 'staff:<clinic>',
// migration 0016, raised by any change to its users, their links or its security settings): every user of the
// clinic as the list shows them, and the ordered ids of each filter and sort asked for. A page is then a slice
// of ids, deep or not, and costs no query (the figures: docs/architecture.md, "Performance of the lists").
// Invites run out by time, not by a change: the soonest expiry of an open invite is kept with the users, and
// when it has passed the invites are expired (a change, so the list is read again).
interface ClinicStaff {
  users: Map<string, User>;
  /** When the next pending user's invite runs out (ms; -Infinity: one has no open link); null: none pending. */
  nextExpiry: number | null;
}

/** The staff of this many clinics, and this many orders (filter and sort) of them, per database. */
const staffOfClinics = cachePerDatabase<ClinicStaff>(64);
const staffOrders = cachePerDatabase<string[]>(512);

async function clinicStaff(db: Database, clinicId: string, stamp: string | null): Promise<ClinicStaff> {
  return staffOfClinics(db).get(clinicId, stamp, async () => {
    const rows = await staff.allStaff(db, clinicId);
    const policy = await policiesOf(db, clinicId);
    let nextExpiry: number | null = null;
    for (const row of rows) {
      if (row.status !== 'pending') continue;
      const expiry = row.invite_expires_at === null ? -Infinity : new Date(row.invite_expires_at).getTime();
      nextExpiry = nextExpiry === null ? expiry : Math.min(nextExpiry, expiry);
    }
    return { users: new Map(rows.map((row) => [row.id, toUser(row, policy(row.id))])), nextExpiry };
  });
}

export async function listUsers(ctx: AppContext, actor: Actor, q: ListUsersParams) {
  const { db } = ctx;
  const page = q.page ?? 1;
  const perPage = q.perPage ?? 20;
  const version = [`staff:${actor.clinicId}`];
  let stamp = await versionStamp(db, version);
  let clinic = await clinicStaff(db, actor.clinicId, stamp);
  if (clinic.nextExpiry !== null && ctx.clock.now().getTime() >= clinic.nextExpiry) {
    await expireInvites(ctx, actor.clinicId);
    stamp = await versionStamp(db, version);
    clinic = await clinicStaff(db, actor.clinicId, stamp);
  }
  const filter: StaffFilter = {
    clinicId: actor.clinicId,
    search: q.search?.trim() || undefined,
    roles: q.role?.map(canonicalRole),
    status: q.status,
    hiddenStatuses: HIDDEN_STATUSES,
    inviteStatus: q.inviteStatus,
    sort: q.sort,
  };
  const ids = await staffOrders(db).get(JSON.stringify(filter), stamp, () => staff.staffIds(db, filter));
  // Users and ids are read under one stamp; a user added between the two reads is on the next request's page.
  const data = ids.slice((page - 1) * perPage, page * perPage).flatMap((id) => clinic.users.get(id) ?? []);
  return { data, meta: pageMeta({ page, perPage }, ids.length) };
}

export async function getUser(ctx: AppContext, actor: Actor, id: string): Promise<User> {
  await expireInvites(ctx, actor.clinicId);
  return userOf(ctx.db, actor.clinicId, id);
}

// ---- Adding and editing --------------------------------------------------------------------------------

/** The acting IT admin's own password, asked for a grant of IT admin rights; a refusal is audited. */
async function confirmGrant(ctx: AppContext, actor: Actor, password: string | undefined, targetId?: string): Promise<void> {
  if (!password) throw invalid({ currentPassword: ['validation.required'] });
  if (await confirmPassword(ctx, await staff.passwordOf(ctx.db, actor.userId), password)) return;
  await audit(ctx.db, actor, { action: 'user.it_admin_granted', outcome: 'failure', targetType: 'user', targetId, detail: { reason: 'wrong_current_password' } });
  throw invalid({ currentPassword: ['validation.current_password_wrong'] });
}

const removeAvatar = (ctx: AppContext, what: string, key: string) => removeUnreferenced(logOf(ctx), `${what} ${key}`, () => ctx.files.remove(key));

export interface NewStaff {
  firstName: string;
  lastName: string;
  email: string;
  role: string;
  physicianName: string | null;
  /** Saved as a draft (no invite yet). */
  draft: boolean;
  avatar: AvatarUpload | null;
  /** The acting admin's password, required when the new user is an IT admin. */
  currentPassword?: string;
}

/** Adds a user to the clinic: a draft, or invited at once. The address must be free in every clinic. */
export async function createUser(ctx: AppContext, actor: Actor, input: NewStaff): Promise<StaffChange> {
  const email = input.email.toLowerCase();
  if (await emailTaken(ctx.db, email)) throw emailTakenError();
  // A new IT admin is a grant of IT admin rights like an edit's: confirmed with the acting admin's password.
  const grantsItAdmin = input.role === 'clinic_it_admins';
  if (grantsItAdmin) await confirmGrant(ctx, actor, input.currentPassword);

  const now = ctx.clock.now();
  const avatarKey = input.avatar ? await ctx.files.put(actor.clinicId, 'avatars', input.avatar.data) : null;
  let created: Awaited<ReturnType<typeof staff.insertUser>>;
  try {
    created = await staff.insertUser(ctx.db, {
      clinic_id: actor.clinicId,
      email,
      first_name: input.firstName,
      last_name: input.lastName,
      physician_name: input.physicianName,
      role: input.role,
      status: 'creation_in_progress',
      invite_status: 'creation_in_progress',
      previous_status: null,
      password_hash: null,
      password_changed_at: null,
      lang: actor.lang,
      avatar_path: avatarKey,
      avatar_type: input.avatar?.type ?? null,
      eula_accepted_at: null,
      eula_version: null,
      privacy_accepted_at: null,
      privacy_version: null,
      last_sign_in_at: null,
      created_at: now,
      updated_at: now,
    });
  } catch (error) {
    if (avatarKey) await removeAvatar(ctx, 'the avatar', avatarKey);
    if (isUniqueViolation(error)) throw emailTakenError();
    throw error;
  }
  await audit(ctx.db, actor, {
    action: 'user.create',
    outcome: 'success',
    targetType: 'user',
    targetId: created.id,
    detail: { role: input.role, draft: input.draft },
  });
  if (grantsItAdmin) {
    await audit(ctx.db, actor, { action: 'user.it_admin_granted', outcome: 'success', targetType: 'user', targetId: created.id, detail: { from: null } });
    // The new user learns the role from the invite; the clinic's other IT admins from a notice.
    await notifyItAdminGranted(ctx, { userId: created.id, grantedBy: actor.userId, clinicId: actor.clinicId, invited: true });
  }
  if (!input.draft) await issueInvite(ctx, created, actor.lang);
  announce(ctx, [event('users.changed', actor.clinicId, { userIds: [created.id] })]);
  return { user: await userOf(ctx.db, actor.clinicId, created.id), message: input.draft ? 'user.draft_saved' : 'invite.sent' };
}

/** An edit of a user: fields left undefined stay as they are. */
export interface StaffEdit {
  firstName?: string;
  lastName?: string;
  email?: string;
  role?: string;
  /** Blank removes the physician name. */
  physicianName?: string;
  avatar: AvatarUpload | null;
  removeAvatar: boolean;
  /** A draft is confirmed: its invite goes out now. */
  confirmDraft: boolean;
  /** The acting admin's password, required when the edit makes the user an IT admin. */
  currentPassword?: string;
}

export async function updateUser(ctx: AppContext, actor: Actor, id: string, input: StaffEdit): Promise<StaffChange> {
  const { db } = ctx;
  await expireInvites(ctx, actor.clinicId);
  const user = await staff.findStaff(db, actor.clinicId, id);
  if (!user) throw notFound();
  const { firstName, lastName, role, physicianName } = input;
  const email = input.email?.toLowerCase();

  if (role !== undefined && user.id === actor.userId && user.role === 'clinic_it_admins' && role !== 'clinic_it_admins') {
    throw new HttpError(409, 'user.self_role_change', 'user.self_role_change', {}, { role: ['user.self_role_change'] });
  }
  // IT admin rights are granted only with the acting admin's own password (issue 27, defect 10).
  const grantsItAdmin = role === 'clinic_it_admins' && user.role !== 'clinic_it_admins';
  if (grantsItAdmin) await confirmGrant(ctx, actor, input.currentPassword, user.id);
  const emailChanged = email !== undefined && email !== user.email.toLowerCase();
  if (emailChanged && (await emailTaken(db, email, user.id))) throw emailTakenError();
  // The address of an account in use changes only when its owner confirms it from the new mailbox (issue 27,
  // defect 1); one whose invite is still open simply gets the invite at the new address.
  const confirmedByOwner = emailChanged && user.invite_status === 'accepted';

  const changes: UserUpdate = {};
  if (firstName !== undefined && firstName !== user.first_name) changes.first_name = firstName;
  if (lastName !== undefined && lastName !== user.last_name) changes.last_name = lastName;
  if (emailChanged && !confirmedByOwner) changes.email = email;
  if (role !== undefined && role !== user.role) changes.role = role;
  if (physicianName !== undefined && (physicianName || null) !== user.physician_name) {
    changes.physician_name = physicianName || null;
  }
  const oldAvatar = user.avatar_path;
  let newAvatarKey: string | null = null;
  if (input.avatar) {
    newAvatarKey = await ctx.files.put(actor.clinicId, 'avatars', input.avatar.data);
    changes.avatar_path = newAvatarKey;
    changes.avatar_type = input.avatar.type;
  } else if (input.removeAvatar && oldAvatar) {
    changes.avatar_path = null;
    changes.avatar_type = null;
  }

  const now = ctx.clock.now();
  if (Object.keys(changes).length) {
    try {
      await db.transaction().execute(async (tx) => {
        await staff.updateStaff(tx, actor.clinicId, user.id, { ...changes, updated_at: now });
        await audit(tx, actor, {
          action: 'user.update',
          outcome: 'success',
          targetType: 'user',
          targetId: user.id,
          detail: { fields: Object.keys(changes).filter((k) => k !== 'avatar_type') },
        });
      });
    } catch (error) {
      if (newAvatarKey) await removeAvatar(ctx, 'the avatar', newAvatarKey);
      if (isUniqueViolation(error)) throw emailTakenError();
      throw error;
    }
    if (oldAvatar && 'avatar_path' in changes) await removeAvatar(ctx, 'the replaced avatar', oldAvatar);
  }

  // Invites: an open invite follows a new address; a confirmed draft is invited now.
  const openInvite = user.status === 'pending' || user.status === 'invite_expired';
  const confirmDraft = user.status === 'creation_in_progress' && input.confirmDraft;
  // A draft saved again is still a draft: the admin hears that no invitation went out.
  let message: MessageKey = user.status === 'creation_in_progress' ? 'user.draft_saved' : 'user.updated';
  if (confirmDraft) {
    await issueInvite(ctx, { id: user.id, email: email ?? user.email, first_name: firstName ?? user.first_name, clinic_id: actor.clinicId }, actor.lang);
    await audit(db, actor, { action: 'user.send_invite', outcome: 'success', targetType: 'user', targetId: user.id });
    message = 'invite.sent';
  } else if (emailChanged && openInvite) {
    await issueInvite(ctx, { id: user.id, email: email!, first_name: firstName ?? user.first_name, clinic_id: actor.clinicId }, actor.lang);
    await audit(db, actor, { action: 'user.send_invite', outcome: 'success', targetType: 'user', targetId: user.id });
  } else if (confirmedByOwner) {
    await requestEmailChange(ctx, actor, { userId: user.id, newEmail: email!, byAdmin: true });
    message = 'user.email_confirmation_sent';
  } else if (emailChanged) {
    // Archived or deleted before accepting: the old address's link must not stay usable.
    await revokeOpenLinks(db, [user.id], now);
  }
  if (grantsItAdmin) {
    await audit(db, actor, { action: 'user.it_admin_granted', outcome: 'success', targetType: 'user', targetId: user.id, detail: { from: user.role } });
    await notifyItAdminGranted(ctx, { userId: user.id, grantedBy: actor.userId, clinicId: actor.clinicId });
  }
  announce(ctx, [event('users.changed', actor.clinicId, { userIds: [user.id] })]);
  return { user: await userOf(db, actor.clinicId, user.id), message, params: { email: email ?? user.email } };
}

// ---- Lifecycle and invites -----------------------------------------------------------------------------

/**
 * Applies an action to several users of the clinic, all or nothing: unknown ids → 404, the actor's own
 * account → 409, the first user whose status does not fit → 409 naming them. Invites are sent after the
 * status changes are committed (mail is not transactional). Answers the ids acted on.
 */
export async function applyStaffAction(ctx: AppContext, actor: Actor, ids: string[], action: StaffAction): Promise<string[]> {
  const now = ctx.clock.now();
  await expireInvites(ctx, actor.clinicId);
  const unique = [...new Set(ids)];
  const refused = async (error: unknown) => {
    if (error instanceof HttpError) {
      await audit(ctx.db, actor, { action: `user.${action}`, outcome: 'failure', targetType: 'user', detail: { ids: unique, code: error.code } });
    }
    throw error;
  };
  const invitees = await ctx.db
    .transaction()
    .execute(async (tx) => {
      const rows = await staff.lockStaff(tx, actor.clinicId, unique);
      if (rows.length !== unique.length) throw notFound();
      const byId = new Map(rows.map((row) => [row.id, row]));
      if (byId.has(actor.userId)) {
        if (action === 'delete') throw conflict('user.self_delete', 'user.self_delete');
        if (action === 'deactivate' || action === 'archive') {
          throw conflict('user.self_status_change', 'user.self_status_change');
        }
      }
      const changes = unique.map((id) => {
        const row = byId.get(id)!;
        const next = transition(action, row);
        if (!next) {
          const reason = `user.transition.${action}` as MessageKey;
          const name = `${row.first_name} ${row.last_name}`.trim();
          throw new HttpError(409, 'user.invalid_transition', 'user.invalid_transition', {}, {}, {
            errors: { ids: [translate(actor.lang, reason, { name })] },
          });
        }
        return { row, next };
      });
      for (const { row, next } of changes) {
        if (next.status === row.status && next.invite_status === row.invite_status && next.previous_status === row.previous_status) {
          continue;
        }
        await staff.updateStaff(tx, actor.clinicId, row.id, { ...next, updated_at: now });
      }
      const reason = ENDS_ACCESS[action];
      if (reason) {
        await endUserSessions(tx, unique, reason, now);
        await revokeOpenLinks(tx, unique, now);
      }
      for (const { row, next } of changes) {
        await audit(tx, actor, {
          action: `user.${action}`,
          outcome: 'success',
          targetType: 'user',
          targetId: row.id,
          detail: { from: row.status, to: action === 'send_invite' ? 'pending' : next.status },
        });
      }
      return action === 'send_invite' ? changes.map((c) => c.row) : [];
    })
    .catch(refused);
  announce(ctx, [event('users.changed', actor.clinicId, { userIds: unique })]);
  for (const invitee of invitees) await issueInvite(ctx, invitee, actor.lang);
  return unique;
}

/** A new invite link for a user who has not accepted one yet (pending, expired or a draft). */
export async function resendInvite(ctx: AppContext, actor: Actor, id: string): Promise<User> {
  await expireInvites(ctx, actor.clinicId);
  const user = await staff.findStaff(ctx.db, actor.clinicId, id);
  if (!user) throw notFound();
  if (!['pending', 'invite_expired', 'creation_in_progress'].includes(user.status)) {
    if (user.invite_status === 'accepted') throw conflict('invite.already_accepted', 'invite.already_accepted');
    throw conflict('user.invalid_transition', 'invite.not_possible');
  }
  await issueInvite(ctx, user, actor.lang);
  await audit(ctx.db, actor, {
    action: 'user.send_invite',
    outcome: 'success',
    targetType: 'user',
    targetId: user.id,
    detail: { from: user.status },
  });
  announce(ctx, [event('users.changed', actor.clinicId, { userIds: [user.id] })]);
  return userOf(ctx.db, actor.clinicId, user.id);
}
