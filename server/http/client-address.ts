// Whose address a request comes from (throttling, the audit, a session's "from where"): Fastify's request.ip
// with the trust TRUST_PROXY gives (server/config.ts). The proxies' addresses go to Fastify as they are. A count
// of proxies is ours to apply: Fastify 5 believes no hop for a bare count, because a client that reaches the
// server directly could then send enough X-Forwarded-For entries to choose its address. Here a count is
// believed only when the connection itself comes from this machine or a private network (loopback, link-local,
// 10/8, 172.16/12, 192.168/16, fc00::/7), where the proxies stand; docs/deployment.md says when to prefer
// addresses.
import type { IncomingMessage } from 'node:http';
import proxyAddr from 'proxy-addr';
import type { TrustProxy } from '../config';

const privatePeer = proxyAddr.compile(['loopback', 'linklocal', 'uniquelocal']);

/** The `trustProxy` option Fastify is given for TRUST_PROXY. */
export function fastifyTrustProxy(trust: TrustProxy): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust !== 'number') return trust;
  // Hop 0 is the connection's own address; each proxy in front vouches for the entry before it.
  return (address, hop) => hop < trust && (hop > 0 || privatePeer(address, hop));
}

/** The client's address of a raw request (a websocket upgrade, which Fastify does not see), with the same trust. */
export function clientAddress(request: IncomingMessage, trust: TrustProxy): string {
  const rule = fastifyTrustProxy(trust);
  if (rule === false) return request.socket.remoteAddress ?? '';
  return proxyAddr(request, Array.isArray(rule) ? proxyAddr.compile(rule) : rule);
}
