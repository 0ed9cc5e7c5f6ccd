// Staff users of the clinic (IT admins): list, read, add (draft or invite), edit, delete, restore, bulk status
// changes and invites. The rules are server/services/users.ts; here the multipart forms are read.
import type { IdList } from '../../generated/model/idList';
import type { ListUsersParams } from '../../generated/model/listUsersParams';
import type { UserBulkUpdate } from '../../generated/model/userBulkUpdate';
import type { AppContext } from '../context';
import { invalid } from '../http/errors';
import { actorOf } from '../http/actor';
import type { Handler, Handlers } from '../http/handler';
import { success } from '../http/handler';
import { type MessageKey, translate } from '../i18n';
import { readAvatarUpload, type AvatarUpload } from '../services/avatars';
import * as staff from '../services/users';

type Form = Record<string, unknown>;

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

export function usersHandlers(ctx: AppContext) {
  const listUsers: Handler<{ Querystring: ListUsersParams }> = async (request) => {
    const { data, meta } = await staff.listUsers(ctx, actorOf(request), request.query);
    return { status: 'Success', data, meta };
  };

  const getUser: Handler<{ Params: { id: string } }> = async (request) => success(await staff.getUser(ctx, actorOf(request), request.params.id));

  const createUser: Handler<{ Body: Form }> = async (request, reply) => {
    const actor = actorOf(request);
    const form = request.body ?? {};
    // The contract requires these four; blank (spaces only) counts as missing.
    const missing = ['firstName', 'lastName', 'email', 'role'].filter((name) => !text(form, name));
    if (missing.length) throw invalid(Object.fromEntries(missing.map((name) => [name, ['validation.required']])));
    const { user, message } = await staff.createUser(ctx, actor, {
      firstName: text(form, 'firstName')!,
      lastName: text(form, 'lastName')!,
      email: text(form, 'email')!,
      role: text(form, 'role')!,
      physicianName: text(form, 'physicianName') || null,
      draft: text(form, 'draft') === '1',
      avatar: avatarOf(form),
      currentPassword: text(form, 'currentPassword'),
    });
    reply.code(201);
    return success(user, translate(request.lang, message));
  };

  const updateUser: Handler<{ Params: { id: string }; Body: Form }> = async (request) => {
    const actor = actorOf(request);
    const form = request.body ?? {};
    const { user, message, params } = await staff.updateUser(ctx, actor, request.params.id, {
      firstName: required(form, 'firstName'),
      lastName: required(form, 'lastName'),
      email: required(form, 'email'),
      role: required(form, 'role'),
      physicianName: text(form, 'physicianName'),
      removeAvatar: text(form, 'removeAvatar') === '1',
      confirmDraft: text(form, 'draft') === '0',
      avatar: avatarOf(form),
      currentPassword: text(form, 'currentPassword'),
    });
    return success(user, translate(request.lang, message, params));
  };

  const deleteUser: Handler<{ Params: { id: string } }> = async (request) => {
    await staff.applyStaffAction(ctx, actorOf(request), [request.params.id], 'delete');
    return { status: 'Success', message: translate(request.lang, 'user.deleted') };
  };

  const deleteUsers: Handler<{ Body: IdList }> = async (request) => {
    const deleted = await staff.applyStaffAction(ctx, actorOf(request), request.body.ids, 'delete');
    return success({ deleted }, translate(request.lang, 'user.deleted'));
  };

  const bulkUpdateUsers: Handler<{ Body: UserBulkUpdate }> = async (request) => {
    const { ids, action } = request.body;
    const updated = await staff.applyStaffAction(ctx, actorOf(request), ids, action);
    return success({ updated }, translate(request.lang, BULK_MESSAGES[action]));
  };

  const resendInvite: Handler<{ Params: { id: string } }> = async (request) => {
    const user = await staff.resendInvite(ctx, actorOf(request), request.params.id);
    return success(user, translate(request.lang, 'invite.sent'));
  };

  return { listUsers, getUser, createUser, updateUser, deleteUser, deleteUsers, bulkUpdateUsers, resendInvite } satisfies Handlers;
}
