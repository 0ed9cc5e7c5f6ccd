// Every failure leaves the server as the contract's error envelope, in the caller's language.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isMessageKey, type MessageKey, type MessageParams, translate } from '../i18n';
import { StorageIntegrityError, StorageUnavailableError } from '../storage/store';

/** A failure the client caused or may see: status, stable code, localised message, field errors. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    readonly messageKey: MessageKey,
    readonly params: MessageParams = {},
    readonly fieldErrors: Record<string, MessageKey[]> = {},
    /** Extra top-level members of the envelope (e.g. the NPT patient of a mismatch). */
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(code);
  }
}

export const badRequest = (code = 'request.malformed', key: MessageKey = 'request.malformed') =>
  new HttpError(400, code, key);
export const unauthorized = (code = 'auth.unauthenticated', key: MessageKey = 'auth.unauthenticated') =>
  new HttpError(401, code, key);
export const forbidden = () => new HttpError(403, 'auth.forbidden', 'auth.forbidden');
export const notFound = () => new HttpError(404, 'resource.not_found', 'resource.not_found');
export const conflict = (code: string, key: MessageKey, params?: MessageParams) =>
  new HttpError(409, code, key, params);
/** Field errors: 422 with a message per field. */
export const invalid = (fieldErrors: Record<string, MessageKey[]>) =>
  new HttpError(422, 'request.invalid', 'request.invalid', {}, fieldErrors);

interface AjvError {
  instancePath?: string;
  keyword?: string;
  params?: Record<string, unknown>;
  message?: string;
  parentSchema?: { 'x-message-keys'?: Record<string, string> };
}

// Names the request field an ajv error is about: `/email` → email, a missing property → its name.
function fieldOf(error: AjvError, context: string | undefined): string {
  const path = (error.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
  const missing = error.keyword === 'required' ? String(error.params?.missingProperty ?? '') : '';
  const extra = error.keyword === 'additionalProperties' ? String(error.params?.additionalProperty ?? '') : '';
  const name = [path, missing || extra].filter(Boolean).join('.');
  if (name) return name;
  return context === 'body' ? 'body' : (context ?? 'request');
}

function keyFor(error: AjvError): MessageKey {
  // The contract may name the message for a keyword of a field (x-message-keys).
  const named = error.parentSchema?.['x-message-keys']?.[error.keyword ?? ''];
  if (named && isMessageKey(named)) return named;
  switch (error.keyword) {
    case 'required':
      return 'validation.required';
    case 'additionalProperties':
      return 'validation.unknown_field';
    case 'format':
      return error.params?.format === 'email' ? 'validation.email' : 'validation.format';
    case 'type': {
      // Nullable types arrive as "integer,null".
      const types = String(error.params?.type ?? '').split(',');
      return types.includes('number') || types.includes('integer') ? 'validation.number' : 'validation.type';
    }
    case 'maxLength':
    case 'maxItems':
      return 'validation.too_long';
    case 'minLength':
    case 'minItems':
      return 'validation.required';
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return 'validation.range';
    case 'enum':
    case 'const':
      return 'validation.choice';
    default:
      return 'validation.invalid';
  }
}

export function sendError(request: FastifyRequest, reply: FastifyReply, error: HttpError): FastifyReply {
  const lang = request.lang ?? 'en';
  const errors = Object.fromEntries(
    Object.entries(error.fieldErrors).map(([field, keys]) => [field, keys.map((key) => translate(lang, key, error.params))]),
  );
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  return reply.code(error.statusCode).send({
    status: 'Error',
    message: translate(lang, error.messageKey, error.params),
    code: error.code,
    ...(Object.keys(errors).length ? { errors } : {}),
    ...error.extra,
  });
}

const MALFORMED_MULTIPART = /^(Multipart: |Unexpected end of |Part terminated early|Malformed (part header|urlencoded form))/;

function fromFastify(error: FastifyError & { validation?: AjvError[]; validationContext?: string }): HttpError {
  // The file store is down or refuses us (not the client's doing): try again shortly.
  if (error instanceof StorageUnavailableError) return new HttpError(503, 'storage.unavailable', 'storage.unavailable', {}, {}, {}, { 'Retry-After': '30' });
  if (error instanceof StorageIntegrityError) return new HttpError(500, 'storage.damaged', 'storage.damaged');
  // A malformed id in the path names no resource: not found, as the contract documents for {id} paths.
  if (error.validation && error.validationContext === 'params') return notFound();
  if (error.validation) {
    // Field names come from the client (`constructor`, `__proto__`): no inherited member may answer for one.
    const fields: Record<string, MessageKey[]> = Object.create(null);
    for (const item of error.validation) {
      const field = fieldOf(item, error.validationContext);
      const key = keyFor(item);
      fields[field] = [...new Set([...(fields[field] ?? []), key])];
    }
    return invalid(fields);
  }
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new HttpError(415, 'request.unsupported_type', 'request.unsupported_type');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new HttpError(413, 'request.too_large', 'request.too_large');
    case 'FST_REQ_FILE_TOO_LARGE':
    case 'FST_PARTS_LIMIT':
    case 'FST_FILES_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return new HttpError(413, 'upload.too_large', 'upload.too_large');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
    case 'FST_INVALID_JSON_FIELD_ERROR':
    case 'FST_PROTO_VIOLATION':
    case 'FST_MP_PREMATURE_CLOSE':
      return badRequest();
  }
  // The multipart reader (busboy) throws plain errors on a body it cannot read: no or a wrong boundary,
  // a malformed part header, a body that ends before the closing boundary.
  if (!error.code && MALFORMED_MULTIPART.test(error.message ?? '')) return badRequest();
  if (error.statusCode === 401) return unauthorized();
  if (error.statusCode === 404) return notFound();
  if (error instanceof SyntaxError || error.statusCode === 400) return badRequest();
  if (error.statusCode === 413) return new HttpError(413, 'upload.too_large', 'upload.too_large');
  if (error.statusCode === 415) return new HttpError(415, 'request.unsupported_type', 'request.unsupported_type');
  return new HttpError(500, 'server.unexpected', 'server.unexpected');
}

/**
 * Validation, security and unexpected errors become envelopes; internals are logged, never sent.
 * `pageFallback` answers unknown non-API paths (the SPA's history fallback); everything else is a 404 envelope.
 */
export function installErrorHandling(
  app: FastifyInstance,
  pageFallback?: (request: FastifyRequest, reply: FastifyReply) => FastifyReply | null,
): void {
  app.setErrorHandler((raw, request, reply) => {
    // The contract router wraps security-handler failures; their own errors are kept in `errors`.
    const wrapped = (raw as { errors?: unknown[] }).errors?.find((e): e is HttpError => e instanceof HttpError);
    const error = raw instanceof HttpError ? raw : (wrapped ?? fromFastify(raw as FastifyError));
    if (error.statusCode >= 500 && error.statusCode !== 501) request.log.error({ err: raw }, 'unexpected failure');
    try {
      return sendError(request, reply, error);
    } catch (failure) {
      // Never Fastify's own 500 format: the plainest envelope there is.
      request.log.error({ err: failure }, 'error envelope failed');
      return reply.code(500).type('application/json').send(JSON.stringify({ status: 'Error', message: 'Unexpected error', code: 'server.unexpected' }));
    }
  });
  app.setNotFoundHandler((request, reply) => pageFallback?.(request, reply) ?? sendError(request, reply, notFound()));
}
