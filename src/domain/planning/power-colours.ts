// The colour classes of spot power, shared by the planning canvas and the treatment report so that both show
// a plan in the same colours.
import type { BrightnessModel } from './brightness';

/**
 * Power colours, darkest-fundus (least power) to brightest (most power): the viridis ramp, readable for the
 * common colour-vision deficiencies and distinct from the red and amber of the exclusion zones.
 */
export const POWER_COLOURS = ['#440154', '#46327e', '#365c8d', '#277f8e', '#1fa187', '#4ac16d', '#a0da39', '#fde725'] as const;

/** The colour class of `factor` within the model's bounds. */
export function powerColour(factor: number, model: Pick<BrightnessModel, 'minFactor' | 'maxFactor'>): number {
  const span = model.maxFactor - model.minFactor;
  if (!(span > 0)) return Math.floor(POWER_COLOURS.length / 2);
  const t = (factor - model.minFactor) / span;
  return Math.min(POWER_COLOURS.length - 1, Math.max(0, Math.floor(t * POWER_COLOURS.length)));
}

/** A spot's colour class: its factor's, or −1 without a factor or a model (before the brightness step). */
export function spotColourClass(powerFactor: number | null | undefined, model: Pick<BrightnessModel, 'minFactor' | 'maxFactor'> | null | undefined): number {
  return model && powerFactor != null ? powerColour(powerFactor, model) : -1;
}

/** The factor range each colour class stands for, for the legend. */
export function powerLegend(model: Pick<BrightnessModel, 'minFactor' | 'maxFactor'>): { colour: string; from: number; to: number }[] {
  const step = (model.maxFactor - model.minFactor) / POWER_COLOURS.length;
  return POWER_COLOURS.map((colour, k) => ({ colour, from: model.minFactor + k * step, to: model.minFactor + (k + 1) * step }));
}
