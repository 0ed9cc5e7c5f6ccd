// Checks every answer the server tests receive against the contract: the status must be documented for
// the operation and the body must match its schema (JSON Schema 2020-12, as OpenAPI 3.1 uses).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';

type Json = Record<string, unknown>;

const contract = parse(readFileSync(join(process.cwd(), 'generated/openapi.yaml'), 'utf8')) as Json;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addFormat('binary', true);
ajv.addSchema(contract, 'contract');

const escape = (part: string) => part.replace(/~/g, '~0').replace(/\//g, '~1');

function deref(node: Json): { node: Json; pointer: string | null } {
  const ref = node.$ref;
  if (typeof ref !== 'string') return { node, pointer: null };
  const pointer = ref.slice(1);
  const target = pointer
    .split('/')
    .slice(1)
    .reduce<unknown>((at, part) => (at as Json)[part.replace(/~1/g, '/').replace(/~0/g, '~')], contract);
  return { node: target as Json, pointer };
}

const paths = Object.keys(contract.paths as Json).map((template) => ({
  template,
  pattern: new RegExp(`^/api${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
}));

/** The contract path of a request path, preferring literal paths (`/users/bulkUpdate` over `/users/{id}`). */
export function templateOf(path: string): string | null {
  const candidates = paths.filter((p) => p.pattern.test(path));
  candidates.sort((a, b) => (a.template.match(/\{/g)?.length ?? 0) - (b.template.match(/\{/g)?.length ?? 0));
  return candidates[0]?.template ?? null;
}

export function contractViolations(method: string, url: string, status: number, contentType: string, body: unknown): string[] {
  const path = new URL(url, 'http://x').pathname;
  const template = templateOf(path);
  if (!template) return status === 404 ? [] : [`${method} ${path}: no such path in the contract`];
  const operation = ((contract.paths as Json)[template] as Json)[method.toLowerCase()] as Json | undefined;
  if (!operation) return status === 404 || status === 405 ? [] : [`${method} ${template}: no such operation`];
  const responses = operation.responses as Json;
  const key = String(status) in responses ? String(status) : 'default' in responses ? 'default' : null;
  if (!key) return [`${method} ${template} answered ${status}, which the contract does not document`];
  const { node: response, pointer: responsePointer } = deref(responses[key] as Json);
  const base = responsePointer ?? `/paths/${escape(template)}/${method.toLowerCase()}/responses/${key}`;
  const content = response.content as Json | undefined;
  if (!content) return [];
  const mediaType = contentType.split(';')[0].trim();
  if (!(mediaType in content)) return [`${method} ${template} ${status}: content type ${mediaType} not in the contract`];
  if (!mediaType.includes('json')) return [];
  const validate = ajv.getSchema(`contract#${base}/content/${escape(mediaType)}/schema`);
  if (!validate) return [`${method} ${template} ${status}: no schema`];
  if (validate(body)) return [];
  return (validate.errors ?? []).map((e) => `${method} ${template} ${status}: ${e.instancePath || '/'} ${e.message}`);
}
