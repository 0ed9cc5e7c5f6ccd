import { useEffect, useRef, type CSSProperties, type PointerEvent as ReactPointerEvent } from 'react';
import type { Annotation } from '@generated/model/annotation';
import type { MarkPoint, MarkShape } from '@/domain/annotations/mark-shape';
import { measureMark } from '@/domain/annotations/measure';
import { cssColour, PLAN_STYLE } from '@/domain/planning/plan-style';
import { draftShape, isDrawing, measurableDraft, TOLERANCE_SCREEN_PX, type DrawEvent } from './drawing';
import { useMarkFigures } from './figures';
import type { FundusMarks } from './use-fundus-marks';
import './icons';
import './fundus-marks.css';

/** Screen pixels of the marks' texts and symbols, whatever the zoom: the plan style's, as in the treatment report. */
const MARKS = PLAN_STYLE.marks;
const FONT_PX = PLAN_STYLE.labels.markPx;
const POINT_PX = MARKS.point.radiusPx;

/** The plan style's mark colours and widths as custom properties, for the stylesheet's states (fundus-marks.css). */
const MARK_STYLE = {
  '--mp-mark-stroke': cssColour(MARKS.shape.stroke),
  '--mp-mark-fill': cssColour(MARKS.shape.fill),
  '--mp-mark-width': String(MARKS.shape.widthPx),
  '--mp-mark-draft-fill': cssColour({ ...MARKS.shape.fill, alpha: MARKS.draft.fillAlpha }),
  '--mp-mark-draft-dash': MARKS.draft.dashPx.join(' '),
  '--mp-mark-selected-stroke': cssColour(MARKS.selected.stroke),
  '--mp-mark-selected-fill': cssColour(MARKS.selected.fill),
  '--mp-mark-selected-width': String(MARKS.selected.widthPx),
  '--mp-mark-text': cssColour(MARKS.text.paint),
  '--mp-mark-halo': cssColour(MARKS.text.halo.paint),
} as CSSProperties;

function ShapeOf({ shape, unit }: { shape: MarkShape; unit: number }) {
  switch (shape.kind) {
    case 'point':
      return (
        <>
          <circle className="mp-mark-shape" cx={shape.at.x} cy={shape.at.y} r={POINT_PX * unit} />
          <circle className="mp-mark-dot" cx={shape.at.x} cy={shape.at.y} r={MARKS.point.dotPx * unit} />
        </>
      );
    case 'line':
      return <line className="mp-mark-shape" x1={shape.start.x} y1={shape.start.y} x2={shape.end.x} y2={shape.end.y} />;
    case 'circle':
      return <circle className="mp-mark-shape" cx={shape.center.x} cy={shape.center.y} r={shape.radiusPx} />;
    case 'polygon':
      return <polygon className="mp-mark-shape" points={shape.points.map((p) => `${p.x},${p.y}`).join(' ')} />;
  }
}

/** Where a mark's caption goes: beside a point, over a line's middle, at a circle's upper right, above an area. */
function captionAt(shape: MarkShape, unit: number): MarkPoint {
  switch (shape.kind) {
    case 'point':
      return { x: shape.at.x + (POINT_PX + 3) * unit, y: shape.at.y - (POINT_PX + 3) * unit };
    case 'line':
      return { x: (shape.start.x + shape.end.x) / 2 + 6 * unit, y: (shape.start.y + shape.end.y) / 2 - 6 * unit };
    case 'circle':
      return { x: shape.center.x + shape.radiusPx * 0.72 + 3 * unit, y: shape.center.y - shape.radiusPx * 0.72 - 3 * unit };
    case 'polygon': {
      const top = shape.points.reduce((a, b) => (b.y < a.y ? b : a));
      return { x: top.x + 4 * unit, y: top.y - 6 * unit };
    }
  }
}

function Caption({ at, lines, unit }: { at: MarkPoint; lines: string[]; unit: number }) {
  const size = FONT_PX * unit;
  // The last line sits at `at`, the ones before it above.
  return (
    <text className="mp-mark-text" x={at.x} y={at.y - (lines.length - 1) * size * 1.2} fontSize={size} strokeWidth={MARKS.text.halo.widthPx * unit}>
      {lines.map((line, index) => (
        <tspan key={index} x={at.x} dy={index === 0 ? 0 : size * 1.2}>
          {line}
        </tspan>
      ))}
    </text>
  );
}

type OverlayProps = {
  marks: FundusMarks;
  /** How many screen (CSS) pixels one image pixel takes now, zoom included. */
  screenPxPerImagePx: number;
  className?: string;
  style?: React.CSSProperties;
};

/**
 * The marks of an image as an SVG in the image's pixels (viewBox = the image's size), laid over the image in
 * the same transformed layer so that it follows any zoom and pan. With a tool chosen it takes the pointer and
 * draws; otherwise a click on a mark opens it and everything else goes through to the image below.
 */
export function MarksOverlay({ marks, screenPxPerImagePx, className, style }: OverlayProps) {
  const figuresOf = useMarkFigures();
  const svgRef = useRef<SVGSVGElement>(null);
  const { image, tool, draw, dispatch, scale, visible, selectedId } = marks;
  const unit = screenPxPerImagePx > 0 ? 1 / screenPxPerImagePx : 1;

  // While drawing, Escape, Enter and Backspace belong to the drawing (not to the dialog around it); Escape with
  // a tool chosen and nothing drawn goes back to moving the image.
  const keys = useRef<(event: KeyboardEvent) => void>(() => {});
  keys.current = (event) => {
    // The label form and the delete question have their own keys (Escape closes them).
    if (marks.form || marks.deleting) return;
    const drawing = isDrawing(draw);
    const action: DrawEvent['type'] | 'drop-tool' | null =
      event.key === 'Escape' ? (drawing ? 'cancel' : tool ? 'drop-tool' : null) : drawing && event.key === 'Enter' ? 'close' : drawing && event.key === 'Backspace' ? 'undo' : null;
    if (!action) return;
    event.preventDefault();
    event.stopPropagation();
    if (action === 'drop-tool') marks.setTool(null);
    else dispatch({ type: action } as DrawEvent, 0);
  };
  useEffect(() => {
    if (!tool) return undefined;
    const listener = (event: KeyboardEvent) => keys.current(event);
    document.addEventListener('keydown', listener, true);
    return () => document.removeEventListener('keydown', listener, true);
  }, [tool]);

  if (!image) return null;

  /** The event's point in image pixels, and the tolerance of a click there. */
  const locate = (event: { clientX: number; clientY: number }) => {
    const box = svgRef.current!.getBoundingClientRect();
    const perPx = box.width > 0 ? image.width / box.width : 1;
    return { at: { x: (event.clientX - box.left) * perPx, y: (event.clientY - box.top) * perPx }, tolerance: TOLERANCE_SCREEN_PX * perPx };
  };
  const pointer = (type: 'down' | 'move' | 'up') => (event: ReactPointerEvent<SVGSVGElement>) => {
    if (!tool) return;
    if (type === 'down') {
      if (event.button !== 0) return;
      // The image below must not start panning.
      event.stopPropagation();
      event.preventDefault();
      event.currentTarget.setPointerCapture?.(event.pointerId);
    }
    const { at, tolerance } = locate(event);
    dispatch({ type, at }, tolerance);
  };

  const draft = tool ? draftShape(draw, tool, image) : null;
  const measured = tool ? measurableDraft(draw, tool, image) : null;
  // On the image the figures alone; the status line under it says where their scale came from.
  const draftFigures = measured ? figuresOf(measureMark(measured, scale)) : null;
  const labelOf = (mark: Annotation) => marks.labelOf(mark);

  return (
    <svg
      ref={svgRef}
      className={`mp-marks-overlay${tool ? ' mp-marks-drawing' : ''}${marks.editable ? ' mp-marks-interactive' : ''}${className ? ` ${className}` : ''}`}
      style={{ ...MARK_STYLE, ...style }}
      viewBox={`0 0 ${image.width} ${image.height}`}
      aria-hidden="true"
      data-testid="marks-overlay"
      onPointerDown={pointer('down')}
      onPointerMove={pointer('move')}
      onPointerUp={pointer('up')}
      onDoubleClick={() => tool && dispatch({ type: 'close' }, 0)}
    >
      {visible &&
        marks.marks.map((mark, index) => {
          const shape = mark.shape as MarkShape;
          const figures = figuresOf(mark.measurement);
          const caption = [`${index + 1} ${labelOf(mark)}`, ...(figures ? [figures.values] : [])];
          return (
            <g
              key={mark.id}
              className={`mp-mark${mark.id === selectedId ? ' mp-mark-selected' : ''}`}
              data-mark-kind={shape.kind}
              onPointerDown={(event) => {
                if (tool || !marks.editable) return;
                // A click on a mark opens it instead of panning the image.
                event.stopPropagation();
              }}
              onClick={() => {
                if (tool || !marks.editable) return;
                marks.setSelectedId(mark.id);
                marks.openEdit(mark);
              }}
            >
              <ShapeOf shape={shape} unit={unit} />
              <Caption at={captionAt(shape, unit)} lines={caption} unit={unit} />
            </g>
          );
        })}
      {draft && (
        <g className="mp-mark mp-mark-draft" data-testid="mark-draft">
          <ShapeOf shape={draft} unit={unit} />
          {draw.phase === 'polygon' &&
            draw.points.map((point, index) => (
              <circle key={index} className={index === 0 ? 'mp-mark-vertex mp-mark-vertex-first' : 'mp-mark-vertex'} cx={point.x} cy={point.y} r={(index === 0 ? MARKS.draft.firstVertexPx : MARKS.draft.vertexPx) * unit} />
            ))}
          {draftFigures && <Caption at={captionAt(draft, unit)} lines={[draftFigures.values]} unit={unit} />}
        </g>
      )}
    </svg>
  );
}
