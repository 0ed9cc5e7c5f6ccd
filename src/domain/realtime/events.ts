/**
 * The realtime channels and events, in one table for the server that publishes them and the SPA that
 * listens. Two private channels (Pusher protocol): a clinic's channel carries changes to its patients,
 * sessions, plans and staff; a user's own channel carries their notifications. Payloads name what changed
 * (ids and a status), never health data: a listener reads the rest through the API, where every rule of
 * who may see what applies.
 */

export type ChannelKind = 'clinic' | 'user';

const CHANNEL_PREFIX: Record<ChannelKind, string> = {
  clinic: 'private-clinic.',
  user: 'private-user.',
};

/** `private-clinic.{clinicId}` or `private-user.{userId}`. */
export function channelName(kind: ChannelKind, id: string): string {
  return `${CHANNEL_PREFIX[kind]}${id}`;
}

/** What each event says. */
export interface RealtimePayloads {
  /** An exam was processed: the session is ready for planning (status "In planning"). */
  'treatment.processed': { patientId: string; treatmentId: string };
  /** Processing an exam failed. */
  'treatment.failed': { patientId: string; treatmentId: string };
  /** A plan step was saved (by anyone of the clinic). */
  'plan.step-saved': { patientId: string; treatmentId: string; step: number };
  /** An issue was reported on a session: it is locked for everybody. */
  'treatment.locked': { patientId: string; treatmentId: string };
  /** A session changed otherwise: uploaded, signed off, packed, unlocked, deleted, its plan status moved. */
  'treatment.modified': { patientId: string; treatmentId: string };
  /** Patients were created (by hand or by an exam upload). */
  'patients.created': { patientIds: string[] };
  /** Patients changed: details, status (archived, deleting, restored) or erased. */
  'patients.changed': { patientIds: string[] };
  /** Staff users were added or changed: their status (activated, deactivated, archived, deleted, invite accepted) or details. */
  'users.changed': { userIds: string[] };
  /** A notification for the channel's user was created. */
  'notification.created': { notificationId: string };
  /** Marks on a fundus image of a session were placed, changed or removed. */
  'annotations.changed': { patientId: string; treatmentId: string; imageId: string };
  /** The clinic's list of labels for marks grew. */
  'annotation-labels.changed': { labelIds: string[] };
  /** Devices were added, enrolled, revoked, or came Online or went Offline (their sync app's heartbeats). */
  'devices.changed': { deviceIds: string[] };
}

export type RealtimeEventName = keyof RealtimePayloads;

/** The channel kind each event is published on. */
export const REALTIME_EVENTS: { readonly [E in RealtimeEventName]: ChannelKind } = {
  'treatment.processed': 'clinic',
  'treatment.failed': 'clinic',
  'plan.step-saved': 'clinic',
  'treatment.locked': 'clinic',
  'treatment.modified': 'clinic',
  'patients.created': 'clinic',
  'patients.changed': 'clinic',
  'users.changed': 'clinic',
  'notification.created': 'user',
  'annotations.changed': 'clinic',
  'annotation-labels.changed': 'clinic',
  'devices.changed': 'clinic',
};

export const REALTIME_EVENT_NAMES = Object.keys(REALTIME_EVENTS) as RealtimeEventName[];

export type RealtimeEvent = { [E in RealtimeEventName]: { name: E; payload: RealtimePayloads[E] } }[RealtimeEventName];

const isId = (value: unknown): value is string => typeof value === 'string' && value.length > 0 && value.length <= 64;
const isIdList = (value: unknown): value is string[] => Array.isArray(value) && value.length <= 10_000 && value.every(isId);

const FIELDS: { readonly [E in RealtimeEventName]: Record<keyof RealtimePayloads[E], (value: unknown) => boolean> } = {
  'treatment.processed': { patientId: isId, treatmentId: isId },
  'treatment.failed': { patientId: isId, treatmentId: isId },
  'plan.step-saved': { patientId: isId, treatmentId: isId, step: (value) => Number.isInteger(value) },
  'treatment.locked': { patientId: isId, treatmentId: isId },
  'treatment.modified': { patientId: isId, treatmentId: isId },
  'patients.created': { patientIds: isIdList },
  'patients.changed': { patientIds: isIdList },
  'users.changed': { userIds: isIdList },
  'notification.created': { notificationId: isId },
  'annotations.changed': { patientId: isId, treatmentId: isId, imageId: isId },
  'annotation-labels.changed': { labelIds: isIdList },
  'devices.changed': { deviceIds: isIdList },
};

/**
 * An event as it arrives (name and the JSON of its data), checked against the table; null for a name we do
 * not know or a payload that does not fit (a listener then ignores it).
 */
export function parseRealtimeEvent(name: string, data: unknown): RealtimeEvent | null {
  if (!Object.hasOwn(REALTIME_EVENTS, name)) return null;
  let payload = data;
  if (typeof payload === 'string') {
    try {
      payload = JSON.parse(payload);
    } catch {
      return null;
    }
  }
  if (!payload || typeof payload !== 'object' || Array.isArray(payload)) return null;
  const fields = FIELDS[name as RealtimeEventName] as Record<string, (value: unknown) => boolean>;
  for (const [field, valid] of Object.entries(fields)) {
    if (!valid((payload as Record<string, unknown>)[field])) return null;
  }
  return { name, payload } as RealtimeEvent;
}
