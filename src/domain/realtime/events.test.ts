import { describe, expect, it } from 'vitest';
import { channelName, parseRealtimeEvent, REALTIME_EVENT_NAMES, REALTIME_EVENTS } from './events';

const ID = '5d0c8f3e-2b7a-4e61-9f1d-8a3c6b2e4f01';

describe('realtime channels', () => {
  it('names the clinic and the user channel', () => {
    expect(channelName('clinic', ID)).toBe(`private-clinic.${ID}`);
    expect(channelName('user', ID)).toBe(`private-user.${ID}`);
  });

  it('publishes notifications on the user channel and everything else on the clinic channel', () => {
    expect(REALTIME_EVENT_NAMES.filter((name) => REALTIME_EVENTS[name] === 'user')).toEqual(['notification.created']);
  });
});

describe('parseRealtimeEvent', () => {
  it('takes a known event with its payload, as an object or as the JSON string Pusher delivers', () => {
    expect(parseRealtimeEvent('treatment.processed', { patientId: 'p', treatmentId: 't' })).toEqual({
      name: 'treatment.processed',
      payload: { patientId: 'p', treatmentId: 't' },
    });
    expect(parseRealtimeEvent('plan.step-saved', '{"patientId":"p","treatmentId":"t","step":3}')?.payload).toEqual({ patientId: 'p', treatmentId: 't', step: 3 });
    expect(parseRealtimeEvent('patients.changed', { patientIds: [ID] })?.payload).toEqual({ patientIds: [ID] });
    expect(parseRealtimeEvent('annotations.changed', { patientId: 'p', treatmentId: 't', imageId: 'i' })?.payload).toEqual({ patientId: 'p', treatmentId: 't', imageId: 'i' });
    expect(parseRealtimeEvent('annotations.changed', { patientId: 'p', treatmentId: 't' })).toBeNull();
  });

  it('ignores unknown events and payloads that do not fit', () => {
    expect(parseRealtimeEvent('client-typing', {})).toBeNull();
    expect(parseRealtimeEvent('toString', {})).toBeNull();
    expect(parseRealtimeEvent('treatment.processed', { patientId: 'p' })).toBeNull();
    expect(parseRealtimeEvent('plan.step-saved', { patientId: 'p', treatmentId: 't', step: 'three' })).toBeNull();
    expect(parseRealtimeEvent('patients.changed', { patientIds: 'p' })).toBeNull();
    expect(parseRealtimeEvent('patients.changed', '{not json')).toBeNull();
    expect(parseRealtimeEvent('notification.created', [])).toBeNull();
    expect(parseRealtimeEvent('notification.created', null)).toBeNull();
  });
});
