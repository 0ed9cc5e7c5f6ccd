import { Button } from '@blueprintjs/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSaveBrightness } from '@generated/hooks/planning/planning';
import { DEFAULT_POWER_BOUNDS, POWER_BOUND_RANGES, type BrightnessModel } from '@/domain/planning/brightness';
import { formatNumber } from '@/lib/format';
import { FundusViewer } from './fundus-viewer';
import { NumberField } from './number-field';
import { sceneOf } from './plan-canvas';
import { powerLegend } from '@/domain/planning/power-colours';
import { factorHistogram, poweredSpots, type DrawnSpot } from './plan-scene';
import { StepPanel, useDraft } from './step-panel';
import type { StepProps } from './step-props';
import { useStepSave, type StepFailure } from './use-step-save';

type Bounds = Pick<BrightnessModel, 'minFactor' | 'maxFactor'>;

/** The legend of the power colours with a histogram of the treated spots' factors. */
export function PowerLegend({ spots, model }: { spots: readonly DrawnSpot[]; model: Bounds }) {
  const { t, i18n } = useTranslation('planning');
  const legend = powerLegend(model);
  const counts = factorHistogram(spots, model);
  const most = Math.max(1, ...counts);
  const factor = (value: number) => formatNumber(value, i18n.language, 2);
  return (
    <figure className="mp-power-legend">
      <figcaption>{t('brightness.legend')}</figcaption>
      <ol className="mp-histogram">
        {legend.map((entry, k) => (
          <li key={entry.colour} aria-label={t('brightness.bin', { from: factor(entry.from), to: factor(entry.to), count: counts[k] })}>
            <span className="mp-histogram-bar" style={{ height: `${(counts[k] / most) * 100}%`, background: entry.colour }} />
            <span className="mp-histogram-count" aria-hidden="true">
              {counts[k]}
            </span>
          </li>
        ))}
      </ol>
      <div className="mp-histogram-axis" aria-hidden="true">
        <span>{t('brightness.darker', { value: factor(model.minFactor) })}</span>
        <span>{t('brightness.brighter', { value: factor(model.maxFactor) })}</span>
      </div>
    </figure>
  );
}

/** Wizard step 3: each spot's power factor from the fundus brightness, coloured, with adjustable bounds; confirmed. */
export function BrightnessStep({ treatment, image, editable, resets, children }: StepProps) {
  const { t, i18n } = useTranslation('planning');
  const { plan } = treatment;
  const umPerPixel = plan.scale!.umPerPixel;
  const model = plan.brightness ?? { ...DEFAULT_POWER_BOUNDS, medianBrightness: 0 };
  const { draft, history, commit, undo, redo } = useDraft<Bounds>(() => ({ minFactor: model.minFactor, maxFactor: model.maxFactor }));
  const [failure, setFailure] = useState<StepFailure | null>(null);
  const { saved, failed } = useStepSave(treatment);
  const save = useSaveBrightness({
    mutation: { onSuccess: (answer) => saved({ plan: answer.data, message: answer.message }), onError: (error) => setFailure(failed(error)) },
  });
  const tried = useMemo(() => ({ ...model, ...draft }), [model, draft]);
  const spots = useMemo(() => poweredSpots(plan.spots, plan.brightness ? tried : null, treatment.laserDose ?? null), [plan.spots, plan.brightness, tried, treatment.laserDose]);

  const scene = sceneOf({ zones: plan.exclusionZones, fovea: plan.fovea, spots, spotRadiusPx: plan.gridSettings!.spotSizeUm / 2 / umPerPixel });
  const confirm = () => {
    setFailure(null);
    save.mutate({ id: treatment.id, data: { revision: plan.revision, minFactor: draft.minFactor, maxFactor: draft.maxFactor } });
  };

  return (
    <div className="mp-step">
      <FundusViewer
        treatmentId={treatment.id}
        image={image}
        umPerPixel={umPerPixel}
        fovea={plan.fovea}
        scene={scene}
      />
      <StepPanel
        title={t('steps.3')}
        intro={
          <>
            <p>{t('brightness.intro')}</p>
            <p className="mp-muted-text">{t('brightness.aid')}</p>
          </>
        }
        history={editable ? history : undefined}
        onUndo={undo}
        onRedo={redo}
        resets={editable ? resets : []}
        failure={failure}
        actions={
          editable ? (
            <Button intent="primary" size="large" loading={save.isPending} onClick={confirm}>
              {t('brightness.confirm')}
            </Button>
          ) : null
        }
      >
        {children}
        <p>{t('brightness.median', { value: formatNumber(model.medianBrightness, i18n.language, 3) })}</p>
        <div className="mp-field-row">
          <NumberField
            label={t('brightness.minFactor')}
            digits={2}
            value={draft.minFactor}
            min={POWER_BOUND_RANGES.minFactor.min}
            max={POWER_BOUND_RANGES.minFactor.max}
            step={0.05}
            disabled={!editable}
            onChange={(minFactor) => commit({ ...draft, minFactor })}
          />
          <NumberField
            label={t('brightness.maxFactor')}
            digits={2}
            value={draft.maxFactor}
            min={POWER_BOUND_RANGES.maxFactor.min}
            max={POWER_BOUND_RANGES.maxFactor.max}
            step={0.05}
            disabled={!editable}
            onChange={(maxFactor) => commit({ ...draft, maxFactor })}
          />
        </div>
        <PowerLegend spots={spots} model={draft} />
      </StepPanel>
    </div>
  );
}
