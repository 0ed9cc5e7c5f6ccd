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
});
