// The plans in the contract's examples are what the wizard is built against on the mock: each must keep the
// invariants the server keeps (zones whose µm are their pixels at the plan's scale; spots on their lattice
// positions, with the ids the domain gives them, pixels and µm agreeing, none touching a zone or leaving the
// field or the ring, none closer than the spacing; powers the laser dose times the factor). Examples list only
// a few of a grid's spots, so the spot count is not compared.
import { describe, expect, it } from 'vitest';
import { checkPlan, type CheckedPlan } from '../../src/domain/planning/plan-invariants';
import { loadContract } from './contract-loader';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- example values

/** Every object in the examples that looks like a Plan, with where it was found and the session's laser dose beside it. */
function plansIn(value: unknown, where: string, dose: number | null, found: [string, Json, number | null][]): void {
  if (Array.isArray(value)) value.forEach((item, k) => plansIn(item, `${where}[${k}]`, dose, found));
  else if (value && typeof value === 'object') {
    const object = value as Json;
    // The dose beside a plan: the session's own (Treatment) or its laser settings (a comparison side).
    const beside = typeof object.laserDose === 'number' ? object.laserDose : object.laserSettings?.laserDose;
    const laserDose = typeof beside === 'number' ? beside : dose;
    if ('stepIndex' in object && 'spots' in object && 'exclusionZones' in object) found.push([where, object, laserDose]);
    for (const [key, child] of Object.entries(object)) plansIn(child, `${where}.${key}`, laserDose, found);
  }
}

const found: [string, Json, number | null][] = [];
plansIn(loadContract().paths, 'paths', null, found);

describe('plans in the contract’s examples', () => {
  it('are there to be checked', () => {
    expect(found.length).toBeGreaterThan(15);
  });

  it.each(found.filter(([, plan]) => plan.exclusionZones).map(([where, plan, dose]) => [where, plan, dose] as const))('%s keeps the invariants', (_where, plan, dose) => {
    const withPowers = plan.spots.some((spot: Json) => spot.powerMw != null) && dose !== null;
    const problems = checkPlan({ ...(plan as CheckedPlan), laserDose: dose }, { field: plan.imagedField, powers: withPowers })
      .map((problem) => problem.code)
      .filter((code) => code !== 'plan.spot_count_mismatch');
    expect(problems).toEqual([]);
  });
});
