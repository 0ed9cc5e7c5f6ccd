// The audit trail of a plan as a clinician reads it: every change, oldest first, with who, when, the step and
// revision it led to, and what changed in a sentence in the reader's language. The entries keep figures
// (plan_changes.details); the sentence is written when read.
import type { PlanAuditAction } from '../../generated/model/planAuditAction';
import type { PlanAuditEntry } from '../../generated/model/planAuditEntry';
import type { PlanStepName } from '../../generated/model/planStepName';
import type { Actor } from '../actor';
import type { AppContext } from '../context';
import { isMessageKey, type Lang, type MessageKey, translate } from '../i18n';
import { planChangeRows } from '../repositories/plan-changes';
import { audit } from './audit';
import { findTreatmentRow } from './treatments';

const numberFormats: Record<Lang, Intl.NumberFormat> = {
  en: new Intl.NumberFormat('en-GB', { maximumFractionDigits: 2, useGrouping: false }),
  de: new Intl.NumberFormat('de-DE', { maximumFractionDigits: 2, useGrouping: false }),
};

type Details = Record<string, unknown>;
type Radii = { xUm: number; yUm: number; rotationDeg: number };

function summaryOf(lang: Lang, action: PlanAuditAction, details: Details): string {
  const n = (value: unknown) => (typeof value === 'number' ? numberFormats[lang].format(value) : translate(lang, 'plan.value_none'));
  const t = (key: string, params: Record<string, string | number> = {}) => (isMessageKey(key) ? translate(lang, key as MessageKey, params) : key);
  const zone = (radii: Radii) => {
    const size = radii.xUm === radii.yUm ? n(radii.xUm) : `${n(radii.xUm)} × ${n(radii.yUm)}`;
    return radii.rotationDeg ? `${size} (${t('plan.audit.turned', { degrees: n(radii.rotationDeg) })})` : size;
  };
  let sentence: string;
  switch (action) {
    case 'proposed':
      sentence = t('plan.audit.proposed', { faz: n(details.fazUm), onh: n(details.onhUm) });
      break;
    case 'exclusion_zones_saved':
      sentence = t('plan.audit.exclusion_zones_saved', { faz: zone(details.faz as Radii), onh: zone(details.onh as Radii) });
      break;
    case 'macula_grid_saved': {
      const settings = details.settings as { pattern: string; spotSizeUm: number; spacing: number; innerRadiusUm: number; outerRadiusUm: number };
      sentence = t('plan.audit.macula_grid_saved', {
        pattern: t(`plan.pattern.${settings.pattern}`),
        spotSize: n(settings.spotSizeUm),
        spacing: n(settings.spacing),
        inner: n(settings.innerRadiusUm),
        outer: n(settings.outerRadiusUm),
        spots: n(details.spots),
        removed: n(details.removed),
      });
      break;
    }
    case 'brightness_saved': {
      const parts = [t('plan.audit.brightness_saved', { median: n(details.median), minFactor: n(details.minFactor), maxFactor: n(details.maxFactor) })];
      if (typeof details.excludedSpots === 'number' && details.excludedSpots > 0) parts.push(t('plan.audit.brightness_excluded', { count: n(details.excludedSpots) }));
      // Above the titrated power is the physician's explicit choice: the trail names it (issue 26).
      if (typeof details.aboveTitration === 'string') parts.push(t('plan.audit.above_titration', { name: details.aboveTitration }));
      sentence = parts.join(' ');
      break;
    }
    case 'final_adjustments_saved': {
      const before = details.before as Record<string, number | string | null>;
      const after = details.after as Record<string, number | string | null>;
      const mode = (value: unknown) => (typeof value === 'string' ? t(`plan.laser_mode.${value}`) : n(value));
      const changes = [
        before.laserDose !== after.laserDose && t('plan.audit.laser_dose', { before: n(before.laserDose), after: n(after.laserDose) }),
        before.pulseDurationMs !== after.pulseDurationMs && t('plan.audit.pulse_duration', { before: n(before.pulseDurationMs), after: n(after.pulseDurationMs) }),
        before.laserMode !== after.laserMode && t('plan.audit.laser_mode', { before: mode(before.laserMode), after: mode(after.laserMode) }),
        (before.dutyCyclePercent ?? null) !== (after.dutyCyclePercent ?? null) && t('plan.audit.duty_cycle', { before: n(before.dutyCyclePercent), after: n(after.dutyCyclePercent) }),
        (before.treatmentDeviceId ?? null) !== (after.treatmentDeviceId ?? null) && t('plan.audit.treatment_device'),
        details.removedBefore !== details.removedAfter && t('plan.audit.removed_spots', { before: n(details.removedBefore), after: n(details.removedAfter) }),
      ].filter((change): change is string => typeof change === 'string');
      sentence = t('plan.audit.final_adjustments_saved', { changes: changes.length ? changes.join(', ') : t('plan.audit.no_change') });
      break;
    }
    case 'signed_off':
      sentence = t('plan.audit.signed_off', { spots: n(details.spots) });
      break;
    case 'parameter_set_packed':
      sentence = t('plan.audit.parameter_set_packed', { spots: n(details.spots), size: n(details.size) });
      break;
    case 'issue_reported':
      sentence = t('plan.audit.issue_reported', { reason: typeof details.reason === 'string' ? details.reason : '' });
      break;
    case 'issue_report_withdrawn':
      sentence = t('plan.audit.issue_report_withdrawn', { reporter: typeof details.reportedBy === 'string' ? details.reportedBy : '' });
      break;
    case 'packing_failed':
      sentence = t('plan.audit.packing_failed', { reason: typeof details.reason === 'string' ? t(details.reason) : '' }).trim();
      break;
    default:
      sentence = action;
  }
  const reset = Array.isArray(details.reset) ? (details.reset as string[]) : [];
  return reset.length ? `${sentence} ${t('plan.audit.reset', { steps: reset.map((step) => t(`plan.audit.step.${step}`)).join(', ') })}` : sentence;
}

/** The trail of a session of the actor's reach, oldest first, in the actor's language; the read is audited with its patient. */
export async function listPlanChanges(ctx: AppContext, actor: Actor, treatmentId: string): Promise<PlanAuditEntry[]> {
  const session = await findTreatmentRow(ctx.db, actor.clinicId, treatmentId);
  const rows = await planChangeRows(ctx.db, session.id);
  const changes = rows.map((row) => ({
    id: row.id,
    at: new Date(row.at).toISOString(),
    // The person as named then; the id stays even when the account is gone.
    by: row.user_name === null ? null : { id: row.user_id ?? row.id, name: row.user_name },
    action: row.action as PlanAuditAction,
    step: row.step as PlanStepName,
    revision: row.revision,
    summary: summaryOf(actor.lang, row.action as PlanAuditAction, row.details as Details),
  }));
  await audit(ctx.db, actor, { action: 'plan.audit_read', outcome: 'success', targetType: 'treatment', targetId: session.id, patientIds: [session.patient_id] });
  return changes;
}
