// Authorisation of realtime channels (Pusher protocol): the caller may listen on their own user
// channel and on their clinic's channel, nothing else. The answer is the Pusher signature, unwrapped. And
// where the browsers connect.
import { createHmac } from 'node:crypto';
import type { BroadcastingAuthRequest } from '../../generated/model/broadcastingAuthRequest';
import type { BroadcastingAuthResponse } from '../../generated/model/broadcastingAuthResponse';
import type { RealtimeSettings } from '../../generated/model/realtimeSettings';
import { channelName as nameOfChannel } from '../../src/domain/realtime/events';
import type { AppContext } from '../context';
import { HttpError } from '../http/errors';
import { success, type Handler, type Handlers } from '../http/handler';
import { audit } from '../services/audit';

/** `{key}:{hex HMAC-SHA256(secret, "socket_id:channel_name")}`, as pusher-js and Pusher servers expect. */
export function channelSignature(key: string, secret: string, socketId: string, channelName: string): string {
  const signature = createHmac('sha256', secret).update(`${socketId}:${channelName}`).digest('hex');
  return `${key}:${signature}`;
}

export function realtimeHandlers(ctx: AppContext): Handlers {
  const authorizeBroadcasting: Handler<{ Body: BroadcastingAuthRequest }> = async (request) => {
    const auth = request.auth!;
    const { socket_id: socketId, channel_name: channelName } = request.body;
    const allowed = [nameOfChannel('user', auth.userId), nameOfChannel('clinic', auth.clinicId)];
    if (!allowed.includes(channelName)) {
      await audit(ctx.db, request, {
        action: 'realtime.channel',
        outcome: 'denied',
        detail: { channel: channelName.slice(0, 200) },
      });
      throw new HttpError(403, 'realtime.channel_forbidden', 'realtime.channel_forbidden');
    }
    // The socket closes when this session ends (logout, deactivation, a new password or address): server/realtime/endpoint.ts.
    await ctx.db
      .insertInto('realtime_bindings')
      .values({ socket_id: socketId, session_id: auth.sessionId })
      .onConflict((oc) => oc.doNothing())
      .execute();
    const answer: BroadcastingAuthResponse = {
      auth: channelSignature(ctx.config.realtime.key, ctx.config.realtime.secret, socketId, channelName),
    };
    return answer;
  };
  /** The server's own endpoint (host null: beside the API), or the external service's address for browsers. */
  const getRealtimeSettings: Handler = async () => {
    const { key, cluster, client } = ctx.config.realtime;
    const settings: RealtimeSettings = { key, cluster, host: client?.host ?? null, port: client?.port ?? null, forceTLS: client?.forceTLS ?? null };
    return success(settings);
  };

  return { authorizeBroadcasting, getRealtimeSettings };
}
