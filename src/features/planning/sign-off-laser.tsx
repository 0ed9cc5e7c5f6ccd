import { Callout, FormGroup } from '@blueprintjs/core';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { BrightnessModel } from '@generated/model/brightnessModel';
import type { TreatmentDevice } from '@generated/model/treatmentDevice';
import { Select } from '@/components/select';
import { ESTIMATED_SCALE_UNCERTAINTY, type LaserModeName } from '@/domain/planning/clinical-limits';
import { formatDate, formatNumber } from '@/lib/format';
import type { LaserRanges, LaserRefusal } from './sign-off-safety';

/**
 * "MLS-2041-0117 · 577 nm · Laser room 1": the device, its wavelength when it has a profile, and where it stands
 * (a transfer's device has no profile: "MLS-2041-0117 · Laser room 1").
 */
export function useDeviceLabel() {
  const { i18n } = useTranslation('planning');
  return (device: Pick<TreatmentDevice, 'deviceId' | 'description'> & { laserProfile?: TreatmentDevice['laserProfile'] }) => {
    const profile = device.laserProfile;
    const name = profile ? `${device.deviceId} · ${formatNumber(profile.wavelengthNm, i18n.language)}\u00a0nm` : device.deviceId;
    return device.description ? `${name} · ${device.description}` : name;
  };
}

/**
 * The laser the plan is for, a choice of the clinic's lasers that have a laser profile, and the ranges the
 * profile gives in the drafted mode. Without a laser with a profile the plan cannot be signed off: said plainly.
 */
export function TreatingLaser({
  device,
  devices,
  ranges,
  mode,
  disabled,
  error,
  onChange,
}: {
  device: TreatmentDevice | null;
  devices: readonly TreatmentDevice[];
  ranges: LaserRanges;
  mode: LaserModeName | null;
  disabled: boolean;
  error?: string;
  onChange(id: string): void;
}) {
  const { t, i18n } = useTranslation('planning');
  const id = useId();
  const label = useDeviceLabel();
  const number = (value: number) => formatNumber(value, i18n.language, 1);
  const options = [...devices];
  if (device && !options.some((other) => other.id === device.id)) options.unshift(device);
  const limits = [
    ranges.pulseMs && t('signOff.limits.pulse', { min: number(ranges.pulseMs.min), max: number(ranges.pulseMs.max) }),
    mode === 'micropulse' && ranges.dutyCyclePercent && t('signOff.limits.dutyCycle', { min: number(ranges.dutyCyclePercent.min), max: number(ranges.dutyCyclePercent.max) }),
    device?.laserProfile && t('signOff.limits.power', { min: number(ranges.powerMw.min), max: number(ranges.powerMw.max) }),
  ].filter(Boolean);
  return (
    <>
      <FormGroup
        label={t('signOff.laser.choose')}
        labelFor={id}
        className="mp-treating-laser"
        intent={error ? 'danger' : 'none'}
        helperText={error ?? (device?.laserProfile && limits.length ? limits.join(' · ') : undefined)}
      >
        <Select
          id={id}
          fill
          value={device?.id ?? ''}
          disabled={disabled || options.length === 0}
          aria-invalid={Boolean(error)}
          onChange={(event) => event.currentTarget.value && onChange(event.currentTarget.value)}
          options={[...(device ? [] : [{ value: '', label: '—' }]), ...options.map((other) => ({ value: other.id, label: label(other) }))]}
        />
      </FormGroup>
      {!device?.laserProfile && (
        <Callout intent="warning" compact className="mp-step-callout" title={t('signOff.laser.noProfileTitle')} role="status">
          {device ? t('signOff.laser.noProfile', { device: label(device) }) : t('signOff.laser.noDevice')}
        </Callout>
      )}
    </>
  );
}

/** A refusal the server would give, in the UI language with its figures. */
export function useRefusalMessage() {
  const { t, i18n } = useTranslation('planning');
  const number = (value: number, digits = 1) => formatNumber(value, i18n.language, digits);
  return (refusal: LaserRefusal, mode: LaserModeName | null): string => {
    const modeName = mode ? t(`modes.${mode}`) : '—';
    switch (refusal.code) {
      case 'device_profile_missing':
        return t('signOff.refusal.device_profile_missing');
      case 'mode_not_offered':
        return t('signOff.refusal.mode_not_offered', { mode: modeName });
      case 'spot_size_not_offered':
        return t('signOff.refusal.spot_size_not_offered', { spotSize: number(refusal.spotSizeUm), min: number(refusal.min), max: number(refusal.max) });
      case 'pulse_out_of_range':
        return t('signOff.refusal.pulse_out_of_range', { pulse: number(refusal.pulseMs), min: number(refusal.min), max: number(refusal.max), mode: modeName });
      case 'duty_cycle_missing':
        return t('signOff.refusal.duty_cycle_missing', { min: number(refusal.min), max: number(refusal.max) });
      case 'duty_cycle_out_of_range':
        return t('signOff.refusal.duty_cycle_out_of_range', { dutyCycle: number(refusal.dutyCyclePercent), min: number(refusal.min), max: number(refusal.max) });
      case 'spacing_too_small':
        return t('signOff.refusal.spacing_too_small', { spacing: number(refusal.spacing, 2), minimum: number(refusal.minimum, 2), mode: modeName });
      case 'power_out_of_limits':
        return t('signOff.refusal.power_out_of_limits', { count: refusal.count, value: number(refusal.count, 0), min: number(refusal.min), max: number(refusal.max) });
      case 'irradiance_too_high':
        return t('signOff.refusal.irradiance_too_high', {
          count: refusal.count,
          value: number(refusal.count, 0),
          ceiling: number(refusal.ceiling, 0),
          highest: number(refusal.highest, 0),
        });
    }
  };
}

/**
 * What a physician must see before signing, beside the password: the laser, the settings it will treat with,
 * whether any power exceeds the titrated power (and who chose that), the spots left out of the brightness
 * median, an estimated scale, and the earlier session's spots under today's.
 */
export function SignOffCheck({
  device,
  mode,
  pulseMs,
  dutyCyclePercent,
  brightness,
  estimatedScale,
  overlap,
}: {
  device: TreatmentDevice | null;
  mode: LaserModeName | null;
  pulseMs: number | null;
  dutyCyclePercent: number | null;
  brightness: BrightnessModel | null | undefined;
  estimatedScale: boolean;
  /** Today's spots on the earlier session's (`treated`: the spots its laser delivered). */
  overlap: { count: number; session: number; treated: boolean } | null;
}) {
  const { t, i18n } = useTranslation('planning');
  const { t: tPrevious } = useTranslation('previousTreatment');
  const label = useDeviceLabel();
  const number = (value: number, digits = 1) => formatNumber(value, i18n.language, digits);
  const above = brightness?.aboveTitration;
  const excluded = brightness?.excludedSpots ?? 0;
  const settings = [
    mode ? t(`modes.${mode}`) : '—',
    pulseMs !== null && t('signOff.check.pulseValue', { pulse: number(pulseMs) }),
    mode === 'micropulse' && t('signOff.check.dutyCycleValue', { dutyCycle: dutyCyclePercent === null ? '—' : number(dutyCyclePercent) }),
  ].filter(Boolean);
  const rows: { term: string; value: string; warning?: boolean }[] = [
    { term: t('signOff.check.laser'), value: device ? label(device) : '—', warning: !device?.laserProfile },
    { term: t('signOff.check.settings'), value: settings.join(' · ') },
    {
      term: t('signOff.check.power'),
      value: above
        ? t('signOff.check.aboveTitration', { factor: number(brightness!.maxFactor, 2), name: above.by.name, date: formatDate(above.at, i18n.language) })
        : t('signOff.check.atTitration'),
      warning: Boolean(above),
    },
    ...(brightness ? [{ term: t('signOff.check.brightness'), value: t('signOff.check.excluded', { count: excluded, value: number(excluded, 0) }) }] : []),
    ...(estimatedScale
      ? [{ term: t('signOff.check.scale'), value: t('signOff.check.estimated', { percent: number(ESTIMATED_SCALE_UNCERTAINTY * 100, 0) }), warning: true }]
      : []),
    ...(overlap && overlap.count > 0
      ? [{ term: t('signOff.check.previous'), value: tPrevious('over', { count: overlap.count, session: overlap.session, context: overlap.treated ? 'treated' : undefined }), warning: true }]
      : []),
  ];
  return (
    <section className="mp-sign-off-check" aria-label={t('signOff.check.title')}>
      <h4 className="mp-sign-off-check-title">{t('signOff.check.title')}</h4>
      <dl>
        {rows.map((row) => (
          <div key={row.term} className={row.warning ? 'mp-sign-off-check-warning' : undefined}>
            <dt>{row.term}</dt>
            <dd>{row.value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
