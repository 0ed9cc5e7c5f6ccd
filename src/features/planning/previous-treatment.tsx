import { useMemo, type ReactNode } from 'react';
import {
  PreviousTreatmentPanel,
  usePreviousTreatment as usePreviousTreatmentState,
} from '@/components/previous-treatment/previous-treatment';
import { OVERLAP_UNCERTAINTY_FACTOR, spotsOverEarlier } from '@/domain/registration/earlier-treatment';
import type { PreviousOverlay } from './plan-canvas';
import type { DrawnSpot } from './plan-scene';

/**
 * The previous treatment of this eye under today's plan (issue 17): the earlier session's spots and zones for
 * the canvas when shown, with today's spots that lie on them (touching, give or take the registration's
 * 99 % uncertainty), and the panel that says which session it is and how many spots overlap.
 */
export function usePreviousTreatment(
  treatmentId: string,
  today: { spots: readonly DrawnSpot[]; spotRadiusPx: number; umPerPixel: number },
): { overlay: PreviousOverlay | null; panel: ReactNode } {
  const state = usePreviousTreatmentState(treatmentId);
  const { registered } = state;
  const overlay = useMemo<PreviousOverlay | null>(() => {
    if (!registered?.registration) return null;
    const earlierRadiusPx = (registered.spotDiameterPx ?? 0) / 2;
    const uncertaintyPx = registered.registration.uncertaintyUm / today.umPerPixel;
    return {
      spots: registered.spots,
      spotRadiusPx: earlierRadiusPx,
      uncertaintyPx,
      zones: registered.exclusionZones,
      // The warning reaches the 99 % radius (the halo drawn shows the stated 90 %).
      over: new Set(spotsOverEarlier(today.spots, registered.spots, today.spotRadiusPx + earlierRadiusPx, uncertaintyPx * OVERLAP_UNCERTAINTY_FACTOR)),
    };
  }, [registered, today.spots, today.spotRadiusPx, today.umPerPixel]);
  return {
    overlay: state.shown ? overlay : null,
    panel: <PreviousTreatmentPanel state={state} overSpots={overlay?.over.size} />,
  };
}
