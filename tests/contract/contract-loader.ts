// Reads the bundled contract (generated/openapi.yaml, kept in step with openapi/ by the drift test).
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

export interface ContractOperation {
  method: string;
  path: string;
  operationId?: string;
  tags?: string[];
  summary?: string;
  description?: string;
  security?: unknown[];
  requestBody?: unknown;
  'x-roles'?: string[];
  responses: Record<string, { content?: Record<string, { example?: unknown; examples?: Record<string, unknown> }> }>;
}

export interface Contract {
  tags: { name: string }[];
  paths: Record<string, Record<string, unknown>>;
  components: Record<string, Record<string, unknown>>;
}

export const contractPath = new URL('../../generated/openapi.yaml', import.meta.url);

export function loadContract(): Contract {
  return parse(readFileSync(contractPath, 'utf8')) as Contract;
}

/** Follows a local `$ref` (`#/components/...`) of the bundled contract; other values pass through. */
export function resolve<T>(contract: Contract, value: T | { $ref: string }): T {
  if (!value || typeof value !== 'object' || !('$ref' in value)) return value as T;
  const target = value.$ref
    .replace(/^#\//, '')
    .split('/')
    .reduce<unknown>((node, part) => (node as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')], contract);
  return resolve(contract, target as T);
}

export function operationsOf(contract: Contract): ContractOperation[] {
  return Object.entries(contract.paths).flatMap(([path, item]) =>
    HTTP_METHODS.filter((method) => method in item).map((method) => {
      const operation = item[method] as ContractOperation;
      const responses = Object.fromEntries(
        Object.entries(operation.responses).map(([status, response]) => [status, resolve(contract, response)]),
      );
      return { ...operation, responses, method: method.toUpperCase(), path };
    }),
  );
}
