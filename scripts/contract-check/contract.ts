// The bundled OpenAPI contract as the check walks it: every operation with its roles (`x-roles`), its
// parameters (path-level and operation-level, references resolved), request body media types with their
// examples, and the statuses and media types it may answer. Read with `yaml`; nothing here knows our server.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

export type Json = Record<string, unknown>;

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema: Json;
  /** JSON pointer of the schema inside the contract, for validation. */
  schemaPointer: string;
  example?: unknown;
}

export interface BodyMedia {
  mediaType: string;
  schema: Json;
  schemaPointer: string;
  examples: unknown[];
  /** Multipart field encodings (content types of file fields). */
  encoding?: Json;
}

export interface ResponseMedia {
  /** Media type → JSON pointer of its schema (null when it has none). */
  [mediaType: string]: string | null;
}

export interface Operation {
  operationId: string;
  method: string;
  /** The path template as the contract writes it, e.g. `/patients/{id}`. */
  path: string;
  /** `x-roles`; `public` means no sign-in. */
  roles: string[];
  isPublic: boolean;
  parameters: Parameter[];
  body: { required: boolean; media: BodyMedia[] } | null;
  /** Status (or `default`) → media types the answer may carry. */
  responses: Record<string, ResponseMedia>;
  /** Status (or `default`) → the response headers it declares. */
  responseHeaders: Record<string, ResponseHeader[]>;
  /** The operation's tags. */
  tags: string[];
  /** `x-soft-delete: true`: a delete that keeps the resource readable (e.g. with a status), so no 404 after it. */
  softDelete: boolean;
}

export interface ResponseHeader {
  /** Lower case, as node:http hands headers over. */
  name: string;
  /** Declared headers are expected unless the contract marks them `required: false`. */
  required: boolean;
  schemaPointer: string | null;
}

export interface Contract {
  document: Json;
  operations: Operation[];
  /** Prefix of every path, from the first server URL (`/api` for ours). */
  basePath: string;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

export const escapePointer = (part: string) => part.replace(/~/g, '~0').replace(/\//g, '~1');
const unescapePointer = (part: string) => part.replace(/~1/g, '/').replace(/~0/g, '~');

export function resolvePointer(document: Json, pointer: string): unknown {
  return pointer
    .split('/')
    .slice(1)
    .reduce<unknown>((at, part) => (at === undefined ? undefined : (at as Json)[unescapePointer(part)]), document);
}

/** Follows `$ref`s (local ones only: the contract is bundled) and returns the node with its pointer. */
export function deref(document: Json, node: unknown, pointer: string): { node: Json; pointer: string } {
  let current = node as Json;
  let at = pointer;
  for (let hops = 0; current && typeof current.$ref === 'string' && hops < 32; hops++) {
    at = (current.$ref as string).slice(1);
    current = resolvePointer(document, at) as Json;
  }
  return { node: current, pointer: at };
}

function examplesOf(document: Json, media: Json): unknown[] {
  const found: unknown[] = [];
  if ('example' in media) found.push(media.example);
  for (const example of Object.values((media.examples as Json | undefined) ?? {})) {
    const resolved = deref(document, example, '').node;
    if (resolved && 'value' in resolved) found.push(resolved.value);
  }
  return found;
}

export function readOperations(document: Json): Operation[] {
  const operations: Operation[] = [];
  for (const [path, rawItem] of Object.entries((document.paths as Json | undefined) ?? {})) {
    const itemPointer = `#/paths/${escapePointer(path)}`.slice(1);
    const item = deref(document, rawItem, itemPointer).node;
    for (const method of METHODS) {
      const raw = item[method] as Json | undefined;
      if (!raw) continue;
      const opPointer = `${itemPointer}/${method}`;
      const parameters = new Map<string, Parameter>();
      const collect = (list: unknown, base: string) =>
        ((list as unknown[] | undefined) ?? []).forEach((entry, index) => {
          const { node, pointer } = deref(document, entry, `${base}/parameters/${index}`);
          const schema = deref(document, node.schema ?? {}, `${pointer}/schema`);
          parameters.set(`${node.in}:${node.name}`, {
            name: node.name as string,
            in: node.in as Parameter['in'],
            required: node.required === true,
            schema: schema.node,
            schemaPointer: schema.pointer,
            example: node.example ?? schema.node.example,
          });
        });
      collect(item.parameters, itemPointer);
      collect(raw.parameters, opPointer);

      let body: Operation['body'] = null;
      if (raw.requestBody) {
        const { node: requestBody, pointer } = deref(document, raw.requestBody, `${opPointer}/requestBody`);
        body = {
          required: requestBody.required === true,
          media: Object.entries((requestBody.content as Json | undefined) ?? {}).map(([mediaType, media]) => {
            const schema = deref(document, (media as Json).schema ?? {}, `${pointer}/content/${escapePointer(mediaType)}/schema`);
            return { mediaType, schema: schema.node, schemaPointer: schema.pointer, examples: examplesOf(document, media as Json), encoding: (media as Json).encoding as Json | undefined };
          }),
        };
      }

      const responses: Record<string, ResponseMedia> = {};
      const responseHeaders: Record<string, ResponseHeader[]> = {};
      for (const [status, rawResponse] of Object.entries((raw.responses as Json | undefined) ?? {})) {
        const { node: response, pointer } = deref(document, rawResponse, `${opPointer}/responses/${status}`);
        const media: ResponseMedia = {};
        for (const [mediaType, content] of Object.entries((response.content as Json | undefined) ?? {})) {
          media[mediaType] = (content as Json).schema ? `${pointer}/content/${escapePointer(mediaType)}/schema` : null;
        }
        responses[status] = media;
        responseHeaders[status] = Object.entries((response.headers as Json | undefined) ?? {}).map(([name, rawHeader]) => {
          const header = deref(document, rawHeader, `${pointer}/headers/${escapePointer(name)}`);
          return { name: name.toLowerCase(), required: header.node.required !== false, schemaPointer: header.node.schema ? `${header.pointer}/schema` : null };
        });
      }

      const roles = ((raw['x-roles'] as string[] | undefined) ?? []).slice();
      const security = (raw.security ?? document.security) as unknown[] | undefined;
      const isPublic = roles.includes('public') || !security || security.length === 0;
      operations.push({
        operationId: (raw.operationId as string | undefined) ?? `${method} ${path}`,
        method: method.toUpperCase(),
        path,
        roles,
        isPublic,
        parameters: [...parameters.values()],
        body,
        responses,
        responseHeaders,
        tags: ((raw.tags as string[] | undefined) ?? []).slice(),
        softDelete: raw['x-soft-delete'] === true,
      });
    }
  }
  return operations;
}

/** The contract from a file, or from its text (`{ text }`, as the bundled checker embeds it). */
export function loadContract(source: string | { text: string }): Contract {
  const document = parse(typeof source === 'string' ? readFileSync(source, 'utf8') : source.text) as Json;
  const servers = (document.servers as { url?: string }[] | undefined) ?? [];
  const first = servers[0]?.url ?? '';
  // Only the path of the first server counts: the check is pointed at a base URL by its caller.
  const basePath = first.startsWith('/') ? first.replace(/\/$/, '') : first ? new URL(first).pathname.replace(/\/$/, '') : '';
  return { document, operations: readOperations(document), basePath };
}

/** The documented statuses of an answer: the exact code, its class (`4XX`) or `default`. */
export function documentedResponse(operation: Operation, status: number): ResponseMedia | null {
  return operation.responses[String(status)] ?? operation.responses[`${String(status)[0]}XX`] ?? operation.responses.default ?? null;
}
