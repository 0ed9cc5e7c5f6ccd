// pusher-js in Node against a test server's realtime endpoint, as the SPA uses it: websocket only,
// channels authorised through /api/broadcasting/auth with the user's token.
import PusherClient from 'pusher-js';
import type { Channel } from 'pusher-js';
import Pusher from 'pusher';
import WebSocket from 'ws';
import type { TestServer } from './helper';

export interface ClientOptions {
  token?: string;
  /** Answers the authorisation itself (a forged signature) instead of asking the server. */
  forge?: (socketId: string, channelName: string) => string;
}

export function realtimeClient(server: TestServer, options: ClientOptions = {}): PusherClient {
  const { hostname, port } = new URL(server.url);
  return new PusherClient(server.ctx.config.realtime.key, {
    cluster: 'mt1',
    wsHost: hostname,
    wsPort: Number(port),
    forceTLS: false,
    enabledTransports: ['ws'],
    disableStats: true,
    channelAuthorization: {
      endpoint: '',
      transport: 'ajax',
      customHandler: ({ socketId, channelName }, callback) => {
        if (options.forge) return callback(null, { auth: options.forge(socketId, channelName) });
        fetch(`${server.url}/api/broadcasting/auth`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${options.token}`, 'Content-Type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ socket_id: socketId, channel_name: channelName }).toString(),
        }).then(
          async (answer) => {
            if (answer.ok) return callback(null, (await answer.json()) as { auth: string });
            const error = Object.assign(new Error(`auth answered ${answer.status}`), { status: answer.status });
            callback(error, null);
          },
          (error: Error) => callback(error, null),
        );
      },
    },
  });
}

export function waitFor<T>(register: (resolve: (value: T) => void) => void, ms = 5000, what = 'the event'): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not come within ${ms} ms`)), ms);
    register((value) => {
      clearTimeout(timer);
      resolve(value);
    });
  });
}

export const connected = (client: PusherClient, ms = 5000) =>
  waitFor<void>((resolve) => {
    if (client.connection.state === 'connected') return resolve();
    const onChange = ({ current }: { current: string }) => {
      if (current !== 'connected') return;
      client.connection.unbind('state_change', onChange);
      resolve();
    };
    client.connection.bind('state_change', onChange);
  }, ms, 'connected');

/** Subscribes; resolves once subscribed, rejects with the subscription error's data. */
export function subscribed(client: PusherClient, name: string, ms = 5000): Promise<Channel> {
  const channel = client.subscribe(name);
  return new Promise<Channel>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer to subscribing ${name}`)), ms);
    channel.bind('pusher:subscription_succeeded', () => {
      clearTimeout(timer);
      resolve(channel);
    });
    channel.bind('pusher:subscription_error', (error: unknown) => {
      clearTimeout(timer);
      reject(Object.assign(new Error(`subscription to ${name} refused`), { data: error }));
    });
  });
}

export const nextEvent = <T = unknown>(channel: Channel, event: string, ms = 5000) =>
  waitFor<T>((resolve) => {
    const handler = (data: T) => {
      channel.unbind(event, handler);
      resolve(data);
    };
    channel.bind(event, handler);
  }, ms, event);

/** The official server SDK, publishing to the test server as the product does. */
export function serverSdk(server: TestServer, overrides: { secret?: string; appId?: string } = {}): Pusher {
  const { hostname, port } = new URL(server.url);
  const { appId, key, secret } = server.ctx.config.realtime;
  return new Pusher({ appId: overrides.appId ?? appId, key, secret: overrides.secret ?? secret, host: hostname, port, useTLS: false });
}

/** A raw websocket speaking the protocol by hand, for what pusher-js hides; collects every frame it receives. */
export async function rawSocket(server: TestServer, path = `/app/${server.ctx.config.realtime.key}?protocol=7&client=test&version=1`) {
  const ws = new WebSocket(`${server.url.replace('http', 'ws')}${path}`);
  const frames: { event: string; data: Record<string, unknown>; channel?: string }[] = [];
  const waiters: (() => void)[] = [];
  let closed: { code: number; reason: string } | null = null;
  ws.on('message', (text) => {
    const frame = JSON.parse(String(text));
    frames.push({ ...frame, data: typeof frame.data === 'string' ? JSON.parse(frame.data) : frame.data });
    waiters.splice(0).forEach((wake) => wake());
  });
  ws.on('close', (code, reason) => {
    closed = { code, reason: String(reason) };
    waiters.splice(0).forEach((wake) => wake());
  });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const until = async <T>(find: () => T | undefined | null | false, ms = 5000): Promise<T> => {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = find();
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`not within ${ms} ms; frames: ${JSON.stringify(frames)}`);
      await new Promise<void>((wake) => {
        waiters.push(wake);
        setTimeout(wake, 50);
      });
    }
  };
  return {
    ws,
    frames,
    send: (event: string, data: unknown) => ws.send(JSON.stringify({ event, data })),
    frame: (event: string, ms?: number) => until(() => frames.find((f) => f.event === event), ms),
    closed: (ms?: number) => until(() => closed, ms),
  };
}
