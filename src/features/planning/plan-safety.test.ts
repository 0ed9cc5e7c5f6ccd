import { describe, expect, it } from 'vitest';
import type { Plan } from '@generated/model/plan';
import { DEFAULT_CLINICAL_LIMITS } from '@/domain/planning/clinical-limits';
import { proposeExclusionZones } from '@/domain/planning/exclusion-zones';
import { retinaFrame } from '@/domain/planning/frames';
import { gridSurroundings, layOutGrid, type GridSettings, type ImagedField } from '@/domain/planning/macula-grid';
import { brightnessOutliers, checkGrid, previewZones, upperBound, type CheckedSession } from './plan-safety';
import { zoneShape } from './plan-scene';

// A right eye at 10 µm per pixel: the fovea in the middle, the disc 4,760 µm to its right (nasal), 750 µm in radius.
const UM_PER_PX = 10;
const FOVEA = { x: 400, y: 300 };
const DISC = { center: { x: 876, y: 300 }, radiusPx: 75 };
const FIELD: ImagedField = { width: 1000, height: 600, aperture: null };
const SETTINGS: GridSettings = { pattern: 'hexagonal', spotSizeUm: 100, spacing: 2, innerRadiusUm: 600, outerRadiusUm: 3000 };

function session(change: { source?: 'manifest' | 'estimated'; laserMode?: 'continuous' | 'micropulse'; eye?: 'OD' | 'OS'; fazUm?: number } = {}): CheckedSession {
  const scale = { umPerPixel: UM_PER_PX, source: change.source ?? 'manifest' };
  const zones = proposeExclusionZones({ fovea: FOVEA, opticDisc: DISC }, scale);
  if (change.fazUm) zones.faz = { ...zones.faz, radiusXPx: change.fazUm / UM_PER_PX, radiusYPx: change.fazUm / UM_PER_PX, radiusXUm: change.fazUm, radiusYUm: change.fazUm };
  const plan = {
    scale,
    fovea: FOVEA,
    opticDisc: DISC,
    imagedField: FIELD,
    exclusionZones: zones,
    gridSettings: SETTINGS,
    spots: [],
    brightness: null,
    safety: { limits: DEFAULT_CLINICAL_LIMITS, treatmentDevice: null },
  } as unknown as Plan;
  return { eye: change.eye ?? 'OD', plan, laserMode: change.laserMode ?? 'micropulse', pulseDurationMs: 15, dutyCyclePercent: 5, spotSizeUm: 100, spotSpacing: 2 };
}

const drafted = (s: CheckedSession) => ({ faz: zoneShape(s.plan.exclusionZones!.faz), onh: zoneShape(s.plan.exclusionZones!.onh) });
const codes = (problems: { code: string }[]) => problems.map((problem) => problem.code);

function grid(s: CheckedSession, settings: GridSettings, disabled: number[] = []) {
  const spots = layOutGrid(settings, gridSurroundings(retinaFrame(FOVEA, UM_PER_PX), [s.plan.exclusionZones!.faz, s.plan.exclusionZones!.onh], FIELD), disabled);
  return { spots, safety: checkGrid(s, settings, spots, FIELD) };
}

describe('step 1: the zones as the save would take them', () => {
  it('accepts the proposal', () => {
    const s = session();
    expect(previewZones(s, drafted(s), FIELD).problems).toEqual([]);
  });

  it('refuses an ONH zone too small for the disc and its margin, with the margin it keeps', () => {
    const s = session();
    const draft = drafted(s);
    // The disc is 750 µm in radius: a zone of 870 µm keeps 120 µm around its edge, less a last bit of a
    // float, which the server's figure (whole µm, rounded down) rounds away.
    draft.onh = { ...draft.onh, radiusXPx: 87, radiusYPx: 87 };
    expect(previewZones(s, draft, FIELD).problems).toEqual([{ code: 'plan.disc_not_covered', params: { count: 0, marginUm: 600, coveredUm: 119 } }]);
  });

  it('moves the disc with the ONH zone, as the server does', () => {
    const s = session();
    const draft = drafted(s);
    draft.onh = { ...draft.onh, center: { x: draft.onh.center.x + 40, y: draft.onh.center.y - 10 } };
    const preview = previewZones(s, draft, FIELD);
    expect(preview.opticDisc).toEqual({ center: { x: 916, y: 290 }, radiusPx: 75 });
    expect(preview.problems).toEqual([]);
  });

  it('names a disc on the temporal side, and a disc–fovea distance no adult eye has', () => {
    const s = session();
    const draft = drafted(s);
    // The FAZ (the fovea) dragged right of the disc in a right eye.
    draft.faz = { ...draft.faz, center: { x: 960, y: 300 } };
    expect(codes(previewZones(s, draft, FIELD).problems)).toEqual(['plan.laterality_mismatch', 'plan.disc_fovea_implausible']);
    const near = drafted(s);
    near.faz = { ...near.faz, center: { x: 676, y: 300 } };
    expect(previewZones(s, near, FIELD).problems).toEqual([{ code: 'plan.disc_fovea_implausible', params: { count: 0, distanceUm: 2000, minUm: 3760, maxUm: 6530 } }]);
    expect(codes(previewZones(session({ eye: 'OS' }), drafted(s), FIELD).problems)).toEqual(['plan.laterality_mismatch']);
  });

  it('makes an estimated scale again from fovea and disc, so the distance stays plausible', () => {
    const s = session({ source: 'estimated' });
    const near = drafted(s);
    near.faz = { ...near.faz, center: { x: 676, y: 300 } };
    const preview = previewZones(s, near, FIELD);
    expect(preview.scale).toEqual({ umPerPixel: 23.8, source: 'estimated' });
    expect(preview.zones.onh.radiusXUm).toBeCloseTo(preview.zones.onh.radiusXPx * 23.8);
    expect(preview.problems).toEqual([]);
  });
});

describe('step 2: the grid as the save would take it', () => {
  it('accepts the proposed grid', () => {
    const s = session();
    expect(grid(s, SETTINGS).safety).toEqual({ problems: [], nearFovea: new Set() });
  });

  it('counts every treated spot within the foveal minimum, and the closest, when the FAZ is small and the ring starts at 0', () => {
    const s = session({ fazUm: 100 });
    const { spots, safety } = grid(s, { ...SETTINGS, innerRadiusUm: 0 });
    const near = spots.filter((spot) => Math.hypot(spot.xUm, spot.yUm) - 50 < 600);
    expect(near.length).toBeGreaterThan(10);
    expect(safety.problems).toHaveLength(1);
    expect(safety.problems[0].code).toBe('plan.spot_near_fovea');
    expect(safety.problems[0].params).toMatchObject({ count: near.length, minimumUm: 600 });
    // The closest spot edge: hexagonal lattice, 200 µm pitch, so the nearest centres outside the 100 µm FAZ
    // are 200 µm out (the shifted rows' by √(100² + 173.2…²), a hair below), 50 µm spot radius; whole µm down.
    expect(safety.problems[0].params.closestUm).toBe(149);
    expect(safety.nearFovea).toEqual(new Set(near.map((spot) => spot.id)));
  });

  it('lets the user remove the spots too close instead', () => {
    const s = session({ fazUm: 100 });
    const { safety } = grid(s, { ...SETTINGS, innerRadiusUm: 0 });
    expect(grid(s, { ...SETTINGS, innerRadiusUm: 0 }, [...safety.nearFovea]).safety.problems).toEqual([]);
  });

  it('refuses overlapping spots, continuous burns closer than two widths, and a ring beyond 3,000 µm', () => {
    expect(grid(session(), { ...SETTINGS, spacing: 0.9, outerRadiusUm: 1500 }).safety.problems).toEqual([{ code: 'plan.spacing_too_small', params: { count: 0, spacing: 0.9, minimum: 1 } }]);
    expect(grid(session({ laserMode: 'continuous' }), { ...SETTINGS, spacing: 1.5 }).safety.problems).toEqual([{ code: 'plan.spacing_too_small', params: { count: 0, spacing: 1.5, minimum: 2 } }]);
    expect(grid(session(), { ...SETTINGS, outerRadiusUm: 3500, spacing: 3 }).safety.problems).toEqual([{ code: 'plan.ring_too_wide', params: { count: 0, outerRadiusUm: 3500, maxUm: 3000 } }]);
  });
});

describe('step 3: outliers and the upper bound', () => {
  const model = { medianBrightness: 0.4, minFactor: 0.8, maxFactor: 1, gamma: 0.5, ordinaryRange: { min: 0.3, max: 0.5 } };

  it('sorts the treated spots outside ordinary fundus into darker and brighter', () => {
    const spots = [
      { id: 1, enabled: true, brightness: 0.1 },
      { id: 2, enabled: true, brightness: 0.4 },
      { id: 3, enabled: true, brightness: 0.9 },
      { id: 4, enabled: false, brightness: 0.9 },
      { id: 5, enabled: true, brightness: null },
    ];
    expect(brightnessOutliers(spots, model)).toEqual({ dark: new Set([1]), bright: new Set([3]) });
    expect(brightnessOutliers(spots, null)).toEqual({ dark: new Set(), bright: new Set() });
  });

  it('offers a bound above the titrated power to a physician only, confirmed unless it is one a physician chose before', () => {
    const plan = { brightness: { ...model }, safety: undefined };
    expect(upperBound('clinic_nurses', plan, 1)).toEqual({ editable: false, needsConfirmation: false, send: undefined });
    expect(upperBound('clinic_physicians', plan, 1)).toEqual({ editable: true, needsConfirmation: false, send: 1 });
    expect(upperBound('clinic_physicians', plan, 1.2)).toEqual({ editable: true, needsConfirmation: true, send: 1.2 });
    const chosen = { brightness: { ...model, maxFactor: 1.2, aboveTitration: { by: { id: 'u1', name: 'Dr. Anna Weber' }, at: '2026-11-02T09:00:00Z' } }, safety: undefined };
    expect(upperBound('clinic_physicians', chosen, 1.2)).toEqual({ editable: true, needsConfirmation: false, send: undefined });
    expect(upperBound('clinic_physicians', chosen, 1.3)).toEqual({ editable: true, needsConfirmation: true, send: 1.3 });
    expect(upperBound('clinic_nurses', chosen, 1.2)).toEqual({ editable: false, needsConfirmation: false, send: undefined });
  });
});
