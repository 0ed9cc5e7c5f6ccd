// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { Case } from './cases';
import { chooseCases } from './run';

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
