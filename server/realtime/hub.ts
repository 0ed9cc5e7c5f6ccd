// The Pusher Channels protocol (version 7) as the server side speaks it, for the sockets of this process:
// connection established, ping and pong, subscribing to private channels with a signature, unsubscribing,
// delivering published events, and the protocol's error codes. Independent of the websocket library: a
// connection is anything that sends text and closes.
import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';

/** Close codes and error codes of the protocol (4000–4099: don't reconnect; 4100–4199: back off; 4200–4299: reconnect). */
export const PusherCode = {
  appNotFound: 4001,
  unsupportedProtocol: 4007,
  unauthorized: 4009,
  overCapacity: 4100,
  reconnect: 4200,
  pongNotReceived: 4201,
} as const;

/** Protocol versions this endpoint speaks (pusher-js 8 sends 7). */
export const PROTOCOL_VERSIONS = [5, 6, 7];

/** Channel names as Pusher allows them. */
const CHANNEL_NAME = /^[A-Za-z0-9_\-=@,.;]{1,200}$/;
/** How long a pinged socket may take to answer before it is closed. */
const PONG_TIMEOUT_MS = 30_000;

export interface Socket {
  send(text: string): void;
  close(code: number, reason: string): void;
}

export interface PublishedEvent {
  channel: string;
  event: string;
  /** The event's data as published (a string: JSON the client parses). */
  data: string;
  /** The publisher's own socket, which does not receive the event. */
  socketId?: string;
}

interface Connection {
  id: string;
  socket: Socket;
  /** The client's address (TRUST_PROXY applied), for the cap per address. */
  address: string;
  openedAt: number;
  /** Whether the socket ever subscribed (a signed-in client may leave its channels for a moment and come back). */
  subscribed: boolean;
  channels: Set<string>;
  lastActivity: number;
  pingedAt: number | null;
}

export interface HubOptions {
  key: string;
  secret: string;
  activityTimeoutSeconds: number;
  maxConnections: number;
  /** Sockets one address may hold at once: strangers cannot take every slot of the process. */
  maxPerAddress: number;
  /** A socket that has not subscribed to a channel this long after opening is closed (only signed-in users can). */
  subscribeTimeoutMs: number;
  /** A socket sent something the protocol does not allow (logged at debug level). */
  onProtocolError?: (socketId: string, message: string) => void;
}

/** A protocol frame: `data` travels as a JSON string inside the JSON message. */
export const frame = (event: string, data: unknown, channel?: string) =>
  JSON.stringify(channel === undefined ? { event, data: JSON.stringify(data) } : { event, channel, data: JSON.stringify(data) });

/** The signature a private channel's subscription must carry, compared in constant time. */
function signatureMatches(options: HubOptions, socketId: string, channel: string, auth: unknown): boolean {
  if (typeof auth !== 'string') return false;
  const expected = Buffer.from(`${options.key}:${createHmac('sha256', options.secret).update(`${socketId}:${channel}`).digest('hex')}`);
  const given = Buffer.from(auth);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export class Hub {
  private readonly connections = new Map<string, Connection>();
  private readonly channels = new Map<string, Set<Connection>>();
  private readonly perAddress = new Map<string, number>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly options: HubOptions) {
    // Silence is checked a few times per activity timeout: ping the quiet, close those that stay silent.
    const every = Math.max(250, Math.min(10_000, (Math.min(options.activityTimeoutSeconds * 1000, options.subscribeTimeoutMs) / 4)));
    this.sweeper = setInterval(() => this.sweep(), every);
    this.sweeper.unref();
  }

  get size(): number {
    return this.connections.size;
  }

  /**
   * A new socket from `address`: refused when the process, or that address, holds as many as it may (4100: the
   * client backs off and tries again), else greeted with its socket id.
   */
  open(socket: Socket, address = ''): string | null {
    const fromAddress = this.perAddress.get(address) ?? 0;
    if (this.connections.size >= this.options.maxConnections || fromAddress >= this.options.maxPerAddress) {
      const message = fromAddress >= this.options.maxPerAddress ? 'Over capacity: too many connections from this address' : 'Over capacity';
      socket.send(frame('pusher:error', { code: PusherCode.overCapacity, message }));
      socket.close(PusherCode.overCapacity, message);
      return null;
    }
    let id: string;
    do id = `${randomInt(1, 2 ** 47)}.${randomInt(1, 2 ** 47)}`;
    while (this.connections.has(id));
    const now = Date.now();
    this.connections.set(id, { id, socket, address, openedAt: now, subscribed: false, channels: new Set(), lastActivity: now, pingedAt: null });
    this.perAddress.set(address, fromAddress + 1);
    socket.send(frame('pusher:connection_established', { socket_id: id, activity_timeout: this.options.activityTimeoutSeconds }));
    return id;
  }

  closed(socketId: string): void {
    const connection = this.connections.get(socketId);
    if (!connection) return;
    for (const channel of connection.channels) this.leave(connection, channel);
    this.connections.delete(socketId);
    const left = (this.perAddress.get(connection.address) ?? 1) - 1;
    if (left > 0) this.perAddress.set(connection.address, left);
    else this.perAddress.delete(connection.address);
  }

  /** The ids of this process's sockets. */
  socketIds(): string[] {
    return [...this.connections.keys()];
  }

  /** Closes one socket with a protocol code, e.g. 4009 when the session that signed its subscriptions ended. */
  end(socketId: string, code: number, reason: string): void {
    const connection = this.connections.get(socketId);
    if (!connection) return;
    connection.socket.close(code, reason);
    this.closed(socketId);
  }

  /** A text frame from a socket. */
  receive(socketId: string, text: string): void {
    const connection = this.connections.get(socketId);
    if (!connection) return;
    connection.lastActivity = Date.now();
    connection.pingedAt = null;
    let message: { event?: unknown; data?: unknown; channel?: unknown };
    try {
      message = JSON.parse(text);
    } catch {
      return this.protocolError(connection, 'The message is not JSON.');
    }
    if (!message || typeof message !== 'object' || typeof message.event !== 'string') {
      return this.protocolError(connection, 'The message names no event.');
    }
    // pusher-js sends data as an object; other clients send it as a JSON string.
    let data = message.data;
    if (typeof data === 'string') {
      try {
        data = JSON.parse(data);
      } catch {
        // A plain string is kept as it is.
      }
    }
    const fields = (data && typeof data === 'object' ? data : {}) as Record<string, unknown>;
    switch (message.event) {
      case 'pusher:ping':
        return connection.socket.send(frame('pusher:pong', {}));
      case 'pusher:pong':
        return;
      case 'pusher:subscribe':
        return this.subscribe(connection, fields);
      case 'pusher:unsubscribe':
        if (typeof fields.channel === 'string') this.leave(connection, fields.channel);
        return;
      default:
        if (message.event.startsWith('client-')) {
          return this.protocolError(connection, 'Client events are not accepted by this server.');
        }
        return this.protocolError(connection, `Unknown event ${message.event.slice(0, 60)}.`);
    }
  }

  /** Delivers a published event to this process's subscribers of its channel. */
  deliver(event: PublishedEvent): number {
    const subscribers = this.channels.get(event.channel);
    if (!subscribers) return 0;
    const text = JSON.stringify({ event: event.event, channel: event.channel, data: event.data });
    let sent = 0;
    for (const connection of subscribers) {
      if (connection.id === event.socketId) continue;
      connection.socket.send(text);
      sent += 1;
    }
    return sent;
  }

  /**
   * Closes every socket with "reconnect": the server stops (clients come back to another or the restarted
   * one), or, with `keepRunning`, events were lost and clients should come back and refetch.
   */
  closeAll(reason: string, { keepRunning = false } = {}): void {
    if (!keepRunning) clearInterval(this.sweeper);
    for (const connection of [...this.connections.values()]) {
      connection.socket.close(PusherCode.reconnect, reason);
      this.closed(connection.id);
    }
  }

  private subscribe(connection: Connection, data: Record<string, unknown>): void {
    const channel = data.channel;
    if (typeof channel !== 'string' || !CHANNEL_NAME.test(channel)) {
      return this.protocolError(connection, 'The channel name is not valid.');
    }
    const refuse = (code: number, status: number, error: string) => {
      connection.socket.send(frame('pusher:error', { code, message: error }));
      connection.socket.send(frame('pusher:subscription_error', { type: 'AuthError', error, status }, channel));
    };
    // Only private channels exist here: what happens in a clinic is for its signed-in users alone.
    if (!channel.startsWith('private-') || channel.startsWith('private-encrypted-')) {
      return refuse(PusherCode.unauthorized, 403, 'Only private channels can be subscribed to.');
    }
    if (!signatureMatches(this.options, connection.id, channel, data.auth)) {
      return refuse(PusherCode.unauthorized, 401, 'The connection is unauthorized: the signature does not match.');
    }
    connection.subscribed = true;
    if (!connection.channels.has(channel)) {
      connection.channels.add(channel);
      let subscribers = this.channels.get(channel);
      if (!subscribers) this.channels.set(channel, (subscribers = new Set()));
      subscribers.add(connection);
    }
    connection.socket.send(frame('pusher_internal:subscription_succeeded', {}, channel));
  }

  private leave(connection: Connection, channel: string): void {
    connection.channels.delete(channel);
    const subscribers = this.channels.get(channel);
    if (!subscribers) return;
    subscribers.delete(connection);
    if (subscribers.size === 0) this.channels.delete(channel);
  }

  private protocolError(connection: Connection, message: string): void {
    this.options.onProtocolError?.(connection.id, message);
    connection.socket.send(frame('pusher:error', { code: null, message }));
  }

  private sweep(): void {
    const now = Date.now();
    const quiet = this.options.activityTimeoutSeconds * 1000;
    for (const connection of [...this.connections.values()]) {
      // Subscribing needs a signature only a signed-in user's session obtains: a socket without one is a stranger's.
      if (!connection.subscribed && now - connection.openedAt > this.options.subscribeTimeoutMs) {
        connection.socket.close(PusherCode.unauthorized, 'No channel subscribed in time');
        this.closed(connection.id);
        continue;
      }
      if (connection.pingedAt !== null) {
        if (now - connection.pingedAt > Math.min(PONG_TIMEOUT_MS, quiet)) {
          connection.socket.close(PusherCode.pongNotReceived, 'Pong reply not received');
          this.closed(connection.id);
        }
      } else if (now - connection.lastActivity > quiet) {
        connection.pingedAt = now;
        connection.socket.send(frame('pusher:ping', {}));
      }
    }
  }
}
