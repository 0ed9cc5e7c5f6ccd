// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { canonicalPlanStatus, planStatusOf, type PlanState } from './plan-status';

const base: PlanState = { step: 'initial_exclusion_boundaries', processing_state: 'processed', locked: false };

describe('planStatusOf', () => {
  it('reports an issue for a locked session, whatever its step or processing', () => {
    expect(planStatusOf({ ...base, locked: true })).toBe('issue_reported');
    expect(planStatusOf({ step: 'available', processing_state: 'failed', locked: true })).toBe('issue_reported');
  });

  it('follows the processing of the uploaded file', () => {
    expect(planStatusOf({ ...base, processing_state: 'file_uploaded' })).toBe('file_uploaded');
    expect(planStatusOf({ ...base, processing_state: 'processing' })).toBe('processing');
    expect(planStatusOf({ ...base, processing_state: 'failed' })).toBe('no_plan_available');
  });

  it('follows the plan step once the file is processed', () => {
    expect(planStatusOf({ ...base, step: 'available' })).toBe('plan_available');
    expect(planStatusOf({ ...base, step: 'npt_packing' })).toBe('processing');
    for (const step of [
      'initial_exclusion_boundaries',
      'exclusion_boundaries',
      'pre_macula_grid_pattern',
      'macula_grid_pattern',
      'pre_brightness',
      'brightness',
      'confirm_sign_off',
    ]) {
      expect(planStatusOf({ ...base, step }), step).toBe('planning');
    }
  });

  it('lets the processing state win over the step', () => {
    expect(planStatusOf({ step: 'available', processing_state: 'processing', locked: false })).toBe('processing');
  });

  it('reads in_planning as planning', () => {
    expect(canonicalPlanStatus('in_planning')).toBe('planning');
    expect(canonicalPlanStatus('plan_available')).toBe('plan_available');
  });
});
