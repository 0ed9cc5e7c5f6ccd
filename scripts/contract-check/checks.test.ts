// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { createResponseValidator, judge, type Answer } from './checks';
import { readOperations, type Contract } from './contract';

const document = {
  openapi: '3.1.0',
  security: [{ bearerAuth: [] }],
  paths: {
    '/things/{id}': {
      post: {
        operationId: 'updateThing',
        'x-roles': ['clinic_physicians'],
        responses: {
          '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object', required: ['status'], properties: { status: { const: 'Success' } } } } } },
          '422': { description: 'invalid', content: { 'application/json': { schema: { type: 'object' } } } },
          '404': { description: 'unknown', headers: { 'Cache-Control': { schema: { type: 'string', const: 'no-store' } }, 'X-Optional': { required: false, schema: { type: 'integer' } } } },
        },
      },
    },
  },
};
const contract: Contract = { document, operations: readOperations(document), basePath: '' };
const operation = contract.operations[0];
const validator = createResponseValidator(contract);
const answer = (status: number, body: unknown, contentType = 'application/json; charset=utf-8'): Answer => ({ status, contentType, body: Buffer.from(JSON.stringify(body)) });
const failed = (results: ReturnType<typeof judge>) => results.filter((r) => !r.ok).map((r) => r.check);

describe('judge', () => {
  it('passes a documented answer whose body matches', () => {
    expect(failed(judge(operation, 'conforming', answer(200, { status: 'Success' }), validator))).toEqual([]);
  });

  it('names a server error, an undocumented status, a wrong content type and a wrong body', () => {
    expect(failed(judge(operation, 'conforming', answer(500, {}), validator))).toEqual(['not_a_server_error', 'status_code_conformance']);
    expect(failed(judge(operation, 'conforming', answer(200, { status: 'Success' }, 'text/html'), validator))).toEqual(['content_type_conformance']);
    expect(failed(judge(operation, 'conforming', answer(200, { status: 'Nope' }), validator))).toEqual(['response_schema_conformance']);
  });

  it('counts 501 as a server error unless the contract lists it', () => {
    expect(failed(judge(operation, 'conforming', answer(501, {}), validator))).toContain('not_a_server_error');
    const listed = { ...operation, responses: { ...operation.responses, '501': {} } };
    expect(failed(judge(listed, 'conforming', { status: 501, contentType: '', body: Buffer.alloc(0) }, validator))).toEqual([]);
  });

  it('fails accepted invalid data, and credentials that were not refused with 401 or 403', () => {
    expect(failed(judge(operation, 'rejected', answer(200, { status: 'Success' }), validator))).toEqual(['negative_data_rejection']);
    expect(failed(judge(operation, 'rejected', answer(422, {}), validator))).toEqual([]);
    expect(failed(judge(operation, 'unauthenticated', answer(200, { status: 'Success' }), validator))).toEqual(['missing_auth']);
    expect(failed(judge(operation, 'forbidden', answer(200, { status: 'Success' }), validator))).toEqual(['ignored_auth']);
  });

  it('expects 404 for an id that was never created', () => {
    expect(failed(judge(operation, 'absent', answer(200, { status: 'Success' }), validator))).toEqual(['unknown_resource']);
    expect(failed(judge(operation, 'absent', { status: 404, contentType: '', body: Buffer.alloc(0), headers: { 'cache-control': 'no-store' } }, validator))).toEqual([]);
  });

  it('checks the response headers the contract declares: present unless optional, valid where present', () => {
    const headerValidator = createResponseValidator(contract, true);
    const notFound = (headers: Record<string, string>) => judge(operation, 'conforming', { status: 404, contentType: '', body: Buffer.alloc(0), headers }, validator, headerValidator);
    expect(failed(notFound({ 'cache-control': 'no-store' }))).toEqual([]);
    expect(failed(notFound({ 'cache-control': 'no-store', 'x-optional': '5' }))).toEqual([]);
    expect(notFound({}).find((r) => !r.ok)?.message).toBe('404 lacks the declared header cache-control');
    expect(failed(notFound({ 'cache-control': 'public' }))).toEqual(['response_headers_conformance']);
    expect(failed(notFound({ 'cache-control': 'no-store', 'x-optional': 'soon' }))).toEqual(['response_headers_conformance']);
  });
});
