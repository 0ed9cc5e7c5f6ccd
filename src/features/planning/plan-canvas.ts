/**
 * The planning canvas: the fundus image with the plan drawn over it, on Konva (docs/architecture.md says why).
 * Imperative on purpose: the React viewer sizes it and hands it the scene; this draws the scene and turns
 * pointer input into callbacks. Geometry arrives in the plan's units (image pixels for the zones, spots with
 * their pixel and µm positions); the only conversion here is the stage's transform from image pixels to the
 * screen, so a stroke keeps its screen width at any zoom.
 *
 * Layers: the image (no events), the spots (one shape drawing every spot in a few paths, no events: a click is
 * found by `spotAt`, not by Konva's hit canvas), and the zones with their markers and the transformer.
 */
import Konva from 'konva/lib/Core';
import { Ellipse } from 'konva/lib/shapes/Ellipse';
import { Image as KonvaImage } from 'konva/lib/shapes/Image';
import { Transformer } from 'konva/lib/shapes/Transformer';
import type { KonvaEventObject } from 'konva/lib/Node';
import { panBy, pinch, wheelZoomFactor, zoomAbout, type ViewTransform, type ViewportPoint } from '@/lib/view-transform';
import type { ZoneShape } from '@/domain/planning/exclusion-zones';
import { POWER_COLOURS } from '@/domain/planning/power-colours';
import { cssColour, PLAN_STYLE, spotFill, zoneLook, type ZoneState } from '@/domain/planning/plan-style';
import { spotAt, type DrawnSpot, type Zones } from './plan-scene';

export type ZoneKind = keyof Zones;

export interface CanvasScene {
  zones: Zones | null;
  zonesEditable: boolean;
  selectedZone: ZoneKind | null;
  /** The optic disc as detected (a marker; the ONH zone is what counts). */
  disc: { center: { x: number; y: number }; radiusPx: number } | null;
  fovea: { x: number; y: number } | null;
  /** The grid's ring around the fovea, image pixels. */
  ring: { innerPx: number; outerPx: number } | null;
  spots: readonly DrawnSpot[];
  spotRadiusPx: number;
  spotsClickable: boolean;
  focusedSpot: number | null;
  /** An earlier session's treatment carried onto this image (issue 17), or null. */
  previous: PreviousOverlay | null;
  /** Spots marked for a reason the step's legend explains (plan-safety.ts), drawn around the spot; null for none. */
  spotMarks: SpotMarks | null;
}

/**
 * Marks around spots: too close to the fovea (step 2), and outside ordinary fundus brightness, darker or brighter
 * (step 3). Each has a shape of its own as well as a colour, so that it reads without colour vision.
 */
export interface SpotMarks {
  nearFovea?: ReadonlySet<number>;
  dark?: ReadonlySet<number>;
  bright?: ReadonlySet<number>;
}

/** An earlier session's spots and zones on today's image, and today's spots that lie on them. */
export interface PreviousOverlay {
  spots: readonly { x: number; y: number }[];
  spotRadiusPx: number;
  /** How far an earlier spot may be off (90 %), image pixels: drawn as a halo around each. */
  uncertaintyPx: number;
  zones: readonly ZoneShape[];
  /** Ids of today's spots that may lie on an earlier one. */
  over: ReadonlySet<number>;
}

export interface CanvasCallbacks {
  /** The canvas moved its view (pan, wheel, pinch); it has already drawn it, the viewer follows. */
  onView(view: ViewTransform): void;
  /** A zone moved or resized; `final` at the end of the drag. */
  onZone(kind: ZoneKind, shape: ZoneShape, final: boolean): void;
  onSelectZone(kind: ZoneKind | null): void;
  onSpot(id: number): void;
  /** The pointer's image point, or null when it left the image. */
  onPointer(point: { x: number; y: number } | null): void;
}

export const EMPTY_SCENE: CanvasScene = {
  zones: null,
  zonesEditable: false,
  selectedZone: null,
  disc: null,
  fovea: null,
  ring: null,
  spots: [],
  spotRadiusPx: 0,
  spotsClickable: false,
  focusedSpot: null,
  previous: null,
  spotMarks: null,
};

/** A scene with only what a step shows; the rest as in EMPTY_SCENE. */
export const sceneOf = (parts: Partial<CanvasScene>): CanvasScene => ({ ...EMPTY_SCENE, ...parts });

/**
 * A zone node's look in a state of editing, as Konva takes it: the plan style's (plan-style.ts), its line in
 * screen pixels at any zoom (the node does not scale its stroke).
 */
export function zoneAttrs(kind: ZoneKind, state: ZoneState = 'idle'): { stroke: string; fill: string; strokeWidth: number } {
  const look = zoneLook(kind === 'faz' ? 'FAZ' : 'ONH', state);
  return { stroke: cssColour(look.stroke), fill: cssColour(look.fill), strokeWidth: look.widthPx };
}

// The plan style's colours as the 2D context takes them, once: the spots are drawn in every frame of a drag.
const SPOT_FILLS = [-1, ...POWER_COLOURS.keys()].map((colour) => cssColour(spotFill(colour)));
const { ring: RING, fovea: FOVEA, disc: DISC, spots: SPOTS, spotMarks: SPOT_MARKS, previous: PREVIOUS, handles: HANDLES } = PLAN_STYLE;
const SPOT_OUTLINE = cssColour(SPOTS.outline.paint);
const REMOVED_SPOT = cssColour(SPOTS.removed.paint);
const FOCUS = cssColour(SPOTS.focus.paint);
const PREVIOUS_STROKE = cssColour(PREVIOUS.stroke);
const PREVIOUS_HALO = cssColour(PREVIOUS.halo);
/** Marks around spots (SpotMarks), in the plan style's colours; the steps' legends show them. */
export const MARK_COLOURS = {
  nearFovea: cssColour(SPOT_MARKS.nearFovea.fill),
  dark: cssColour(SPOT_MARKS.dark.paint),
  bright: cssColour(SPOT_MARKS.bright.paint),
} as const;
/** A pointer that moved less than this (screen px) between down and up clicked. */
const CLICK_SLOP_PX = 4;
/** Extra reach of a click around a small spot, screen px. */
const SPOT_SLACK_PX = 3;
const MIN_ZONE_PX = 2;
/** Set by `npm run bench:planner` before the page loads. */
export const PROFILE = Boolean((globalThis as { __MP_PROFILE__?: boolean }).__MP_PROFILE__);

export class PlanCanvas {
  private readonly stage: Konva.Stage;
  private readonly imageNode = new KonvaImage({ image: undefined, listening: false });
  private readonly spotShape: Konva.Shape;
  private readonly zoneNodes: Record<ZoneKind, Ellipse>;
  private readonly markers: Konva.Shape;
  private readonly transformer: Transformer;
  private readonly zoneLayer = new Konva.Layer();
  private readonly imageLayer = new Konva.Layer({ listening: false });
  private readonly spotLayer = new Konva.Layer({ listening: false });
  private scene: CanvasScene = EMPTY_SCENE;
  private view: ViewTransform = { scale: 1, x: 0, y: 0 };
  private imageWidth = 1;
  private width = 1;
  private height = 1;
  private pan: { last: ViewportPoint; start: ViewportPoint; moved: boolean } | null = null;
  /** The editable zone under the pointer, drawn in its hover state. */
  private hovered: ZoneKind | null = null;
  private touches: [ViewportPoint, ViewportPoint] | null = null;

  constructor(container: HTMLDivElement, private readonly callbacks: CanvasCallbacks) {
    this.stage = new Konva.Stage({ container, width: 1, height: 1 });
    this.imageLayer.add(this.imageNode);
    this.spotShape = new Konva.Shape({ listening: false, perfectDrawEnabled: false, sceneFunc: (context) => this.drawSpots(context._context) });
    this.spotLayer.add(this.spotShape);
    this.zoneNodes = { faz: this.zoneNode('faz'), onh: this.zoneNode('onh') };
    this.markers = new Konva.Shape({ listening: false, sceneFunc: (context) => this.drawMarkers(context._context) });
    this.transformer = new Transformer({
      ignoreStroke: true,
      flipEnabled: false,
      anchorSize: HANDLES.sizePx,
      anchorStroke: cssColour(HANDLES.stroke),
      anchorFill: cssColour(HANDLES.fill),
      borderStroke: cssColour(HANDLES.stroke),
      borderDash: [...HANDLES.borderDashPx],
      rotateAnchorOffset: HANDLES.rotateOffsetPx,
      boundBoxFunc: (before, after) => (Math.abs(after.width) < MIN_ZONE_PX || Math.abs(after.height) < MIN_ZONE_PX ? before : after),
    });
    this.zoneLayer.add(this.zoneNodes.onh, this.zoneNodes.faz, this.markers, this.transformer);
    this.stage.add(this.imageLayer, this.spotLayer, this.zoneLayer);
    this.listen();
    if (PROFILE) {
      // npm run bench:planner: User Timing marks around each layer's drawing, to time the frames of a drag.
      for (const layer of [this.imageLayer, this.spotLayer, this.zoneLayer]) {
        layer.on('beforeDraw', () => performance.mark('mp:draw-start'));
        layer.on('draw', () => performance.mark('mp:draw-end'));
      }
    }
  }

  /** The native canvas of the image layer: the viewer filters it with CSS (brightness, contrast, red-free). */
  get imageCanvas(): HTMLCanvasElement {
    return this.imageLayer.getNativeCanvasElement();
  }

  setImage(image: CanvasImageSource | null, width: number, height: number) {
    this.imageWidth = width;
    this.imageNode.setAttrs({ image: image ?? undefined, width, height });
    this.applyTransform();
  }

  setSize(width: number, height: number) {
    this.width = width;
    this.height = height;
    this.stage.size({ width, height });
    this.applyTransform();
  }

  setView(view: ViewTransform) {
    if (PROFILE) performance.mark('mp:view-applied');
    if (view.scale === this.view.scale && view.x === this.view.x && view.y === this.view.y) return;
    this.view = view;
    this.applyTransform();
  }

  /**
   * A view change from the pointer is drawn at once, without waiting for React: the image follows the hand in
   * the same frame. The viewer hears of it afterwards (zoom figure, scale bar, handles).
   */
  private changeView(change: (view: ViewTransform) => ViewTransform) {
    this.view = change(this.view);
    this.applyTransform();
    this.callbacks.onView(this.view);
  }

  setScene(scene: CanvasScene) {
    this.scene = scene;
    for (const kind of ['faz', 'onh'] as const) {
      const node = this.zoneNodes[kind];
      const zone = scene.zones?.[kind];
      node.visible(Boolean(zone));
      if (zone && !node.isDragging() && !this.transformer.isTransforming()) {
        node.setAttrs({ x: zone.center.x, y: zone.center.y, radiusX: zone.radiusXPx, radiusY: zone.radiusYPx, rotation: zone.rotationDeg ?? 0, scaleX: 1, scaleY: 1 });
      }
      node.draggable(scene.zonesEditable);
    }
    const selected = scene.zonesEditable && scene.selectedZone && scene.zones ? this.zoneNodes[scene.selectedZone] : null;
    // Re-attaching the transformer would cut short a resize in progress: only a change of selection does it.
    if (selected !== (this.transformer.nodes()[0] ?? null)) this.select(selected);
    this.restyleZones();
    this.stage.container().style.cursor = scene.spotsClickable ? 'crosshair' : 'grab';
    this.stage.batchDraw();
  }

  private select(selected: Ellipse | null) {
    if (selected) {
      const isOnh = selected === this.zoneNodes.onh;
      // The FAZ is a circle around the fovea: it only grows or shrinks; the ONH is an ellipse that may turn.
      this.transformer.setAttrs({
        rotateEnabled: isOnh,
        keepRatio: !isOnh,
        centeredScaling: !isOnh,
        enabledAnchors: isOnh ? ['top-center', 'middle-left', 'middle-right', 'bottom-center', 'top-left', 'top-right', 'bottom-left', 'bottom-right'] : ['top-left', 'top-right', 'bottom-left', 'bottom-right'],
      });
    }
    this.transformer.nodes(selected ? [selected] : []);
  }

  /** Each zone in its state: selected (the transformer is on it), under the pointer while editable, or idle. */
  private restyleZones() {
    const selected = this.transformer.nodes()[0] ?? null;
    for (const kind of ['faz', 'onh'] as const) {
      const node = this.zoneNodes[kind];
      const state: ZoneState = node === selected ? 'selected' : this.scene.zonesEditable && this.hovered === kind ? 'hover' : 'idle';
      node.setAttrs(zoneAttrs(kind, state));
    }
  }

  /** Screen pixels per image pixel at the current zoom. */
  get screenScale(): number {
    return (this.width / this.imageWidth) * this.view.scale;
  }

  destroy() {
    this.stage.destroy();
  }

  private applyTransform() {
    const scale = this.screenScale;
    this.stage.scale({ x: scale, y: scale });
    this.stage.position({ x: this.view.x, y: this.view.y });
    this.stage.batchDraw();
  }

  private zoneNode(kind: ZoneKind): Ellipse {
    const node = new Ellipse({
      radiusX: 1,
      radiusY: 1,
      ...zoneAttrs(kind),
      strokeScaleEnabled: false,
      visible: false,
      name: kind,
    });
    const report = (final: boolean) => this.callbacks.onZone(kind, shapeOf(node), final);
    node.on('dragmove', () => report(false));
    node.on('dragend', () => report(true));
    node.on('transform', () => report(false));
    node.on('transformend', () => report(true));
    node.on('pointerdown', () => {
      if (this.scene.zonesEditable) this.callbacks.onSelectZone(kind);
    });
    node.on('mouseenter', () => {
      this.hovered = kind;
      if (!this.scene.zonesEditable) return;
      this.stage.container().style.cursor = 'move';
      this.restyleZones();
    });
    node.on('mouseleave', () => {
      this.hovered = null;
      this.stage.container().style.cursor = this.scene.spotsClickable ? 'crosshair' : 'grab';
      this.restyleZones();
    });
    return node;
  }

  private viewportPoint(): ViewportPoint | null {
    return this.stage.getPointerPosition();
  }

  private imagePointOf(point: ViewportPoint) {
    const scale = this.screenScale;
    return { x: (point.x - this.view.x) / scale, y: (point.y - this.view.y) / scale };
  }

  private listen() {
    const stage = this.stage;
    stage.on('wheel', (event: KonvaEventObject<WheelEvent>) => {
      event.evt.preventDefault();
      const point = this.viewportPoint();
      if (!point) return;
      const factor = wheelZoomFactor(event.evt.deltaY, event.evt.deltaMode);
      this.changeView((view) => zoomAbout(view, factor, point.x, point.y, this.width, this.height));
    });
    stage.on('pointerdown', (event: KonvaEventObject<PointerEvent>) => {
      // On an editable zone the pointer drags the zone; anywhere else (a zone shown read-only too) it pans.
      const onZone = event.target === this.zoneNodes.faz || event.target === this.zoneNodes.onh;
      if (onZone ? this.scene.zonesEditable : event.target !== stage) return;
      const point = this.viewportPoint();
      if (!point || event.evt.button > 0) return;
      this.pan = { last: point, start: point, moved: false };
      if (this.scene.selectedZone) this.callbacks.onSelectZone(null);
    });
    stage.on('pointermove', () => {
      const point = this.viewportPoint();
      if (!point) return;
      this.callbacks.onPointer(this.imagePointOf(point));
      const pan = this.pan;
      if (!pan || this.touches) return;
      if (!pan.moved && Math.hypot(point.x - pan.start.x, point.y - pan.start.y) < CLICK_SLOP_PX) return;
      pan.moved = true;
      const dx = point.x - pan.last.x;
      const dy = point.y - pan.last.y;
      pan.last = point;
      this.stage.container().style.cursor = 'grabbing';
      if (PROFILE) performance.mark('mp:input-start');
      this.changeView((view) => panBy(view, dx, dy, this.width, this.height));
      if (PROFILE) performance.mark('mp:input-end');
    });
    stage.on('pointerup pointercancel', () => {
      const pan = this.pan;
      this.pan = null;
      if (!pan) return;
      this.stage.container().style.cursor = this.scene.spotsClickable ? 'crosshair' : 'grab';
      if (pan.moved || !this.scene.spotsClickable) return;
      const at = this.imagePointOf(pan.start);
      const id = spotAt(this.scene.spots, at.x, at.y, this.scene.spotRadiusPx, SPOT_SLACK_PX / this.screenScale);
      if (id !== null) this.callbacks.onSpot(id);
    });
    stage.on('pointerleave', () => this.callbacks.onPointer(null));
    // Two fingers pinch-zoom; Konva reports touches on the stage.
    stage.on('touchmove', (event: KonvaEventObject<TouchEvent>) => {
      const touches = event.evt.touches;
      if (touches.length !== 2) {
        this.touches = null;
        return;
      }
      event.evt.preventDefault();
      const box = stage.container().getBoundingClientRect();
      const now: [ViewportPoint, ViewportPoint] = [
        { x: touches[0].clientX - box.left, y: touches[0].clientY - box.top },
        { x: touches[1].clientX - box.left, y: touches[1].clientY - box.top },
      ];
      const before = this.touches;
      this.touches = now;
      if (before) this.changeView((view) => pinch(view, before, now, this.width, this.height));
    });
    stage.on('touchend', () => {
      this.touches = null;
    });
  }

  /** Every spot in one path per colour: thousands of arcs cost a few milliseconds, not a node each. */
  private drawSpots(ctx: CanvasRenderingContext2D) {
    const { spots, spotRadiusPx: r, ring, fovea, focusedSpot } = this.scene;
    const pixel = 1 / this.screenScale;
    if (ring && fovea) {
      ctx.save();
      ctx.setLineDash([RING.dashPx[0] * pixel, RING.dashPx[1] * pixel]);
      ctx.lineWidth = RING.widthPx * pixel;
      ctx.strokeStyle = cssColour(RING.paint);
      for (const radius of [ring.innerPx, ring.outerPx]) {
        if (radius <= 0) continue;
        ctx.beginPath();
        ctx.arc(fovea.x, fovea.y, radius, 0, Math.PI * 2);
        ctx.stroke();
      }
      ctx.restore();
    }
    this.drawPrevious(ctx, pixel);
    if (!spots.length) return;
    const classes = POWER_COLOURS.length;
    for (let colour = -1; colour < classes; colour++) {
      ctx.beginPath();
      let any = false;
      for (const spot of spots) {
        if (!spot.enabled || spot.colour !== colour) continue;
        ctx.moveTo(spot.x + r, spot.y);
        ctx.arc(spot.x, spot.y, r, 0, Math.PI * 2);
        any = true;
      }
      if (!any) continue;
      ctx.fillStyle = SPOT_FILLS[colour + 1];
      ctx.fill();
      ctx.lineWidth = SPOTS.outline.widthPx * pixel;
      ctx.strokeStyle = SPOT_OUTLINE;
      ctx.stroke();
    }
    // Removed spots: a hollow ring with a cross, so they read as "not treated" without colour.
    ctx.beginPath();
    for (const spot of spots) {
      if (spot.enabled) continue;
      ctx.moveTo(spot.x + r, spot.y);
      ctx.arc(spot.x, spot.y, r, 0, Math.PI * 2);
      const d = r * SPOTS.removed.crossFraction;
      ctx.moveTo(spot.x - d, spot.y - d);
      ctx.lineTo(spot.x + d, spot.y + d);
      ctx.moveTo(spot.x + d, spot.y - d);
      ctx.lineTo(spot.x - d, spot.y + d);
    }
    ctx.lineWidth = SPOTS.removed.widthPx * pixel;
    ctx.strokeStyle = REMOVED_SPOT;
    ctx.stroke();
    this.drawMarks(ctx, pixel);
    const over = this.scene.previous?.over;
    if (over?.size) {
      // Today's spots on earlier ones: a ring in the previous treatment's colour around each.
      const ringR = r + PREVIOUS.over.gapPx * pixel;
      ctx.beginPath();
      for (const spot of spots) {
        if (!spot.enabled || !over.has(spot.id)) continue;
        ctx.moveTo(spot.x + ringR, spot.y);
        ctx.arc(spot.x, spot.y, ringR, 0, Math.PI * 2);
      }
      ctx.lineWidth = PREVIOUS.over.widthPx * pixel;
      ctx.strokeStyle = PREVIOUS_STROKE;
      ctx.stroke();
    }
    if (focusedSpot !== null) {
      const spot = spots.find((candidate) => candidate.id === focusedSpot);
      if (spot) {
        ctx.beginPath();
        ctx.arc(spot.x, spot.y, r + SPOTS.focus.gapPx * pixel, 0, Math.PI * 2);
        ctx.lineWidth = SPOTS.focus.widthPx * pixel;
        ctx.strokeStyle = FOCUS;
        ctx.stroke();
      }
    }
  }

  /**
   * The marked spots (SpotMarks), as the plan style draws them: too close to the fovea, a filled spot with a ring
   * (the spot is not to be lasered as planned); darker than ordinary fundus, a ring; brighter, a square, which
   * stands out on the bright fundus such spots lie on. A few pixels out from the spot, so its power colour stays visible.
   */
  private drawMarks(ctx: CanvasRenderingContext2D, pixel: number) {
    const marks = this.scene.spotMarks;
    if (!marks) return;
    const { spots, spotRadiusPx: r } = this.scene;
    const { nearFovea, dark, bright } = marks;
    const gap = r + SPOT_MARKS.gapPx * pixel;
    if (nearFovea?.size) {
      ctx.beginPath();
      for (const spot of spots) {
        if (!spot.enabled || !nearFovea.has(spot.id)) continue;
        ctx.moveTo(spot.x + r, spot.y);
        ctx.arc(spot.x, spot.y, r, 0, Math.PI * 2);
      }
      ctx.fillStyle = MARK_COLOURS.nearFovea;
      ctx.fill();
      ctx.beginPath();
      for (const spot of spots) {
        if (!spot.enabled || !nearFovea.has(spot.id)) continue;
        ctx.moveTo(spot.x + gap, spot.y);
        ctx.arc(spot.x, spot.y, gap, 0, Math.PI * 2);
      }
      ctx.lineWidth = SPOT_MARKS.nearFovea.ring.widthPx * pixel;
      ctx.strokeStyle = cssColour(SPOT_MARKS.nearFovea.ring.paint);
      ctx.stroke();
    }
    if (dark?.size) {
      ctx.beginPath();
      for (const spot of spots) {
        if (!spot.enabled || !dark.has(spot.id)) continue;
        ctx.moveTo(spot.x + gap, spot.y);
        ctx.arc(spot.x, spot.y, gap, 0, Math.PI * 2);
      }
      ctx.lineWidth = SPOT_MARKS.dark.widthPx * pixel;
      ctx.strokeStyle = MARK_COLOURS.dark;
      ctx.stroke();
    }
    if (bright?.size) {
      ctx.beginPath();
      for (const spot of spots) {
        if (!spot.enabled || !bright.has(spot.id)) continue;
        ctx.rect(spot.x - gap, spot.y - gap, 2 * gap, 2 * gap);
      }
      ctx.lineWidth = SPOT_MARKS.bright.widthPx * pixel;
      ctx.strokeStyle = MARK_COLOURS.bright;
      ctx.stroke();
    }
  }

  /**
   * The previous treatment under today's plan: each earlier spot's halo of uncertainty (one path), its outline,
   * and the earlier zones dashed, all in one colour of their own.
   */
  private drawPrevious(ctx: CanvasRenderingContext2D, pixel: number) {
    const previous = this.scene.previous;
    if (!previous) return;
    const { spots, spotRadiusPx: r, uncertaintyPx: u } = previous;
    ctx.save();
    ctx.beginPath();
    for (const spot of spots) {
      ctx.moveTo(spot.x + r + u, spot.y);
      ctx.arc(spot.x, spot.y, r + u, 0, Math.PI * 2);
    }
    ctx.fillStyle = PREVIOUS_HALO;
    ctx.fill('nonzero');
    ctx.beginPath();
    for (const spot of spots) {
      ctx.moveTo(spot.x + r, spot.y);
      ctx.arc(spot.x, spot.y, r, 0, Math.PI * 2);
    }
    ctx.lineWidth = PREVIOUS.widthPx * pixel;
    ctx.strokeStyle = PREVIOUS_STROKE;
    ctx.stroke();
    ctx.setLineDash([PREVIOUS.zoneDashPx[0] * pixel, PREVIOUS.zoneDashPx[1] * pixel]);
    for (const zone of previous.zones) {
      ctx.beginPath();
      ctx.ellipse(zone.center.x, zone.center.y, zone.radiusXPx, zone.radiusYPx, ((zone.rotationDeg ?? 0) * Math.PI) / 180, 0, Math.PI * 2);
      ctx.stroke();
    }
    ctx.restore();
  }

  /** The fovea's cross and the detected disc's outline, a fixed size on screen. */
  private drawMarkers(ctx: CanvasRenderingContext2D) {
    const pixel = 1 / this.screenScale;
    const fovea = this.scene.zones?.faz.center ?? this.scene.fovea;
    if (fovea) {
      const arm = FOVEA.armPx * pixel;
      ctx.beginPath();
      ctx.moveTo(fovea.x - arm, fovea.y);
      ctx.lineTo(fovea.x + arm, fovea.y);
      ctx.moveTo(fovea.x, fovea.y - arm);
      ctx.lineTo(fovea.x, fovea.y + arm);
      ctx.lineWidth = FOVEA.widthPx * pixel;
      ctx.strokeStyle = cssColour(FOVEA.paint);
      ctx.stroke();
    }
    const disc = this.scene.disc;
    if (disc) {
      ctx.beginPath();
      ctx.setLineDash([DISC.dashPx[0] * pixel, DISC.dashPx[1] * pixel]);
      ctx.arc(disc.center.x, disc.center.y, disc.radiusPx, 0, Math.PI * 2);
      ctx.lineWidth = DISC.widthPx * pixel;
      ctx.strokeStyle = cssColour(DISC.paint);
      ctx.stroke();
      ctx.setLineDash([]);
    }
  }
}

/** A zone node's geometry as the plan keeps it: centre, radii with the transformer's scale applied, rotation. */
function shapeOf(node: Ellipse): ZoneShape {
  return {
    center: { x: node.x(), y: node.y() },
    radiusXPx: node.radiusX() * Math.abs(node.scaleX()),
    radiusYPx: node.radiusY() * Math.abs(node.scaleY()),
    rotationDeg: normaliseDegrees(node.rotation()),
  };
}

/** Degrees in (−180, 180], as the contract has them. */
export function normaliseDegrees(degrees: number): number {
  const turned = ((((degrees + 180) % 360) + 360) % 360) - 180;
  return turned === -180 ? 180 : turned;
}
