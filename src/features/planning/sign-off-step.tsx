import { Button, Callout, Checkbox, FormGroup, InputGroup } from '@blueprintjs/core';
import { useId, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useListTreatmentAudit, useSaveFinalAdjustments } from '@generated/hooks/planning/planning';
import { useConfirmTreatment } from '@generated/hooks/treatments/treatments';
import { LaserMode } from '@generated/model/laserMode';
import { Select } from '@/components/select';
import { DEFAULT_POWER_LIMITS, POWER_STEP_MW, withinPowerLimits } from '@/domain/planning/brightness';
import { ApiError } from '@/lib/api-client';
import { formatNumber } from '@/lib/format';
import { PowerLegend } from './brightness-step';
import { FundusViewer } from './fundus-viewer';
import { NumberField } from './number-field';
import { sceneOf } from './plan-canvas';
import { poweredSpots, toggledId, totalEnergyMj } from './plan-scene';
import { StepPanel, useDraft } from './step-panel';
import type { StepProps } from './step-props';
import { useSpotCursor } from './use-spot-cursor';
import { useStepSave, type StepFailure } from './use-step-save';

interface Adjustments {
  laserDose: number | null;
  pulseDurationMs: number | null;
  laserMode: LaserMode | null;
  disabled: readonly number[];
}

const PULSE_RANGE = { min: 0.1, max: 1000 };

const sameIds = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((id, k) => id === b[k]);

/**
 * Wizard step 4: laser dose, pulse and mode within the device's limits, spots removed or restored, the plan's
 * summary, and the physician's sign-off with the password entered again. A nurse prepares; a physician signs.
 */
export function SignOffStep({ treatment, image, editable, role, children }: StepProps) {
  const { t, i18n } = useTranslation('planning');
  const { plan } = treatment;
  const umPerPixel = plan.scale!.umPerPixel;
  const passwordId = useId();
  const modeId = useId();
  const initial = useMemo<Adjustments>(
    () => ({
      laserDose: treatment.laserDose ?? null,
      pulseDurationMs: treatment.pulseDurationMs ?? null,
      laserMode: treatment.laserMode ?? null,
      disabled: plan.spots.filter((spot) => !spot.enabled).map((spot) => spot.id),
    }),
    [treatment, plan.spots],
  );
  const { draft, history, commit, update, undo, redo } = useDraft<Adjustments>(() => initial);
  const [failure, setFailure] = useState<StepFailure | null>(null);
  const [password, setPassword] = useState('');
  const [confirmed, setConfirmed] = useState(false);
  const [passwordError, setPasswordError] = useState<string | null>(null);
  const { saved, failed } = useStepSave(treatment);
  const adjust = useSaveFinalAdjustments();
  const signOff = useConfirmTreatment();
  // A plan back at sign-off because packing its parameter set failed says so (the audit trail's last entry).
  const audit = useListTreatmentAudit(treatment.id, { query: { meta: { persist: false }, staleTime: 0 } });
  const lastChange = audit.data?.data.at(-1);
  const packingFailed = lastChange?.action === 'packing_failed' && lastChange.revision === plan.revision ? lastChange : null;

  const disabledSet = useMemo(() => new Set(draft.disabled), [draft.disabled]);
  const spots = useMemo(() => poweredSpots(plan.spots, plan.brightness, draft.laserDose, disabledSet), [plan.spots, plan.brightness, draft.laserDose, disabledSet]);
  const treated = spots.filter((spot) => spot.enabled);
  const powers = treated.map((spot) => spot.powerMw).filter((power): power is number => power !== null);
  const outOfLimits = powers.some((power) => !withinPowerLimits(DEFAULT_POWER_LIMITS, power));
  const energy = totalEnergyMj(spots, draft.pulseDurationMs);
  const changed =
    draft.laserDose !== initial.laserDose || draft.pulseDurationMs !== initial.pulseDurationMs || draft.laserMode !== initial.laserMode || !sameIds(draft.disabled, initial.disabled);
  const cursor = useSpotCursor(spots, (id) => editable && update((before) => ({ ...before, disabled: toggledId(before.disabled, id) })), editable);
  const isPhysician = role === 'clinic_physicians';
  const number = (value: number, digits = 0) => formatNumber(value, i18n.language, digits);

  const adjustments = () => ({
    revision: plan.revision,
    ...(draft.laserDose !== null && { laserDose: draft.laserDose }),
    ...(draft.pulseDurationMs !== null && { pulseDurationMs: draft.pulseDurationMs }),
    ...(draft.laserMode !== null && { laserMode: draft.laserMode }),
    disabledSpotIds: [...draft.disabled],
  });

  const saveAdjustments = async () => {
    setFailure(null);
    try {
      const answer = await adjust.mutateAsync({ id: treatment.id, data: adjustments() });
      await saved({ plan: answer.data, message: answer.message }, true);
    } catch (error) {
      setFailure(failed(error));
    }
  };

  const submitSignOff = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    setPasswordError(null);
    if (!password) {
      setPasswordError(t('signOff.passwordRequired'));
      return;
    }
    let revision = plan.revision;
    try {
      // Adjustments not yet saved are saved first: the signature covers the plan as shown.
      if (changed) revision = (await adjust.mutateAsync({ id: treatment.id, data: adjustments() })).data.revision;
      const answer = await signOff.mutateAsync({ id: treatment.id, data: { revision, password, confirm: true } });
      setPassword('');
      await saved({ treatment: answer.data, message: answer.message ?? t('signOff.done') });
    } catch (error) {
      const field = error instanceof ApiError ? error.errors?.password?.[0] : undefined;
      if (field) setPasswordError(field);
      else if (error instanceof ApiError && error.status === 429) setPasswordError(error.message);
      else setFailure(failed(error));
    }
  };

  const scene = sceneOf({
    zones: plan.exclusionZones,
    fovea: plan.fovea,
    spots,
    spotRadiusPx: plan.gridSettings!.spotSizeUm / 2 / umPerPixel,
    spotsClickable: editable,
    focusedSpot: cursor.focusedSpot,
  });
  const zones = plan.exclusionZones!;
  const summary: [string, string][] = [
    [t('summary.spots'), t('summary.spotsValue', { treated: number(treated.length), removed: number(spots.length - treated.length) })],
    [t('summary.faz'), t('summary.circle', { radius: number(zones.faz.radiusXUm) })],
    [t('summary.onh'), t('summary.ellipse', { x: number(zones.onh.radiusXUm), y: number(zones.onh.radiusYUm), rotation: number(zones.onh.rotationDeg) })],
    [t('summary.grid'), t('summary.gridValue', { pattern: t(`grid.patterns.${plan.gridSettings!.pattern}`), size: number(plan.gridSettings!.spotSizeUm), spacing: number(plan.gridSettings!.spacing, 2) })],
    [t('summary.laserDose'), draft.laserDose === null ? '—' : `${number(draft.laserDose, 1)} mW`],
    [t('summary.powerRange'), powers.length ? `${number(Math.min(...powers), 1)}–${number(Math.max(...powers), 1)} mW` : '—'],
    [t('summary.pulse'), draft.pulseDurationMs === null ? '—' : `${number(draft.pulseDurationMs, 1)} ms`],
    [t('summary.mode'), draft.laserMode ? t(`modes.${draft.laserMode}`) : '—'],
    [t('summary.energy'), energy === null ? '—' : `${number(energy, 1)} mJ`],
  ];

  return (
    <div className="mp-step">
      <FundusViewer
        treatmentId={treatment.id}
        image={image}
        umPerPixel={umPerPixel}
        fovea={plan.fovea}
        scene={scene}
        {...cursor.viewerProps}
        footer={plan.brightness && <PowerLegend spots={spots} model={plan.brightness} />}
      />
      <StepPanel
        title={t('steps.4')}
        intro={<p>{editable ? t('signOff.intro') : t('readOnlyIntro')}</p>}
        history={editable ? history : undefined}
        onUndo={undo}
        onRedo={redo}
        resets={[]}
        failure={failure}
        actions={
          editable && changed ? (
            <Button loading={adjust.isPending && !signOff.isPending} disabled={outOfLimits} onClick={() => void saveAdjustments()}>
              {t('signOff.saveAdjustments')}
            </Button>
          ) : null
        }
      >
        {children}
        {packingFailed && (
          <Callout intent="danger" compact className="mp-step-callout" title={t('signOff.packingFailed')}>
            <p>{packingFailed.summary}</p>
            <p>{t('signOff.packingFailedHelp')}</p>
          </Callout>
        )}
        <div className="mp-field-row">
          <NumberField
            label={t('signOff.laserDose')}
            unit="mW"
            digits={1}
            value={draft.laserDose ?? 0}
            min={DEFAULT_POWER_LIMITS.minMw}
            max={DEFAULT_POWER_LIMITS.maxMw}
            step={POWER_STEP_MW}
            disabled={!editable}
            onChange={(laserDose) => commit({ ...draft, laserDose })}
          />
          <NumberField
            label={t('signOff.pulse')}
            unit="ms"
            digits={1}
            value={draft.pulseDurationMs ?? 0}
            {...PULSE_RANGE}
            step={0.1}
            disabled={!editable}
            onChange={(pulseDurationMs) => commit({ ...draft, pulseDurationMs })}
          />
        </div>
        <FormGroup label={t('signOff.mode')} labelFor={modeId}>
          <Select
            id={modeId}
            value={draft.laserMode ?? ''}
            disabled={!editable}
            onChange={(event) => commit({ ...draft, laserMode: (event.currentTarget.value || null) as LaserMode | null })}
            options={[
              ...(draft.laserMode === null ? [{ value: '', label: '—' }] : []),
              ...Object.values(LaserMode).map((mode) => ({ value: mode, label: t(`modes.${mode}`) })),
            ]}
          />
        </FormGroup>
        {outOfLimits && (
          <p className="mp-field-error" role="alert">
            {t('signOff.outOfLimits', { min: number(DEFAULT_POWER_LIMITS.minMw, 1), max: number(DEFAULT_POWER_LIMITS.maxMw) })}
          </p>
        )}
        <h3 className="mp-subtitle">{t('summary.title')}</h3>
        <dl className="mp-definition-list mp-plan-summary">
          {summary.map(([term, value]) => (
            <div key={term} className="mp-setting">
              <dt>{term}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
        <p className="mp-muted-text">{t('summary.energyNote')}</p>
        {editable &&
          (isPhysician ? (
            <form className="mp-sign-off" onSubmit={(event) => void submitSignOff(event)} noValidate>
              <h3 className="mp-subtitle">{t('signOff.title')}</h3>
              <Checkbox checked={confirmed} onChange={(event) => setConfirmed(event.currentTarget.checked)} label={t('signOff.confirmPlan')} />
              <FormGroup
                label={t('signOff.password')}
                labelFor={passwordId}
                intent={passwordError ? 'danger' : 'none'}
                helperText={passwordError ?? t('signOff.passwordHelp')}
              >
                <InputGroup
                  id={passwordId}
                  type="password"
                  autoComplete="current-password"
                  value={password}
                  maxLength={128}
                  intent={passwordError ? 'danger' : 'none'}
                  aria-invalid={Boolean(passwordError)}
                  onValueChange={(value) => setPassword(value)}
                />
              </FormGroup>
              <Button type="submit" intent="primary" size="large" icon="endorsed" disabled={!confirmed || outOfLimits} loading={signOff.isPending || adjust.isPending}>
                {t('signOff.submit')}
              </Button>
            </form>
          ) : (
            <Callout intent="primary" compact className="mp-step-callout" title={t('signOff.physicianNeeded')}>
              {t('signOff.nurseText')}
            </Callout>
          ))}
      </StepPanel>
    </div>
  );
}
