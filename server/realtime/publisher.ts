// Publishing realtime events, only ever through the official `pusher` SDK: to this server's own endpoint
// over loopback by default, to hosted Pusher Channels or a Pusher-compatible server (soketi, sockudo) when
// configured. Publishing never fails a request: a lost event is logged, and clients refetch.
import Pusher from 'pusher';
import { channelName, REALTIME_EVENTS, type RealtimeEventName, type RealtimePayloads } from '../../src/domain/realtime/events';
import type { RealtimeConfig } from '../config';
import { EVENT_LIMITS } from './events-api';

export interface OutgoingEvent<E extends RealtimeEventName = RealtimeEventName> {
  name: E;
  /** The clinic's id (clinic events) or the user's id (user events). */
  to: string;
  payload: RealtimePayloads[E];
}

export interface Publisher {
  /** `exceptSocket`: the socket that is not to receive them (the requesting page's). */
  publish(events: OutgoingEvent[], exceptSocket?: string): Promise<void>;
  /** The port of this server once it listens (for the own endpoint). */
  listening(address: { host: string; port: number }): void;
  /** Waits for the events on their way. */
  settled(): Promise<void>;
}

export function createPublisher(config: RealtimeConfig, log: (message: string, error?: unknown) => void): Publisher {
  const options = { appId: config.appId, key: config.key, secret: config.secret, timeout: 10_000 };
  let client: Pusher | null = config.external
    ? new Pusher({ ...options, host: config.external.host, port: String(config.external.port), useTLS: config.external.useTLS })
    : null;
  const inFlight = new Set<Promise<void>>();

  const send = async (events: OutgoingEvent[], exceptSocket: string | undefined) => {
    if (!client) return;
    const batch = events.map(({ name, to, payload }) => ({
      channel: channelName(REALTIME_EVENTS[name], to),
      name,
      data: payload,
      ...(exceptSocket ? { socket_id: exceptSocket } : {}),
    }));
    for (let start = 0; start < batch.length; start += EVENT_LIMITS.batch) {
      await client.triggerBatch(batch.slice(start, start + EVENT_LIMITS.batch));
    }
  };

  return {
    publish(events, exceptSocket) {
      if (events.length === 0) return Promise.resolve();
      const sending = send(events, exceptSocket).catch((error: unknown) => log(`realtime: ${events.map((e) => e.name).join(', ')} not published`, error));
      inFlight.add(sending);
      void sending.finally(() => inFlight.delete(sending));
      return sending;
    },
    listening({ host, port }) {
      if (config.external) return;
      // The own endpoint: over loopback when the server listens on every address, else on its address.
      const target = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
      client = new Pusher({ ...options, host: target, port: String(port), useTLS: false });
    },
    async settled() {
      await Promise.all([...inFlight]);
    },
  };
}
