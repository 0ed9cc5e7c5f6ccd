// Fan-out of published events to every server process, so that a client receives an event whichever
// process it is connected to and whichever process the event was published through. On embedded PGlite
// (one process) the events stay in the process; on PostgreSQL they go through LISTEN/NOTIFY, which every
// process of the fleet listens to (its own notifications included).
import pg from 'pg';
import type { PublishedEvent } from './hub';

export interface FanOut {
  publish(events: PublishedEvent[]): Promise<void>;
  close(): Promise<void>;
}

/** NOTIFY takes at most 8000 bytes; the envelope leaves this much for an event. */
export const NOTIFY_LIMIT_BYTES = 7_900;
const NOTIFY_CHANNEL = 'macula_realtime';

export class EventTooLargeError extends Error {}

export function localFanOut(deliver: (event: PublishedEvent) => void): FanOut {
  return {
    async publish(events) {
      for (const event of events) deliver(event);
    },
    async close() {},
  };
}

export interface PostgresFanOutOptions {
  databaseUrl: string;
  /** Kept apart from other apps on the same database (the Pusher app id). */
  appId: string;
  deliver: (event: PublishedEvent) => void;
  /** LISTEN works again after a gap: events of the gap were lost for this process's sockets. */
  resumed: () => void;
  log: (message: string, error?: unknown) => void;
}

/**
 * LISTEN on a connection of its own (re-opened after it breaks, with back-off up to 10 s); NOTIFY through a
 * small pool. Events published while the listening connection is down are lost for this process's sockets:
 * once it listens again, `resumed` lets the endpoint send its clients to reconnect, and a client that comes
 * back refetches what it shows.
 */
export async function postgresFanOut(options: PostgresFanOutOptions): Promise<FanOut> {
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 2 });
  let listener: pg.Client | null = null;
  let closing = false;
  let retryMs = 250;
  let retry: NodeJS.Timeout | null = null;
  let broken = false;

  const onNotification = (message: pg.Notification) => {
    if (message.channel !== NOTIFY_CHANNEL || !message.payload) return;
    try {
      const { appId, event } = JSON.parse(message.payload) as { appId: string; event: PublishedEvent };
      if (appId === options.appId) options.deliver(event);
    } catch (error) {
      options.log('realtime: an unreadable notification was ignored', error);
    }
  };

  const listen = async () => {
    const client = new pg.Client({ connectionString: options.databaseUrl });
    client.on('notification', onNotification);
    client.on('error', (error) => {
      options.log('realtime: the LISTEN connection broke; reconnecting', error);
      broken = true;
      void client.end().catch(() => {});
      if (listener === client) listener = null;
      schedule();
    });
    await client.connect();
    await client.query(`LISTEN ${NOTIFY_CHANNEL}`);
    const afterGap = broken;
    listener = client;
    broken = false;
    retryMs = 250;
    if (afterGap) options.resumed();
  };
  const schedule = () => {
    if (closing || retry) return;
    retry = setTimeout(() => {
      retry = null;
      listen().catch((error) => {
        options.log('realtime: LISTEN failed; trying again', error);
        retryMs = Math.min(retryMs * 2, 10_000);
        schedule();
      });
    }, retryMs);
    retry.unref();
  };
  await listen();

  return {
    async publish(events) {
      const payloads = events.map((event) => JSON.stringify({ appId: options.appId, event }));
      if (payloads.some((payload) => Buffer.byteLength(payload) > NOTIFY_LIMIT_BYTES)) {
        throw new EventTooLargeError(`An event may hold at most ${NOTIFY_LIMIT_BYTES} bytes here.`);
      }
      // One statement: all events of a call arrive, in order, or none.
      const values = payloads.map((_, index) => `pg_notify('${NOTIFY_CHANNEL}', $${index + 1})`).join(', ');
      await pool.query(`select ${values}`, payloads);
    },
    async close() {
      closing = true;
      if (retry) clearTimeout(retry);
      await listener?.end().catch(() => {});
      await pool.end();
    },
  };
}
