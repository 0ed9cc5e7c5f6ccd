import { describe, expect, it } from 'vitest';
import { checkMarkShape, type MarkPoint } from '@/domain/annotations/mark-shape';
import { measureMark } from '@/domain/annotations/measure';
import { draftShape, drawStep, IDLE, isDrawing, measurableDraft, type DrawContext, type DrawEvent, type DrawState, type DrawTool } from './drawing';

const image = { width: 640, height: 480 };
const context = (tool: DrawTool, tolerancePx = 3): DrawContext => ({ tool, image, tolerancePx });
const at = (x: number, y: number) => ({ x, y });
const down = (x: number, y: number): DrawEvent => ({ type: 'down', at: at(x, y) });
const move = (x: number, y: number): DrawEvent => ({ type: 'move', at: at(x, y) });
const up = (x: number, y: number): DrawEvent => ({ type: 'up', at: at(x, y) });

/** The state after `events` with `tool`, from nothing drawn. */
const run = (tool: DrawTool, events: DrawEvent[], tolerancePx = 3): DrawState =>
  events.reduce((state, event) => drawStep(state, event, context(tool, tolerancePx)), IDLE);

describe('drawing a mark', () => {
  it('places a point where it is pressed', () => {
    expect(run('point', [move(10, 10), down(100, 120)])).toEqual({ phase: 'done', shape: { kind: 'point', at: at(100, 120) } });
  });

  it('draws a line by dragging from one end to the other, the pointer leading the draft', () => {
    const dragging = run('line', [down(100, 100), move(200, 150)]);
    expect(isDrawing(dragging)).toBe(true);
    expect(draftShape(dragging, 'line', image)).toEqual({ kind: 'line', start: at(100, 100), end: at(200, 150) });
    expect(run('line', [down(100, 100), move(200, 150), up(280, 340)])).toEqual({
      phase: 'done',
      shape: { kind: 'line', start: at(100, 100), end: at(280, 340) },
    });
  });

  it('draws a line by two clicks when the first is released where it was pressed', () => {
    const placing = run('line', [down(100, 100), up(101, 100), move(150, 100)]);
    expect(placing.phase).toBe('placing');
    expect(run('line', [down(100, 100), up(101, 100), move(150, 100), down(300, 100)])).toEqual({
      phase: 'done',
      shape: { kind: 'line', start: at(100, 100), end: at(300, 100) },
    });
    // A second click on the first end makes no line of no length.
    expect(run('line', [down(100, 100), up(100, 100), down(101, 101)]).phase).toBe('placing');
  });

  it('draws a circle from its centre, kept on the image', () => {
    expect(run('circle', [down(320, 240), move(360, 240), up(360, 270)])).toEqual({
      phase: 'done',
      shape: { kind: 'circle', center: at(320, 240), radiusPx: 50 },
    });
    // Dragged far past the edge: the radius stops at the nearest edge, so the image can take the circle.
    const nearEdge = run('circle', [down(30, 200), up(300, 200)]);
    expect(nearEdge).toEqual({ phase: 'done', shape: { kind: 'circle', center: at(30, 200), radiusPx: 30 } });
    if (nearEdge.phase === 'done') expect(checkMarkShape(nearEdge.shape, image)).toBeNull();
  });

  it('keeps every point on the image', () => {
    expect(run('point', [down(-20, 900)])).toEqual({ phase: 'done', shape: { kind: 'point', at: at(0, 480) } });
  });

  it('draws a polygon vertex by vertex and closes it on the first vertex', () => {
    const corners = [down(100, 100), down(200, 100), down(200, 200)];
    const open = run('polygon', [...corners, move(120, 190)]);
    expect(open.phase).toBe('polygon');
    // The pointer is the draft's next vertex, so the area is live while drawing.
    expect(draftShape(open, 'polygon', image)).toEqual({ kind: 'polygon', points: [at(100, 100), at(200, 100), at(200, 200), at(120, 190)] });
    const closed = run('polygon', [...corners, down(100, 200), down(101, 99)]);
    expect(closed).toEqual({ phase: 'done', shape: { kind: 'polygon', points: [at(100, 100), at(200, 100), at(200, 200), at(100, 200)] } });
  });

  it('closes a polygon with a double-click (dropping the vertices its clicks left) or Enter', () => {
    // A double-click's two clicks add the last vertex twice before the dblclick event.
    const doubleClicked = run('polygon', [down(100, 100), down(200, 100), down(150, 180), down(150, 180), { type: 'close' }]);
    expect(doubleClicked).toEqual({ phase: 'done', shape: { kind: 'polygon', points: [at(100, 100), at(200, 100), at(150, 180)] } });
    expect(run('polygon', [down(100, 100), down(200, 100), down(150, 180), { type: 'close' }]).phase).toBe('done');
  });

  it('will not close a polygon of fewer than three vertices', () => {
    const two = run('polygon', [down(100, 100), down(200, 100), { type: 'close' }]);
    expect(two).toMatchObject({ phase: 'polygon', points: [at(100, 100), at(200, 100)] });
    // Clicking the first vertex of two adds nothing closed either.
    expect(run('polygon', [down(100, 100), down(200, 100), down(100, 100)])).toMatchObject({ phase: 'polygon' });
  });

  it('takes back the last vertex with Backspace and drops everything with Escape', () => {
    const threeCorners = [down(100, 100), down(200, 100), down(200, 200)];
    expect(run('polygon', [...threeCorners, { type: 'undo' }])).toMatchObject({ points: [at(100, 100), at(200, 100)] });
    expect(run('polygon', [down(100, 100), { type: 'undo' }])).toEqual(IDLE);
    expect(run('polygon', [...threeCorners, { type: 'cancel' }])).toEqual(IDLE);
    expect(run('line', [down(1, 1), move(50, 50), { type: 'cancel' }])).toEqual(IDLE);
  });

  it('measures the draft live at the plan’s scale, as the server measures the saved mark', () => {
    const scale = { umPerPixel: 7.5, source: 'manifest' as const, discDiameterPx: 220 };
    const dragging = run('line', [down(100, 100), move(280, 340)]);
    expect(measureMark(draftShape(dragging, 'line', image)!, scale)).toEqual({ kind: 'line', scaleSource: 'manifest', lengthUm: 2250, lengthDd: 1.36 });
    expect(draftShape(IDLE, 'line', image)).toBeNull();
    // Two corners of an area measure nothing yet; the third (the pointer) gives an area.
    const twoCorners = run('polygon', [down(100, 100), move(200, 100)]);
    expect(measurableDraft(twoCorners, 'polygon', image)).toBeNull();
    expect(measurableDraft(run('polygon', [down(100, 100), down(200, 100), move(200, 200)]), 'polygon', image)).toMatchObject({ kind: 'polygon' });
  });

  it('finishes shapes the image takes, whatever the pointer did', () => {
    const paths: [DrawTool, MarkPoint[]][] = [
      ['line', [at(-50, -50), at(700, 500)]],
      ['circle', [at(5, 5), at(600, 5)]],
    ];
    for (const [tool, [from, to]] of paths) {
      const done = run(tool, [down(from.x, from.y), up(to.x, to.y)]);
      expect(done.phase).toBe('done');
      if (done.phase === 'done') expect(checkMarkShape(done.shape, image)).toBeNull();
    }
  });
});
