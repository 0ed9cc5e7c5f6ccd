// Requests made from the contract itself: each operation called with its own documented examples.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

type Json = Record<string, unknown>;

export const contract = parse(readFileSync(join(process.cwd(), 'generated/openapi.yaml'), 'utf8')) as Json;

const resolve = (node: unknown): Json => {
  const ref = (node as Json)?.$ref;
  if (typeof ref !== 'string') return node as Json;
  return resolve(ref.slice(2).split('/').reduce<unknown>((at, part) => (at as Json)[part], contract));
};

export interface ContractOperation {
  operationId: string;
  tag: string;
  method: string;
  template: string;
  roles: string[];
  parameters: Json[];
  requestBody?: Json;
}

export function contractOperations(): ContractOperation[] {
  const paths = contract.paths as Record<string, Json>;
  return Object.entries(paths).flatMap(([template, item]) =>
    ['get', 'post', 'put', 'delete', 'patch']
      .filter((method) => item[method])
      .map((method) => {
        const operation = item[method] as Json;
        return {
          operationId: operation.operationId as string,
          tag: (operation.tags as string[])[0],
          method: method.toUpperCase(),
          template,
          roles: operation['x-roles'] as string[],
          parameters: [...((item.parameters as Json[]) ?? []), ...((operation.parameters as Json[]) ?? [])].map(resolve),
          requestBody: operation.requestBody ? resolve(operation.requestBody) : undefined,
        };
      }),
  );
}

const exampleOf = (node: Json): unknown => {
  if ('example' in node) return node.example;
  const examples = node.examples as Record<string, Json> | undefined;
  if (examples) return resolve(Object.values(examples)[0]).value;
  return undefined;
};

export interface ExampleRequest {
  path: string;
  json?: unknown;
  form?: FormData;
  body?: string;
  headers?: Record<string, string>;
}

/** The operation called with the first example of every parameter and of its body. */
export function exampleRequest(operation: ContractOperation, ids: Record<string, string> = {}): ExampleRequest {
  let path = operation.template;
  const query = new URLSearchParams();
  for (const parameter of operation.parameters) {
    const name = parameter.name as string;
    const value = ids[name] ?? exampleOf(parameter) ?? exampleOf((parameter.schema as Json) ?? {});
    if (parameter.in === 'path') {
      path = path.replace(`{${name}}`, encodeURIComponent(String(value ?? '00000000-0000-4000-8000-000000000000')));
    } else if (parameter.in === 'query' && parameter.required && value !== undefined) {
      query.set(name, String(value));
    }
  }
  const search = query.toString();
  const request: ExampleRequest = { path: search ? `${path}?${search}` : path };
  const content = operation.requestBody?.content as Record<string, Json> | undefined;
  if (!content) return request;
  const [mediaType, media] = Object.entries(content)[0];
  const value = exampleOf(media) as Record<string, unknown>;
  if (mediaType === 'application/json') request.json = value;
  else if (mediaType === 'multipart/form-data') {
    const form = new FormData();
    for (const [name, field] of Object.entries(value ?? {})) form.set(name, String(field));
    request.form = form;
  } else if (mediaType === 'application/x-www-form-urlencoded') {
    request.body = new URLSearchParams(value as Record<string, string>).toString();
    request.headers = { 'Content-Type': mediaType };
  }
  return request;
}
