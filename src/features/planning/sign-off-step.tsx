import { Button, Callout, Checkbox, FormGroup, InputGroup } from '@blueprintjs/core';
import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useListTreatmentAudit, useListTreatmentDevices, useSaveFinalAdjustments } from '@generated/hooks/planning/planning';
import { useConfirmTreatment } from '@generated/hooks/treatments/treatments';
import { LaserMode } from '@generated/model/laserMode';
import { usePreviousTreatment as usePreviousSession } from '@/components/previous-treatment/previous-treatment';
import { Select } from '@/components/select';
import { POWER_STEP_MW } from '@/domain/planning/brightness';
import { DEFAULT_CLINICAL_LIMITS } from '@/domain/planning/clinical-limits';
import { ApiError } from '@/lib/api-client';
import { formatNumber } from '@/lib/format';
import { PowerLegend } from './brightness-step';
import { FundusViewer } from './fundus-viewer';
import { NumberField } from './number-field';
import { PatientIdentity } from './patient-identity';
import { changesBetween, sameSettings, settingChanges, type SettingChange, type SignOffSettings } from './plan-change';
import { sceneOf } from './plan-canvas';
import { poweredSpots, toggledId, totalEnergyMj } from './plan-scene';
import { usePreviousTreatment } from './previous-treatment';
import { SignOffCheck, TreatingLaser, useRefusalMessage } from './sign-off-laser';
import { laserRanges, laserRefusals, type AdjustmentField } from './sign-off-safety';
import { StepPanel, useDraft } from './step-panel';
import type { StepProps } from './step-props';
import { useSpotCursor } from './use-spot-cursor';
import { useStepSave, type StepFailure } from './use-step-save';

/** The draft: the settings the change notice compares, and the duty cycle and treating laser (issue 26). */
type Adjustments = Omit<SignOffSettings, 'revision'>;

/** Server field errors shown on the fields of this step (use-step-save.ts shows the others in the panel). */
const FIELDS: readonly AdjustmentField[] = ['treatmentDeviceId', 'laserMode', 'pulseDurationMs', 'dutyCyclePercent', 'laserDose'];

/**
 * The plan changed by someone else while the step was open: from which settings to which, whether the user's
 * confirmation was cleared and their unsaved adjustments discarded by it.
 */
interface ChangeNotice {
  from: SignOffSettings;
  to: SignOffSettings;
  wasConfirmed: boolean;
  discarded: boolean;
}

const PULSE_RANGE = { min: 0.1, max: 1000 };
const DUTY_CYCLE_RANGE = { min: 1, max: 100 };

const sameIds = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((id, k) => id === b[k]);
const list = (items: string[], language: string) => new Intl.ListFormat(language.startsWith('de') ? 'de-DE' : 'en-GB', { type: 'conjunction' }).format(items);

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
      dutyCyclePercent: treatment.dutyCyclePercent ?? null,
      treatmentDeviceId: plan.safety?.treatmentDevice?.id ?? null,
    }),
    [treatment, plan.spots, plan.safety],
  );
  const { draft, history, commit, update, undo, redo, reset } = useDraft<Adjustments>(() => initial);
  const [failure, setFailure] = useState<StepFailure | null>(null);
  // The server's word per field, shown on the field until that draft is changed.
  const [fieldErrors, setFieldErrors] = useState<{ draft: Adjustments; errors: Partial<Record<AdjustmentField, string>> } | null>(null);
  const [password, setPassword] = useState('');
  const [confirmed, setConfirmed] = useState(false);
  const [passwordError, setPasswordError] = useState<string | null>(null);
  const { saved, failed } = useStepSave(treatment);
  const adjust = useSaveFinalAdjustments();
  const signOff = useConfirmTreatment();
  // A plan back at sign-off because packing its parameter set failed says so (the audit trail's last entry);
  // a plan changed by someone else names them from it.
  const audit = useListTreatmentAudit(treatment.id, { query: { meta: { persist: false }, staleTime: 0 } });
  const devices = useListTreatmentDevices(treatment.id, { query: { enabled: editable } });

  // The step stays open when the server's plan changes (the page does not start it again per revision): the
  // draft starts again from the new plan here. A revision this step saved itself is the user's own; any other
  // (realtime or a refetch brought it) is someone else's: the confirmation is cleared and the notice says
  // who changed what. The password typed stays: it names who signs, not what; the tick is what confirms the
  // plan, and the sign-off cannot be sent without it.
  const settings = useMemo<SignOffSettings>(() => ({ revision: plan.revision, ...initial }), [plan.revision, initial]);
  const [seen, setSeen] = useState(settings);
  const [notice, setNotice] = useState<ChangeNotice | null>(null);
  const ownRevisions = useRef(new Set<number>());
  if (!sameSettings(seen, settings)) {
    setSeen(settings);
    reset(initial);
    if (settings.revision !== seen.revision) {
      setConfirmed(false);
      setFailure(null);
      setPasswordError(null);
      if (ownRevisions.current.has(settings.revision)) setNotice(null);
      else {
        const discarded = !sameSettings({ ...draft, revision: seen.revision }, seen);
        setNotice((before) => ({
          from: before?.from ?? seen,
          to: settings,
          wasConfirmed: (before?.wasConfirmed ?? false) || confirmed,
          discarded: (before?.discarded ?? false) || discarded,
        }));
      }
    }
  }
  const noticeRevision = notice?.to.revision;
  const { refetch: refetchAudit } = audit;
  useEffect(() => {
    // Realtime refetches the trail with the plan; a change found otherwise (polling, a refused save) reads it here.
    if (noticeRevision !== undefined) void refetchAudit();
  }, [noticeRevision, refetchAudit]);
  const lastChange = audit.data?.data.at(-1);
  const packingFailed = lastChange?.action === 'packing_failed' && lastChange.revision === plan.revision ? lastChange : null;

  const disabledSet = useMemo(() => new Set(draft.disabled), [draft.disabled]);
  const spots = useMemo(() => poweredSpots(plan.spots, plan.brightness, draft.laserDose, disabledSet), [plan.spots, plan.brightness, draft.laserDose, disabledSet]);
  const treated = spots.filter((spot) => spot.enabled);
  const powers = treated.map((spot) => spot.powerMw).filter((power): power is number => power !== null);
  const energy = totalEnergyMj(spots, draft.pulseDurationMs);

  // The laser that will treat: the one chosen in the draft (from the clinic's list), else the plan's.
  const planDevice = plan.safety?.treatmentDevice ?? null;
  const deviceList = devices.data?.data ?? [];
  const device = (draft.treatmentDeviceId === planDevice?.id ? planDevice : deviceList.find((other) => other.id === draft.treatmentDeviceId)) ?? planDevice;
  const profile = device?.laserProfile ?? null;
  const limits = plan.safety?.limits ?? DEFAULT_CLINICAL_LIMITS;
  const ranges = laserRanges(profile, limits, draft.laserMode);
  const micropulse = draft.laserMode === 'micropulse';
  // What the server would refuse, said before saving (docs/clinical-limits.md); sign-off also needs a profile and,
  // in micropulse, a duty cycle.
  const refusals = laserRefusals(
    {
      mode: draft.laserMode,
      pulseMs: draft.pulseDurationMs,
      dutyCyclePercent: micropulse ? draft.dutyCyclePercent : null,
      spotSizeUm: plan.gridSettings!.spotSizeUm,
      spacing: plan.gridSettings!.spacing,
      powersMw: powers,
    },
    profile,
    limits,
  );
  const refusedOnSave = refusals.filter((refusal) => refusal.blocksSave);
  const refusedAtSignOff = refusals.filter((refusal) => !refusal.blocksSave);
  const refusalMessage = useRefusalMessage();
  const shownErrors = fieldErrors?.draft === draft ? fieldErrors.errors : {};

  const changed =
    draft.laserDose !== initial.laserDose ||
    draft.pulseDurationMs !== initial.pulseDurationMs ||
    draft.laserMode !== initial.laserMode ||
    (micropulse && draft.dutyCyclePercent !== initial.dutyCyclePercent) ||
    draft.treatmentDeviceId !== initial.treatmentDeviceId ||
    !sameIds(draft.disabled, initial.disabled);
  const cursor = useSpotCursor(spots, (id) => editable && update((before) => ({ ...before, disabled: toggledId(before.disabled, id) })), editable);
  const isPhysician = role === 'clinic_physicians';
  const number = (value: number, digits = 0) => formatNumber(value, i18n.language, digits);

  const adjustments = () => ({
    revision: plan.revision,
    ...(draft.laserDose !== null && { laserDose: draft.laserDose }),
    ...(draft.pulseDurationMs !== null && { pulseDurationMs: draft.pulseDurationMs }),
    ...(draft.laserMode !== null && { laserMode: draft.laserMode }),
    // A duty cycle belongs to micropulse (null clears it); in continuous mode the server clears it.
    ...(micropulse && draft.dutyCyclePercent !== initial.dutyCyclePercent && { dutyCyclePercent: draft.dutyCyclePercent }),
    ...(draft.treatmentDeviceId !== null && draft.treatmentDeviceId !== initial.treatmentDeviceId && { treatmentDeviceId: draft.treatmentDeviceId }),
    disabledSpotIds: [...draft.disabled],
  });

  /** The step's failure with the server's field errors on their fields (the rest stay in the panel). */
  const failedWith = (error: unknown): StepFailure | null => {
    const failure = failed(error);
    const errors: Partial<Record<AdjustmentField, string>> = {};
    if (error instanceof ApiError && error.errors) for (const field of FIELDS) if (error.errors[field]?.[0]) errors[field] = error.errors[field][0];
    setFieldErrors({ draft, errors });
    const onFields = new Set(Object.values(errors));
    return failure && { ...failure, fields: failure.fields.filter((line) => !onFields.has(line)) };
  };

  const saveAdjustments = async () => {
    setFailure(null);
    try {
      const answer = await adjust.mutateAsync({ id: treatment.id, data: adjustments() });
      ownRevisions.current.add(answer.data.revision);
      const settings = {
        laserDose: draft.laserDose,
        pulseDurationMs: draft.pulseDurationMs,
        laserMode: draft.laserMode,
        dutyCyclePercent: micropulse ? draft.dutyCyclePercent : null,
      };
      await saved({ plan: answer.data, settings, message: answer.message }, true);
    } catch (error) {
      setFailure(failedWith(error));
    }
  };

  const submitSignOff = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    setPasswordError(null);
    // The button is disabled without the tick; Enter in the password field must not sign either.
    if (!confirmed) return;
    if (!password) {
      setPasswordError(t('signOff.passwordRequired'));
      return;
    }
    let revision = plan.revision;
    try {
      // Adjustments not yet saved are saved first: the signature covers the plan as shown.
      if (changed) {
        revision = (await adjust.mutateAsync({ id: treatment.id, data: adjustments() })).data.revision;
        ownRevisions.current.add(revision);
      }
      const answer = await signOff.mutateAsync({ id: treatment.id, data: { revision, password, confirm: true } });
      setPassword('');
      await saved({ treatment: answer.data, message: answer.message ?? t('signOff.done') });
    } catch (error) {
      const field = error instanceof ApiError ? error.errors?.password?.[0] : undefined;
      if (field) setPasswordError(field);
      else if (error instanceof ApiError && error.status === 429) setPasswordError(error.message);
      else setFailure(failedWith(error));
    }
  };

  const deviceName = (id: string) => (id === planDevice?.id ? planDevice : deviceList.find((other) => other.id === id))?.deviceId ?? null;
  const changeNotice = notice && (
    <ChangeNoticeCallout notice={notice} entries={audit.data?.data} auditFailed={audit.isError} isPhysician={isPhysician && editable} deviceName={deviceName} />
  );

  const scene = sceneOf({
    zones: plan.exclusionZones,
    fovea: plan.fovea,
    spots,
    spotRadiusPx: plan.gridSettings!.spotSizeUm / 2 / umPerPixel,
    spotsClickable: editable,
    focusedSpot: cursor.focusedSpot,
  });
  const zones = plan.exclusionZones!;
  // The earlier session's spots under today's, counted as the viewer counts them.
  const previous = usePreviousTreatment(treatment.id, { spots: scene.spots, spotRadiusPx: scene.spotRadiusPx, umPerPixel });
  const previousSession = usePreviousSession(treatment.id).registered?.session;
  const overlap =
    previous.overlay && previousSession
      ? { count: previous.overlay.over.size, session: previousSession.number, treated: Boolean(previousSession.treatedAt) }
      : null;
  const check = (
    <SignOffCheck
      device={device}
      mode={draft.laserMode}
      pulseMs={draft.pulseDurationMs}
      dutyCyclePercent={draft.dutyCyclePercent}
      brightness={plan.brightness}
      estimatedScale={plan.scale?.source === 'estimated'}
      overlap={overlap}
    />
  );
  const summary: [string, string][] = [
    [t('summary.spots'), t('summary.spotsValue', { treated: number(treated.length), removed: number(spots.length - treated.length) })],
    [t('summary.faz'), t('summary.circle', { radius: number(zones.faz.radiusXUm) })],
    [t('summary.onh'), t('summary.ellipse', { x: number(zones.onh.radiusXUm), y: number(zones.onh.radiusYUm), rotation: number(zones.onh.rotationDeg) })],
    [t('summary.grid'), t('summary.gridValue', { pattern: t(`grid.patterns.${plan.gridSettings!.pattern}`), size: number(plan.gridSettings!.spotSizeUm), spacing: number(plan.gridSettings!.spacing, 2) })],
    [t('summary.laserDose'), draft.laserDose === null ? '—' : `${number(draft.laserDose, 1)} mW`],
    [t('summary.powerRange'), powers.length ? `${number(Math.min(...powers), 1)}–${number(Math.max(...powers), 1)} mW` : '—'],
    [t('summary.pulse'), draft.pulseDurationMs === null ? '—' : `${number(draft.pulseDurationMs, 1)} ms`],
    [t('summary.mode'), draft.laserMode ? t(`modes.${draft.laserMode}`) : '—'],
    ...(micropulse ? [[t('signOff.dutyCycle'), draft.dutyCyclePercent === null ? '—' : `${number(draft.dutyCyclePercent, 1)} %`] as [string, string]] : []),
    [t('summary.energy'), energy === null ? '—' : `${number(energy, 1)} mJ`],
  ];

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
            <Button loading={adjust.isPending && !signOff.isPending} disabled={refusedOnSave.length > 0} onClick={() => void saveAdjustments()}>
              {t('signOff.saveAdjustments')}
            </Button>
          ) : null
        }
      >
        {children}
        {!(editable && isPhysician) && changeNotice}
        {packingFailed && (
          <Callout intent="danger" compact className="mp-step-callout" title={t('signOff.packingFailed')}>
            <p>{packingFailed.summary}</p>
            <p>{t('signOff.packingFailedHelp')}</p>
          </Callout>
        )}
        <TreatingLaser
          device={device}
          devices={deviceList}
          ranges={ranges}
          mode={draft.laserMode}
          disabled={!editable}
          error={shownErrors.treatmentDeviceId}
          onChange={(treatmentDeviceId) => commit({ ...draft, treatmentDeviceId })}
        />
        <FormGroup label={t('signOff.mode')} labelFor={modeId} intent={shownErrors.laserMode ? 'danger' : 'none'} helperText={shownErrors.laserMode}>
          <Select
            id={modeId}
            value={draft.laserMode ?? ''}
            disabled={!editable}
            aria-invalid={Boolean(shownErrors.laserMode)}
            onChange={(event) => commit({ ...draft, laserMode: (event.currentTarget.value || null) as LaserMode | null })}
            options={[
              ...(draft.laserMode === null ? [{ value: '', label: '—' }] : []),
              // The modes the laser offers; a mode it lacks stays shown while the plan has it (refused below).
              ...Object.values(LaserMode)
                .filter((mode) => ranges.modes.includes(mode) || mode === draft.laserMode)
                .map((mode) => ({ value: mode, label: t(`modes.${mode}`) })),
            ]}
          />
        </FormGroup>
        <div className="mp-field-row">
          <NumberField
            label={t('signOff.laserDose')}
            unit="mW"
            digits={1}
            value={draft.laserDose ?? 0}
            min={ranges.powerMw.min}
            max={ranges.powerMw.max}
            step={POWER_STEP_MW}
            disabled={!editable}
            onChange={(laserDose) => commit({ ...draft, laserDose })}
          />
          <NumberField
            label={t('signOff.pulse')}
            unit="ms"
            digits={1}
            value={draft.pulseDurationMs ?? 0}
            {...(ranges.pulseMs ?? PULSE_RANGE)}
            step={0.1}
            disabled={!editable}
            onChange={(pulseDurationMs) => commit({ ...draft, pulseDurationMs })}
          />
        </div>
        {(shownErrors.laserDose || shownErrors.pulseDurationMs) && (
          <p className="mp-field-error" role="alert">
            {[shownErrors.laserDose, shownErrors.pulseDurationMs].filter(Boolean).join(' ')}
          </p>
        )}
        {micropulse && (
          <div className="mp-field-row">
            <NumberField
              label={t('signOff.dutyCycle')}
              unit="%"
              digits={1}
              value={draft.dutyCyclePercent ?? 0}
              {...(ranges.dutyCyclePercent ?? DUTY_CYCLE_RANGE)}
              step={1}
              disabled={!editable}
              onChange={(dutyCyclePercent) => commit({ ...draft, dutyCyclePercent })}
            />
          </div>
        )}
        {micropulse && shownErrors.dutyCyclePercent && (
          <p className="mp-field-error" role="alert">
            {shownErrors.dutyCyclePercent}
          </p>
        )}
        {editable && refusedOnSave.length > 0 && (
          <Callout intent="danger" compact className="mp-step-callout mp-laser-refusals" title={t('signOff.refusal.title')} role="alert">
            <ul>
              {refusedOnSave.map((refusal) => (
                <li key={refusal.code}>{refusalMessage(refusal, draft.laserMode)}</li>
              ))}
            </ul>
          </Callout>
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
              <div className="mp-sign-off-patient">
                <p className="mp-sign-off-patient-intro">{t('signOff.patientIntro')}</p>
                <PatientIdentity treatment={treatment} withSession />
              </div>
              {check}
              {refusedAtSignOff.length > 0 && (
                <Callout intent="warning" compact className="mp-step-callout" title={t('signOff.refusal.titleSignOff')}>
                  <ul>
                    {refusedAtSignOff.map((refusal) => (
                      <li key={refusal.code}>{refusalMessage(refusal, draft.laserMode)}</li>
                    ))}
                  </ul>
                </Callout>
              )}
              {changeNotice}
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
              <Button type="submit" intent="primary" size="large" icon="endorsed" disabled={!confirmed || refusals.length > 0} loading={signOff.isPending || adjust.isPending}>
                {t('signOff.submit')}
              </Button>
            </form>
          ) : (
            <>
              {check}
              <Callout intent="primary" compact className="mp-step-callout" title={t('signOff.physicianNeeded')}>
                {t('signOff.nurseText')}
              </Callout>
            </>
          ))}
      </StepPanel>
    </div>
  );
}

/** Who changed what while the step was open, and what that did to the user's confirmation and draft. */
function ChangeNoticeCallout({
  notice,
  entries,
  auditFailed,
  isPhysician,
  deviceName,
}: {
  notice: ChangeNotice;
  entries: Parameters<typeof changesBetween>[0];
  auditFailed: boolean;
  isPhysician: boolean;
  /** A laser's device id (its name on the devices screen), when the clinic's list has it. */
  deviceName(id: string): string | null;
}) {
  const { t, i18n } = useTranslation('planning');
  const language = i18n.language;
  const { known, names, summaries } = changesBetween(entries, notice.from.revision, notice.to.revision);
  // The trail is read again with the plan: until it has the change, the notice waits (a moment) rather than
  // name nobody; when it cannot be read, "someone else" it is.
  if (!known && !auditFailed) return null;
  const value = (change: SettingChange, which: 'before' | 'after') => {
    const raw = change[which];
    if (raw === null) return '—';
    if (change.setting === 'laserMode') return t(`modes.${raw as NonNullable<typeof change.before>}`);
    if (change.setting === 'treatmentDevice') return deviceName(raw as string) ?? t('signOff.changed.otherDevice');
    return formatNumber(raw as number, language, change.setting === 'removedSpots' ? 0 : 1);
  };
  const changes = settingChanges(notice.from, notice.to).map((change) =>
    change.setting === 'removedSpots' && change.before === change.after
      ? t('signOff.changed.removedOther')
      : t(`signOff.changed.${change.setting}`, { before: value(change, 'before'), after: value(change, 'after') }),
  );
  const who = names.length ? list(names, language) : t('signOff.changed.someone');
  const count = Math.max(1, names.length);
  return (
    <Callout intent="warning" compact className="mp-step-callout mp-change-notice" role="alert" title={t('signOff.changed.title')}>
      <p>{changes.length ? t('signOff.changed.by', { count, names: who, changes: list(changes, language) }) : t('signOff.changed.byPlan', { count, names: who })}</p>
      {!changes.length && summaries.length > 0 && (
        <ul>
          {summaries.map((summary, k) => (
            <li key={k}>{summary}</li>
          ))}
        </ul>
      )}
      {notice.discarded && <p>{t('signOff.changed.discarded')}</p>}
      {isPhysician && <p>{notice.wasConfirmed ? t('signOff.changed.confirmAgain') : t('signOff.changed.checkAgain')}</p>}
    </Callout>
  );
}
