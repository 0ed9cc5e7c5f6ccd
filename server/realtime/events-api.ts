// The HTTP events API of the Pusher protocol (`POST /apps/{id}/events` and `/batch_events`), as the
// official `pusher` SDK calls it: the query carries auth_key, auth_timestamp, auth_version, body_md5 and
// auth_signature = HMAC-SHA256(secret, "POST\n{path}\n{the other query parameters, sorted}"). Answers are
// Pusher's: 200 `{}`, 400 for a malformed event, 401 for a bad signature, 404 for another app, 413 for too
// much. Outside the contract (it is Pusher's API, not ours), beside it on the same port.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import proxyAddr from 'proxy-addr';
import type { RealtimeConfig } from '../config';
import { EventTooLargeError, type FanOut } from './fanout';
import type { PublishedEvent } from './hub';

/** Pusher's limits: 10 kB of data per event, 100 channels per event, 10 events per batch. */
export const EVENT_LIMITS = { dataBytes: 10 * 1024, channels: 100, batch: 10, nameLength: 200 } as const;
/** A signed request is good for this long either side of now (clocks of two machines differ). */
const TIMESTAMP_GRACE_SECONDS = 600;
const CHANNEL_NAME = /^[A-Za-z0-9_\-=@,.;]{1,200}$/;

export const EVENTS_ROUTES = ['/apps/:appId/events', '/apps/:appId/batch_events'];

export class PusherApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function sign(secret: string, text: string): string {
  return createHmac('sha256', secret).update(text).digest('hex');
}

/** Checks the request's signature, timestamp and body checksum as a Pusher server does. */
export function verifySignedRequest(
  config: Pick<RealtimeConfig, 'key' | 'secret'>,
  request: { method: string; path: string; query: Record<string, string>; body: string },
  nowSeconds = Date.now() / 1000,
): void {
  const { query } = request;
  if (query.auth_key !== config.key) throw new PusherApiError(401, 'Unknown auth_key');
  if (query.auth_version !== '1.0') throw new PusherApiError(401, 'auth_version must be 1.0');
  const timestamp = Number(query.auth_timestamp);
  if (!Number.isFinite(timestamp) || Math.abs(nowSeconds - timestamp) > TIMESTAMP_GRACE_SECONDS) {
    throw new PusherApiError(401, 'Timestamp expired: the clocks differ by more than 600 seconds');
  }
  if (request.body && query.body_md5 !== createHash('md5').update(request.body).digest('hex')) {
    throw new PusherApiError(401, 'body_md5 does not match the body');
  }
  const signed = Object.keys(query)
    .filter((name) => name !== 'auth_signature')
    .sort()
    .map((name) => `${name.toLowerCase()}=${query[name]}`)
    .join('&');
  const expected = Buffer.from(sign(config.secret, `${request.method}\n${request.path}\n${signed}`));
  const given = Buffer.from(String(query.auth_signature ?? ''));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new PusherApiError(401, 'Invalid signature');
}

interface EventBody {
  name?: unknown;
  data?: unknown;
  channel?: unknown;
  channels?: unknown;
  socket_id?: unknown;
}

/** One event of the API, checked, as the events it publishes (one per channel). */
function eventsOf(body: EventBody): PublishedEvent[] {
  if (!body || typeof body !== 'object') throw new PusherApiError(400, 'The event must be a JSON object');
  const { name, data, socket_id: socketId } = body;
  if (typeof name !== 'string' || !name || name.length > EVENT_LIMITS.nameLength) throw new PusherApiError(400, 'name must be a string of 1 to 200 characters');
  if (typeof data !== 'string') throw new PusherApiError(400, 'data must be a string');
  if (Buffer.byteLength(data) > EVENT_LIMITS.dataBytes) throw new PusherApiError(413, `data may hold at most ${EVENT_LIMITS.dataBytes} bytes`);
  if (socketId !== undefined && (typeof socketId !== 'string' || !/^\d+\.\d+$/.test(socketId))) throw new PusherApiError(400, 'socket_id is not valid');
  const channels = body.channels ?? (body.channel === undefined ? undefined : [body.channel]);
  if (!Array.isArray(channels) || channels.length === 0 || channels.length > EVENT_LIMITS.channels) {
    throw new PusherApiError(400, `channels must list 1 to ${EVENT_LIMITS.channels} channels`);
  }
  return channels.map((channel) => {
    if (typeof channel !== 'string' || !CHANNEL_NAME.test(channel)) throw new PusherApiError(400, 'A channel name is not valid');
    return { channel, event: name, data, ...(socketId ? { socketId: socketId as string } : {}) };
  });
}

/**
 * Whether a request may use the events API: sent straight from an address the deployment names
 * (REALTIME_EVENTS_API_FROM, loopback by default, where the server publishes to itself), not through a proxy
 * (which adds Forwarded or X-Forwarded-For) — elsewhere the API answers 404 as if it were not there.
 */
export function eventsApiAllowed(from: readonly string[]): (request: Pick<FastifyRequest, 'headers' | 'socket'>) => boolean {
  const trusted = proxyAddr.compile([...from]);
  return (request) =>
    request.headers['x-forwarded-for'] === undefined && request.headers.forwarded === undefined && trusted(request.socket.remoteAddress ?? '', 0);
}

export async function installEventsApi(app: FastifyInstance, config: RealtimeConfig, fanOut: () => FanOut): Promise<void> {
  const allowed = eventsApiAllowed(config.eventsApiFrom);
  const answer = async (request: FastifyRequest<{ Params: { appId: string } }>, reply: FastifyReply, batch: boolean) => {
    try {
      if (!allowed(request)) throw new PusherApiError(404, 'Not found');
      if (request.params.appId !== config.appId) throw new PusherApiError(404, 'Unknown app');
      const body = typeof request.body === 'string' ? request.body : '';
      verifySignedRequest(config, {
        method: request.method,
        path: request.url.split('?')[0],
        query: request.query as Record<string, string>,
        body,
      });
      let parsed: unknown;
      try {
        parsed = JSON.parse(body);
      } catch {
        throw new PusherApiError(400, 'The body is not JSON');
      }
      let events: PublishedEvent[];
      if (batch) {
        const list = (parsed as { batch?: unknown } | null)?.batch;
        if (!Array.isArray(list) || list.length === 0 || list.length > EVENT_LIMITS.batch) {
          throw new PusherApiError(400, `batch must list 1 to ${EVENT_LIMITS.batch} events`);
        }
        events = list.flatMap((event: EventBody) => eventsOf(event));
      } else {
        events = eventsOf(parsed as EventBody);
      }
      await fanOut().publish(events);
      return reply.code(200).send({});
    } catch (error) {
      if (error instanceof PusherApiError) return reply.code(error.status).send({ error: error.message });
      if (error instanceof EventTooLargeError) return reply.code(413).send({ error: error.message });
      throw error;
    }
  };

  await app.register(async (scope) => {
    // The signature covers the body's bytes: read it as text, parse it after the check.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 256 * 1024 }, (_request, body, done) => done(null, body));
    // Each change of the product publishes here: a log line per event would drown the requests that matter.
    const quiet = { logLevel: 'warn' as const };
    scope.post<{ Params: { appId: string } }>(EVENTS_ROUTES[0], quiet, (request, reply) => answer(request, reply, false));
    scope.post<{ Params: { appId: string } }>(EVENTS_ROUTES[1], quiet, (request, reply) => answer(request, reply, true));
  });
}
