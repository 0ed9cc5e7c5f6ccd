// The Fastify application: contract routing and validation, authentication and roles, error envelopes,
// the SPA with history fallback. Handlers come from handlers/, keyed by operationId.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance, type FastifyRequest, type FastifyServerOptions, LogController } from 'fastify';
import openapiGlue from 'fastify-openapi-glue';
import { forRouting, loadContract, operationsOf } from './contract';
import type { AppContext } from './context';
import { allHandlers } from './handlers';
import { answerConnectionError } from './http/connection-errors';
import { HttpError, installErrorHandling, notFound, sendError } from './http/errors';
import { installBodyRules } from './http/request-bodies';
import { installSecurityHeaders } from './http/security-headers';
import { fastifyTrustProxy } from './http/client-address';
import { installCompression, installSpa, refuseClimbingPaths, spaPageFallback } from './http/serving';
import type { Handler } from './http/handler';
import { installValidation } from './http/validation';
import { languageOf, type Lang } from './i18n';
import { startWorker, type Worker } from './jobs/worker';
import { authenticate, authorize, bearerToken } from './security/authenticate';
import { asDeviceRefusal, authenticateDevice, carriesDeviceCredential } from './security/device-auth';
import { markSilentDevicesOffline } from './services/device-sync';
import { readAvatarPart } from './services/avatars';
import { examProcessing } from './services/exam-processing';
import { parameterSetPacking } from './services/parameter-set';
import { previousTreatmentRegistration } from './services/previous-treatment';
import { withRequestSocket } from './realtime/announce';
import { holdWorkPool } from './workers/pool';
import { EVENTS_ROUTES, installRealtime } from './realtime/endpoint';
import type { StagedFile } from './storage';

declare module 'fastify' {
  interface FastifyRequest {
    lang: Lang;
  }
  interface FastifyInstance {
    /** The background worker of this process (null when started without one). */
    jobs: Worker | null;
  }
}

export interface AppOptions {
  logger?: FastifyServerOptions['logger'];
  /** A log line per request (default true); off on an interactive console, where it drowns what matters. */
  requestLogging?: boolean;
  /** Folder of the built SPA; served with history fallback when it exists. */
  spaDir?: string;
  /** Run background jobs in this process (default true). */
  jobs?: boolean;
}

// The routes that take an exam file: a person's upload, and a laser's sync app's (issue 29).
const UPLOAD_ROUTES = ['/api/treatments', '/api/device/exams'];

const notImplemented: Handler = async () => {
  throw new HttpError(501, 'server.not_implemented', 'server.not_implemented');
};

export async function buildApp(ctx: AppContext, options: AppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? false,
    logController: new LogController({ disableRequestLogging: options.requestLogging === false }),
    bodyLimit: ctx.config.bodyLimit,
    trustProxy: fastifyTrustProxy(ctx.config.trustProxy),
    // A request must arrive whole within the request timeout (408 after it) and may not pause longer than
    // the idle timeout (the connection is closed): a stalled or trickled upload holds nothing for long.
    requestTimeout: ctx.config.requestTimeoutMs,
    connectionTimeout: ctx.config.idleTimeoutMs,
    // Node reads the request timeout from the server's constructor options (set later, it is ignored) and
    // checks it every connectionsCheckingInterval (30 s by default: too coarse for short test timeouts).
    http: {
      requestTimeout: ctx.config.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(30_000, Math.max(250, ctx.config.requestTimeoutMs / 4)),
    },
    // An over-long id is no id: the contract's 404, not 414.
    routerOptions: { maxParamLength: 4096 },
    // A path that cannot be decoded (`%ff%fe`) names no resource.
    frameworkErrors: (_error, request, reply) => sendError(request, reply, notFound()),
    clientErrorHandler: answerConnectionError,
  });
  const spaDir = options.spaDir && existsSync(join(options.spaDir, 'index.html')) ? options.spaDir : null;
  installErrorHandling(app, spaPageFallback(spaDir));
  ctx.log ??= app.log;
  await installSecurityHeaders(app, ctx.config);
  await installCompression(app);
  installValidation(app);
  app.decorateRequest('lang', 'en');
  // The requesting page's realtime socket, for the rest of the request: its own changes are not echoed to it.
  app.addHook('onRequest', (request, _reply, done) => {
    const header = request.headers['x-socket-id'];
    withRequestSocket(typeof header === 'string' ? header : undefined, done);
  });
  app.addHook('onRequest', async (request) => {
    request.lang = languageOf(request.headers.language);
  });
  refuseClimbingPaths(app);

  // The caller of every operation that is not public is signed in, and of a role it allows, before any body
  // is read: strangers cannot make the server parse what they send.
  const contract = loadContract();
  const operations = new Map(operationsOf(contract).map((operation) => [`${operation.method} /api${operation.path.replace(/\{(\w+)\}/g, ':$1')}`, operation]));
  app.addHook('onRequest', async (request) => {
    const operation = operations.get(`${request.method} ${request.routeOptions.url ?? ''}`);
    if (!operation || operation.roles.includes('public')) return;
    // A device's sync app calls with its own credential (issue 29): a known device is then refused by role
    // below on any operation not of role `device`, as a user's token is on those. Without a token a device
    // operation answers as to a device that is not enrolled.
    const deviceOperation = operation.roles.includes('device');
    if (carriesDeviceCredential(request) || (deviceOperation && !bearerToken(request))) await authenticateDevice(ctx, request);
    else if (deviceOperation) await authenticate(ctx, request).catch(asDeviceRefusal);
    else await authenticate(ctx, request);
    await authorize(ctx, request, operation.operationId, operation.roles);
  });
  // Every file staged for a request is removed once its response is closed: answered, abandoned by the client,
  // or its connection gone (an accepted file was moved away already). The response's own 'close' says so in
  // every case, where Fastify's onResponse and onRequestAbort hooks miss a connection that closes before the
  // response finishes. A staging still under way is stopped first (its part's stream destroyed), so that none
  // waits with its file on disk for a stream that no longer ends; one that begins after the close is stopped
  // at once.
  type Staging = { source: Readable; staged: Promise<StagedFile> };
  const stagings = new WeakMap<object, Staging[]>();
  const closedUploads = new WeakSet<object>();
  const discard = async (list: Staging[]) => {
    for (const { source } of list) source.destroy();
    for (const outcome of await Promise.allSettled(list.map(({ staged }) => staged))) {
      if (outcome.status === 'fulfilled') await ctx.files.discard(outcome.value);
    }
  };
  const warnNotRemoved = (request: FastifyRequest) => (error: unknown) => request.log.warn({ err: error }, 'a staged upload could not be removed');
  app.addHook('onRequest', async (request, reply) => {
    if (!UPLOAD_ROUTES.includes(request.routeOptions.url ?? '')) return;
    reply.raw.once('close', () => {
      closedUploads.add(request);
      const list = stagings.get(request) ?? [];
      stagings.delete(request);
      discard(list).catch(warnNotRemoved(request));
    });
  });
  await app.register(formbody);
  await app.register(multipart, {
    attachFieldsToBody: 'keyValues',
    limits: { fileSize: ctx.config.bodyLimit, files: 2, fields: 40, fieldSize: 64 * 1024, parts: 42 },
    // Exam files are streamed to the staging folder (hashed on the way); other files (avatars) are small.
    async onFile(part) {
      if (UPLOAD_ROUTES.includes(this.routeOptions.url ?? '') && part.fieldname === 'file') {
        const staging = { source: part.file, staged: ctx.files.stage(part.file, part.filename ?? '', () => part.file.truncated) };
        if (closedUploads.has(this)) discard([staging]).catch(warnNotRemoved(this));
        else stagings.set(this, [...(stagings.get(this) ?? []), staging]);
        try {
          (part as { value?: unknown }).value = await staging.staged;
        } catch (error) {
          // Stopped because the response is closed: nobody waits for this request any more.
          if (!closedUploads.has(this)) throw error;
        }
      } else {
        // An avatar: refused as soon as it grows past its 3 MB.
        (part as { value?: unknown }).value = await readAvatarPart(part.file);
      }
    },
  });

  installBodyRules(app, contract, { uploadRoutes: UPLOAD_ROUTES, uploadLimit: ctx.config.bodyLimit }, EVENTS_ROUTES);
  await installRealtime(app, ctx);
  const jobs = {
    'treatment.process': examProcessing(ctx),
    'treatment.pack': parameterSetPacking(ctx),
    'treatment.register': previousTreatmentRegistration(ctx),
  };
  const worker = options.jobs === false ? null : startWorker(ctx, jobs, {
    leaseMs: ctx.config.jobLeaseMs,
    log: (message, error) => app.log.warn({ err: error }, message),
  });
  app.decorate('jobs', worker);
  // Heavy work runs in the process's pool of worker threads (server/workers/pool.ts), closed with the last server.
  const releaseWorkPool = holdWorkPool(ctx.config);
  // Devices whose sync app has gone silent are marked Offline (issue 29), by every process: each device is marked by one.
  const sweepEveryMs = Math.max(1000, Math.min(5000, (ctx.config.devices.offlineAfterSeconds * 1000) / 3));
  const deviceSweep =
    options.jobs === false
      ? null
      : setInterval(() => void markSilentDevicesOffline(ctx).catch((error: unknown) => app.log.warn({ err: error }, 'marking silent devices offline failed')), sweepEveryMs);
  deviceSweep?.unref();
  app.addHook('onClose', async () => {
    if (deviceSweep) clearInterval(deviceSweep);
    await worker?.stop();
    await releaseWorkPool();
  });
  const implemented = allHandlers(ctx, () => worker?.wake());
  const serviceHandlers: Record<string, Handler> = {};
  for (const { operationId, roles } of operationsOf(contract)) {
    const handler = (implemented as Record<string, Handler | undefined>)[operationId] ?? notImplemented;
    serviceHandlers[operationId] = async (request, reply) => {
      await authorize(ctx, request, operationId, roles);
      return handler(request, reply);
    };
  }
  await app.register(openapiGlue, {
    specification: forRouting(contract),
    serviceHandlers,
    // Every operation that is not public was authenticated before its body was read (onRequest above).
    securityHandlers: {
      bearerAuth: async (request: Parameters<Handler>[0]) => (request.auth ? undefined : authenticate(ctx, request)),
      deviceCredential: async (request: Parameters<Handler>[0]) => (request.device ? undefined : authenticateDevice(ctx, request)),
    },
    prefix: 'api',
  });

  if (spaDir) await installSpa(app, spaDir);
  return app;
}
