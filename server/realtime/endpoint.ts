// The realtime endpoint inside the reference server, on its port: websockets at `/app/{key}` (also under
// `/api`, where a same-origin SPA finds its API), the HTTP events API at `/apps/{id}/events`, and the
// fan-out that gets every published event to the sockets of every server process.
import type { FastifyInstance } from 'fastify';
import { WebSocketServer, type WebSocket } from 'ws';
import type { AppContext } from '../context';
import { EVENTS_ROUTES, installEventsApi } from './events-api';
import { localFanOut, postgresFanOut, type FanOut } from './fanout';
import { frame, Hub, PROTOCOL_VERSIONS, PusherCode } from './hub';
import { createPublisher } from './publisher';
import { clientAddress } from '../http/client-address';
import { socketsOfEndedSessions, unbindSockets } from '../repositories/realtime-bindings';

const SOCKET_PATH = /^(?:\/api)?\/app\/([^/]+)$/;
/** A client that reads slower than events come is closed (it reconnects and refetches) rather than buffered without end. */
const MAX_BUFFERED_BYTES = 1024 * 1024;
/** Socket ids per query of the session check. */
const SESSION_CHECK_CHUNK = 1000;

export { EVENTS_ROUTES };

function refuse(ws: WebSocket, code: number, message: string): void {
  ws.send(frame('pusher:error', { code, message }));
  ws.close(code, message);
}

export async function installRealtime(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const config = ctx.config.realtime;
  const log = (message: string, error?: unknown) => app.log.warn({ err: error }, message);
  const publisher = (ctx.realtime ??= createPublisher(config, log));
  app.addHook('onListen', async () => {
    const address = app.server.address();
    if (address && typeof address === 'object') publisher.listening({ host: address.address, port: address.port });
  });

  // With an external service, this server neither holds sockets nor takes events: it only publishes.
  if (config.external) {
    app.addHook('preClose', async () => publisher.settled());
    return;
  }

  const hub = new Hub({
    key: config.key,
    secret: config.secret,
    activityTimeoutSeconds: config.activityTimeoutSeconds,
    maxConnections: config.maxConnections,
    maxPerAddress: config.maxPerAddress,
    subscribeTimeoutMs: config.subscribeTimeoutSeconds * 1000,
    onProtocolError: (socketId, message) => app.log.debug({ socketId }, `realtime: ${message}`),
  });
  const deliver = (event: Parameters<Hub['deliver']>[0]) => void hub.deliver(event);
  const fanOut: FanOut = ctx.config.databaseUrl
    ? await postgresFanOut({
        databaseUrl: ctx.config.databaseUrl,
        appId: config.appId,
        deliver,
        // Events may have been missed: the clients reconnect (4200) and refetch what they show.
        resumed: () => hub.closeAll('Events may have been missed; reconnect', { keepRunning: true }),
        log,
      })
    : localFanOut(deliver);
  await installEventsApi(app, config, () => fanOut);

  // Sockets closed since the last session check, whose bindings it deletes.
  const gone: string[] = [];
  const sockets = new WebSocketServer({ noServer: true, maxPayload: 10 * 1024, perMessageDeflate: false });
  app.server.on('upgrade', (request, socket, head) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const match = SOCKET_PATH.exec(url.pathname);
    if (!match) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    sockets.handleUpgrade(request, socket, head, (ws) => {
      ws.on('error', () => {});
      let key = '';
      try {
        key = decodeURIComponent(match[1]);
      } catch {
        // An undecodable key is no key of ours.
      }
      if (key !== config.key) return refuse(ws, PusherCode.appNotFound, `App key ${key.slice(0, 60)} does not exist`);
      const protocol = Number(url.searchParams.get('protocol'));
      if (!PROTOCOL_VERSIONS.includes(protocol)) {
        return refuse(ws, PusherCode.unsupportedProtocol, `Unsupported protocol version; this server speaks ${PROTOCOL_VERSIONS.join(', ')}`);
      }
      const address = clientAddress(request, ctx.config.trustProxy);
      const id = hub.open({
        send(text) {
          if (ws.readyState !== ws.OPEN) return;
          if (ws.bufferedAmount > MAX_BUFFERED_BYTES) return ws.close(PusherCode.overCapacity, 'The client reads too slowly');
          ws.send(text);
        },
        close: (code, reason) => ws.close(code, reason),
      }, address);
      if (id === null) return;
      ws.on('message', (data, isBinary) => {
        if (isBinary) return ws.send(frame('pusher:error', { code: null, message: 'Binary frames are not part of the protocol' }));
        hub.receive(id, data.toString());
      });
      ws.on('close', () => {
        hub.closed(id);
        gone.push(id);
      });
    });
  });

  // A socket lives no longer than the session that had its subscriptions signed (issue 27, defect 8): logout,
  // deactivation, a new password or e-mail address, a forced reset and expiry all end sessions in the database,
  // in any process of a fleet; each process checks its own sockets against them.
  let checking = false;
  const checkSessions = async () => {
    if (checking) return;
    checking = true;
    try {
      const ids = hub.socketIds();
      for (let start = 0; start < ids.length; start += SESSION_CHECK_CHUNK) {
        const ended = await socketsOfEndedSessions(ctx.db, ids.slice(start, start + SESSION_CHECK_CHUNK), ctx.clock.now());
        for (const socketId of ended) hub.end(socketId, PusherCode.unauthorized, 'The session has ended');
      }
      while (gone.length) await unbindSockets(ctx.db, gone.splice(0, SESSION_CHECK_CHUNK));
    } finally {
      checking = false;
    }
  };
  const sessionCheck = setInterval(() => void checkSessions().catch((error: unknown) => log('realtime: session check failed', error)), config.sessionCheckSeconds * 1000);
  sessionCheck.unref();

  app.addHook('preClose', async () => {
    clearInterval(sessionCheck);
    await publisher.settled();
    hub.closeAll('The server is restarting');
    sockets.close();
    await fanOut.close();
  });
}
