// Drawing a mark with the pointer, as a pure state machine over image pixels: the overlay turns pointer and key
// events into `DrawEvent`s (already in the image's frame, with a tolerance of a few screen pixels converted to
// image pixels), and draws `draftShape` of the state. Nothing here knows the screen, React or the server.
import { distancePx, type ImageSize, type MarkKind, type MarkPoint, type MarkShape } from '@/domain/annotations/mark-shape';

export type DrawTool = MarkKind;

export type DrawState =
  | { readonly phase: 'idle'; readonly pointer: MarkPoint | null }
  /** A line or circle whose second point follows the pointer: pressed and dragged, or clicked once. */
  | { readonly phase: 'dragging' | 'placing'; readonly anchor: MarkPoint; readonly pointer: MarkPoint }
  /** A polygon's vertices so far, and the pointer where the next one would go. */
  | { readonly phase: 'polygon'; readonly points: readonly MarkPoint[]; readonly pointer: MarkPoint | null }
  /** Finished: the shape waits for its label. */
  | { readonly phase: 'done'; readonly shape: MarkShape };

export type DrawEvent =
  | { readonly type: 'down' | 'move' | 'up'; readonly at: MarkPoint }
  /** Double-click or Enter: closes a polygon. */
  | { readonly type: 'close' }
  /** Backspace: takes back a polygon's last vertex. */
  | { readonly type: 'undo' }
  /** Escape, or another tool: drops what is being drawn. */
  | { readonly type: 'cancel' };

export const IDLE: DrawState = { phase: 'idle', pointer: null };

/** Screen pixels within which a click closes a polygon on its first vertex or counts as not having moved. */
export const TOLERANCE_SCREEN_PX = 6;

export interface DrawContext {
  readonly tool: DrawTool;
  readonly image: ImageSize;
  /** TOLERANCE_SCREEN_PX in image pixels at the current zoom. */
  readonly tolerancePx: number;
}

const clampPoint = ({ x, y }: MarkPoint, { width, height }: ImageSize): MarkPoint => ({
  x: Math.min(width, Math.max(0, x)),
  y: Math.min(height, Math.max(0, y)),
});

/** A circle about `center` through `edge`, made smaller where it would leave the image. */
function circleThrough(center: MarkPoint, edge: MarkPoint, { width, height }: ImageSize): MarkShape {
  const room = Math.min(center.x, center.y, width - center.x, height - center.y);
  return { kind: 'circle', center, radiusPx: Math.min(distancePx(center, edge), room) };
}

function twoPointShape(tool: DrawTool, anchor: MarkPoint, pointer: MarkPoint, image: ImageSize): MarkShape {
  return tool === 'circle' ? circleThrough(anchor, pointer, image) : { kind: 'line', start: anchor, end: pointer };
}

/** Vertices without the repeats a double-click leaves at its end (within the tolerance). */
function withoutRepeats(points: readonly MarkPoint[], tolerancePx: number): MarkPoint[] {
  const kept: MarkPoint[] = [];
  for (const point of points) if (!kept.length || distancePx(kept[kept.length - 1], point) > tolerancePx) kept.push(point);
  return kept;
}

function closePolygon(points: readonly MarkPoint[], tolerancePx: number): DrawState | null {
  const vertices = withoutRepeats(points, tolerancePx);
  if (vertices.length > 1 && distancePx(vertices[0], vertices[vertices.length - 1]) <= tolerancePx) vertices.pop();
  return vertices.length >= 3 ? { phase: 'done', shape: { kind: 'polygon', points: vertices } } : null;
}

/** The next state of a drawing after an event. */
export function drawStep(state: DrawState, event: DrawEvent, { tool, image, tolerancePx }: DrawContext): DrawState {
  if (event.type === 'cancel') return IDLE;
  if (state.phase === 'done') return state;
  const at = 'at' in event ? clampPoint(event.at, image) : null;
  switch (state.phase) {
    case 'idle':
      if (event.type === 'move') return { phase: 'idle', pointer: at };
      if (event.type !== 'down' || !at) return state;
      if (tool === 'point') return { phase: 'done', shape: { kind: 'point', at } };
      if (tool === 'polygon') return { phase: 'polygon', points: [at], pointer: at };
      return { phase: 'dragging', anchor: at, pointer: at };
    case 'dragging':
    case 'placing': {
      if (!at) return state;
      const far = distancePx(state.anchor, at) > tolerancePx;
      if (event.type === 'move') return { ...state, pointer: at };
      // Released after a drag, or clicked the second point: done. Released where it was pressed: the second
      // point follows the pointer until the next click.
      if ((event.type === 'up' && state.phase === 'dragging') || (event.type === 'down' && state.phase === 'placing')) {
        if (far) return { phase: 'done', shape: twoPointShape(tool, state.anchor, at, image) };
        return { phase: 'placing', anchor: state.anchor, pointer: at };
      }
      return state;
    }
    case 'polygon': {
      if (event.type === 'close') return closePolygon(state.points, tolerancePx) ?? state;
      if (event.type === 'undo') return state.points.length > 1 ? { ...state, points: state.points.slice(0, -1) } : IDLE;
      if (!at) return state;
      if (event.type === 'move') return { ...state, pointer: at };
      if (event.type !== 'down') return state;
      // A click on the first vertex closes the outline.
      if (state.points.length >= 3 && distancePx(state.points[0], at) <= tolerancePx) return closePolygon(state.points, tolerancePx) ?? state;
      return { phase: 'polygon', points: [...state.points, at], pointer: at };
    }
  }
}

/**
 * The shape as it would be now, for the drawing and its live figures: a line or circle to the pointer, a
 * polygon with the pointer as its next vertex. Null while nothing is being drawn.
 */
export function draftShape(state: DrawState, tool: DrawTool, image: ImageSize): MarkShape | null {
  switch (state.phase) {
    case 'idle':
      return null;
    case 'done':
      return state.shape;
    case 'dragging':
    case 'placing':
      return twoPointShape(tool, state.anchor, state.pointer, image);
    case 'polygon': {
      const last = state.points[state.points.length - 1];
      const pointer = state.pointer && distancePx(last, state.pointer) > 0 ? [state.pointer] : [];
      return { kind: 'polygon', points: [...state.points, ...pointer] };
    }
  }
}

/**
 * The draft as far as it measures anything: an area only from three corners on (two enclose nothing, and their
 * "outline" would be the line twice).
 */
export function measurableDraft(state: DrawState, tool: DrawTool, image: ImageSize): MarkShape | null {
  const draft = draftShape(state, tool, image);
  return draft?.kind === 'polygon' && draft.points.length < 3 ? null : draft;
}

/** Whether something is being drawn (keys then belong to the drawing: Escape cancels it, Enter closes). */
export const isDrawing = (state: DrawState) => state.phase === 'dragging' || state.phase === 'placing' || state.phase === 'polygon';
