// The requests the check sends for one operation: valid ones (the contract's examples, then the sampler's
// value, then seeded random values), mutated ones whose invalidity the contract's schemas confirm, and the
// x-roles matrix. Deterministic cases come first; `randomCase` then varies without end, seeded.
import { type Json, type Operation, type Parameter } from './contract';
import type { Expectation } from './checks';
import { encodeBody, multipartBody, BOUNDARY } from './body-encoding';
import type { RawRequest } from './http-client';
import { bodyVariants, malformedJson, malformedMultipart, parameterVariants, ODD_STRINGS, PROTOTYPE_KEYS, HUGE_STRING_LENGTH } from './mutations';
import { decodeRaw, type RequestValidity } from './request-validity';
import { arbitraryOf, objectShape, pick, sampleOf } from './schema-values';

export type CaseAuth = { role: string } | { none: true } | { header: string };

export interface Case {
  operation: Operation;
  kind: 'valid' | 'negative' | 'auth';
  label: string;
  auth: CaseAuth;
  expectation: Expectation;
  /** Without the Authorization header, which the runner adds from `auth`. */
  request: RawRequest;
}

export interface CaseContext {
  document: Json;
  validity: RequestValidity;
  /** Roles the check holds a token for. */
  roles: string[];
  /** Real values for the operation's path parameters (raw, encoded), best first; may be empty. */
  pathValues(operation: Operation): Record<string, string>[];
  /** Rewrites a valid body before it is sent (keeps the check's own accounts out of public operations). */
  scrub(operation: Operation, value: unknown): unknown;
}

/** Deterministic part of a case's seed: the same operation and index always give the same value. */
export function caseSeed(seed: number, operationId: string, index: number): number {
  let hash = seed >>> 0;
  for (const char of `${operationId}#${index}`) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619) >>> 0;
  return hash;
}

function exampleValue(document: Json, parameter: Parameter): string {
  const value = parameter.example ?? sampleOf(document, parameter.schema) ?? 'x';
  return String(value);
}

function targetOf(operation: Operation, path: Record<string, string>, query: [string, string][]): string {
  const filled = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => path[name] ?? 'missing');
  const search = query.map(([name, raw]) => `${encodeURIComponent(name)}=${raw}`).join('&');
  return search ? `${filled}?${search}` : filled;
}

const pathParameters = (operation: Operation) => operation.parameters.filter((p) => p.in === 'path');
const queryParameters = (operation: Operation) => operation.parameters.filter((p) => p.in === 'query');
const headerParameters = (operation: Operation) => operation.parameters.filter((p) => p.in === 'header');

interface Parts {
  path: Record<string, string>;
  query: [string, string][];
  headers: Record<string, string>;
  body: { contentType: string; bytes: Buffer } | null;
}

export class CaseBuilder {
  private readonly seed: number;
  private rotation = 0;

  constructor(
    private readonly ctx: CaseContext,
    seed: number,
  ) {
    this.seed = seed;
  }

  /** The role a valid request is sent as: the listed roles the check holds tokens for, in turn. */
  private authFor(operation: Operation): CaseAuth | null {
    if (operation.isPublic) return { none: true };
    const usable = operation.roles.filter((role) => this.ctx.roles.includes(role));
    if (!usable.length) return null;
    return { role: usable[this.rotation++ % usable.length] };
  }

  private baseParts(operation: Operation, variant = 0): Omit<Parts, 'body'> {
    const known = this.ctx.pathValues(operation);
    const path: Record<string, string> = {};
    const chosen = known.length ? known[variant % known.length] : {};
    for (const parameter of pathParameters(operation)) {
      path[parameter.name] = chosen[parameter.name] ?? encodeURIComponent(exampleValue(this.ctx.document, parameter));
    }
    const query: [string, string][] = queryParameters(operation)
      .filter((p) => p.required)
      .map((p) => [p.name, encodeURIComponent(exampleValue(this.ctx.document, p))]);
    const headers: Record<string, string> = {};
    for (const parameter of headerParameters(operation)) {
      if (parameter.required || parameter.name.toLowerCase() === 'language') headers[parameter.name] = exampleValue(this.ctx.document, parameter);
    }
    return { path, query, headers };
  }

  private request(operation: Operation, parts: Parts): RawRequest {
    const headers: Record<string, string> = { accept: '*/*', ...parts.headers };
    if (parts.body) headers['content-type'] = parts.body.contentType;
    return { method: operation.method, target: targetOf(operation, parts.path, parts.query), headers, body: parts.body?.bytes };
  }

  private encode(operation: Operation, mediaIndex: number, value: unknown) {
    const media = operation.body!.media[mediaIndex];
    const encoded = encodeBody(this.ctx.document, media.mediaType, media.schema, this.ctx.scrub(operation, value), media.encoding);
    return { contentType: encoded.contentType, bytes: encoded.body };
  }

  /** Whether a body value, as the server would read it from this media type, is valid. */
  private bodyValid(operation: Operation, mediaIndex: number, value: unknown): boolean {
    const media = operation.body!.media[mediaIndex];
    if (media.mediaType.includes('json')) return this.ctx.validity.json(media.schemaPointer, value);
    // Form fields arrive as text: validate what is sent, as text, with coercion.
    if (!value || typeof value !== 'object' || Array.isArray(value)) return this.ctx.validity.text(media.schemaPointer, {});
    const sent: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined && v !== null) sent[k] = typeof v === 'string' ? v : JSON.stringify(v);
    return this.ctx.validity.text(media.schemaPointer, sent);
  }

  private parameterValid(parameter: Parameter, raw: string): boolean {
    return this.ctx.validity.text(parameter.schemaPointer, decodeRaw(raw));
  }

  private validValues(operation: Operation, mediaIndex: number): unknown[] {
    const media = operation.body!.media[mediaIndex];
    const values = media.examples.length ? [...media.examples] : [];
    const sampled = sampleOf(this.ctx.document, media.schema);
    if (sampled !== undefined) values.push(sampled);
    return values;
  }

  /** Every deterministic case of the operation. Empty when no role the check holds may call it. */
  deterministic(operation: Operation): Case[] {
    const cases: Case[] = [];
    const valid = (label: string, parts: Parts, kind: Case['kind'] = 'valid', expectation: Expectation = 'conforming') => {
      const auth = this.authFor(operation);
      if (auth) cases.push({ operation, kind, label, auth, expectation, request: this.request(operation, parts) });
    };
    const base = this.baseParts(operation);
    const validBody = operation.body ? this.encode(operation, 0, this.validValues(operation, 0)[0]) : null;

    // Valid requests: every example of every media type, then the sampler's value; an unknown id.
    if (operation.body) {
      operation.body.media.forEach((media, mediaIndex) =>
        this.validValues(operation, mediaIndex).forEach((value, i) =>
          valid(`${media.mediaType} ${i < media.examples.length ? `example ${i + 1}` : 'sample'}`, { ...base, body: this.encode(operation, mediaIndex, value) }),
        ),
      );
    } else {
      valid('no body', { ...base, body: null });
      // Many HTTP clients send a JSON content type on every request, with an empty body or `{}`.
      valid('empty body with Content-Type: application/json', { ...base, body: { contentType: 'application/json', bytes: Buffer.alloc(0) } });
      valid('body {} with Content-Type: application/json', { ...base, body: { contentType: 'application/json', bytes: Buffer.from('{}') } });
    }
    const known = this.ctx.pathValues(operation);
    for (let variant = 1; variant < Math.min(known.length, 3); variant++) valid(`known resource ${variant + 1}`, { ...this.baseParts(operation, variant), body: validBody });
    if (pathParameters(operation).length) {
      const unknownPath = Object.fromEntries(pathParameters(operation).map((p) => [p.name, p.schema.format === 'uuid' ? '00000000-0000-4000-8000-000000000000' : encodeURIComponent(exampleValue(this.ctx.document, p))]));
      // An id that was never created: 404 where the operation lists it (a stub answering 200 fails here).
      valid('unknown resource', { ...base, path: unknownPath, body: validBody }, 'valid', 'absent');
    }
    for (const language of ['de', 'en-US', 'fr']) valid(`Language: ${language}`, { ...base, headers: { ...base.headers, Language: language }, body: validBody });

    // The x-roles matrix: no credentials, made-up credentials, and every role the operation does not list.
    if (!operation.isPublic) {
      const request = this.request(operation, { ...base, body: validBody });
      cases.push({ operation, kind: 'auth', label: 'no credentials', auth: { none: true }, expectation: 'unauthenticated', request });
      cases.push({ operation, kind: 'auth', label: 'made-up bearer token', auth: { header: 'Bearer mp_contract-check-not-a-token' }, expectation: 'unauthenticated', request });
      cases.push({ operation, kind: 'auth', label: 'Basic credentials', auth: { header: 'Basic YWRtaW46YWRtaW4=' }, expectation: 'unauthenticated', request });
      cases.push({ operation, kind: 'auth', label: 'empty bearer', auth: { header: 'Bearer ' }, expectation: 'unauthenticated', request });
      for (const role of this.ctx.roles.filter((r) => !operation.roles.includes(r))) {
        cases.push({ operation, kind: 'auth', label: `role ${role} (not in x-roles)`, auth: { role }, expectation: 'forbidden', request });
      }
    }

    const negative = (label: string, parts: Parts, invalid: boolean) => valid(label, parts, invalid ? 'negative' : 'valid', invalid ? 'rejected' : 'conforming');

    // Parameters: every path, query and header parameter mutated; the schema decides what is invalid.
    for (const parameter of operation.parameters) {
      for (const { label, raw } of parameterVariants(base.path[parameter.name] ?? 'x')) {
        const invalid = !this.parameterValid(parameter, raw);
        if (parameter.in === 'path') {
          if (raw === '') continue; // An empty segment is another path, not this operation.
          negative(`path ${parameter.name}: ${label}`, { ...base, path: { ...base.path, [parameter.name]: raw }, body: validBody }, invalid);
        } else if (parameter.in === 'query') {
          const query = base.query.filter(([name]) => name !== parameter.name);
          negative(`query ${parameter.name}: ${label}`, { ...base, query: [...query, [parameter.name, raw]], body: validBody }, invalid);
        } else if (parameter.in === 'header' && !/%|\r|\n/.test(raw) && raw.length < 1000) {
          negative(`header ${parameter.name}: ${label}`, { ...base, headers: { ...base.headers, [parameter.name]: raw }, body: validBody }, invalid);
        }
      }
      if (parameter.in === 'query') {
        const value = encodeURIComponent(exampleValue(this.ctx.document, parameter));
        negative(`query ${parameter.name} given twice`, { ...base, query: [...base.query, [parameter.name, value], [parameter.name, value]], body: validBody }, !this.ctx.validity.text(parameter.schemaPointer, [decodeRaw(value), decodeRaw(value)]));
      }
      if (parameter.in === 'header') {
        negative(`header ${parameter.name}: ${HUGE_STRING_LENGTH / 10} characters`, { ...base, headers: { ...base.headers, [parameter.name]: 'x'.repeat(HUGE_STRING_LENGTH / 10) }, body: validBody }, !this.ctx.validity.text(parameter.schemaPointer, 'x'.repeat(HUGE_STRING_LENGTH / 10)));
      }
    }
    negative('unknown query parameters (prototype keys)', { ...base, query: [...base.query, ['__proto__', 'x'], ['constructor', 'x'], ['unknownParameter', '1']], body: validBody }, false);
    // What an undeclared parameter holds is no part of the call either (a NUL, broken UTF-8).
    negative('unknown query parameters holding a NUL and broken UTF-8', { ...base, query: [...base.query, ['x', '%00'], ['y', '%ff%fe']], body: validBody }, false);

    if (!operation.body) return cases;
    const required = operation.body.required;
    const declared = operation.body.media.map((m) => m.mediaType);
    operation.body.media.forEach((media, mediaIndex) => {
      const value = this.validValues(operation, mediaIndex)[0];
      // Body fields: types, missing and extra fields, prototype keys, huge and odd strings.
      if (media.mediaType.includes('json')) {
        for (const variant of bodyVariants(this.ctx.scrub(operation, value))) {
          const invalid = !this.ctx.validity.json(media.schemaPointer, JSON.parse(variant.text));
          negative(`${media.mediaType} ${variant.label}`, { ...base, body: { contentType: media.mediaType, bytes: Buffer.from(variant.text) } }, invalid);
        }
        for (const variant of malformedJson(JSON.stringify(this.ctx.scrub(operation, value)))) {
          let invalid = variant.expect === 'rejected';
          if (variant.expect === 'validate') invalid = !this.ctx.validity.json(media.schemaPointer, JSON.parse(variant.body.toString()));
          negative(`${media.mediaType} ${variant.label}`, { ...base, body: { contentType: media.mediaType, bytes: variant.body } }, invalid);
        }
      } else {
        const fields = value && typeof value === 'object' ? (value as Json) : {};
        const { properties } = objectShape(this.ctx.document, media.schema);
        const formVariants: [string, Json][] = [['no fields', {}]];
        for (const name of Object.keys(fields)) {
          formVariants.push([`missing ${name}`, Object.fromEntries(Object.entries(fields).filter(([key]) => key !== name))]);
          if (properties[name]?.format === 'binary') continue;
          formVariants.push([`${name} huge string`, { ...fields, [name]: 'A'.repeat(HUGE_STRING_LENGTH) }]);
          for (const odd of ODD_STRINGS.slice(0, 8)) formVariants.push([`${name} odd string ${JSON.stringify(odd)}`, { ...fields, [name]: odd }]);
        }
        for (const key of PROTOTYPE_KEYS) formVariants.push([`extra field ${key}`, JSON.parse(`{${JSON.stringify(key)}:"true",${JSON.stringify(fields).slice(1)}`) as Json]);
        for (const [label, variant] of formVariants) {
          negative(`${media.mediaType} ${label}`, { ...base, body: this.encode(operation, mediaIndex, variant) }, !this.bodyValid(operation, mediaIndex, variant));
        }
        if (media.mediaType.startsWith('multipart/')) {
          const good = this.encode(operation, mediaIndex, value);
          for (const broken of malformedMultipart(good.bytes, BOUNDARY)) {
            negative(broken.label, { ...base, body: { contentType: broken.contentType, bytes: broken.body } }, true);
          }
          // The same field twice (a second file where one is expected).
          const twice = multipartBody([['duplicate', { text: 'a' }], ['duplicate', { text: 'b' }]]);
          negative('multipart with a field given twice and nothing else', { ...base, body: { contentType: `multipart/form-data; boundary=${BOUNDARY}`, bytes: twice } }, required);
        }
      }
      // Wrong content types: the body as text, XML, a form, or without a Content-Type at all.
      const text = Buffer.from(JSON.stringify(this.ctx.scrub(operation, value)) ?? '');
      for (const wrong of ['text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'application/octet-stream']) {
        if (declared.includes(wrong)) continue;
        // A body in a media type the operation does not declare is refused even where the body is optional.
        negative(`Content-Type: ${wrong} (not declared)`, { ...base, body: { contentType: wrong, bytes: text } }, true);
      }
      negative('body without Content-Type', { ...base, body: { contentType: '', bytes: text } }, true);
      negative(`${media.mediaType} empty body`, { ...base, body: { contentType: media.mediaType.startsWith('multipart/') ? `${media.mediaType}; boundary=${BOUNDARY}` : media.mediaType, bytes: Buffer.alloc(0) } }, required);
    });
    return cases.map((c) => (c.request.headers['content-type'] === '' ? { ...c, request: { ...c.request, headers: withoutContentType(c.request.headers) } } : c));
  }

  /** The values a valid request of the operation sends: its body media's examples, then the sampler's value. */
  bodyValues(operation: Operation): unknown[] {
    return operation.body ? this.validValues(operation, 0).map((value) => this.ctx.scrub(operation, value)) : [];
  }

  /** The index-th seeded random valid body value of the operation (first media type). */
  randomBodyValue(operation: Operation, index: number): unknown {
    if (!operation.body) return undefined;
    return this.ctx.scrub(operation, pick(arbitraryOf(this.ctx.document, operation.body.media[0].schema), caseSeed(this.seed, `${operation.operationId}/stateful`, index)));
  }

  /** A valid request with the given path values and body value (first media type), for the stateful checks. */
  plain(operation: Operation, path: Record<string, string>, label: string, value: unknown, expectation: Expectation = 'conforming'): Case | null {
    const auth = this.authFor(operation);
    if (!auth) return null;
    const base = this.baseParts(operation);
    const body = operation.body && value !== undefined ? this.encode(operation, 0, value) : null;
    return { operation, kind: 'valid', label, auth, expectation, request: this.request(operation, { ...base, path: { ...base.path, ...path }, body }) };
  }

  /** The index-th random case: a random valid request, or one with one random mutation (seeded). */
  random(operation: Operation, index: number): Case | null {
    const auth = this.authFor(operation);
    if (!auth) return null;
    const seed = caseSeed(this.seed, operation.operationId, index);
    const base = this.baseParts(operation, index);
    // Optional query parameters, each present or not, with random valid values.
    for (const [i, parameter] of queryParameters(operation).entries()) {
      if (parameter.required || (seed >> i) & 1) continue;
      base.query.push([parameter.name, encodeURIComponent(String(pick(arbitraryOf(this.ctx.document, parameter.schema), seed + i)))]);
    }
    let body: Parts['body'] = null;
    let value: unknown;
    let mediaIndex = 0;
    if (operation.body) {
      mediaIndex = seed % operation.body.media.length;
      value = this.ctx.scrub(operation, pick(arbitraryOf(this.ctx.document, operation.body.media[mediaIndex].schema), seed));
      body = this.encode(operation, mediaIndex, value);
    }
    const mutate = index % 2 === 1;
    let label = 'random valid values';
    let invalid = false;
    if (mutate && operation.body && operation.body.media[mediaIndex].mediaType.includes('json')) {
      const variants = bodyVariants(value);
      const variant = variants[seed % variants.length];
      label = `random values, then ${variant.label}`;
      invalid = !this.ctx.validity.json(operation.body.media[mediaIndex].schemaPointer, JSON.parse(variant.text));
      body = { contentType: operation.body.media[mediaIndex].mediaType, bytes: Buffer.from(variant.text) };
    } else if (mutate && operation.parameters.some((p) => p.in !== 'header')) {
      const targets = operation.parameters.filter((p) => p.in !== 'header');
      const parameter = targets[seed % targets.length];
      const variants = parameterVariants(base.path[parameter.name] ?? 'x').filter((v) => v.raw !== '' || parameter.in !== 'path');
      const variant = variants[(seed >>> 8) % variants.length];
      label = `random values, then ${parameter.in} ${parameter.name}: ${variant.label}`;
      invalid = !this.parameterValid(parameter, variant.raw);
      if (parameter.in === 'path') base.path[parameter.name] = variant.raw;
      else base.query = [...base.query.filter(([n]) => n !== parameter.name), [parameter.name, variant.raw]];
    } else {
      // Random values are valid by construction, but patterns and formats are generated loosely: ask the schema.
      invalid = Boolean(operation.body) && !this.bodyValid(operation, mediaIndex, value);
      invalid ||= base.query.some(([name, raw]) => {
        const parameter = queryParameters(operation).find((p) => p.name === name);
        return parameter ? !this.parameterValid(parameter, raw) : false;
      });
    }
    return { operation, kind: invalid ? 'negative' : 'valid', label, auth, expectation: invalid ? 'rejected' : 'conforming', request: this.request(operation, { ...base, body }) };
  }
}

function withoutContentType(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => name !== 'content-type'));
}
