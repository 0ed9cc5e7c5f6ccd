import type { Plan } from '@generated/model/plan';
import { cssColour, PLAN_STYLE, spotFill, type Line } from '@/domain/planning/plan-style';
import { POWER_COLOURS, spotColourClass } from '@/domain/planning/power-colours';

/** A spot's radius when the plan has no scale to turn its size into pixels. */
const FALLBACK_SPOT_RADIUS_PX = 3;

const { ring: RING, fovea: FOVEA, disc: DISC, spots: SPOTS } = PLAN_STYLE;

/** Circles as one path's data: thousands of spots are a handful of paths, not an element each. */
const circles = (points: readonly { x: number; y: number }[], r: number) =>
  points.map(({ x, y }) => `M${x - r} ${y}a${r} ${r} 0 1 0 ${2 * r} 0a${r} ${r} 0 1 0 ${-2 * r} 0`).join('');

/** A plan style line as SVG attributes, `unit` image pixels per screen pixel. */
const stroke = (line: Line, unit: number) => ({
  fill: 'none',
  stroke: cssColour(line.paint),
  strokeWidth: line.widthPx * unit,
  strokeDasharray: line.dashPx ? `${line.dashPx[0] * unit} ${line.dashPx[1] * unit}` : undefined,
});

/**
 * A plan over its fundus image (an SVG in the image's pixels, the contract's PixelPoint frame), drawn as the
 * planner's canvas and the treatment report draw it (plan-style.ts): the zones, the grid's ring, the spots in
 * their power colours, removed spots, the disc and the fovea. `screenPxPerImagePx` keeps lines a fixed width.
 */
export function PlanOverlay({ plan, spotSizeUm, screenPxPerImagePx }: { plan: Plan; spotSizeUm: number | null | undefined; screenPxPerImagePx: number }) {
  const unit = screenPxPerImagePx > 0 ? 1 / screenPxPerImagePx : 1;
  const zones = plan.exclusionZones ? [plan.exclusionZones.faz, plan.exclusionZones.onh] : [];
  const umPerPixel = plan.scale?.umPerPixel;
  const spotRadius = umPerPixel && spotSizeUm ? spotSizeUm / 2 / umPerPixel : FALLBACK_SPOT_RADIUS_PX;
  const fovea = plan.exclusionZones?.faz.center ?? plan.fovea;
  const ring = plan.gridSettings && fovea && umPerPixel ? [plan.gridSettings.innerRadiusUm, plan.gridSettings.outerRadiusUm].filter((r) => r > 0).map((r) => r / umPerPixel) : [];
  const classes = [-1, ...POWER_COLOURS.keys()].map((colour) => ({
    colour,
    spots: plan.spots.filter((spot) => spot.enabled && spotColourClass(spot.powerFactor, plan.brightness) === colour),
  }));
  const removed = plan.spots.filter((spot) => !spot.enabled);
  const cross = spotRadius * SPOTS.removed.crossFraction;
  const arm = FOVEA.armPx * unit;
  return (
    <>
      {zones.map((zone) => {
        const look = PLAN_STYLE.zones[zone.kind];
        return (
          <ellipse
            key={zone.kind}
            data-zone={zone.kind}
            fill={cssColour(look.fill)}
            stroke={cssColour(look.stroke)}
            strokeWidth={look.widthPx * unit}
            cx={zone.center.x}
            cy={zone.center.y}
            rx={zone.radiusXPx}
            ry={zone.radiusYPx}
            transform={`rotate(${zone.rotationDeg} ${zone.center.x} ${zone.center.y})`}
          />
        );
      })}
      {fovea && ring.map((radius) => <circle key={radius} {...stroke(RING, unit)} cx={fovea.x} cy={fovea.y} r={radius} />)}
      {classes.map(({ colour, spots }) =>
        spots.length ? (
          <path
            key={colour}
            data-spots={colour}
            d={circles(spots, spotRadius)}
            fill={cssColour(spotFill(colour))}
            stroke={cssColour(SPOTS.outline.paint)}
            strokeWidth={SPOTS.outline.widthPx * unit}
          />
        ) : null,
      )}
      {removed.length > 0 && (
        <path
          {...stroke(SPOTS.removed, unit)}
          d={
            circles(removed, spotRadius) +
            removed.map(({ x, y }) => `M${x - cross} ${y - cross}L${x + cross} ${y + cross}M${x + cross} ${y - cross}L${x - cross} ${y + cross}`).join('')
          }
        />
      )}
      {plan.opticDisc && <circle {...stroke(DISC, unit)} cx={plan.opticDisc.center.x} cy={plan.opticDisc.center.y} r={plan.opticDisc.radiusPx} />}
      {fovea && <path {...stroke(FOVEA, unit)} d={`M${fovea.x - arm} ${fovea.y}h${2 * arm}M${fovea.x} ${fovea.y - arm}v${2 * arm}`} />}
    </>
  );
}
