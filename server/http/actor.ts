// The one way a handler learns who calls: the request's authentication as the services' Actor.
import type { FastifyRequest } from 'fastify';
import type { Actor, Origin } from '../actor';
import type { DeviceCaller } from '../services/device-sync';
import { HttpError, unauthorized } from './errors';

/** The caller of a public operation: address and language only. */
export const originOf = (request: FastifyRequest): Origin => ({ ip: request.ip ?? null, lang: request.lang });

/** The signed-in caller; 401 when the request was not authenticated (a public route asking for one). */
export function actorOf(request: FastifyRequest): Actor {
  const auth = request.auth;
  if (!auth) throw unauthorized();
  return {
    userId: auth.userId,
    clinicId: auth.clinicId,
    role: auth.role,
    sessionId: auth.sessionId,
    ip: request.ip ?? null,
    lang: request.lang,
  };
}

/** The signed-in caller when there is one (public operations that also serve signed-in users). */
export const actorIfAny = (request: FastifyRequest): Actor | null => (request.auth ? actorOf(request) : null);

/** The audit source of a request: its actor when signed in, else its origin. */
export const sourceOf = (request: FastifyRequest): Actor | Origin => actorIfAny(request) ?? originOf(request);

/** The device whose credential authenticated the request (operations of role `device`). */
export function deviceOf(request: FastifyRequest): DeviceCaller {
  if (!request.device) throw new HttpError(401, 'device.unauthenticated', 'device.unauthenticated');
  return request.device;
}
