import { Button } from '@blueprintjs/core';
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSaveExclusionZones } from '@generated/hooks/planning/planning';
import { ESTIMATED_SCALE_UNCERTAINTY, fovealMinimumUm } from '@/domain/planning/clinical-limits';
import { ONH_MARGIN_UM, zoneInRetina, zonesOverlap, type ZoneShape } from '@/domain/planning/exclusion-zones';
import { retinaFrame } from '@/domain/planning/frames';
import { formatNumber } from '@/lib/format';
import { FundusViewer, type CanvasHandle } from './fundus-viewer';
import { NumberField } from './number-field';
import { normaliseDegrees, sceneOf, type ZoneKind } from './plan-canvas';
import { fieldOf, previewZones, safetyOf, sentShape } from './plan-safety';
import { zoneShape, zonesInUm, type Zones } from './plan-scene';
import { SafetyAlert, SafetyEcho, useSafetyLines } from './safety-alert';
import { StepPanel, useDraft } from './step-panel';
import type { StepProps } from './step-props';
import { useStepSave, type StepFailure } from './use-step-save';

const round2 = (value: number) => Math.round(value * 100) / 100;
/** Arrow keys move a zone by one image pixel; Shift by ten. */
const nudgeOf = (event: KeyboardEvent) => (event.shiftKey ? 10 : 1);
const ARROWS: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

/** A keyboard move is told once the keys rest this long: a held arrow key is one announcement, not fifty. */
const ANNOUNCE_AFTER_MS = 500;

/**
 * Says where a zone moved by the arrow keys went, in a polite live region, once the keys have rested: the
 * handle's name alone says nothing of the position, and a screen reader user cannot see the image.
 */
function useMoveAnnouncement(describe: (kind: ZoneKind) => string) {
  const [text, setText] = useState('');
  const timer = useRef<number | undefined>(undefined);
  const latest = useRef(describe);
  latest.current = describe;
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const moved = (kind: ZoneKind) => {
    window.clearTimeout(timer.current);
    // Emptied first: the same words again (moved back and forth) are announced again.
    setText('');
    timer.current = window.setTimeout(() => setText(latest.current(kind)), ANNOUNCE_AFTER_MS);
  };
  return { text, moved };
}

/** The FAZ stays a circle: a transformer's corner keeps the ratio, but rounding may not. */
const asCircle = (shape: ZoneShape): ZoneShape => {
  const radius = (shape.radiusXPx + shape.radiusYPx) / 2;
  return { center: shape.center, radiusXPx: radius, radiusYPx: radius, rotationDeg: 0 };
};

/** Wizard step 1: the proposed FAZ and ONH, moved, resized and turned on the image or in µm, then confirmed. */
export function ExclusionZonesStep({ treatment, image, editable, resets, children }: StepProps) {
  const { t, i18n } = useTranslation('planning');
  const { plan } = treatment;
  const umPerPixel = plan.scale!.umPerPixel;
  const estimated = plan.scale!.source === 'estimated';
  const alertId = useId();
  const { draft, history, commit, preview, undo, redo } = useDraft<Zones>(() => ({
    faz: zoneShape(plan.exclusionZones!.faz),
    onh: zoneShape(plan.exclusionZones!.onh),
  }));
  const [selected, setSelected] = useState<ZoneKind | null>(null);
  // A zone being dragged or resized: its refusal shows once the pointer rests, and at once when it lets go.
  const [dragging, setDragging] = useState(false);
  const [failure, setFailure] = useState<StepFailure | null>(null);
  const { saved, failed } = useStepSave(treatment);
  const save = useSaveExclusionZones({
    mutation: { onSuccess: (answer) => saved({ plan: answer.data, message: answer.message }), onError: (error) => setFailure(failed(error)) },
  });

  const overlap = useMemo(() => {
    const frame = retinaFrame(draft.faz.center, umPerPixel);
    const zones = zonesInUm(draft, umPerPixel);
    return zonesOverlap(zoneInRetina(zones.faz, frame), zoneInRetina(zones.onh, frame));
  }, [draft, umPerPixel]);
  // What the save would be refused with, and where the disc will be (it moves with the ONH zone).
  const field = useMemo(() => fieldOf(plan, image), [plan, image]);
  const safety = useMemo(() => previewZones(treatment, draft, field), [treatment, draft, field]);
  const refused = safety.problems.length > 0;
  const refusals = useSafetyLines(safety.problems, treatment.eye, estimated, !dragging);

  const set = (kind: ZoneKind, shape: ZoneShape, final = true) => {
    const next = { ...draft, [kind]: kind === 'faz' ? asCircle(shape) : { ...shape, rotationDeg: normaliseDegrees(shape.rotationDeg ?? 0) } };
    setDragging(!final);
    if (final) commit(next);
    else preview(next);
  };

  const scene = sceneOf({ zones: draft, zonesEditable: editable, selectedZone: selected, disc: safety.opticDisc, fovea: draft.faz.center });
  const handles: CanvasHandle[] = [
    { id: 'faz', label: t('zones.fazHandle'), at: draft.faz.center, pressed: selected === 'faz' },
    { id: 'onh', label: t('zones.onhHandle'), at: draft.onh.center, pressed: selected === 'onh' },
  ];
  const onHandleKey = (id: string, event: KeyboardEvent<HTMLButtonElement>) => {
    const arrow = ARROWS[event.key];
    if (!arrow || !editable || event.ctrlKey || event.metaKey || event.altKey) return false;
    const kind = id as ZoneKind;
    const step = nudgeOf(event);
    const zone = draft[kind];
    set(kind, { ...zone, center: { x: round2(zone.center.x + arrow[0] * step), y: round2(zone.center.y + arrow[1] * step) } });
    announcement.moved(kind);
    return true;
  };

  const um = (px: number) => px * umPerPixel;
  const px = (value: number) => value / umPerPixel;
  const onhOffset = { xUm: um(draft.onh.center.x - draft.faz.center.x), yUm: um(draft.faz.center.y - draft.onh.center.y) };
  // Both moves change where the ONH lies from the fovea (the FAZ's centre): the fields' numbers, said aloud.
  const announcement = useMoveAnnouncement((kind) =>
    t(kind === 'faz' ? 'zones.movedFaz' : 'zones.movedOnh', {
      x: formatNumber(onhOffset.xUm, i18n.language, 0),
      y: formatNumber(onhOffset.yUm, i18n.language, 0),
    }),
  );
  const onhMarginUm = plan.exclusionZones!.onh.marginUm ?? ONH_MARGIN_UM;
  const fovealMinimum = fovealMinimumUm(safetyOf(plan).limits);
  // Lengths in µm on an estimated scale are uncertain (docs/clinical-limits.md): the fields say so.
  const sized = (label: string) => (estimated ? `${label} ≈` : label);

  const confirm = () => {
    setFailure(null);
    save.mutate({ id: treatment.id, data: { revision: plan.revision, faz: sentShape(draft.faz), onh: sentShape(draft.onh) } });
  };

  return (
    <div className="mp-step">
      <FundusViewer
        treatmentId={treatment.id}
        image={image}
        umPerPixel={umPerPixel}
        scaleEstimated={plan.scale!.source === 'estimated'}
        fovea={draft.faz.center}
        scene={scene}
        onZone={(kind, shape, final) => set(kind, shape, final)}
        onSelectZone={setSelected}
        handles={editable ? handles : []}
        onHandleFocus={(id) => setSelected(id as ZoneKind)}
        onHandleKey={onHandleKey}
        footer={
          <>
            <SafetyEcho lines={refusals} />
            <ul className="mp-legend" aria-label={t('legend.label')}>
              <li>
                <span className="mp-legend-swatch mp-legend-faz" aria-hidden="true" />
                {t('zones.faz')}
              </li>
              <li>
                <span className="mp-legend-swatch mp-legend-onh" aria-hidden="true" />
                {t('zones.onh')}
              </li>
              <li>
                <span className="mp-legend-swatch mp-legend-disc" aria-hidden="true" />
                {t('zones.disc')}
              </li>
            </ul>
          </>
        }
      />
      <StepPanel
        title={t('steps.1')}
        intro={<p>{editable ? t('zones.intro') : t('readOnlyIntro')}</p>}
        history={editable ? history : undefined}
        onUndo={undo}
        onRedo={redo}
        resets={editable ? resets : []}
        failure={failure}
        actions={
          editable ? (
            <Button
              intent="primary"
              size="large"
              loading={save.isPending}
              disabled={overlap || refused}
              aria-describedby={refused ? alertId : undefined}
              onClick={confirm}
            >
              {t('zones.confirm')}
            </Button>
          ) : null
        }
      >
        {children}
        {estimated && (
          <p className="mp-estimated-scale">
            {t('safety.estimated', { percent: formatNumber(ESTIMATED_SCALE_UNCERTAINTY * 100, i18n.language, 0) })}
          </p>
        )}
        <fieldset className="mp-fieldset">
          <legend>{t('zones.faz')}</legend>
          <NumberField
            label={sized(t('zones.radius'))}
            unit="µm"
            value={um(draft.faz.radiusXPx)}
            min={50}
            max={3000}
            step={10}
            disabled={!editable}
            onChange={(value) => set('faz', { ...draft.faz, radiusXPx: px(value), radiusYPx: px(value) })}
          />
          {um(draft.faz.radiusXPx) < fovealMinimum && <p className="mp-muted-text">{t('safety.fazBelowMinimum', { value: formatNumber(fovealMinimum, i18n.language) })}</p>}
        </fieldset>
        <fieldset className="mp-fieldset">
          <legend>{t('zones.onh')}</legend>
          <div className="mp-field-row">
            <NumberField
              label={sized(t('zones.radiusX'))}
              unit="µm"
              value={um(draft.onh.radiusXPx)}
              min={100}
              max={6000}
              step={10}
              disabled={!editable}
              onChange={(value) => set('onh', { ...draft.onh, radiusXPx: px(value) })}
            />
            <NumberField
              label={sized(t('zones.radiusY'))}
              unit="µm"
              value={um(draft.onh.radiusYPx)}
              min={100}
              max={6000}
              step={10}
              disabled={!editable}
              onChange={(value) => set('onh', { ...draft.onh, radiusYPx: px(value) })}
            />
          </div>
          <NumberField
            label={t('zones.rotation')}
            unit="°"
            value={draft.onh.rotationDeg ?? 0}
            min={-180}
            max={180}
            step={1}
            disabled={!editable}
            onChange={(value) => set('onh', { ...draft.onh, rotationDeg: value })}
          />
          <div className="mp-field-row">
            <NumberField
              label={sized(t('zones.offsetX'))}
              unit="µm"
              value={onhOffset.xUm}
              min={-20000}
              max={20000}
              step={10}
              disabled={!editable}
              onChange={(value) => set('onh', { ...draft.onh, center: { ...draft.onh.center, x: draft.faz.center.x + px(value) } })}
            />
            <NumberField
              label={sized(t('zones.offsetY'))}
              unit="µm"
              value={onhOffset.yUm}
              min={-20000}
              max={20000}
              step={10}
              disabled={!editable}
              onChange={(value) => set('onh', { ...draft.onh, center: { ...draft.onh.center, y: draft.faz.center.y - px(value) } })}
            />
          </div>
          <p className="mp-muted-text">{t('zones.margin', { value: onhMarginUm })}</p>
        </fieldset>
        {overlap && (
          <p className="mp-field-error" role="alert">
            {t('zones.overlap')}
          </p>
        )}
        <SafetyAlert id={alertId} lines={refusals} />
        <p className="mp-visually-hidden" aria-live="polite">
          {announcement.text}
        </p>
      </StepPanel>
    </div>
  );
}
