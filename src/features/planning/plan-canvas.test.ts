import { describe, expect, it } from 'vitest';
import { cssColour, PLAN_STYLE } from '@/domain/planning/plan-style';
import { zoneAttrs } from './plan-canvas';

describe('the planning canvas’s zones', () => {
  it('are drawn in the plan style, a zone under the pointer with a stronger inside and a selected one with a wider line', () => {
    const faz = PLAN_STYLE.zones.FAZ;
    expect(zoneAttrs('faz')).toEqual({ stroke: cssColour(faz.stroke), fill: cssColour(faz.fill), strokeWidth: faz.widthPx });
    expect(zoneAttrs('onh').stroke).toBe(cssColour(PLAN_STYLE.zones.ONH.stroke));
    const hover = zoneAttrs('faz', 'hover');
    const selected = zoneAttrs('faz', 'selected');
    expect(hover).toEqual({ ...zoneAttrs('faz'), fill: cssColour({ ...faz.fill, alpha: PLAN_STYLE.zoneStates.hoverFillAlpha }) });
    expect(selected).toEqual({ ...hover, strokeWidth: PLAN_STYLE.zoneStates.selectedWidthPx });
    expect(selected.strokeWidth).toBeGreaterThan(faz.widthPx);
  });
});
