// Staff users of the clinic (IT admins): list, read, add (draft or invite), edit, delete, restore,
// bulk status changes and invites. Everything is scoped to the caller's clinic; other clinics' ids are 404.
import type { FastifyRequest } from 'fastify';
import type { IdList } from '../../generated/model/idList';
import type { ListUsersParams } from '../../generated/model/listUsersParams';
import type { UserBulkUpdate } from '../../generated/model/userBulkUpdate';
import type { AppContext } from '../context';
import type { UserUpdate } from '../db/tables';
import { conflict, HttpError, invalid, notFound, unauthorized } from '../http/errors';
import type { Handler, Handlers } from '../http/handler';
import { success } from '../http/handler';
import { type MessageKey, translate } from '../i18n';
import { audit } from '../services/audit';
import { readAvatarUpload, type AvatarUpload } from '../services/avatars';
import { notifyItAdminGranted } from '../services/account-notices';
import { requestEmailChange } from '../services/email-change';
import { expireInvites, issueInvite } from '../services/invites';
import {
  emailTaken,
  emailTakenError,
  findStaff,
  isUniqueViolation,
  listStaff,
  policiesOf,
  toUser,
  userById,
} from '../services/users';
import { ENDS_ACCESS, type StaffAction, transition } from '../../src/domain/staff/lifecycle';
import { pageMeta } from '../db/listing';
import { endUserSessions } from '../services/sessions';
import { revokeOpenLinks } from '../services/user-tokens';
import { removeUnreferenced } from '../storage';
import { confirmPassword } from '../security/throttle';
import { announce, event } from '../realtime/announce';

type Form = Record<string, unknown>;


function caller(request: FastifyRequest) {
  if (!request.auth) throw unauthorized();
  return request.auth;
}

/** A text field of a multipart form, trimmed; undefined when absent. Blank required fields are 422. */
function text(form: Form, name: string): string | undefined {
  const value = form[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalid({ [name]: ['validation.type'] });
  return value.trim();
}

function required(form: Form, name: string): string | undefined {
  const value = text(form, name);
  if (value === '') throw invalid({ [name]: ['validation.required'] });
  return value;
}

/** The avatar part, checked by content; an empty file part (a form without a chosen file) is no avatar. */
function avatarOf(form: Form): AvatarUpload | null {
  const value = form.avatar;
  if (value === undefined || value === '' || (Buffer.isBuffer(value) && value.length === 0)) return null;
  return readAvatarUpload(value);
}

const BULK_MESSAGES: Record<UserBulkUpdate['action'], MessageKey> = {
  activate: 'user.activated',
  deactivate: 'user.deactivated',
  archive: 'user.archived',
  unarchive: 'user.unarchived',
  restore: 'user.restored',
  send_invite: 'invite.sent',
};

export function usersHandlers(ctx: AppContext): Handlers {
  const { db } = ctx;

  const reload = async (clinicId: string, id: string) => {
    const user = await userById(db, clinicId, id);
    if (!user) throw notFound();
    return user;
  };

  /**
   * Applies an action to several users of the clinic, all or nothing: unknown ids → 404, the caller's own
   * account → 409, the first user whose status does not fit → 409 naming them. Invites are sent after the
   * status changes are committed (mail is not transactional).
   */
  async function applyAll(request: FastifyRequest, ids: string[], action: StaffAction): Promise<string[]> {
    const auth = caller(request);
    const now = ctx.clock.now();
    await expireInvites(ctx, auth.clinicId);
    const unique = [...new Set(ids)];
    const refused = async (error: unknown) => {
      if (error instanceof HttpError) {
        await audit(db, request, { action: `user.${action}`, outcome: 'failure', targetType: 'user', detail: { ids: unique, code: error.code } });
      }
      throw error;
    };
    const invitees = await db.transaction().execute(async (tx) => {
      const rows = await tx
        .selectFrom('users')
        .select(['id', 'email', 'first_name', 'last_name', 'clinic_id', 'status', 'invite_status', 'previous_status'])
        .where('clinic_id', '=', auth.clinicId)
        .where('id', 'in', unique)
        .forUpdate()
        .execute();
      if (rows.length !== unique.length) throw notFound();
      const byId = new Map(rows.map((row) => [row.id, row]));
      if (byId.has(auth.userId)) {
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
            errors: { ids: [translate(request.lang, reason, { name })] },
          });
        }
        return { row, next };
      });
      for (const { row, next } of changes) {
        if (next.status === row.status && next.invite_status === row.invite_status && next.previous_status === row.previous_status) {
          continue;
        }
        await tx
          .updateTable('users')
          .set({ ...next, updated_at: now })
          .where('id', '=', row.id)
          .execute();
      }
      const reason = ENDS_ACCESS[action];
      if (reason) {
        await endUserSessions(tx, unique, reason, now);
        await revokeOpenLinks(tx, unique, now);
      }
      for (const { row, next } of changes) {
        await audit(tx, request, {
          action: `user.${action}`,
          outcome: 'success',
          targetType: 'user',
          targetId: row.id,
          detail: { from: row.status, to: action === 'send_invite' ? 'pending' : next.status },
        });
      }
      return action === 'send_invite' ? changes.map((c) => c.row) : [];
    }).catch(refused);
    announce(ctx, [event('users.changed', auth.clinicId, { userIds: unique })]);
    for (const invitee of invitees) await issueInvite(ctx, invitee, request.lang);
    return unique;
  }

  const listUsers: Handler<{ Querystring: ListUsersParams }> = async (request) => {
    const auth = caller(request);
    await expireInvites(ctx, auth.clinicId);
    const q = request.query;
    const page = q.page ?? 1;
    const perPage = q.perPage ?? 20;
    const { rows, total } = await listStaff(db, {
      clinicId: auth.clinicId,
      page,
      perPage,
      search: q.search,
      role: q.role,
      status: q.status,
      inviteStatus: q.inviteStatus,
      sort: q.sort,
    });
    const policyOf = await policiesOf(db, auth.clinicId);
    return { status: 'Success', data: rows.map((row) => toUser(row, policyOf(row.id))), meta: pageMeta({ page, perPage }, total) };
  };

  const getUser: Handler<{ Params: { id: string } }> = async (request) => {
    const auth = caller(request);
    await expireInvites(ctx, auth.clinicId);
    return success(await reload(auth.clinicId, request.params.id));
  };

  const createUser: Handler<{ Body: Form }> = async (request, reply) => {
    const auth = caller(request);
    const form = request.body ?? {};
    // The contract requires these four; blank (spaces only) counts as missing.
    const missing = ['firstName', 'lastName', 'email', 'role'].filter((name) => !text(form, name));
    if (missing.length) throw invalid(Object.fromEntries(missing.map((name) => [name, ['validation.required']])));
    const firstName = text(form, 'firstName')!;
    const lastName = text(form, 'lastName')!;
    const email = text(form, 'email')!.toLowerCase();
    const role = text(form, 'role')!;
    const physicianName = text(form, 'physicianName') || null;
    const draft = text(form, 'draft') === '1';
    const avatar = avatarOf(form);
    if (await emailTaken(db, email)) throw emailTakenError();

    const now = ctx.clock.now();
    const avatarKey = avatar ? await ctx.files.put(auth.clinicId, 'avatars', avatar.data) : null;
    let created: { id: string; email: string; first_name: string; clinic_id: string };
    try {
      created = await db
        .insertInto('users')
        .values({
          clinic_id: auth.clinicId,
          email,
          first_name: firstName,
          last_name: lastName,
          physician_name: physicianName,
          role,
          status: 'creation_in_progress',
          invite_status: 'creation_in_progress',
          previous_status: null,
          password_hash: null,
          password_changed_at: null,
          lang: request.lang,
          avatar_path: avatarKey,
          avatar_type: avatar?.type ?? null,
          eula_accepted_at: null,
          eula_version: null,
          privacy_accepted_at: null,
          privacy_version: null,
          last_sign_in_at: null,
          created_at: now,
          updated_at: now,
        })
        .returning(['id', 'email', 'first_name', 'clinic_id'])
        .executeTakeFirstOrThrow();
    } catch (error) {
      if (avatarKey) await removeUnreferenced(request.log, `the avatar ${avatarKey}`, () => ctx.files.remove(avatarKey));
      if (isUniqueViolation(error)) throw emailTakenError();
      throw error;
    }
    await audit(db, request, {
      action: 'user.create',
      outcome: 'success',
      targetType: 'user',
      targetId: created.id,
      detail: { role, draft },
    });
    if (!draft) await issueInvite(ctx, created, request.lang);
    reply.code(201);
    announce(ctx, [event('users.changed', auth.clinicId, { userIds: [created.id] })]);
    return success(await reload(auth.clinicId, created.id), translate(request.lang, draft ? 'user.added' : 'invite.sent'));
  };

  /** The acting IT admin's own password, asked for a grant of IT admin rights; a refusal is audited. */
  const confirmGrant = async (request: FastifyRequest, password: string | undefined, targetId: string) => {
    const auth = caller(request);
    if (!password) throw invalid({ currentPassword: ['validation.required'] });
    const actor = await db.selectFrom('users').select(['id', 'password_hash']).where('id', '=', auth.userId).executeTakeFirstOrThrow();
    if (await confirmPassword(ctx, actor, password)) return;
    await audit(db, request, { action: 'user.it_admin_granted', outcome: 'failure', targetType: 'user', targetId, detail: { reason: 'wrong_current_password' } });
    throw invalid({ currentPassword: ['validation.current_password_wrong'] });
  };

  const updateUser: Handler<{ Params: { id: string }; Body: Form }> = async (request) => {
    const auth = caller(request);
    await expireInvites(ctx, auth.clinicId);
    const user = await findStaff(db, auth.clinicId, request.params.id);
    if (!user) throw notFound();
    const form = request.body ?? {};
    const firstName = required(form, 'firstName');
    const lastName = required(form, 'lastName');
    const email = required(form, 'email')?.toLowerCase();
    const role = required(form, 'role');
    const physicianName = text(form, 'physicianName');
    const removeAvatar = text(form, 'removeAvatar') === '1';
    const draft = text(form, 'draft');
    const avatar = avatarOf(form);

    if (role !== undefined && user.id === auth.userId && user.role === 'clinic_it_admins' && role !== 'clinic_it_admins') {
      throw new HttpError(409, 'user.self_role_change', 'user.self_role_change', {}, { role: ['user.self_role_change'] });
    }
    // IT admin rights are granted only with the acting admin's own password (issue 27, defect 10).
    const grantsItAdmin = role === 'clinic_it_admins' && user.role !== 'clinic_it_admins';
    if (grantsItAdmin) await confirmGrant(request, text(form, 'currentPassword'), user.id);
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
    if (avatar) {
      newAvatarKey = await ctx.files.put(auth.clinicId, 'avatars', avatar.data);
      changes.avatar_path = newAvatarKey;
      changes.avatar_type = avatar.type;
    } else if (removeAvatar && oldAvatar) {
      changes.avatar_path = null;
      changes.avatar_type = null;
    }

    const now = ctx.clock.now();
    if (Object.keys(changes).length) {
      try {
        await db.transaction().execute(async (tx) => {
          await tx
            .updateTable('users')
            .set({ ...changes, updated_at: now })
            .where('id', '=', user.id)
            .where('clinic_id', '=', auth.clinicId)
            .execute();
          await audit(tx, request, {
            action: 'user.update',
            outcome: 'success',
            targetType: 'user',
            targetId: user.id,
            detail: { fields: Object.keys(changes).filter((k) => k !== 'avatar_type') },
          });
        });
      } catch (error) {
        if (newAvatarKey) await removeUnreferenced(request.log, `the avatar ${newAvatarKey}`, () => ctx.files.remove(newAvatarKey!));
        if (isUniqueViolation(error)) throw emailTakenError();
        throw error;
      }
      if (oldAvatar && 'avatar_path' in changes) await removeUnreferenced(request.log, `the replaced avatar ${oldAvatar}`, () => ctx.files.remove(oldAvatar));
    }

    // Invites: an open invite follows a new address; a confirmed draft is invited now.
    const openInvite = user.status === 'pending' || user.status === 'invite_expired';
    const confirmDraft = user.status === 'creation_in_progress' && draft === '0';
    let message: MessageKey = 'user.updated';
    if (confirmDraft) {
      await issueInvite(ctx, { id: user.id, email: email ?? user.email, first_name: firstName ?? user.first_name, clinic_id: auth.clinicId }, request.lang);
      await audit(db, request, { action: 'user.send_invite', outcome: 'success', targetType: 'user', targetId: user.id });
      message = 'invite.sent';
    } else if (emailChanged && openInvite) {
      await issueInvite(ctx, { id: user.id, email: email!, first_name: firstName ?? user.first_name, clinic_id: auth.clinicId }, request.lang);
      await audit(db, request, { action: 'user.send_invite', outcome: 'success', targetType: 'user', targetId: user.id });
    } else if (confirmedByOwner) {
      await requestEmailChange(ctx, request, { userId: user.id, newEmail: email!, byAdmin: true });
      message = 'user.email_confirmation_sent';
    } else if (emailChanged) {
      // Archived or deleted before accepting: the old address's link must not stay usable.
      await revokeOpenLinks(db, [user.id], now);
    }
    if (grantsItAdmin) {
      await audit(db, request, { action: 'user.it_admin_granted', outcome: 'success', targetType: 'user', targetId: user.id, detail: { from: user.role } });
      await notifyItAdminGranted(ctx, request, { userId: user.id, grantedBy: auth.userId, clinicId: auth.clinicId });
    }
    announce(ctx, [event('users.changed', auth.clinicId, { userIds: [user.id] })]);
    return success(await reload(auth.clinicId, user.id), translate(request.lang, message, { email: email ?? user.email }));
  };

  const deleteUser: Handler<{ Params: { id: string } }> = async (request) => {
    await applyAll(request, [request.params.id], 'delete');
    return { status: 'Success', message: translate(request.lang, 'user.deleted') };
  };

  const deleteUsers: Handler<{ Body: IdList }> = async (request) => {
    const deleted = await applyAll(request, request.body.ids, 'delete');
    return success({ deleted }, translate(request.lang, 'user.deleted'));
  };

  const bulkUpdateUsers: Handler<{ Body: UserBulkUpdate }> = async (request) => {
    const { ids, action } = request.body;
    const updated = await applyAll(request, ids, action);
    return success({ updated }, translate(request.lang, BULK_MESSAGES[action]));
  };

  const resendInvite: Handler<{ Params: { id: string } }> = async (request) => {
    const auth = caller(request);
    await expireInvites(ctx, auth.clinicId);
    const user = await findStaff(db, auth.clinicId, request.params.id);
    if (!user) throw notFound();
    if (!['pending', 'invite_expired', 'creation_in_progress'].includes(user.status)) {
      if (user.invite_status === 'accepted') throw conflict('invite.already_accepted', 'invite.already_accepted');
      throw conflict('user.invalid_transition', 'invite.not_possible');
    }
    await issueInvite(ctx, user, request.lang);
    await audit(db, request, {
      action: 'user.send_invite',
      outcome: 'success',
      targetType: 'user',
      targetId: user.id,
      detail: { from: user.status },
    });
    announce(ctx, [event('users.changed', auth.clinicId, { userIds: [user.id] })]);
    return success(await reload(auth.clinicId, user.id), translate(request.lang, 'invite.sent'));
  };

  return { listUsers, getUser, createUser, updateUser, deleteUser, deleteUsers, bulkUpdateUsers, resendInvite };
}
