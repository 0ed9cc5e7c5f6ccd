// Security headers on every answer (helmet), a Permissions-Policy, and `Cache-Control: no-store` on
// API answers: they carry patient and account data, which no browser or proxy cache may keep.
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { RealtimeConfig } from '../config';

/**
 * What the SPA may load: its own scripts only (no inline script, no eval); inline style attributes,
 * which React and Blueprint set on elements (popover positions, sizes); images as blob: and data: URLs
 * (fundus images and avatars are fetched with the bearer token and shown that way); API calls and the
 * realtime websocket on the same origin. No page may frame it.
 */
export const CONTENT_SECURITY_POLICY = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'blob:', 'data:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
};

/** Browser features the app never uses, switched off for it and anything it might embed. */
export const PERMISSIONS_POLICY = 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=()';

const API_PATH = /^\/api(?:[/?]|$)/;
const YEAR_SECONDS = 365 * 24 * 60 * 60;

export async function installSecurityHeaders(app: FastifyInstance, options: { publicUrl: string; realtime: RealtimeConfig }): Promise<void> {
  // HSTS only when the clinic reaches the server over https: on plain http a browser ignores it, and on
  // localhost it would pin every other local app to https.
  const https = options.publicUrl.startsWith('https:');
  // An external realtime service (hosted Pusher, soketi) is the one other address the SPA may connect to.
  const client = options.realtime.client;
  const directives = client
    ? { ...CONTENT_SECURITY_POLICY, 'connect-src': ["'self'", `${client.forceTLS ? 'wss' : 'ws'}://${client.host}:${client.port}`] }
    : CONTENT_SECURITY_POLICY;
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      // Over https, a stray http:// address in a page is fetched over https instead of being blocked.
      directives: https ? { ...directives, 'upgrade-insecure-requests': [] } : directives,
    },
    // Reset and invite links carry their token in the query: no Referer may take it to another site.
    referrerPolicy: { policy: 'no-referrer' },
    frameguard: { action: 'deny' },
    strictTransportSecurity: https ? { maxAge: YEAR_SECONDS, includeSubDomains: true } : false,
  });
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('Permissions-Policy', PERMISSIONS_POLICY);
    if (API_PATH.test(request.url) && !reply.hasHeader('Cache-Control')) reply.header('Cache-Control', 'no-store');
    return payload;
  });
}
