// @vitest-environment node
import type { IncomingMessage } from 'node:http';
import proxyAddr from 'proxy-addr';
import { describe, expect, it } from 'vitest';
import { fastifyTrustProxy } from './client-address';

/** The address proxy-addr (as Fastify runs it) finds for a connection from `peer` with this X-Forwarded-For. */
function clientOf(trust: ReturnType<typeof fastifyTrustProxy>, peer: string, forwardedFor: string): string {
  const request = { socket: { remoteAddress: peer }, connection: { remoteAddress: peer }, headers: { 'x-forwarded-for': forwardedFor } };
  return proxyAddr(request as unknown as IncomingMessage, trust === false ? () => false : trust);
}

describe('a count of proxies in front', () => {
  it('takes the entry the nearest proxies added when the connection comes from this machine or a private network', () => {
    for (const peer of ['127.0.0.1', '::1', '10.1.2.3', '172.16.0.9', '192.168.1.1', 'fd12::1']) {
      expect(clientOf(fastifyTrustProxy(1), peer, '6.6.6.6, 203.0.113.7'), peer).toBe('203.0.113.7');
      expect(clientOf(fastifyTrustProxy(2), peer, '6.6.6.6, 203.0.113.7, 10.0.0.2'), peer).toBe('203.0.113.7');
    }
  });

  it('believes no entry from a connection off the private networks: a client that reached the server directly', () => {
    expect(clientOf(fastifyTrustProxy(1), '198.51.100.20', '203.0.113.7')).toBe('198.51.100.20');
    expect(clientOf(fastifyTrustProxy(3), '8.8.8.8', '1.1.1.1, 2.2.2.2, 3.3.3.3')).toBe('8.8.8.8');
  });

  it('hands the proxies\' addresses and "none" to Fastify as they are', () => {
    expect(fastifyTrustProxy(false)).toBe(false);
    expect(fastifyTrustProxy(['10.0.0.0/8'])).toEqual(['10.0.0.0/8']);
  });
});
