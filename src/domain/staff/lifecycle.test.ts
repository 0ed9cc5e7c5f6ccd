import { describe, expect, it } from 'vitest';
import { actionApplies, STAFF_ACTIONS, transition } from './lifecycle';

const user = (status: string, invite_status = 'accepted', previous_status: string | null = null) => ({ status, invite_status, previous_status });

describe('transition', () => {
  it('activates the deactivated and deactivates the active only', () => {
    expect(transition('activate', user('deactivated'))?.status).toBe('active');
    expect(transition('activate', user('active'))).toBeNull();
    expect(transition('deactivate', user('active'))?.status).toBe('deactivated');
    expect(transition('deactivate', user('pending', 'pending'))).toBeNull();
  });

  it('archives and deletes remembering the live status, and brings it back', () => {
    const archived = transition('archive', user('active'))!;
    expect(archived).toEqual({ status: 'archived', invite_status: 'accepted', previous_status: 'active' });
    expect(transition('unarchive', archived)?.status).toBe('active');
    const deleted = transition('delete', archived)!;
    expect(deleted).toEqual({ status: 'deleting', invite_status: 'accepted', previous_status: 'active' });
    expect(transition('restore', deleted)?.status).toBe('active');
    expect(transition('delete', deleted)).toEqual(deleted);
  });

  it('expires an open invite on the way out: the user comes back with an expired invite', () => {
    const archived = transition('archive', user('pending', 'pending'))!;
    expect(archived.invite_status).toBe('invite_expired');
    expect(transition('unarchive', archived)).toEqual({ status: 'invite_expired', invite_status: 'invite_expired', previous_status: null });
    const draft = transition('delete', user('creation_in_progress', 'creation_in_progress'))!;
    expect(transition('restore', draft)?.status).toBe('creation_in_progress');
  });

  it('sends invites to those who have not accepted', () => {
    for (const status of ['creation_in_progress', 'pending', 'invite_expired']) expect(transition('send_invite', user(status, status))).not.toBeNull();
    for (const status of ['active', 'deactivated', 'archived', 'deleting']) expect(transition('send_invite', user(status))).toBeNull();
  });
});

describe('actionApplies', () => {
  it('leaves the caller out of what cannot be done to oneself', () => {
    const me = { id: 'me', status: 'active' };
    expect(actionApplies('deactivate', me, 'me')).toBe(false);
    expect(actionApplies('archive', me, 'me')).toBe(false);
    expect(actionApplies('delete', me, 'me')).toBe(false);
    expect(actionApplies('deactivate', me, 'someone else')).toBe(true);
  });

  it('agrees with the transitions for every action and status', () => {
    for (const action of STAFF_ACTIONS.filter((a) => a !== 'delete')) {
      for (const status of ['active', 'pending', 'invite_expired', 'deactivated', 'creation_in_progress', 'archived', 'deleting', 'archiving']) {
        expect(actionApplies(action, { id: 'x', status }, 'me')).toBe(transition(action, user(status)) !== null);
      }
    }
    expect(actionApplies('delete', { id: 'x', status: 'deleting' }, 'me')).toBe(false);
    expect(actionApplies('delete', { id: 'x', status: 'archived' }, 'me')).toBe(true);
  });
});
