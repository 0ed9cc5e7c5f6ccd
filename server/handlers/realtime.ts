// Realtime (Pusher protocol): the signature that authorises a channel (server/services/realtime-channels.ts),
// unwrapped as pusher-js expects it, and where the browsers connect.
import type { BroadcastingAuthRequest } from '../../generated/model/broadcastingAuthRequest';
import type { BroadcastingAuthResponse } from '../../generated/model/broadcastingAuthResponse';
import type { RealtimeSettings } from '../../generated/model/realtimeSettings';
import type { AppContext } from '../context';
import { actorOf } from '../http/actor';
import { success, type Handler, type Handlers } from '../http/handler';
import { authorizeChannel } from '../services/realtime-channels';

export function realtimeHandlers(ctx: AppContext) {
  const authorizeBroadcasting: Handler<{ Body: BroadcastingAuthRequest }> = async (request) => {
    const { socket_id: socketId, channel_name: channelName } = request.body;
    const answer: BroadcastingAuthResponse = { auth: await authorizeChannel(ctx, actorOf(request), socketId, channelName) };
    return answer;
  };
  /** The server's own endpoint (host null: beside the API), or the external service's address for browsers. */
  const getRealtimeSettings: Handler = async () => {
    const { key, cluster, client } = ctx.config.realtime;
    const settings: RealtimeSettings = { key, cluster, host: client?.host ?? null, port: client?.port ?? null, forceTLS: client?.forceTLS ?? null };
    return success(settings);
  };

  return { authorizeBroadcasting, getRealtimeSettings } satisfies Handlers;
}
