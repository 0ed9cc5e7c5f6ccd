// Zoom and pan of a fundus image in a viewport of its shape, by mouse, wheel, fingers and keys: the comparison's
// two panes and the image-and-marks dialog move their view the same way (src/lib/view-transform.ts).
import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent, type RefObject } from 'react';
import { IDENTITY, panBy, pinch, wheelZoomFactor, zoomAbout, ZOOM_STEP, type ViewportPoint, type ViewTransform } from '@/lib/view-transform';

/** Arrow keys move the view by this share of the image's width. */
const KEY_PAN = 0.05;

/** The width of an element as it is laid out now, followed through resizes. */
export function useWidth<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const element = ref.current;
    if (!element) return undefined;
    const observer = new ResizeObserver(([entry]) => setWidth(entry.contentRect.width));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width] as const;
}

type ViewChange = (change: (view: ViewTransform) => ViewTransform) => void;

/**
 * Handlers for a viewport whose view is in units of its width (`aspect` = height / width): one pointer drags,
 * two pinch, the wheel zooms about the pointer, + − 0 and the arrows zoom, reset and move.
 */
export function useViewportGestures(viewportRef: RefObject<HTMLElement | null>, aspect: number, onView: ViewChange) {
  // The pointers down on the viewport (mouse, pen or fingers) where they were last: one drags, two pinch.
  const pointers = useRef(new Map<number, ViewportPoint>());
  const pointer = (event: { clientX: number; clientY: number }) => {
    const box = viewportRef.current!.getBoundingClientRect();
    return { x: (event.clientX - box.left) / box.width, y: (event.clientY - box.top) / box.width };
  };
  const onWheel = useRef<(event: globalThis.WheelEvent) => void>(() => {});
  onWheel.current = (event) => {
    event.preventDefault();
    const at = pointer(event);
    onView((current) => zoomAbout(current, wheelZoomFactor(event.deltaY, event.deltaMode), at.x, at.y, 1, aspect));
  };
  // React listens to wheel passively, so its onWheel cannot keep the page from scrolling while the image zooms.
  useEffect(() => {
    const element = viewportRef.current;
    if (!element) return undefined;
    const listener = (event: globalThis.WheelEvent) => onWheel.current(event);
    element.addEventListener('wheel', listener, { passive: false });
    return () => element.removeEventListener('wheel', listener);
  }, [viewportRef]);
  const onPointerDown = (event: PointerEvent) => {
    event.currentTarget.setPointerCapture(event.pointerId);
    pointers.current.set(event.pointerId, pointer(event));
  };
  const onPointerMove = (event: PointerEvent) => {
    const down = pointers.current;
    const from = down.get(event.pointerId);
    if (!from) return;
    const at = pointer(event);
    const others = [...down].filter(([id]) => id !== event.pointerId).map(([, point]) => point);
    down.set(event.pointerId, at);
    if (others.length === 0) onView((current) => panBy(current, at.x - from.x, at.y - from.y, 1, aspect));
    else onView((current) => pinch(current, [others[0], from], [others[0], at], 1, aspect));
  };
  const onPointerEnd = (event: PointerEvent) => {
    pointers.current.delete(event.pointerId);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.target !== event.currentTarget) return;
    const a = aspect;
    const moves: Record<string, (v: ViewTransform) => ViewTransform> = {
      '+': (v) => zoomAbout(v, ZOOM_STEP, 0.5, a / 2, 1, a),
      '=': (v) => zoomAbout(v, ZOOM_STEP, 0.5, a / 2, 1, a),
      '-': (v) => zoomAbout(v, 1 / ZOOM_STEP, 0.5, a / 2, 1, a),
      '0': () => IDENTITY,
      ArrowLeft: (v) => panBy(v, KEY_PAN, 0, 1, a),
      ArrowRight: (v) => panBy(v, -KEY_PAN, 0, 1, a),
      ArrowUp: (v) => panBy(v, 0, KEY_PAN, 1, a),
      ArrowDown: (v) => panBy(v, 0, -KEY_PAN, 1, a),
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    onView(move);
  };
  return { onPointerDown, onPointerMove, onPointerUp: onPointerEnd, onPointerCancel: onPointerEnd, onKeyDown };
}
