import { Button, Callout, Checkbox } from '@blueprintjs/core';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSaveBrightness } from '@generated/hooks/planning/planning';
import { DEFAULT_POWER_BOUNDS, POWER_BOUND_RANGES, type BrightnessModel } from '@/domain/planning/brightness';
import { formatDateTime, formatNumber } from '@/lib/format';
import { FundusViewer } from './fundus-viewer';
import { NumberField } from './number-field';
import { MARK_COLOURS, sceneOf } from './plan-canvas';
import { powerLegend } from '@/domain/planning/power-colours';
import { brightnessOutliers, safetyOf, upperBound, type BrightnessOutliers } from './plan-safety';
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

/** The spots left out of the median, by side, with what they likely are and what they get. */
function Outliers({ outliers }: { outliers: BrightnessOutliers }) {
  const { t, i18n } = useTranslation('planning');
  const number = (value: number) => formatNumber(value, i18n.language);
  const count = outliers.dark.size + outliers.bright.size;
  if (count === 0) return <p className="mp-outliers">{t('brightness.outliers.none')}</p>;
  return (
    <div className="mp-outliers">
      <p className="mp-outliers-title">{t('brightness.outliers.title', { count, value: number(count) })}</p>
      <ul>
        <li>{t('brightness.outliers.dark', { value: number(outliers.dark.size) })}</li>
        <li>{t('brightness.outliers.bright', { value: number(outliers.bright.size) })}</li>
      </ul>
      <p>{t('brightness.outliers.capped')}</p>
    </div>
  );
}

/** Under the image: how the spots left out of the median are marked. */
function OutlierLegend() {
  const { t } = useTranslation('planning');
  return (
    <ul className="mp-legend" aria-label={t('legend.label')}>
      <li>
        <span className="mp-legend-swatch mp-legend-dark" style={{ borderColor: MARK_COLOURS.dark }} aria-hidden="true" />
        {t('brightness.outliers.legendDark')}
      </li>
      <li>
        <span className="mp-legend-swatch mp-legend-bright" style={{ borderColor: MARK_COLOURS.bright }} aria-hidden="true" />
        {t('brightness.outliers.legendBright')}
      </li>
    </ul>
  );
}

/**
 * Wizard step 3: each spot's power factor from the fundus brightness, coloured, with adjustable bounds; the spots
 * left out of the median marked and counted; confirmed. The upper bound is the titrated power unless a physician
 * explicitly chooses more for this plan (docs/clinical-limits.md).
 */
export function BrightnessStep({ treatment, image, editable, resets, role, children }: StepProps) {
  const { t, i18n } = useTranslation('planning');
  const { plan } = treatment;
  const umPerPixel = plan.scale!.umPerPixel;
  const model = plan.brightness ?? { ...DEFAULT_POWER_BOUNDS, medianBrightness: 0 };
  const titrated = safetyOf(plan).limits.maxPowerFactor;
  // A bound above the titration that no physician chose is not kept by the server: the step starts at the titration.
  const keptMax = model.maxFactor > titrated && !model.aboveTitration ? titrated : model.maxFactor;
  const { draft, history, commit, undo, redo } = useDraft<Bounds>(() => ({ minFactor: model.minFactor, maxFactor: keptMax }));
  const bound = upperBound(role, plan, draft.maxFactor);
  // The physician's tick holds for the bound they ticked it for; another bound asks again.
  const [chosenFor, setChosenFor] = useState<number | null>(null);
  const chosen = chosenFor === draft.maxFactor;
  const blocked = bound.needsConfirmation && !chosen;
  const reasonId = useId();
  const [failure, setFailure] = useState<StepFailure | null>(null);
  const { saved, failed } = useStepSave(treatment);
  const save = useSaveBrightness({
    mutation: { onSuccess: (answer) => saved({ plan: answer.data, message: answer.message }), onError: (error) => setFailure(failed(error)) },
  });
  const tried = useMemo(() => ({ ...model, ...draft }), [model, draft]);
  const spots = useMemo(() => poweredSpots(plan.spots, plan.brightness ? tried : null, treatment.laserDose ?? null), [plan.spots, plan.brightness, tried, treatment.laserDose]);
  const outliers = useMemo(() => brightnessOutliers(plan.spots, plan.brightness), [plan.spots, plan.brightness]);

  const scene = sceneOf({
    zones: plan.exclusionZones,
    fovea: plan.fovea,
    spots,
    spotRadiusPx: plan.gridSettings!.spotSizeUm / 2 / umPerPixel,
    spotMarks: outliers.dark.size + outliers.bright.size ? outliers : null,
  });
  const confirm = () => {
    setFailure(null);
    save.mutate({ id: treatment.id, data: { revision: plan.revision, minFactor: draft.minFactor, maxFactor: bound.send } });
  };
  const aboveTitration = model.aboveTitration && draft.maxFactor === model.maxFactor ? model.aboveTitration : null;

  return (
    <div className="mp-step">
      <FundusViewer
        treatmentId={treatment.id}
        image={image}
        umPerPixel={umPerPixel}
        scaleEstimated={plan.scale!.source === 'estimated'}
        fovea={plan.fovea}
        scene={scene}
        footer={outliers.dark.size + outliers.bright.size > 0 && <OutlierLegend />}
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
            <>
              <Button intent="primary" size="large" loading={save.isPending} disabled={blocked} aria-describedby={blocked ? reasonId : undefined} onClick={confirm}>
                {t('brightness.confirm')}
              </Button>
              {blocked && (
                <p id={reasonId} className="mp-muted-text mp-action-reason">
                  {t('brightness.titrated.needsConfirmation')}
                </p>
              )}
            </>
          ) : null
        }
      >
        {children}
        <p>{t('brightness.median', { value: formatNumber(model.medianBrightness, i18n.language, 3) })}</p>
        {plan.brightness && <Outliers outliers={outliers} />}
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
            disabled={!editable || !bound.editable}
            onChange={(maxFactor) => commit({ ...draft, maxFactor })}
          />
        </div>
        {editable && !bound.editable && draft.maxFactor <= titrated && <p className="mp-muted-text">{t('brightness.titrated.nurse')}</p>}
        {aboveTitration && (
          <Callout intent="warning" compact className="mp-step-callout">
            {t('brightness.titrated.chosen', { name: aboveTitration.by.name, date: formatDateTime(aboveTitration.at, i18n.language) })}
          </Callout>
        )}
        {editable && bound.needsConfirmation && (
          <Callout intent="warning" compact className="mp-step-callout mp-above-titration">
            <p>{t('brightness.titrated.warning')}</p>
            <Checkbox checked={chosen} label={t('brightness.titrated.confirm')} onChange={(event) => setChosenFor(event.currentTarget.checked ? draft.maxFactor : null)} />
          </Callout>
        )}
        <PowerLegend spots={spots} model={draft} />
      </StepPanel>
    </div>
  );
}
