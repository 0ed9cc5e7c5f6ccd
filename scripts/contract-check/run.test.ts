// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { Case } from './cases';
import { join } from 'node:path';
import { loadContract } from './contract';
import { chooseCases, selectOperations } from './run';

const make = (kind: Case['kind'], label: string, expectation: Case['expectation'] = 'conforming') => ({ kind, label, expectation }) as Case;

describe('chooseCases', () => {
  it('keeps valid requests, the x-roles matrix and the mutations that found defects before when the budget is small', () => {
    const cases = [
      ...Array.from({ length: 20 }, (_, i) => make('negative', `name odd string ${i}`)),
      make('negative', 'application/json extra field constructor'),
      make('auth', 'no credentials'),
      make('valid', 'application/json example 1'),
      make('negative', 'multipart without boundary'),
    ];
    const chosen = chooseCases(cases, 6).map((c) => c.label);
    expect(chosen.slice(0, 4)).toEqual(['application/json example 1', 'no credentials', 'application/json extra field constructor', 'multipart without boundary']);
    expect(chosen).toHaveLength(6);
    // The rest is spread over the remaining cases, not the first ones only.
    expect(chosen.slice(4)).toEqual(['name odd string 0', 'name odd string 10']);
  });

  it('keeps the unknown id beside the first valid request however small the budget', () => {
    const cases = [make('valid', 'no body'), make('valid', 'Language: de'), make('valid', 'Language: fr'), make('valid', 'unknown resource', 'absent'), make('auth', 'no credentials', 'unauthenticated')];
    expect(chooseCases(cases, 2).map((c) => c.label)).toEqual(['no body', 'unknown resource']);
  });

  it('takes every case when the budget allows', () => {
    const cases = [make('valid', 'a'), make('negative', 'b')];
    expect(chooseCases(cases, 5)).toBe(cases);
  });
});

describe('selectOperations', () => {
  const { operations } = loadContract(join(process.cwd(), 'generated/openapi.yaml'));
  const ids = (list: { operationId: string }[]) => list.map((o) => o.operationId);

  it('includes by tag, method and operation, excludes after, and names each reason', () => {
    const { selected, skipped } = selectOperations(operations, { skip: { getHealth: 'monitored elsewhere' }, include: ['tag:patients', 'operation:getHealth'], exclude: ['method:DELETE'] });
    expect(ids(selected)).toContain('createPatient');
    expect(ids(selected)).not.toContain('deletePatient');
    expect(ids(selected)).not.toContain('listUsers');
    expect(skipped).toContainEqual({ operationId: 'deletePatient', reason: 'excluded (--exclude method:DELETE)' });
    expect(skipped).toContainEqual({ operationId: 'listUsers', reason: 'not included (--include tag:patients, operation:getHealth)' });
    expect(skipped).toContainEqual({ operationId: 'getHealth', reason: 'monitored elsewhere' });
  });

  it('keeps only reads with --read-only, and refuses a selector that matches nothing', () => {
    const { selected } = selectOperations(operations, { skip: {}, readOnly: true });
    expect(new Set(selected.map((o) => o.method))).toEqual(new Set(['GET']));
    expect(ids(selected)).not.toContain('logout');
    expect(() => selectOperations(operations, { skip: {}, include: ['tag:nonsense'] })).toThrow('no operation of the contract matches "tag:nonsense"');
    expect(() => selectOperations(operations, { skip: {}, exclude: ['verb:GET'] })).toThrow('unknown selector');
  });
});
