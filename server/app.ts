// The Fastify application: contract routing and validation, authentication and roles, error envelopes,
// the SPA with history fallback. Handlers come from handlers/, keyed by operationId.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import openapiGlue from 'fastify-openapi-glue';
import { forRouting, loadContract, operationsOf } from './contract';
import type { AppContext } from './context';
import { allHandlers } from './handlers';
import { HttpError, installErrorHandling } from './http/errors';
import type { Handler } from './http/handler';
import { installValidation } from './http/validation';
import { languageOf, type Lang } from './i18n';
import { authenticate, authorize } from './security/authenticate';

declare module 'fastify' {
  interface FastifyRequest {
    lang: Lang;
  }
}

export interface AppOptions {
  logger?: FastifyServerOptions['logger'];
  /** Folder of the built SPA; served with history fallback when it exists. */
  spaDir?: string;
}

const notImplemented: Handler = async () => {
  throw new HttpError(501, 'server.not_implemented', 'server.not_implemented');
};

export async function buildApp(ctx: AppContext, options: AppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: ctx.config.bodyLimit,
    trustProxy: ctx.config.trustProxy,
  });
  const spaDir = options.spaDir && existsSync(join(options.spaDir, 'index.html')) ? options.spaDir : null;
  // The SPA's routes are client-side: an unknown page path gets index.html, unknown files and API paths 404.
  installErrorHandling(app, (request, reply) => {
    const path = request.url.split('?')[0];
    const wantsPage = spaDir && request.method === 'GET' && !path.startsWith('/api') && !/\.\w+$/.test(path);
    return wantsPage ? reply.header('Cache-Control', 'no-cache').sendFile('index.html') : null;
  });
  installValidation(app);
  app.decorateRequest('lang', 'en');
  app.addHook('onRequest', async (request) => {
    request.lang = languageOf(request.headers.language);
  });

  await app.register(formbody);
  await app.register(multipart, {
    attachFieldsToBody: 'keyValues',
    limits: { fileSize: ctx.config.bodyLimit, files: 2, fields: 40, fieldSize: 64 * 1024, parts: 42 },
  });

  const contract = loadContract();
  const implemented = allHandlers(ctx);
  const serviceHandlers: Record<string, Handler> = {};
  for (const { operationId, roles } of operationsOf(contract)) {
    const handler = implemented[operationId] ?? notImplemented;
    serviceHandlers[operationId] = async (request, reply) => {
      await authorize(ctx, request, operationId, roles);
      return handler(request, reply);
    };
  }
  await app.register(openapiGlue, {
    specification: forRouting(contract),
    serviceHandlers,
    securityHandlers: { bearerAuth: (request: Parameters<Handler>[0]) => authenticate(ctx, request) },
    prefix: 'api',
  });

  if (spaDir) await app.register(fastifyStatic, { root: spaDir, wildcard: false, index: false, cacheControl: false });
  return app;
}
