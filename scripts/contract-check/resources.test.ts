// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { readOperations } from './contract';
import { ResourcePool } from './resources';

const op = (method: string, operationId: string) => ({ [method]: { operationId, 'x-roles': ['clinic_physicians'], responses: {} } });
const operations = readOperations({
  security: [{ bearerAuth: [] }],
  paths: {
    '/patients': { ...op('get', 'listPatients'), ...op('post', 'createPatient') },
    '/patients/{id}': { ...op('get', 'getPatient'), ...op('delete', 'deletePatient') },
    '/treatments/{id}/images/{imageId}/{variant}': op('get', 'getTreatmentImage'),
  },
});
const byId = (id: string) => operations.find((o) => o.operationId === id)!;

describe('ResourcePool', () => {
  it('feeds listed ids to the paths under the collection, and links found in answers to their templates', () => {
    const pool = new ResourcePool(operations, '/api');
    pool.harvest(byId('listPatients'), 200, { data: [{ id: 'p1', image: '/api/treatments/t1/images/i1/display' }, { id: 'p2' }] });
    expect(pool.pathValues(byId('getPatient'), false)).toEqual([{ id: 'p1' }, { id: 'p2' }]);
    expect(pool.pathValues(byId('getTreatmentImage'), false)).toEqual([{ id: 't1', imageId: 'i1', variant: 'display' }]);
  });

  it('gives destructive operations what the check created first, and never its own accounts', () => {
    const pool = new ResourcePool(operations, '/api');
    pool.harvest(byId('listPatients'), 200, { data: [{ id: 'seeded' }, { id: 'me' }] });
    pool.harvest(byId('createPatient'), 201, { data: { id: 'created' } });
    pool.protectedIds.add('me');
    expect(pool.pathValues(byId('deletePatient'), true)).toEqual([{ id: 'created' }, { id: 'seeded' }]);
    expect(pool.pathValues(byId('getPatient'), false)[0]).toEqual({ id: 'seeded' });
  });

  it('learns nothing from failed answers', () => {
    const pool = new ResourcePool(operations, '/api');
    pool.harvest(byId('listPatients'), 403, { data: [{ id: 'x' }] });
    expect(pool.pathValues(byId('getPatient'), false)).toEqual([]);
  });
});
