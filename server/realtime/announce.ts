// How services tell the clinic's screens what changed: after the change is committed (a listener refetches
// at once and must find it), never failing the request that made it.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { RealtimeEventName, RealtimePayloads } from '../../src/domain/realtime/events';
import type { AppContext } from '../context';
import type { OutgoingEvent, Publisher } from './publisher';

const SOCKET_ID = /^\d{1,20}\.\d{1,20}$/;

/** The realtime socket of the page whose request is being answered (its `X-Socket-Id` header). */
const requestSocket = new AsyncLocalStorage<string>();

/**
 * Runs the rest of a request with its page's socket id, so that what the request changes is not announced
 * back to that page (it knows already; other pages and tabs of the same user still hear it). Pusher's own
 * `socket_id` exclusion.
 */
export function withRequestSocket(socketId: string | undefined, next: () => void): void {
  if (socketId && SOCKET_ID.test(socketId)) requestSocket.run(socketId, next);
  else next();
}

/** Publishes the events (the change they name is committed), leaving out the requesting page's socket. */
export function announce(ctx: Pick<AppContext, 'realtime'>, events: OutgoingEvent[]): void {
  if (events.length) void ctx.realtime?.publish(events, requestSocket.getStore());
}

export function event<E extends RealtimeEventName>(name: E, to: string, payload: RealtimePayloads[E]): OutgoingEvent<E> {
  return { name, to, payload };
}

type SessionEventName = 'treatment.processed' | 'treatment.failed' | 'treatment.locked' | 'treatment.modified';

/** A session's event, and the patient lists' (the session's status shows there). */
export function sessionEvents(name: SessionEventName, session: { clinicId: string; patientId: string; treatmentId: string }): OutgoingEvent[] {
  const { clinicId, patientId, treatmentId } = session;
  return [event(name, clinicId, { patientId, treatmentId }), event('patients.changed', clinicId, { patientIds: [patientId] })];
}

/**
 * A context for work inside a transaction: what it announces is held back until `release()` is called
 * after the commit (and dropped when the transaction fails).
 */
export function heldAnnouncements<C extends Pick<AppContext, 'realtime'>>(ctx: C): { ctx: C; release(): void } {
  const held: OutgoingEvent[] = [];
  const holder: Publisher = {
    publish: async (events) => void held.push(...events),
    listening: () => {},
    settled: async () => {},
  };
  return {
    ctx: { ...ctx, realtime: ctx.realtime ? holder : undefined },
    release: () => announce(ctx, held.splice(0)),
  };
}
