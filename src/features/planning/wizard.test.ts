import { describe, expect, it } from 'vitest';
import type { Treatment } from '@generated/model/treatment';
import { currentStep, openedStep, readOnlyReason, resetsWhenConfirming } from './wizard';

type Session = Pick<Treatment, 'planStatus' | 'error' | 'plan' | 'locked'>;
const session = (stepIndex: number, overrides: Partial<Session> = {}): Session => ({
  planStatus: 'planning',
  error: null,
  locked: false,
  plan: { stepIndex, fovea: { x: 1, y: 1 }, scale: { umPerPixel: 10, source: 'manifest' }, parameterSet: null } as Treatment['plan'],
  ...overrides,
});

describe('wizard steps', () => {
  it('maps the server steps 0–8 onto wizard steps 1–5', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 8].map((index) => currentStep(session(index)))).toEqual([1, 1, 2, 2, 3, 3, 4, 5, 5]);
  });

  it('stays at step 0 while processing runs or after it failed', () => {
    expect(currentStep(session(0, { planStatus: 'processing' }))).toBe(0);
    expect(currentStep(session(0, { planStatus: 'file_uploaded' }))).toBe(0);
    expect(currentStep(session(0, { error: { code: 'npt.detection_failed', message: 'x' } }))).toBe(0);
    expect(currentStep(session(0, { plan: { ...session(0).plan, fovea: null } }))).toBe(0);
    // Packing the parameter set also reads as "processing", but it is step 5.
    expect(currentStep(session(7, { planStatus: 'processing' }))).toBe(5);
  });

  it('opens a step up to the current one, never one ahead or a made-up one', () => {
    expect(openedStep(null, 3)).toBe(3);
    expect(openedStep('1', 3)).toBe(1);
    expect(openedStep('4', 3)).toBe(3);
    for (const junk of ['', '-1', '1.5', '9', 'abc', '2 ', '０']) expect(openedStep(junk, 3)).toBe(3);
  });

  it('names what confirming an earlier step again throws away', () => {
    expect(resetsWhenConfirming(1, 2)).toEqual([]);
    expect(resetsWhenConfirming(1, 3)).toEqual(['grid']);
    expect(resetsWhenConfirming(1, 6)).toEqual(['grid', 'brightness']);
    expect(resetsWhenConfirming(2, 6)).toEqual(['brightness']);
    expect(resetsWhenConfirming(3, 6)).toEqual([]);
  });

  it('makes a locked, signed or processing plan read-only', () => {
    expect(readOnlyReason(session(2))).toBeNull();
    expect(readOnlyReason(session(2, { locked: true }))).toBe('locked');
    expect(readOnlyReason(session(7))).toBe('signed');
    expect(readOnlyReason(session(0, { planStatus: 'processing' }))).toBe('processing');
  });
});
