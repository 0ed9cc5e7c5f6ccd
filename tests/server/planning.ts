// The planning wizard's steps as the tests drive them: the zones sent back as proposed, and a session taken
// through steps 1–3 as proposed (to sign-off).
import { expect } from 'vitest';
import type { TestServer } from './helper';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- answers are checked against the contract by `call`

/** The plan's zones as the wizard sends them back (ExclusionZonesInput without the revision). */
export function zonesAsProposed(plan: Body) {
  const shape = (zone: Body) => ({ center: zone.center, radiusXPx: zone.radiusXPx, radiusYPx: zone.radiusYPx, rotationDeg: zone.rotationDeg });
  return { faz: shape(plan.exclusionZones.faz), onh: shape(plan.exclusionZones.onh) };
}

/** Zones, grid and brightness confirmed as proposed, by `token`; the plan at `confirm_sign_off`. */
export async function planToSignOff(server: Pick<TestServer, 'call'>, id: string, token: string): Promise<Body> {
  const proposed = (await server.call<Body>('GET', `/treatments/${id}/plan`, { token })).body.data;
  const zones = await server.call<Body>('POST', `/treatments/${id}/plan/exclusion-zones`, { token, json: { revision: proposed.revision, ...zonesAsProposed(proposed) } });
  const grid = await server.call<Body>('POST', `/treatments/${id}/plan/macula-grid`, { token, json: { revision: zones.body.data.revision, settings: zones.body.data.gridSettings } });
  const brightness = await server.call<Body>('POST', `/treatments/${id}/plan/brightness`, { token, json: { revision: grid.body.data.revision } });
  expect(brightness.status, JSON.stringify(brightness.body)).toBe(200);
  return brightness.body.data;
}
