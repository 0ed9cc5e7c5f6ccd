// Authorisation of realtime channels (Pusher protocol): the actor may listen on their own user channel and on
// their clinic's channel, nothing else. A refusal is audited; a signed socket is bound to the actor's session.
import { createHmac } from 'node:crypto';
import { channelName as nameOfChannel } from '../../src/domain/realtime/events';
import type { Actor } from '../actor';
import type { AppContext } from '../context';
import { HttpError } from '../http/errors';
import { bindSocket } from '../repositories/realtime-bindings';
import { audit } from './audit';

/** `{key}:{hex HMAC-SHA256(secret, "socket_id:channel_name")}`, as pusher-js and Pusher servers expect. */
export function channelSignature(key: string, secret: string, socketId: string, channelName: string): string {
  const signature = createHmac('sha256', secret).update(`${socketId}:${channelName}`).digest('hex');
  return `${key}:${signature}`;
}

/** The signature that lets the socket subscribe to the channel; 403 for any channel but the actor's two. */
export async function authorizeChannel(ctx: AppContext, actor: Actor, socketId: string, channelName: string): Promise<string> {
  const allowed = [nameOfChannel('user', actor.userId), nameOfChannel('clinic', actor.clinicId)];
  if (!allowed.includes(channelName)) {
    await audit(ctx.db, actor, { action: 'realtime.channel', outcome: 'denied', detail: { channel: channelName.slice(0, 200) } });
    throw new HttpError(403, 'realtime.channel_forbidden', 'realtime.channel_forbidden');
  }
  // The socket closes when this session ends (logout, deactivation, a new password or address): server/realtime/endpoint.ts.
  if (actor.sessionId) await bindSocket(ctx.db, socketId, actor.sessionId);
  return channelSignature(ctx.config.realtime.key, ctx.config.realtime.secret, socketId, channelName);
}
