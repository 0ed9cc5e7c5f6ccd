/*
 * A plan changed under the sign-off step by someone else (a nurse's new laser power, say): what changed between
 * the plan the user was looking at and the one now shown, and who made the change (from the plan's audit
 * trail). Pure: the step words it in the reader's language.
 */
import type { LaserMode } from '@generated/model/laserMode';
import type { PlanAuditEntry } from '@generated/model/planAuditEntry';

/** What the sign-off step shows of the server's plan, and starts its draft from. */
export interface SignOffSettings {
  revision: number;
  laserDose: number | null;
  pulseDurationMs: number | null;
  laserMode: LaserMode | null;
  /** Micropulse only; null in continuous mode. */
  dutyCyclePercent: number | null;
  /** The laser that will treat (a device's id), chosen at sign-off or the exam's. */
  treatmentDeviceId: string | null;
  /** Ids of the spots removed, ascending. */
  disabled: readonly number[];
}

export type SettingChange =
  | { setting: 'laserDose' | 'pulseDurationMs' | 'dutyCyclePercent' | 'removedSpots'; before: number | null; after: number | null }
  | { setting: 'laserMode'; before: LaserMode | null; after: LaserMode | null }
  | { setting: 'treatmentDevice'; before: string | null; after: string | null };

const sameIds = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((id, k) => id === b[k]);

/** The same server state (a new revision, or the same revision's laser settings read again, are not). */
export const sameSettings = (a: SignOffSettings, b: SignOffSettings) =>
  a.revision === b.revision &&
  a.laserDose === b.laserDose &&
  a.pulseDurationMs === b.pulseDurationMs &&
  a.laserMode === b.laserMode &&
  a.dutyCyclePercent === b.dutyCyclePercent &&
  a.treatmentDeviceId === b.treatmentDeviceId &&
  sameIds(a.disabled, b.disabled);

/** The laser settings that differ, in the order the step shows them. */
export function settingChanges(before: SignOffSettings, after: SignOffSettings): SettingChange[] {
  const changes: SettingChange[] = [];
  if (before.treatmentDeviceId !== after.treatmentDeviceId) changes.push({ setting: 'treatmentDevice', before: before.treatmentDeviceId, after: after.treatmentDeviceId });
  if (before.laserDose !== after.laserDose) changes.push({ setting: 'laserDose', before: before.laserDose, after: after.laserDose });
  if (before.pulseDurationMs !== after.pulseDurationMs) changes.push({ setting: 'pulseDurationMs', before: before.pulseDurationMs, after: after.pulseDurationMs });
  if (before.laserMode !== after.laserMode) changes.push({ setting: 'laserMode', before: before.laserMode, after: after.laserMode });
  if (before.dutyCyclePercent !== after.dutyCyclePercent) changes.push({ setting: 'dutyCyclePercent', before: before.dutyCyclePercent, after: after.dutyCyclePercent });
  // Other spots removed in the same number still change the plan: named with the counts.
  if (!sameIds(before.disabled, after.disabled)) changes.push({ setting: 'removedSpots', before: before.disabled.length, after: after.disabled.length });
  return changes;
}

/**
 * Who changed the plan after revision `from` up to `to`, and how each change reads: the audit trail's entries
 * of those revisions made by a person (not the system's), names once each in the order they acted. `known` is
 * false while the trail read so far ends before `to` (it is being read again): nobody is named yet.
 */
export function changesBetween(entries: readonly PlanAuditEntry[] | undefined, from: number, to: number): { known: boolean; names: string[]; summaries: string[] } {
  const known = (entries?.at(-1)?.revision ?? -1) >= to;
  const made = (entries ?? []).filter((entry) => entry.revision > from && entry.revision <= to && entry.by !== null);
  return {
    known,
    names: [...new Set(made.map((entry) => entry.by!.name))],
    summaries: made.map((entry) => entry.summary),
  };
}
