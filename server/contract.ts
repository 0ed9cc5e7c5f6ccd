// The contract as the server uses it: the bundled document, and its operations' x-roles.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import type { OperationId } from '../generated/operation-ids';

export interface Operation {
  operationId: OperationId;
  method: string;
  path: string;
  roles: string[];
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

export function loadContract(): Record<string, unknown> {
  return parse(readFileSync(new URL('../generated/openapi.yaml', import.meta.url), 'utf8')) as Record<string, unknown>;
}

export function operationsOf(contract: Record<string, unknown>): Operation[] {
  const paths = contract.paths as Record<string, Record<string, { operationId: OperationId; 'x-roles': string[] }>>;
  return Object.entries(paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => ({
      operationId: item[method].operationId,
      method: method.toUpperCase(),
      path,
      roles: item[method]['x-roles'],
    })),
  );
}

/**
 * A copy for routing: file parts of multipart bodies are checked by the handlers (by content), so their
 * schemas accept what the multipart parser produces instead of a JSON string.
 */
export function forRouting(contract: Record<string, unknown>): Record<string, unknown> {
  const copy = structuredClone(contract);
  const visit = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    const record = node as Record<string, unknown>;
    if (record.format === 'binary' && record.type === 'string') {
      delete record.type;
      delete record.format;
    }
    Object.values(record).forEach(visit);
  };
  const paths = copy.paths as Record<string, Record<string, { requestBody?: { content?: Record<string, unknown> } }>>;
  for (const item of Object.values(paths)) {
    for (const operation of Object.values(item)) {
      const multipart = operation?.requestBody?.content?.['multipart/form-data'];
      if (multipart) visit(multipart);
    }
  }
  // Component schemas referenced from multipart bodies (UserForm, ProfileForm, TreatmentUpload).
  const schemas = (copy.components as { schemas: Record<string, unknown> }).schemas;
  for (const name of ['UserForm', 'UserCreateForm', 'ProfileForm', 'TreatmentUpload']) visit(schemas[name]);
  // Binary answers (images, NPT files) are sent as bytes, never serialised from a schema; the router
  // takes every media type it is given for one that requests may carry, and warned at start about each
  // one without a body parser (image/png, image/jpeg, application/octet-stream).
  for (const item of Object.values(paths)) {
    for (const operation of Object.values(item)) {
      const responses = (operation as { responses?: Record<string, { content?: Record<string, unknown> }> })?.responses ?? {};
      for (const response of Object.values(responses)) {
        for (const type of Object.keys(response.content ?? {})) if (!type.includes('json')) delete response.content![type];
      }
    }
  }
  return copy;
}
