import { describe, expect, it } from 'vitest';
import { staleQueryKeys } from './realtime-invalidation';

const ME = { id: 'me' };

describe('staleQueryKeys', () => {
  it('makes a session\'s change stale on its card, its plan, its audit and every patient list', () => {
    const keys = staleQueryKeys({ name: 'treatment.processed', payload: { patientId: 'p1', treatmentId: 't1' } }, ME);
    expect(keys).toEqual(
      expect.arrayContaining([['/treatments/t1'], ['/treatments/t1/plan'], ['/treatments/t1/audit'], ['/patients'], ['/patients/p1'], ['/patients/p1/treatments']]),
    );
  });

  it('makes patients stale in the lists and on their cards', () => {
    expect(staleQueryKeys({ name: 'patients.created', payload: { patientIds: ['a', 'b'] } }, ME)).toEqual(
      expect.arrayContaining([['/patients'], ['/patients/a'], ['/patients/b/treatments']]),
    );
  });

  it('refetches the profile when the user\'s own account changed (a deactivated user is signed out)', () => {
    expect(staleQueryKeys({ name: 'users.changed', payload: { userIds: ['other'] } }, ME)).toEqual([]);
    expect(staleQueryKeys({ name: 'users.changed', payload: { userIds: ['other', 'me'] } }, ME)).toEqual([['/user/profile']]);
  });

  it('refetches the notifications (the bell and the list) on a new one', () => {
    expect(staleQueryKeys({ name: 'notification.created', payload: { notificationId: 'n' } }, ME)).toEqual([['/notifications']]);
  });

  it('refetches the marks of the one image that changed, and the labels when the clinic added one', () => {
    expect(staleQueryKeys({ name: 'annotations.changed', payload: { patientId: 'p1', treatmentId: 't1', imageId: 'i1' } }, ME)).toEqual([
      ['/treatments/t1/images/i1/annotations'],
    ]);
    expect(staleQueryKeys({ name: 'annotation-labels.changed', payload: { labelIds: ['l1'] } }, ME)).toEqual([['/clinic/annotation-labels']]);
    expect(staleQueryKeys({ name: 'devices.changed', payload: { deviceIds: ['d1'] } }, ME)).toEqual([['/clinic/devices']]);
  });
});
