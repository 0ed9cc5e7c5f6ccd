// Structured logs (pino through Fastify) without secrets: no headers, and token query parameters
// (invite and reset links) are masked.
import type { FastifyServerOptions } from 'fastify';

const SECRET_QUERY = /([?&](?:token|password)=)[^&]*/gi;

export const maskUrl = (url: string): string => url.replace(SECRET_QUERY, '$1***');

export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  return {
    level,
    serializers: {
      req: (request: { method: string; url: string; id: string; ip?: string }) => ({
        id: request.id,
        method: request.method,
        url: maskUrl(request.url),
        ip: request.ip,
      }),
    },
  };
}
