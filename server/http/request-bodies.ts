// Request bodies by the contract: an operation's declared media types are the only ones it reads. A JSON
// call sent as text, form, XML or without a Content-Type answers 415 before its body is read; a call that
// takes no body ignores one, whatever its type (many HTTP clients send `Content-Type: application/json`
// on every request); a declared Content-Length over the limit answers 413 at once. Parsed values that no
// column can hold (NUL characters, halves of surrogate pairs, numbers beyond floating point) are refused as
// field errors.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { operationsOf } from '../contract';
import type { MessageKey } from '../i18n';
import { AVATAR_MAX_BYTES } from '../services/avatars';
import { isStagedFile } from '../storage';
import { HttpError, badRequest, invalid, notFound } from './errors';

/** Route key as Fastify names it: `POST /api/patients/:id`. */
const routeKey = (method: string, url: string | undefined) => `${method} ${url ?? ''}`;

interface DeclaredBody {
  /** Media types the operation reads. */
  types: string[];
  required: boolean;
}

/** The request body each route takes (absent: the operation takes no body). */
export function declaredBodies(contract: Record<string, unknown>, prefix: string): Map<string, DeclaredBody> {
  type RequestBody = { content?: Record<string, unknown>; required?: boolean };
  const paths = contract.paths as Record<string, Record<string, { requestBody?: RequestBody }>>;
  const bodies = new Map<string, DeclaredBody>();
  for (const { method, path } of operationsOf(contract)) {
    const body = paths[path][method.toLowerCase()].requestBody;
    if (!body?.content) continue;
    const key = routeKey(method, `${prefix}${path.replace(/\{(\w+)\}/g, ':$1')}`);
    bodies.set(key, { types: Object.keys(body.content), required: body.required === true });
  }
  return bodies;
}

/**
 * The query parameters each route declares (its operation's and its path's). A name no route declares is no
 * part of any call: it is dropped before validation, whatever it holds, so `?x=%00` changes nothing.
 */
export function declaredQueries(contract: Record<string, unknown>, prefix: string): Map<string, Set<string>> {
  type Parameter = { $ref?: string; name?: string; in?: string };
  const paths = contract.paths as Record<string, Record<string, { parameters?: Parameter[] }> & { parameters?: Parameter[] }>;
  const shared = ((contract.components as { parameters?: Record<string, Parameter> } | undefined)?.parameters ?? {}) as Record<string, Parameter>;
  const resolved = (parameter: Parameter) => (parameter.$ref ? shared[parameter.$ref.replace('#/components/parameters/', '')] : parameter);
  const queries = new Map<string, Set<string>>();
  for (const { method, path } of operationsOf(contract)) {
    const parameters = [...(paths[path].parameters ?? []), ...(paths[path][method.toLowerCase()].parameters ?? [])].map(resolved);
    const names = parameters.filter((parameter) => parameter?.in === 'query').map((parameter) => parameter!.name!);
    queries.set(routeKey(method, `${prefix}${path.replace(/\{(\w+)\}/g, ':$1')}`), new Set(names));
  }
  return queries;
}

const mediaTypeOf = (header: string | undefined) => header?.split(';')[0].trim().toLowerCase() || null;

const hasBody = (request: FastifyRequest) => {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
};

export function unsupportedType(expected: string[]): HttpError {
  return new HttpError(415, 'request.unsupported_type', 'request.content_type', { expected: expected.join(', ') });
}

/** The largest JSON or form body of the contract (5,000 spot ids of 7 digits are about 40 KiB). */
export const JSON_BODY_LIMIT = 64 * 1024;
/** A multipart form with an avatar: the avatar's 3 MB and its few fields. */
export const FORM_BODY_LIMIT = AVATAR_MAX_BYTES + 256 * 1024;

/**
 * `exempt`: routes outside the contract that read their bodies themselves (the realtime events API).
 * `uploadRoutes` alone may take `uploadLimit` (an exam file); a form with an avatar takes FORM_BODY_LIMIT and
 * every other body JSON_BODY_LIMIT, so nobody makes the server read 100 MB where a few KiB are expected.
 */
export function installBodyRules(
  app: FastifyInstance,
  contract: Record<string, unknown>,
  limits: { uploadRoutes: readonly string[]; uploadLimit: number },
  exempt: string[] = [],
): void {
  const bodies = declaredBodies(contract, '/api');
  const bodyOf = (request: FastifyRequest) => bodies.get(routeKey(request.method, request.routeOptions.url));
  const queries = declaredQueries(contract, '/api');
  const limitOf = (method: string, url: string) => {
    if (method === 'POST' && limits.uploadRoutes.includes(url)) return limits.uploadLimit;
    return bodies.get(routeKey(method, url))?.types.includes('multipart/form-data') ? FORM_BODY_LIMIT : JSON_BODY_LIMIT;
  };
  // Each contract route reads at most its own limit (Fastify answers 413 once a body grows past it).
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!route.url.startsWith('/api/') || exempt.includes(route.url) || route.bodyLimit !== undefined) return;
    route.bodyLimit = Math.max(...methods.map((method) => limitOf(method, route.url)));
  });

  app.addHook('onRequest', async (request) => {
    const declaredLength = Number(request.headers['content-length'] ?? 0);
    if (declaredLength > (request.routeOptions.bodyLimit ?? limits.uploadLimit)) {
      const multipart = mediaTypeOf(request.headers['content-type']) === 'multipart/form-data';
      // A form with an avatar (not the exam upload) is refused as its avatar would be, under the field.
      const form = multipart && request.routeOptions.bodyLimit === FORM_BODY_LIMIT;
      const key: MessageKey = form ? 'avatar.too_large' : multipart ? 'upload.too_large' : 'request.too_large';
      const fields: Record<string, MessageKey[]> = form ? { avatar: [key] } : {};
      // The client is still sending what will never be read: closing tells it to stop.
      throw new HttpError(413, key, key, {}, fields, {}, { Connection: 'close' });
    }
    if (request.method === 'GET' || request.method === 'HEAD') return;
    if (exempt.includes(request.routeOptions.url ?? '')) return;
    const declared = bodyOf(request);
    if (!declared) {
      // Nothing to read: the catch-all parser below takes the bytes and drops them.
      delete request.raw.headers['content-type'];
      return;
    }
    const type = mediaTypeOf(request.headers['content-type']);
    if (type ? !declared.types.includes(type) : hasBody(request)) throw unsupportedType(declared.types);
  });

  // Answered before its body arrived (refused at once, not signed in): what is still on its way will
  // never be read, so the connection closes and the client stops sending.
  app.addHook('onSend', async (request, reply, payload) => {
    if (!request.raw.complete) reply.header('Connection', 'close');
    return payload;
  });

  // JSON as Fastify reads it (prototype poisoning refused), but an empty body is no body.
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (!String(body).trim()) return done(null, undefined);
    return json(request, String(body), done);
  });
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser('*', (request, _payload, done) => {
    const declared = bodyOf(request);
    done(declared ? unsupportedType(declared.types) : null, undefined);
  });

  app.addHook('preValidation', async (request) => {
    if (exempt.includes(request.routeOptions.url ?? '')) return;
    const body = request.body;
    if (mediaTypeOf(request.headers['content-type']) === 'multipart/form-data' && !multipartReadable(request)) throw badRequest();
    if (body === undefined && bodyOf(request)?.required) throw invalid({ body: ['validation.required'] });
    const declaredQuery = queries.get(routeKey(request.method, request.routeOptions.url));
    const query = request.query as Record<string, unknown> | undefined;
    if (declaredQuery && query) for (const name of Object.keys(query)) if (!declaredQuery.has(name)) delete query[name];
    const fields: Record<string, MessageKey[]> = Object.create(null);
    request.body = normalised(body, '', fields);
    request.query = normalised(request.query, '', fields);
    if (Object.keys(fields).length) throw invalid(fields);
    // A path segment no column can hold names no resource.
    const pathFields: Record<string, MessageKey[]> = Object.create(null);
    request.params = normalised(request.params, '', pathFields);
    if (Object.keys(pathFields).length) throw notFound();
  });
}

/**
 * A multipart body of no parts is only the closing delimiter (`--boundary--` and a line break). Anything
 * longer without a part is a body written with another boundary (the reader skips it all as preamble); a
 * body of no bytes has not even the delimiter. Both are unreadable, not empty.
 */
function multipartReadable(request: FastifyRequest): boolean {
  const body = request.body;
  const parts = body && typeof body === 'object' ? Object.keys(body).length : 0;
  if (parts > 0 || request.headers['transfer-encoding'] !== undefined) return true;
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(request.headers['content-type'] ?? '');
  const length = Number(request.headers['content-length'] ?? 0);
  return boundary !== null && length > 0 && length <= (boundary[1] ?? boundary[2]).length + 8;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A NUL, or half of a surrogate pair (`"\ud800"` in JSON): no text or JSON column stores either. */
// eslint-disable-next-line no-control-regex -- matching NUL is the point
const UNSTORABLE_TEXT = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** No body of the contract nests deeper; a deeper one is not a request of this API. */
const MAX_DEPTH = 32;

/**
 * The value as the services take it: ids (UUIDs, case-insensitive by RFC 9562) in small letters, as the
 * database returns them. Fields holding what no column can take (a NUL character, a number beyond
 * floating point) are collected as field errors.
 */
function normalised(value: unknown, path: string, fields: Record<string, MessageKey[]>, depth = 0): unknown {
  if (depth > MAX_DEPTH) throw badRequest();
  if (typeof value === 'string') {
    if (UNSTORABLE_TEXT.test(value)) fields[path || 'body'] = ['validation.control_characters'];
    return UUID.test(value) ? value.toLowerCase() : value;
  }
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) fields[path || 'body'] = ['validation.number'];
    return value;
  }
  if (Array.isArray(value)) return value.map((item, index) => normalised(item, path ? `${path}.${index}` : String(index), fields, depth + 1));
  if (value && typeof value === 'object' && !Buffer.isBuffer(value) && !isStagedFile(value)) {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) record[key] = normalised(record[key], path ? `${path}.${key}` : key, fields, depth + 1);
  }
  return value;
}
