import { Alert, Button, Callout, Card, Checkbox, Classes, DialogBody, DialogFooter, FormGroup, InputGroup, Radio, RadioGroup, Spinner, Switch } from '@blueprintjs/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { Controller, useForm, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  getGetClinicSettingsQueryKey,
  useForceResetPassword,
  useGetClinicSettings,
  useStopRenewPassword,
  usePreviewClinicSettings,
  useUpdateClinicSettings,
} from '@generated/hooks/clinic/clinic';
import { PasswordStrength } from '@generated/model/passwordStrength';
import type { Period } from '@generated/model/period';
import { IDLE_LOGOUT_BOUNDS, RENEWAL_BOUNDS } from '@/domain/security/setting-bounds';
import type { SecuritySettings } from '@generated/model/securitySettings';
import type { SecuritySettingsPreviewResponseData } from '@generated/model/securitySettingsPreviewResponseData';
import type { SecuritySettingsResponse } from '@generated/model/securitySettingsResponse';
import { SecuritySettingsTwoFactorRolesItem } from '@generated/model/securitySettingsTwoFactorRolesItem';
import { SettingsScope } from '@generated/model/settingsScope';
import { Dialog } from '@/components/dialog';
import { useFailureMessage } from '@/components/form-fields';
import { useNotify } from '@/components/notifications';
import { Select } from '@/components/select';
import { useValidationMessage } from '@/components/use-validation-message';
import { ApiError } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { DEFAULT_SECURITY_SETTINGS, SERVER_FIELDS, settingsFormOf, settingsFormSchema, settingsOf, type SettingsFormValues } from './settings-form';
import { UserPicker } from './user-picker';
import './security-settings.css';
import './icons';

const resolver = zodResolver(settingsFormSchema);

type IntervalProps = {
  control: Control<SettingsFormValues>;
  on: 'renewalOn' | 'logoutOn';
  interval: 'renewalInterval' | 'logoutInterval';
  period: 'renewalPeriod' | 'logoutPeriod';
  enabled: boolean;
  label: string;
  /** The number's label, e.g. "Renew every". */
  intervalLabel: string;
  /** The units offered (setting-bounds.ts); a stored unit outside them stays shown until changed. */
  periods: readonly Period[];
  error: string | undefined;
};

/** A switch, and while it is on: how many of which period (minutes, hours, days, months, years). */
function IntervalField({ control, on, interval, period, enabled, label, intervalLabel, periods, error }: IntervalProps) {
  const { t } = useTranslation('securitySettings');
  const ids = { interval: useId(), period: useId(), error: useId() };
  return (
    <div className="mp-interval">
      <Controller
        control={control}
        name={on}
        render={({ field }) => <Switch label={label} checked={field.value} onChange={(event) => field.onChange(event.currentTarget.checked)} large />}
      />
      {enabled && (
        <div className="mp-interval-fields">
          <FormGroup label={intervalLabel} labelFor={ids.interval} intent={error ? 'danger' : 'none'}>
            <Controller
              control={control}
              name={interval}
              render={({ field }) => (
                <InputGroup
                  id={ids.interval}
                  inputMode="numeric"
                  className="mp-interval-number"
                  value={field.value}
                  onValueChange={field.onChange}
                  onBlur={field.onBlur}
                  intent={error ? 'danger' : 'none'}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? ids.error : undefined}
                />
              )}
            />
          </FormGroup>
          <FormGroup label={t('interval.period')} labelFor={ids.period}>
            <Controller
              control={control}
              name={period}
              render={({ field }) => (
                <Select id={ids.period} value={field.value} onChange={(event) => field.onChange(event.currentTarget.value)}>
                  {(periods.includes(field.value) ? periods : [field.value, ...periods]).map((value) => (
                    <option key={value} value={value}>
                      {t(`periods.${value}`)}
                    </option>
                  ))}
                </Select>
              )}
            />
          </FormGroup>
          {error && (
            <p id={ids.error} className={`${Classes.FORM_HELPER_TEXT} mp-field-error mp-interval-error`}>
              {error}
            </p>
          )}
        </div>
      )}
    </div>
  );
}

/** Force a password reset for everyone or for chosen users: their sessions end now. */
function ForceResetDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('securitySettings');
  const notify = useNotify();
  const failureMessage = useFailureMessage();
  const [scope, setScope] = useState<SettingsScope>(SettingsScope.all);
  const [users, setUsers] = useState<string[]>([]);
  const [missing, setMissing] = useState(false);
  const pickerLabel = useId();
  const force = useForceResetPassword({
    mutation: {
      onSuccess: (answer) => {
        notify({ intent: 'success', message: answer.message ?? t('forceReset.done') });
        onClose();
      },
    },
  });
  return (
    <Dialog isOpen onClose={onClose} title={t('forceReset.title')} className="mp-dialog mp-force-reset-dialog">
      <DialogBody>
        <p className="mp-dialog-text">{t('forceReset.explanation')}</p>
        <RadioGroup label={t('forceReset.whom')} selectedValue={scope} onChange={(event) => setScope(event.currentTarget.value as SettingsScope)}>
          <Radio value={SettingsScope.all} label={t('forceReset.all')} />
          <Radio value={SettingsScope.several} label={t('forceReset.several')} />
        </RadioGroup>
        {scope === SettingsScope.several && (
          <>
            <p id={pickerLabel} className="mp-user-picker-title">
              {t('forceReset.users')}
            </p>
            <UserPicker
              value={users}
              onChange={(next) => {
                setUsers(next);
                setMissing(false);
              }}
              labelledBy={pickerLabel}
              error={missing ? t('picker.required') : undefined}
            />
          </>
        )}
        <Callout intent="warning" className="mp-dialog-callout">
          {t('forceReset.permanent')}
        </Callout>
        {force.error && (
          <Callout intent="danger" role="alert" className="mp-dialog-callout">
            {failureMessage(force.error)}
          </Callout>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button onClick={onClose}>{t('cancel')}</Button>
            <Button
              intent="danger"
              loading={force.isPending}
              onClick={() => {
                if (scope === SettingsScope.several && users.length === 0) return setMissing(true);
                force.mutate({ data: scope === SettingsScope.all ? { user: 'all' } : { user: 'several', users } });
              }}
            >
              {t('forceReset.confirm')}
            </Button>
          </>
        }
      />
    </Dialog>
  );
}

/** /admin/security-settings (IT admins only): password strength, renewal, whom they apply to, idle sign-out. */
export function SecuritySettingsPage() {
  const { t } = useTranslation('securitySettings');
  const failureMessage = useFailureMessage();
  const settings = useGetClinicSettings();
  return (
    <>
      <h1 className="mp-page-title">{t('title')}</h1>
      <p className="mp-page-intro">{t('intro')}</p>
      {settings.isError ? (
        <Callout intent="danger" role="alert">
          {failureMessage(settings.error)}
        </Callout>
      ) : !settings.data ? (
        <Spinner aria-label={t('loading')} />
      ) : (
        <SettingsEditor saved={settings.data.data} />
      )}
    </>
  );
}

/** The form, made from the saved settings and reset to what each save answers. */
function SettingsEditor({ saved: savedSettings }: { saved: SecuritySettings }) {
  const { t, i18n } = useTranslation('securitySettings');
  const { t: roleLabel } = useTranslation('common', { keyPrefix: 'roles' });
  const queryClient = useQueryClient();
  const notify = useNotify();
  const failureMessage = useFailureMessage();
  const validationMessage = useValidationMessage();
  const [forcing, setForcing] = useState(false);
  const [stopping, setStopping] = useState(false);
  const ids = { strength: useId(), scope: useId(), picker: useId(), overdueTitle: useId(), overdueText: useId(), rememberDays: useId(), defaultsNote: useId() };
  const {
    control,
    handleSubmit,
    reset,
    setError,
    watch,
    formState: { errors, isDirty },
  } = useForm<SettingsFormValues>({ resolver, defaultValues: settingsFormOf(savedSettings) });

  // Settings read anew (a reload shows the cached ones first, then the server's) replace an untouched form.
  useEffect(() => {
    if (!isDirty) reset(settingsFormOf(savedSettings));
  }, [savedSettings, isDirty, reset]);

  const saved = (answer: SecuritySettingsResponse) => {
    queryClient.setQueryData(getGetClinicSettingsQueryKey(), answer);
    reset(settingsFormOf(answer.data));
    notify({ intent: 'success', message: answer.message ?? t('saved') });
  };
  const refused = (error: unknown) => {
    const named = error instanceof ApiError ? Object.entries(SERVER_FIELDS).filter(([field]) => error.errors?.[field]?.length) : [];
    for (const [field, name] of named) setError(name, { type: 'server', message: (error as ApiError).errors![field][0] });
    if (!named.length) notify({ intent: 'danger', message: failureMessage(error), duration: 0 });
  };
  const update = useUpdateClinicSettings({ mutation: { onSuccess: saved, onError: refused } });
  const stop = useStopRenewPassword({
    mutation: {
      onSuccess: saved,
      onError: (error) => notify({ intent: 'danger', message: failureMessage(error), duration: 0 }),
    },
  });
  const [renewalOn, logoutOn, scope] = watch(['renewalOn', 'logoutOn', 'scope']);
  const renewalSaved = savedSettings.password_renewal_interval != null;
  const showsDefaults = sameSettings(settingsOf(watch()), DEFAULT_SECURITY_SETTINGS);

  // Before saving renewal rules, the admin learns how many passwords they make overdue (their own included) and
  // until when those still work (issue 27, defect 9).
  const [overdue, setOverdue] = useState<{ settings: SecuritySettings; preview: SecuritySettingsPreviewResponseData }>();
  const preview = usePreviewClinicSettings({ mutation: { onError: refused } });
  const submit = (values: SettingsFormValues) => {
    const settings = settingsOf(values);
    if (settings.password_renewal_interval === null) return update.mutate({ data: settings });
    preview.mutate(
      { data: settings },
      { onSuccess: ({ data }) => (data.overdue > 0 ? setOverdue({ settings, preview: data }) : update.mutate({ data: settings })) },
    );
  };

  return (
    <>
      <div className="mp-security-layout">
          <form noValidate onSubmit={(event) => void handleSubmit(submit)(event)}>
            <Card className="mp-security-card">
              <h2 className="mp-card-title">{t('password.title')}</h2>
              <Controller
                control={control}
                name="strength"
                render={({ field }) => (
                  <RadioGroup
                    label={<span id={ids.strength}>{t('password.strength')}</span>}
                    selectedValue={field.value}
                    onChange={(event) => field.onChange(event.currentTarget.value)}
                    className="mp-strength-choices"
                  >
                    {Object.values(PasswordStrength).map((value) => (
                      <Radio key={value} value={value} labelElement={<StrengthLabel strength={value} />} />
                    ))}
                  </RadioGroup>
                )}
              />
              <IntervalField
                control={control}
                on="renewalOn"
                interval="renewalInterval"
                period="renewalPeriod"
                enabled={renewalOn}
                label={t('password.renewal')}
                intervalLabel={t('interval.renewEvery')}
                periods={RENEWAL_BOUNDS.periods}
                error={validationMessage(errors.renewalInterval?.message)}
              />
              <Controller
                control={control}
                name="scope"
                render={({ field }) => (
                  <RadioGroup
                    label={<span id={ids.scope}>{t('password.scope')}</span>}
                    selectedValue={field.value}
                    onChange={(event) => field.onChange(event.currentTarget.value)}
                  >
                    <Radio value={SettingsScope.all} label={t('password.all')} />
                    <Radio value={SettingsScope.several} label={t('password.several')} />
                  </RadioGroup>
                )}
              />
              {scope === SettingsScope.several && (
                <>
                  <p id={ids.picker} className="mp-user-picker-title">
                    {t('password.users')}
                  </p>
                  <Controller
                    control={control}
                    name="users"
                    render={({ field }) => <UserPicker value={field.value} onChange={field.onChange} labelledBy={ids.picker} error={errors.users ? t('picker.required') : undefined} />}
                  />
                  <p className="mp-muted-text mp-scope-note">{t('password.othersNote')}</p>
                </>
              )}
            </Card>
            <Card className="mp-security-card">
              <h2 className="mp-card-title">{t('logout.title')}</h2>
              <IntervalField
                control={control}
                on="logoutOn"
                interval="logoutInterval"
                period="logoutPeriod"
                enabled={logoutOn}
                label={t('logout.on')}
                intervalLabel={t('interval.signOutAfter')}
                periods={IDLE_LOGOUT_BOUNDS.periods}
                error={validationMessage(errors.logoutInterval?.message)}
              />
              <p className="mp-muted-text">{t('logout.note')}</p>
            </Card>
            <Card className="mp-security-card">
              <h2 className="mp-card-title">{t('twoFactor.title')}</h2>
              <p className="mp-muted-text">{t('twoFactor.intro')}</p>
              <Controller
                control={control}
                name="twoFactorRoles"
                render={({ field }) => (
                  <fieldset className="mp-two-factor-roles">
                    <legend className={Classes.LABEL}>{t('twoFactor.roles')}</legend>
                    {Object.values(SecuritySettingsTwoFactorRolesItem).map((role) => (
                      <Checkbox
                        key={role}
                        label={roleLabel(role)}
                        checked={field.value.includes(role)}
                        onChange={(event) =>
                          field.onChange(event.currentTarget.checked ? [...field.value, role] : field.value.filter((value) => value !== role))
                        }
                      />
                    ))}
                  </fieldset>
                )}
              />
              <Controller
                control={control}
                name="rememberDeviceDays"
                render={({ field }) => {
                  const error = validationMessage(errors.rememberDeviceDays?.message);
                  return (
                    <FormGroup
                      label={t('twoFactor.rememberDays')}
                      labelFor={ids.rememberDays}
                      helperText={error ?? t('twoFactor.rememberNote')}
                      intent={error ? 'danger' : 'none'}
                    >
                      <InputGroup
                        {...field}
                        id={ids.rememberDays}
                        inputMode="numeric"
                        className="mp-interval-number"
                        intent={error ? 'danger' : 'none'}
                        aria-invalid={error ? true : undefined}
                      />
                    </FormGroup>
                  );
                }}
              />
            </Card>
            <div className="mp-button-row">
              <Button type="submit" intent="primary" size="large" loading={update.isPending || preview.isPending}>
                {t('save')}
              </Button>
              {isDirty && (
                <Button size="large" onClick={() => reset(settingsFormOf(savedSettings))} disabled={update.isPending}>
                  {t('discard')}
                </Button>
              )}
              {/* Fills the form only: nothing applies until saved, and "Discard changes" takes it back. */}
              <Button
                size="large"
                variant="minimal"
                icon="reset"
                disabled={update.isPending || showsDefaults}
                aria-describedby={ids.defaultsNote}
                onClick={() => {
                  reset(settingsFormOf(DEFAULT_SECURITY_SETTINGS), { keepDefaultValues: true });
                  notify({ intent: 'success', message: t('defaults.filled') });
                }}
              >
                {t('defaults.restore')}
              </Button>
            </div>
            <p id={ids.defaultsNote} className="mp-muted-text">
              {t('defaults.note')}
            </p>
          </form>
          <Card className="mp-security-card mp-security-actions">
            <h2 className="mp-card-title">{t('actions.title')}</h2>
            <p>{t('actions.forceText')}</p>
            <Button icon="key" onClick={() => setForcing(true)}>
              {t('actions.force')}
            </Button>
            <p className="mp-security-action-gap">{t(renewalSaved ? 'actions.stopText' : 'actions.stopOff')}</p>
            <Button icon="disable" disabled={!renewalSaved} loading={stop.isPending} onClick={() => setStopping(true)}>
              {t('actions.stop')}
            </Button>
          </Card>
      </div>
      {forcing && <ForceResetDialog onClose={() => setForcing(false)} />}
      <Alert
        isOpen={overdue !== undefined}
        intent="warning"
        confirmButtonText={t('overdue.confirm')}
        cancelButtonText={t('cancel')}
        canEscapeKeyCancel
        onConfirm={() => {
          if (overdue) update.mutate({ data: overdue.settings });
          setOverdue(undefined);
        }}
        onCancel={() => setOverdue(undefined)}
        aria-labelledby={ids.overdueTitle}
        aria-describedby={ids.overdueText}
      >
        <h2 id={ids.overdueTitle} className="mp-card-title">
          {t('overdue.title')}
        </h2>
        {overdue && (
          <p id={ids.overdueText}>
            {t(overdue.preview.includesYou ? 'overdue.textWithYou' : 'overdue.text', {
              count: overdue.preview.overdue,
              date: formatDateTime(overdue.preview.graceUntil!, i18n.language),
            })}
          </p>
        )}
      </Alert>
      <Alert
        isOpen={stopping}
        intent="primary"
        confirmButtonText={t('actions.stop')}
        cancelButtonText={t('cancel')}
        canEscapeKeyCancel
        onConfirm={() => {
          setStopping(false);
          stop.mutate();
        }}
        onCancel={() => setStopping(false)}
      >
        <p>{t('actions.stopConfirm')}</p>
      </Alert>
    </>
  );
}

/** Whether two settings apply the same rules (the order of two-factor roles aside). */
function sameSettings(a: SecuritySettings, b: SecuritySettings): boolean {
  const normal = (settings: SecuritySettings) => ({ ...settings, users: settings.users ?? [], two_factor_roles: [...(settings.two_factor_roles ?? [])].sort() });
  // A number being typed that is not one yet (NaN) is no default, though JSON would write it as null.
  const text = (settings: SecuritySettings) => JSON.stringify(normal(settings), (_key, value: unknown) => (Number.isNaN(value) ? 'NaN' : value));
  return text(a) === text(b);
}

/** A strength level with what it demands. */
function StrengthLabel({ strength }: { strength: PasswordStrength }) {
  const { t } = useTranslation('securitySettings');
  return (
    <span className="mp-strength-label">
      <strong>{t(`strength.${strength}.name`)}</strong>
      <span className="mp-muted-text">{t(`strength.${strength}.rules`)}</span>
    </span>
  );
}
