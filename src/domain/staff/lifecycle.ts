/**
 * The lifecycle of a staff user (activate, archive, delete, invite…): which action fits which status and where it
 * leads. The server applies it; the admin screens use the same rules to say, before anything is sent, how
 * many of the selected users an action touches.
 */

/** The actions of the staff lists: the contract's bulk actions and delete (its own call). */
export type StaffAction = 'activate' | 'deactivate' | 'archive' | 'unarchive' | 'restore' | 'send_invite' | 'delete';

export const STAFF_ACTIONS: readonly StaffAction[] = ['activate', 'deactivate', 'send_invite', 'archive', 'unarchive', 'delete', 'restore'];

/** What the rules read of a user. */
export interface StaffState {
  status: string;
  invite_status: string;
  previous_status: string | null;
}

export type Transition = StaffState;

// Statuses a user lives in (as opposed to archived/deleting, which remember one of these).
const LIVE_STATUSES = ['active', 'deactivated', 'pending', 'invite_expired', 'creation_in_progress'];

/** Statuses the staff lists leave out unless asked for: the user is archived or deleted (restorable). */
export const HIDDEN_STATUSES = ['archived', 'archiving', 'deleting'];

/**
 * The status a user comes back to from archived or deleting: the one before, except that an invite that
 * was open is expired by then (its link was revoked), and a user of unknown history who had accepted the
 * invite comes back deactivated (an IT admin activates them explicitly).
 */
function comeBack(user: Pick<StaffState, 'previous_status' | 'invite_status'>): Transition {
  const before = user.previous_status && LIVE_STATUSES.includes(user.previous_status) ? user.previous_status : null;
  if (user.invite_status === 'creation_in_progress' || before === 'creation_in_progress') {
    return { status: 'creation_in_progress', invite_status: 'creation_in_progress', previous_status: null };
  }
  if (user.invite_status !== 'accepted' || before === 'pending' || before === 'invite_expired') {
    return { status: 'invite_expired', invite_status: 'invite_expired', previous_status: null };
  }
  return { status: before === 'active' ? 'active' : 'deactivated', invite_status: 'accepted', previous_status: null };
}

/** The status a user leaves for archived or deleting; the live status before is remembered. */
function goAway(user: StaffState, status: string): Transition {
  const live = LIVE_STATUSES.includes(user.status) ? user.status : user.previous_status;
  const inviteStatus = user.invite_status === 'pending' ? 'invite_expired' : user.invite_status;
  return { status, invite_status: inviteStatus, previous_status: live };
}

/**
 * The new state of a user under an action, or null when the action does not fit the user's status.
 * `send_invite` returns the user's current state: the invite itself changes it.
 */
export function transition(action: StaffAction, user: StaffState): Transition | null {
  const keep = { status: user.status, invite_status: user.invite_status, previous_status: user.previous_status };
  switch (action) {
    case 'activate':
      return user.status === 'deactivated' ? { ...keep, status: 'active' } : null;
    case 'deactivate':
      return user.status === 'active' ? { ...keep, status: 'deactivated' } : null;
    case 'archive':
      return ['archived', 'archiving', 'deleting'].includes(user.status) ? null : goAway(user, 'archived');
    case 'unarchive':
      return user.status === 'archived' || user.status === 'archiving' ? comeBack(user) : null;
    case 'restore':
      return ['deleting', 'archived', 'archiving'].includes(user.status) ? comeBack(user) : null;
    case 'send_invite':
      return ['creation_in_progress', 'pending', 'invite_expired'].includes(user.status) ? keep : null;
    case 'delete':
      // Deleting twice changes nothing (and keeps what the user comes back to).
      return user.status === 'deleting' ? keep : goAway(user, 'deleting');
  }
}

/** Actions after which the user can no longer sign in: sessions end, open links are revoked. */
export const ENDS_ACCESS: Partial<Record<StaffAction, string>> = {
  deactivate: 'deactivated',
  archive: 'archived',
  delete: 'deleted',
};

/** Actions an IT admin may not apply to their own account. */
export const NOT_ON_ONESELF: readonly StaffAction[] = ['deactivate', 'archive', 'delete'];

/**
 * Whether an action applies to a user as the staff lists show them (a user's status, no history): the
 * caller's own account is left out of what it cannot do to itself, and deleting a deleted user changes
 * nothing, so it does not count.
 */
export function actionApplies(action: StaffAction, user: { id: string; status: string }, selfId: string): boolean {
  if (user.id === selfId && NOT_ON_ONESELF.includes(action)) return false;
  if (action === 'delete') return user.status !== 'deleting';
  return transition(action, { status: user.status, invite_status: '', previous_status: null }) !== null;
}
