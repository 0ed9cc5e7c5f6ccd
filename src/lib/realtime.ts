/**
 * The realtime client (Pusher protocol, docs/architecture.md): the only place that knows pusher-js. It
 * connects only with a token, to the server's own endpoint beside the API or to the service the settings
 * name (hosted Pusher, soketi), authorises private channels through `/broadcasting/auth` (the generated
 * client, with the token), and reports every event and its connection state (connecting, connected,
 * disconnected). Its errors are logged, never shown (by design): realtime only saves a refetch.
 * pusher-js is loaded when the first connection is made, so the sign-in page does not carry it.
 */
import { useSyncExternalStore } from 'react';
import type { RealtimeSettings } from '@generated/model/realtimeSettings';
import { setRealtimeSocketSource } from './api-client';

/** `off`: no realtime service is configured (the settings' key is null, e.g. on the mock); nothing to connect to. */
export type RealtimeState = 'connecting' | 'connected' | 'disconnected' | 'off';

/** The realtime errors the client can meet, as they are logged. */
export type RealtimeError = 'invalid configuration' | 'missing token' | 'initialization failed' | 'invalid token format';

export interface RealtimeOptions {
  settings: RealtimeSettings;
  /** The API's base address (`/api` or `https://api.example/api`): the own endpoint is beside it. */
  apiBaseUrl: string;
  token: string | null;
  channels: string[];
  /** Asks the server to sign a private channel for this socket. */
  authorize(socketId: string, channelName: string): Promise<{ auth: string }>;
  onEvent(channel: string, name: string, data: unknown): void;
}

// ---------------------------------------------------------------------------------------------------
// The connection state, for the layout's indicator and for the screens' fallback to refetching

let state: RealtimeState = 'disconnected';
let socketId: string | null = null;

/** This page's socket while connected (the API client sends it, so that a call's own changes are not echoed). */
export function realtimeSocketId(): string | null {
  return state === 'connected' ? socketId : null;
}
setRealtimeSocketSource(realtimeSocketId);
const listeners = new Set<() => void>();

function setState(next: RealtimeState): void {
  if (next === state) return;
  state = next;
  for (const listener of listeners) listener();
}

export function realtimeState(): RealtimeState {
  return state;
}

export function onRealtimeState(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useRealtimeState(): RealtimeState {
  return useSyncExternalStore(onRealtimeState, realtimeState, () => 'disconnected');
}

/** Without realtime, a screen asks again this often whatever it shows. */
export const OFFLINE_REFETCH_MS = 30_000;

/**
 * A refetch interval that applies only while realtime is not connected: connected, events tell the screen
 * when to refetch; otherwise it asks every OFFLINE_REFETCH_MS itself.
 */
export function useFallbackInterval(): number | false {
  return useRealtimeState() === 'connected' ? false : OFFLINE_REFETCH_MS;
}
/** With realtime, a screen showing work in progress still asks this often: a lost event costs at most this. */
export const LIVE_SAFETY_NET_MS = 15_000;

/**
 * How often a screen asks again by itself: while something is in progress every `busyMs` without realtime
 * (every LIVE_SAFETY_NET_MS with it, where its end is announced), otherwise every OFFLINE_REFETCH_MS without
 * realtime and not at all with it.
 */
export function useRefetchInterval(busyMs: number): (busy: boolean) => number | false {
  const connected = useRealtimeState() === 'connected';
  return (busy) => (connected ? (busy ? LIVE_SAFETY_NET_MS : false) : busy ? busyMs : OFFLINE_REFETCH_MS);
}

export function logRealtimeError(error: RealtimeError, detail?: unknown): void {
  console.warn(`[realtime] ${error}`, ...(detail === undefined ? [] : [detail]));
}

// ---------------------------------------------------------------------------------------------------
// The connection

/** Where pusher-js connects: the settings' host, or the API's own host, port and path prefix. */
export function socketAddress(settings: RealtimeSettings, apiBaseUrl: string, page: { href: string }) {
  if (settings.host) {
    const tls = settings.forceTLS ?? true;
    const port = settings.port ?? (tls ? 443 : 80);
    return { wsHost: settings.host, wsPort: port, wssPort: port, wsPath: '', forceTLS: tls };
  }
  const api = new URL(apiBaseUrl, page.href);
  const tls = settings.forceTLS ?? api.protocol === 'https:';
  const port = Number(api.port) || (tls ? 443 : 80);
  return { wsHost: api.hostname, wsPort: port, wssPort: port, wsPath: api.pathname.replace(/\/+$/, ''), forceTLS: tls };
}

const TOKEN_FORMAT = /^[\x21-\x7e]{16,4096}$/;

/** Connects and subscribes; returns the function that disconnects (at logout, or when the user changes). */
export function connectRealtime(options: RealtimeOptions): () => void {
  const { settings, token } = options;
  if (settings.key === null) {
    // Not an error: this API has no realtime service, and the screens refresh on their own.
    setState('off');
    return () => setState('disconnected');
  }
  if (!token) {
    logRealtimeError('missing token');
    return () => {};
  }
  if (!TOKEN_FORMAT.test(token)) {
    logRealtimeError('invalid token format');
    return () => {};
  }
  const { key } = settings;
  if (!key || !settings.cluster) {
    logRealtimeError('invalid configuration', settings);
    return () => {};
  }

  let stopped = false;
  let disconnect = () => {};
  setState('connecting');
  import('pusher-js')
    .then(({ default: Pusher }) => {
      if (stopped) return;
      const pusher = new Pusher(key, {
        cluster: settings.cluster,
        ...socketAddress(settings, options.apiBaseUrl, window.location),
        enabledTransports: ['ws', 'wss'],
        disableStats: true,
        channelAuthorization: {
          endpoint: '',
          transport: 'ajax',
          customHandler: ({ socketId, channelName }, callback) => {
            options.authorize(socketId, channelName).then(
              (answer) => callback(null, answer),
              (error: Error) => callback(error, null),
            );
          },
        },
      });
      pusher.connection.bind('state_change', ({ current }: { current: string }) => {
        socketId = current === 'connected' ? pusher.connection.socket_id : null;
        setState(current === 'connected' ? 'connected' : current === 'connecting' || current === 'initialized' ? 'connecting' : 'disconnected');
      });
      pusher.connection.bind('error', (error: unknown) => logRealtimeError('initialization failed', error));
      for (const name of options.channels) {
        const channel = pusher.subscribe(name);
        channel.bind('pusher:subscription_error', (error: unknown) => logRealtimeError('initialization failed', { channel: name, error }));
        channel.bind_global((event: string, data: unknown) => {
          if (!event.startsWith('pusher:') && !event.startsWith('pusher_internal:')) options.onEvent(name, event, data);
        });
      }
      disconnect = () => pusher.disconnect();
    })
    .catch((error: unknown) => {
      logRealtimeError('initialization failed', error);
      if (!stopped) setState('disconnected');
    });

  return () => {
    stopped = true;
    disconnect();
    setState('disconnected');
  };
}
