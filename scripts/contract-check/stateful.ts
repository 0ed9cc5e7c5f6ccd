// Stateful checks, in the spirit of Schemathesis' stateful phase: a resource the check creates must be readable
// (`ensure_resource_availability`) with what was written (`round_trip`), an update must be read back, and a
// deleted resource must be gone (`use_after_free`). The flows come from the contract's paths, as REST reads
// them: a `POST` on a collection answering 201 creates, and `GET`, `POST`/`PUT`/`PATCH` and `DELETE` on
// `collection/{id}` read, update and delete what it created.
import type { Answer, CheckResult } from './checks';
import { deref, type Json, type Operation } from './contract';
import { objectShape } from './schema-values';
import type { Case } from './cases';

export interface Flow {
  create: Operation;
  read: Operation;
  update: Operation | null;
  remove: Operation | null;
  /** The path parameter of the item path that takes the new id. */
  idParameter: string;
}

export function findFlows(operations: Operation[]): Flow[] {
  const flows: Flow[] = [];
  for (const create of operations) {
    if (create.method !== 'POST' || !('201' in create.responses) || create.path.endsWith('}')) continue;
    const onItem = operations.filter((o) => o.path.startsWith(`${create.path}/{`) && /^\/\{[^}/]+\}$/.test(o.path.slice(create.path.length)));
    const read = onItem.find((o) => o.method === 'GET');
    if (!read) continue;
    const idParameter = /\{([^}]+)\}$/.exec(read.path)![1];
    flows.push({
      create,
      read,
      update: onItem.find((o) => ['PUT', 'PATCH', 'POST'].includes(o.method)) ?? null,
      remove: onItem.find((o) => o.method === 'DELETE') ?? null,
      idParameter,
    });
  }
  return flows;
}

/** The resource inside an answer: the `data` envelope's object when there is one, else the body itself. */
export function resourceOf(body: unknown): Json | null {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
  const data = (body as Json).data;
  return data && typeof data === 'object' && !Array.isArray(data) ? (data as Json) : (body as Json);
}

/** The property names the read answer's resource declares (its 200 JSON schema, inside `data` if enveloped). */
export function readableFields(document: Json, read: Operation): Set<string> | null {
  const pointer = Object.entries(read.responses['200'] ?? {}).find(([mediaType]) => mediaType.includes('json'))?.[1];
  if (!pointer) return null;
  const { node } = deref(document, { $ref: `#${pointer}` }, '');
  let shape = objectShape(document, node);
  if (shape.properties.data) shape = objectShape(document, shape.properties.data);
  return new Set(Object.keys(shape.properties));
}

const sameText = (a: string, b: string) => {
  if (a.normalize('NFC').trim() === b.normalize('NFC').trim()) return true;
  // Dates and timestamps may be written in another form (`2026-01-01T00:00:00Z` and `…00.000Z`).
  const [da, db] = [Date.parse(a), Date.parse(b)];
  if (/^\d{4}-\d{2}-\d{2}/.test(a) && !Number.isNaN(da) && da === db) return true;
  // E-mail addresses are compared without case (servers may store them in lower case).
  return a.includes('@') && a.toLowerCase() === b.toLowerCase();
};

/** Whether what was read holds what was written: every written field and item, equal up to normalisation. */
export function holds(written: unknown, read: unknown): boolean {
  if (written === null || written === undefined) return true;
  if (typeof written === 'string') return typeof read === 'string' && sameText(written, read);
  if (typeof written !== 'object') return written === read;
  if (Array.isArray(written)) return Array.isArray(read) && read.length === written.length && written.every((item, i) => holds(item, read[i]));
  if (!read || typeof read !== 'object' || Array.isArray(read)) return false;
  return Object.entries(written).every(([key, value]) => holds(value, (read as Json)[key]));
}

/** The `round_trip` result: the written fields the read resource declares must read back as written. */
export function roundTrip(written: unknown, readBody: unknown, fields: Set<string> | null, what: string): CheckResult {
  const resource = resourceOf(readBody);
  if (!written || typeof written !== 'object' || Array.isArray(written) || !resource) return { check: 'round_trip', ok: true };
  const lost: string[] = [];
  for (const [key, value] of Object.entries(written as Json)) {
    if (value === undefined || value === null) continue;
    // Fields the resource does not have (a confirmation flag, a password) are not read back.
    if (fields ? !fields.has(key) : !(key in resource)) continue;
    if (!holds(value, resource[key])) lost.push(`${key} written as ${JSON.stringify(value).slice(0, 60)}, read back as ${JSON.stringify(resource[key])?.slice(0, 60) ?? 'missing'}`);
  }
  return lost.length ? { check: 'round_trip', ok: false, message: `${what}: ${lost.join('; ')}` } : { check: 'round_trip', ok: true };
}

export interface FlowDeps {
  document: Json;
  /** Delete operations that keep the resource readable (`x-soft-delete`, `--soft-delete`). */
  softDeletes: Set<string>;
  /** A valid request (null when no role the check holds may call the operation). */
  plain(operation: Operation, path: Record<string, string>, label: string, value: unknown): Case | null;
  bodyValues(operation: Operation): unknown[];
  randomBodyValue(operation: Operation, index: number): unknown;
  /** Known values for the create operation's own path parameters (nested collections). */
  pathValues(operation: Operation): Record<string, string>[];
  /** Sends and judges a case; `extra` adds the stateful results. Null when there was no answer. */
  execute(c: Case, extra?: (answer: Answer, parsed: unknown) => CheckResult[]): Promise<{ status: number; parsed: unknown } | null>;
  log(line: string): void;
}

/** The value with each top-level free-text field (a string without format, pattern or enum) given a unique tail. */
export function uniqueVariant(document: Json, operation: Operation, value: unknown): unknown {
  const media = operation.body?.media[0];
  if (!media || !value || typeof value !== 'object' || Array.isArray(value)) return value;
  const { properties } = objectShape(document, media.schema);
  const tail = ` ${Date.now().toString(36).slice(-5)}`;
  return Object.fromEntries(
    Object.entries(value as Json).map(([key, v]) => {
      const schema = properties[key];
      const free = typeof v === 'string' && schema && !schema.format && !schema.pattern && !schema.enum && !('const' in schema);
      const max = (schema?.maxLength as number | undefined) ?? Infinity;
      return [key, free ? `${(v as string).slice(0, Math.max(0, max - tail.length))}${tail}` : v];
    }),
  );
}

const ok2xx = (status: number) => status >= 200 && status < 300;

/** One flow: create → read → update → read → delete → read (404). Returns what it could not do, or null. */
export async function runFlow(flow: Flow, deps: FlowDeps): Promise<string | null> {
  const { create, read, update, remove, idParameter } = flow;
  const names = [...create.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
  const parentPath = names.length ? deps.pathValues(create)[0] : {};
  if (!parentPath) return `no existing ${names.join(', ')} to create under`;
  const json = create.body?.media[0]?.mediaType.includes('json') ?? false;
  const readFields = readableFields(deps.document, read);

  // Create; a conflict (the example exists already, e.g. from an earlier run) is retried with the example's
  // free-text fields made unique, then with random valid values.
  const example = deps.bodyValues(create)[0];
  const candidates = [example, uniqueVariant(deps.document, create, example), deps.randomBodyValue(create, 0), deps.randomBodyValue(create, 1)];
  let created: { id: string; value: unknown } | null = null;
  for (const value of create.body ? candidates : [undefined]) {
    const c = deps.plain(create, parentPath, 'stateful: create', value);
    if (!c) return `no role the check holds may call ${create.operationId}`;
    const answer = await deps.execute(c);
    if (!answer) return `${create.operationId} did not answer`;
    const id = resourceOf(answer.parsed)?.id;
    if (ok2xx(answer.status) && typeof id === 'string') {
      created = { id, value };
      break;
    }
    if (answer.status !== 409) return `${create.operationId} answered ${answer.status}`;
  }
  if (!created) return `${create.operationId} answered 409 to every value`;
  const itemPath = { ...parentPath, [idParameter]: encodeURIComponent(created.id) };

  const readBack = async (label: string, written: unknown, what: string) => {
    const c = deps.plain(read, itemPath, label, undefined);
    if (!c) return null;
    return deps.execute(c, (answer, parsed) => [
      ok2xx(answer.status)
        ? { check: 'ensure_resource_availability', ok: true }
        : { check: 'ensure_resource_availability', ok: false, message: `${what} (${created.id}), then ${read.operationId} answered ${answer.status}` },
      ...(json && ok2xx(answer.status) ? [roundTrip(written, parsed, readFields, what)] : []),
    ]);
  };
  await readBack('stateful: read after create', created.value, `created with ${create.operationId}`);

  if (update) {
    const value = deps.bodyValues(update)[0];
    const c = deps.plain(update, itemPath, 'stateful: update', value);
    const answer = c ? await deps.execute(c) : null;
    if (answer && ok2xx(answer.status) && update.body?.media[0]?.mediaType.includes('json')) await readBack('stateful: read after update', value, `updated with ${update.operationId}`);
  }

  if (remove) {
    const c = deps.plain(remove, itemPath, 'stateful: delete', undefined);
    const answer = c ? await deps.execute(c) : null;
    if (answer && ok2xx(answer.status) && !deps.softDeletes.has(remove.operationId)) {
      const after = deps.plain(read, itemPath, 'stateful: read after delete', undefined);
      if (after) {
        await deps.execute(after, (a) => [
          a.status === 404 || a.status === 410
            ? { check: 'use_after_free', ok: true }
            : { check: 'use_after_free', ok: false, message: `deleted with ${remove.operationId} (${created.id}), then ${read.operationId} answered ${a.status} (expected 404)` },
        ]);
      }
    }
  }
  return null;
}
