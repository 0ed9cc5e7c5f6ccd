import { Button, ButtonGroup, Classes, Slider, Switch } from '@blueprintjs/core';
import { lazy, Suspense, useEffect, useLayoutEffect, useMemo, useRef, useState, type CSSProperties, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useGetTreatmentImage } from '@generated/hooks/treatments/treatments';
import type { FundusImage } from '@generated/model/fundusImage';
import { IDENTITY, panBy, zoomAbout, ZOOM_STEP, type ViewTransform } from '@/lib/view-transform';
import { ESTIMATED_SCALE_UNCERTAINTY } from '@/domain/planning/clinical-limits';
import { cssColour, PLAN_STYLE, scaleBarLength } from '@/domain/planning/plan-style';
import { formatNumber } from '@/lib/format';
import { PlanCanvas, PROFILE, type CanvasCallbacks, type CanvasScene } from './plan-canvas';
import { usePreviousTreatment } from './previous-treatment';

const SCALE_BAR = PLAN_STYLE.scaleBar;
/** The scale bar's box and bracket as the plan style draws them (the report draws the same on paper). */
const SCALE_BAR_BOX: CSSProperties = {
  left: SCALE_BAR.offsetPx.x,
  bottom: SCALE_BAR.offsetPx.y,
  gap: SCALE_BAR.gapPx,
  padding: `${SCALE_BAR.paddingPx.y}px ${SCALE_BAR.paddingPx.x}px`,
  borderRadius: SCALE_BAR.radiusPx,
  background: cssColour(SCALE_BAR.background),
  color: cssColour(SCALE_BAR.paint),
  fontSize: PLAN_STYLE.labels.scaleBarPx,
};
const SCALE_BAR_BRACKET: CSSProperties = {
  height: SCALE_BAR.barHeightPx,
  border: `${SCALE_BAR.lineWidthPx}px solid ${cssColour(SCALE_BAR.paint)}`,
  borderTop: 0,
};

/** A keyboard stand-in for something drawn on the canvas (a zone, a marker, the spot cursor). */
export interface CanvasHandle {
  id: string;
  label: string;
  /** Where it sits, image pixels: the focus ring is drawn there. */
  at: { x: number; y: number };
  pressed?: boolean;
}

interface FundusViewerProps {
  treatmentId: string;
  image: FundusImage;
  umPerPixel: number;
  /** The scale is estimated from the disc–fovea distance: every length the viewer states is said to be uncertain. */
  scaleEstimated: boolean;
  /** The fovea, image pixels: the pointer's position is given in µm from it. */
  fovea: { x: number; y: number } | null;
  scene: CanvasScene;
  /** What the viewer's user may edit; a step that edits nothing on the image leaves these out. */
  onZone?: CanvasCallbacks['onZone'];
  onSelectZone?: CanvasCallbacks['onSelectZone'];
  onSpot?: CanvasCallbacks['onSpot'];
  handles?: readonly CanvasHandle[];
  onHandleFocus?(id: string): void;
  onHandleBlur?(id: string): void;
  /** A key on a handle; return true when it was used. */
  onHandleKey?(id: string, event: KeyboardEvent<HTMLButtonElement>): boolean;
  /** Drawn under the image (a legend, say). */
  footer?: ReactNode;
}

// The image's labelled marks (issue 17) come with the viewer's first showing, not with the wizard's first paint.
const ViewerMarks = lazy(async () => ({ default: (await import('./viewer-marks')).ViewerMarks }));

/** Screen pixels the arrow keys pan by (Shift: ten times). */
const PAN_STEP_PX = 40;
const NEUTRAL = { brightness: 1, contrast: 1 };
const NO_HANDLES: readonly CanvasHandle[] = [];

/**
 * The fundus viewer of the planning wizard: the display image with the plan's overlays (plan-canvas.ts), fit,
 * zoom and pan by wheel, buttons, keys and pinch, brightness, contrast and a red-free view, a µm scale bar and
 * the pointer's position in µm from the fovea.
 */
export function FundusViewer(props: FundusViewerProps) {
  const { treatmentId, image, umPerPixel, scaleEstimated, scene, handles = NO_HANDLES } = props;
  const { t, i18n } = useTranslation('planning');
  if (PROFILE) performance.mark('mp:render-start');
  const hostRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<PlanCanvas | null>(null);
  const pointerRef = useRef<HTMLOutputElement>(null);
  const [size, setSize] = useState({ width: 0, height: 0 });
  const [view, setView] = useState<ViewTransform>(IDENTITY);
  const [tone, setTone] = useState(NEUTRAL);
  const [redFree, setRedFree] = useState(false);
  // Where the marks put their tools and their drawing (viewer-marks.tsx).
  const [marksToolbar, setMarksToolbar] = useState<HTMLElement | null>(null);
  const [marksLayer, setMarksLayer] = useState<HTMLElement | null>(null);
  const latest = useRef(props);
  latest.current = props;

  const blob = useGetTreatmentImage(treatmentId, image.id, 'display', { query: { meta: { persist: false }, staleTime: Infinity } });
  const [bitmap, setBitmap] = useState<ImageBitmap | null>(null);
  const [imageFailed, setImageFailed] = useState(false);
  useEffect(() => {
    if (!blob.data) return;
    let cancelled = false;
    let made: ImageBitmap | null = null;
    createImageBitmap(blob.data).then(
      (result) => {
        made = result;
        if (cancelled) result.close();
        else setBitmap(result);
      },
      () => !cancelled && setImageFailed(true),
    );
    return () => {
      cancelled = true;
      made?.close();
    };
  }, [blob.data]);

  // The canvas lives as long as the viewer; callbacks read the latest props.
  useLayoutEffect(() => {
    const host = hostRef.current!;
    const canvas = new PlanCanvas(host, {
      onView: (next) => setView(next),
      onZone: (...args) => latest.current.onZone?.(...args),
      onSelectZone: (kind) => latest.current.onSelectZone?.(kind),
      onSpot: (id) => latest.current.onSpot?.(id),
      onPointer: (point) => showPointer.current(point),
    });
    canvasRef.current = canvas;
    const observer = new ResizeObserver(([entry]) => {
      const width = Math.round(entry.contentRect.width);
      const height = Math.round(entry.contentRect.height);
      setSize((before) => (before.width === width && before.height === height ? before : { width, height }));
    });
    observer.observe(host);
    return () => {
      observer.disconnect();
      canvas.destroy();
      canvasRef.current = null;
    };
    // One canvas per viewer: its callbacks read the latest props through `latest`.
  }, []);

  useLayoutEffect(() => canvasRef.current?.setImage(bitmap, image.width, image.height), [bitmap, image.width, image.height]);
  useLayoutEffect(() => canvasRef.current?.setSize(size.width, size.height), [size]);
  useLayoutEffect(() => canvasRef.current?.setView(view), [view]);
  // The previous treatment of this eye under today's plan, when there is one and it is shown.
  const previous = usePreviousTreatment(treatmentId, { spots: scene.spots, spotRadiusPx: scene.spotRadiusPx, umPerPixel });
  const drawn = useMemo(() => (previous.overlay ? { ...scene, previous: previous.overlay } : scene), [scene, previous.overlay]);
  useLayoutEffect(() => canvasRef.current?.setScene(drawn), [drawn]);
  useLayoutEffect(() => {
    const target = canvasRef.current?.imageCanvas;
    if (target) target.style.filter = `${redFree ? 'url(#mp-red-free) ' : ''}brightness(${tone.brightness}) contrast(${tone.contrast})`;
  }, [tone, redFree]);

  // Written straight into the output on every pointer move (no render); renewed each render, so it speaks
  // the current language and uses the current fovea.
  const showPointer = useRef<(point: { x: number; y: number } | null) => void>(() => undefined);
  showPointer.current = (point) => {
    const output = pointerRef.current;
    if (!output) return;
    const { fovea: centre } = props;
    const fmt = (value: number) => formatNumber(value, i18n.language, 0);
    const inside = point && point.x >= 0 && point.y >= 0 && point.x <= image.width && point.y <= image.height;
    output.textContent =
      inside && centre ? t(scaleEstimated ? 'viewer.pointerEstimated' : 'viewer.pointer', { x: fmt((point.x - centre.x) * umPerPixel), y: fmt((centre.y - point.y) * umPerPixel) }) : t('viewer.pointerNone');
  };

  const zoom = (factor: number) => setView((before) => zoomAbout(before, factor, size.width / 2, size.height / 2, size.width, size.height));
  const screenScale = size.width ? (size.width / image.width) * view.scale : 0;
  const bar = screenScale ? scaleBarLength(screenScale / umPerPixel, size.width) : null;

  // Arrows pan when the image itself has the focus (on a handle they move what it stands for).
  const onViewerKey = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.target !== event.currentTarget) return;
    const step = PAN_STEP_PX * (event.shiftKey ? 10 : 1);
    const moves: Record<string, [number, number]> = { ArrowLeft: [step, 0], ArrowRight: [-step, 0], ArrowUp: [0, step], ArrowDown: [0, -step] };
    const move = moves[event.key];
    if (move) {
      event.preventDefault();
      setView((before) => panBy(before, move[0], move[1], size.width, size.height));
    }
  };
  // Zoom keys work wherever the focus is in the viewer (on a handle too).
  const onZoomKey = (event: KeyboardEvent<HTMLElement>) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === '+' || event.key === '=') zoom(ZOOM_STEP);
    else if (event.key === '-') zoom(1 / ZOOM_STEP);
    else if (event.key === '0') setView(IDENTITY);
    else if (event.key === 'r' || event.key === 'R') setRedFree((before) => !before);
    else return;
    event.preventDefault();
  };

  return (
    <section className="mp-viewer" aria-label={t('viewer.label')}>
      <svg className="mp-svg-defs" aria-hidden="true" focusable="false">
        <filter id="mp-red-free">
          {/* The green channel as grey: vessels and haemorrhages stand out against the fundus. */}
          <feColorMatrix type="matrix" values="0 1 0 0 0  0 1 0 0 0  0 1 0 0 0  0 0 0 1 0" />
        </filter>
      </svg>
      <div className="mp-viewer-toolbar" role="toolbar" aria-label={t('viewer.tools')}>
        <ButtonGroup>
          <Button icon="zoom-in" aria-label={t('viewer.zoomIn')} title={t('viewer.zoomIn')} onClick={() => zoom(ZOOM_STEP)} />
          <Button icon="zoom-out" aria-label={t('viewer.zoomOut')} title={t('viewer.zoomOut')} onClick={() => zoom(1 / ZOOM_STEP)} />
          <Button icon="zoom-to-fit" aria-label={t('viewer.fit')} title={t('viewer.fit')} onClick={() => setView(IDENTITY)} />
        </ButtonGroup>
        <span className="mp-viewer-zoom" aria-live="polite">
          {t('viewer.zoom', { value: formatNumber(view.scale * 100, i18n.language, 0) })}
        </span>
        <ToneSlider label={t('viewer.brightness')} value={tone.brightness} onChange={(brightness) => setTone((before) => ({ ...before, brightness }))} />
        <ToneSlider label={t('viewer.contrast')} value={tone.contrast} onChange={(contrast) => setTone((before) => ({ ...before, contrast }))} />
        <Switch className="mp-viewer-switch" checked={redFree} label={t('viewer.redFree')} onChange={(event) => setRedFree(event.currentTarget.checked)} />
        <Button variant="minimal" size="small" onClick={() => setTone(NEUTRAL)} disabled={tone === NEUTRAL}>
          {t('viewer.resetTone')}
        </Button>
        <span ref={setMarksToolbar} className="mp-viewer-marks-tools" />
      </div>
      <div
        className="mp-viewer-frame"
        // As wide as the column allows, but never taller than three quarters of the screen (half of it on a
        // tablet, planning.css): the frame keeps the image's aspect, so fit (zoom 1) shows the whole image.
        style={{ aspectRatio: `${image.width} / ${image.height}`, '--mp-image-aspect': image.width / image.height } as CSSProperties}
        tabIndex={0}
        role="application"
        aria-roledescription={t('viewer.roleDescription')}
        aria-label={t('viewer.frameLabel')}
        onKeyDown={(event) => {
          onZoomKey(event);
          if (!event.defaultPrevented) onViewerKey(event);
        }}
      >
        <div ref={hostRef} className="mp-viewer-canvas" />
        <div ref={setMarksLayer} className="mp-viewer-marks" />
        {!bitmap && (
          <div className={`mp-viewer-placeholder ${imageFailed || blob.isError ? '' : Classes.SKELETON}`}>
            {(imageFailed || blob.isError) && t('viewer.imageFailed')}
          </div>
        )}
        {handles.map((handle) => (
          <button
            key={handle.id}
            type="button"
            className="mp-canvas-handle"
            aria-label={handle.label}
            aria-pressed={handle.pressed}
            style={{ left: handle.at.x * screenScale + view.x, top: handle.at.y * screenScale + view.y }}
            onFocus={() => props.onHandleFocus?.(handle.id)}
            onBlur={() => props.onHandleBlur?.(handle.id)}
            onKeyDown={(event) => {
              // A key the handle uses is its own; any other goes on to the viewer (zoom) and the page (undo).
              if (props.onHandleKey?.(handle.id, event)) {
                event.preventDefault();
                event.stopPropagation();
              }
            }}
          />
        ))}
        {bar && (
          <div className="mp-scale-bar" style={SCALE_BAR_BOX} aria-hidden="true">
            <span style={{ ...SCALE_BAR_BRACKET, width: bar.px }} />
            {t(scaleEstimated ? 'viewer.scaleBarEstimated' : 'viewer.scaleBar', { value: formatNumber(bar.um, i18n.language, 0) })}
          </div>
        )}
      </div>
      <div className="mp-viewer-status">
        <output ref={pointerRef} className="mp-viewer-pointer">
          {t('viewer.pointerNone')}
        </output>
        <span className="mp-muted-text">
          {scaleEstimated
            ? t('viewer.scaleEstimated', { value: formatNumber(umPerPixel, i18n.language, 2), percent: formatNumber(ESTIMATED_SCALE_UNCERTAINTY * 100, i18n.language, 0) })
            : t('viewer.scale', { value: formatNumber(umPerPixel, i18n.language, 2) })}
        </span>
      </div>
      {previous.panel}
      {props.footer}
      <Suspense fallback={null}>
        <ViewerMarks treatmentId={treatmentId} image={image} view={view} screenScale={screenScale} toolbarSlot={marksToolbar} frameSlot={marksLayer} />
      </Suspense>
    </section>
  );
}

function ToneSlider({ label, value, onChange }: { label: string; value: number; onChange: (value: number) => void }) {
  return (
    <label className="mp-tone-slider">
      <span>{label}</span>
      <Slider min={0.5} max={2} stepSize={0.05} labelRenderer={false} value={value} onChange={onChange} handleHtmlProps={{ 'aria-label': label }} />
    </label>
  );
}
