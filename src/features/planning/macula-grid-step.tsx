import { Button, FormGroup } from '@blueprintjs/core';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSaveMaculaGrid } from '@generated/hooks/planning/planning';
import { GridPattern } from '@generated/model/gridPattern';
import { Select } from '@/components/select';
import { ESTIMATED_SCALE_UNCERTAINTY } from '@/domain/planning/clinical-limits';
import { retinaFrame } from '@/domain/planning/frames';
import { MAX_SPOTS, type GridSettings } from '@/domain/planning/macula-grid';
import { formatNumber } from '@/lib/format';
import { FundusViewer } from './fundus-viewer';
import { NumberField } from './number-field';
import { MARK_COLOURS, sceneOf } from './plan-canvas';
import { checkGrid, fieldOf } from './plan-safety';
import { poweredSpots, previewGrid, toggledId } from './plan-scene';
import { SafetyAlert, useSafetyLines } from './safety-alert';
import { StepPanel, useDraft } from './step-panel';
import type { StepProps } from './step-props';
import { useSpotCursor } from './use-spot-cursor';
import { useStepSave, type StepFailure } from './use-step-save';

interface GridDraft {
  settings: GridSettings;
  disabled: readonly number[];
}

/** The contract's ranges for the grid settings (MaculaGridSettings). */
const RANGES = {
  spotSizeUm: { min: 50, max: 500, step: 10 },
  spacing: { min: 0.5, max: 4, step: 0.05 },
  innerRadiusUm: { min: 0, max: 3000, step: 50 },
  outerRadiusUm: { min: 500, max: 6000, step: 50 },
} as const;


/** Wizard step 2: the grid's settings with a live layout and count, single spots removed or restored, confirmed. */
export function MaculaGridStep({ treatment, image, editable, resets, children }: StepProps) {
  const { t, i18n } = useTranslation('planning');
  const { plan } = treatment;
  const umPerPixel = plan.scale!.umPerPixel;
  const estimated = plan.scale!.source === 'estimated';
  const patternId = useId();
  const alertId = useId();
  const { draft, history, commit, update, undo, redo } = useDraft<GridDraft>(() => ({
    settings: { ...plan.gridSettings! },
    disabled: plan.spots.filter((spot) => !spot.enabled).map((spot) => spot.id),
  }));
  const [failure, setFailure] = useState<StepFailure | null>(null);
  const { saved, failed } = useStepSave(treatment);
  const save = useSaveMaculaGrid({
    mutation: { onSuccess: (answer) => saved({ plan: answer.data, message: answer.message }), onError: (error) => setFailure(failed(error)) },
  });

  // The layout the server will make, made here with the same code while the settings change.
  const frame = useMemo(() => retinaFrame(plan.fovea!, umPerPixel), [plan.fovea, umPerPixel]);
  const disabledSet = useMemo(() => new Set(draft.disabled), [draft.disabled]);
  const field = useMemo(() => fieldOf(plan, image), [plan, image]);
  const layout = useMemo(() => previewGrid(draft.settings, frame, plan.exclusionZones!, field, disabledSet), [draft.settings, frame, plan.exclusionZones, field, disabledSet]);
  const spots = useMemo(() => poweredSpots(layout.spots, null, null), [layout.spots]);
  const treated = spots.filter((spot) => spot.enabled).length;
  const removed = spots.length - treated;
  // The clinical limits the save would be checked against, on the layout as it is now.
  const safety = useMemo(() => checkGrid(treatment, draft.settings, layout.spots, field), [treatment, draft.settings, layout.spots, field]);
  const refused = safety.problems.length > 0;
  const refusals = useSafetyLines(safety.problems, treatment.eye, estimated);

  const toggle = (id: number) => editable && update((before) => ({ ...before, disabled: toggledId(before.disabled, id) }));
  const cursor = useSpotCursor(spots, toggle, editable);
  const setting = <K extends keyof GridSettings>(name: K, value: GridSettings[K]) =>
    // Removed spots of the old layout that the new one lacks are forgotten on save (the server refuses unknown ids).
    commit({ ...draft, settings: { ...draft.settings, [name]: value } });

  const confirm = () => {
    setFailure(null);
    const known = new Set(spots.map((spot) => spot.id));
    save.mutate({
      id: treatment.id,
      data: { revision: plan.revision, settings: draft.settings, disabledSpotIds: draft.disabled.filter((id) => known.has(id)) },
    });
  };

  const scene = sceneOf({
    zones: plan.exclusionZones,
    fovea: plan.fovea,
    ring: { innerPx: draft.settings.innerRadiusUm / umPerPixel, outerPx: draft.settings.outerRadiusUm / umPerPixel },
    spots,
    spotRadiusPx: draft.settings.spotSizeUm / 2 / umPerPixel,
    spotsClickable: editable,
    focusedSpot: cursor.focusedSpot,
    spotMarks: safety.nearFovea.size ? { nearFovea: safety.nearFovea } : null,
  });
  const number = (value: number) => formatNumber(value, i18n.language);

  return (
    <div className="mp-step">
      <FundusViewer
        treatmentId={treatment.id}
        image={image}
        umPerPixel={umPerPixel}
        scaleEstimated={plan.scale!.source === 'estimated'}
        fovea={plan.fovea}
        scene={scene}
        {...cursor.viewerProps}
        footer={
          safety.nearFovea.size > 0 && (
            <ul className="mp-legend" aria-label={t('legend.label')}>
              <li>
                <span className="mp-legend-swatch mp-legend-near-fovea" style={{ background: MARK_COLOURS.nearFovea }} aria-hidden="true" />
                {t('safety.nearFovea')}
              </li>
            </ul>
          )
        }
      />
      <StepPanel
        title={t('steps.2')}
        intro={<p>{editable ? t('grid.intro') : t('readOnlyIntro')}</p>}
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
              disabled={layout.problem !== null || treated === 0 || refused}
              aria-describedby={refused ? alertId : undefined}
              onClick={confirm}
            >
              {t('grid.confirm')}
            </Button>
          ) : null
        }
      >
        {children}
        <p className="mp-spot-count" aria-live="polite">
          <strong>{t('grid.count', { count: treated, value: number(treated) })}</strong>
          {removed > 0 && <span className="mp-muted-text"> {t('grid.removed', { count: removed, value: number(removed) })}</span>}
        </p>
        {layout.problem && (
          <p className="mp-field-error" role="alert">
            {layout.problem === 'too_many' ? t('grid.tooMany', { max: number(MAX_SPOTS) }) : t('grid.outerRadiusTooSmall')}
          </p>
        )}
        {!layout.problem && spots.length === 0 && (
          <p className="mp-field-error" role="alert">
            {t('grid.empty')}
          </p>
        )}
        <FormGroup label={t('grid.pattern')} labelFor={patternId}>
          <Select
            id={patternId}
            value={draft.settings.pattern}
            disabled={!editable}
            onChange={(event) => setting('pattern', event.currentTarget.value as GridSettings['pattern'])}
            options={Object.values(GridPattern).map((pattern) => ({ value: pattern, label: t(`grid.patterns.${pattern}`) }))}
          />
        </FormGroup>
        <div className="mp-field-row">
          <NumberField label={t('grid.spotSize')} unit="µm" value={draft.settings.spotSizeUm} {...RANGES.spotSizeUm} disabled={!editable} onChange={(value) => setting('spotSizeUm', value)} />
          <NumberField label={t('grid.spacing')} unit="×" digits={2} value={draft.settings.spacing} {...RANGES.spacing} disabled={!editable} onChange={(value) => setting('spacing', value)} />
        </div>
        {estimated && (
          <p className="mp-estimated-scale">
            {t('safety.estimated', { percent: formatNumber(ESTIMATED_SCALE_UNCERTAINTY * 100, i18n.language, 0) })}
          </p>
        )}
        <div className="mp-field-row">
          <NumberField label={t('grid.innerRadius')} unit="µm" value={draft.settings.innerRadiusUm} {...RANGES.innerRadiusUm} disabled={!editable} onChange={(value) => setting('innerRadiusUm', value)} />
          <NumberField label={t('grid.outerRadius')} unit="µm" value={draft.settings.outerRadiusUm} {...RANGES.outerRadiusUm} disabled={!editable} onChange={(value) => setting('outerRadiusUm', value)} />
        </div>
        {editable && <p className="mp-muted-text">{t('grid.toggleHint')}</p>}
        <SafetyAlert id={alertId} lines={refusals} />
      </StepPanel>
    </div>
  );
}
