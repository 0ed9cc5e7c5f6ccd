// Signed plans to the laser (issue 29; docs/architecture.md): packing queues the parameter set for the session's
// treating device when its sync app is enrolled; the device lists what waits for it, fetches the file (checked
// against its SHA-256 as a person's download is), confirms receipt with the bytes' SHA-256, and reports the
// delivery (the spots fired, with their powers) or the failure. Receipts and reports are idempotent, so a sync
// app that lost an answer sends again safely. Every step is audited and shown live on the session.
import type { DeliveryReport } from '../../generated/model/deliveryReport';
import type { DeviceTransfer } from '../../generated/model/deviceTransfer';
import type { SessionTransfer } from '../../generated/model/sessionTransfer';
import { checkPlan } from '../../src/domain/planning/plan-invariants';
import type { Actor } from '../actor';
import type { MessageKey } from '../i18n';
import type { AppContext } from '../context';
import type { DeliveredSpot, Queryable, TransferRow, TreatmentRow } from '../db/tables';
import { HttpError, invalid, notFound } from '../http/errors';
import { announce, sessionEvents } from '../realtime/announce';
import { treatmentDeviceRow } from '../repositories/plans';
import * as transfers from '../repositories/transfers';
import { activeTreatmentRow, treatmentById } from '../repositories/treatments';
import { audit } from './audit';
import type { AuditAction } from './audit-actions';
import { checkedPlanOf, clinicalLimitsOf, treatmentDeviceOf } from './clinical-safety';
import { type DeviceCaller, deviceEntry } from './device-sync';
import { intactParameterSet } from './parameter-set';
import { imagedFieldOf, STEP_INDEX } from './plan-steps';
import { sessionLocked } from './treatment-changes';
import { toSessionTransfer } from './treatments';

const iso = (at: Date | string | null) => (at ? new Date(at).toISOString() : null);

export function toDeviceTransfer(row: TransferRow): DeviceTransfer {
  return {
    id: row.id,
    treatmentId: row.treatment_id,
    status: row.status,
    fileName: row.file_name,
    size: row.size,
    sha256: row.sha256,
    queuedAt: iso(row.queued_at)!,
    receivedAt: iso(row.received_at),
  };
}

/**
 * Queues a freshly packed parameter set for the treating device, inside the packing's transaction: an open
 * transfer of an earlier parameter set of the session is cancelled. Nothing is queued for a device without a
 * credential (no sync app): the parameter set is downloaded by hand then.
 */
export async function queueParameterSet(
  tx: Queryable,
  row: Pick<TreatmentRow, 'id' | 'clinic_id'>,
  deviceId: string | null,
  parameterSet: { fileName: string; size: number; sha256: string },
  now: Date,
): Promise<TransferRow | null> {
  await transfers.cancelOpenTransfers(tx, row.id, now);
  if (!deviceId || !(await transfers.deviceEnrolled(tx, deviceId))) return null;
  return transfers.insertTransfer(tx, { clinicId: row.clinic_id, treatmentId: row.id, deviceId, ...parameterSet, at: now });
}

export async function listDeviceTransfers(ctx: AppContext, device: DeviceCaller): Promise<DeviceTransfer[]> {
  return (await transfers.openTransfersOf(ctx.db, device.id)).map(toDeviceTransfer);
}

const cancelledError = () => new HttpError(409, 'transfer.cancelled', 'transfer.cancelled');

/** The session a transfer belongs to, and whether the transfer's parameter set is still the one to treat with. */
async function stillValid(ctx: AppContext, transfer: TransferRow): Promise<TreatmentRow | null> {
  const row = await treatmentById(ctx.db, transfer.treatment_id);
  const current = row && !row.locked && row.step_index === STEP_INDEX.available && row.plan?.parameterSet?.sha256 === transfer.sha256;
  return current ? row : null;
}

const announceSession = (ctx: AppContext, row: Pick<TreatmentRow, 'id' | 'clinic_id' | 'patient_id'>) =>
  announce(ctx, sessionEvents('treatment.modified', { clinicId: row.clinic_id, patientId: row.patient_id, treatmentId: row.id }));

/**
 * The parameter-set file of a transfer addressed to the device: 404 for any other, 409 once cancelled (or when
 * the session no longer treats with it: locked, signed off again), 409 when the stored bytes fail their check.
 */
export async function deviceParameterSetFile(ctx: AppContext, device: DeviceCaller, id: string): Promise<{ fileName: string; bytes: Buffer }> {
  const transfer = await transfers.transferOfDevice(ctx.db, device.id, id);
  if (!transfer) throw notFound();
  if (transfer.status === 'cancelled') throw cancelledError();
  const row = await stillValid(ctx, transfer);
  if (!row || !row.parameter_set_path) {
    if (transfer.status === 'queued' || transfer.status === 'received') await transfers.markCancelled(ctx.db, transfer.id, ctx.clock.now());
    throw cancelledError();
  }
  const bytes = await intactParameterSet(ctx, row.parameter_set_path, transfer);
  await audit(ctx.db, device, { ...deviceEntry(device), action: 'device.parameter_set_fetched', outcome: 'success', patientIds: [row.patient_id], detail: { transferId: transfer.id, treatmentId: row.id } });
  return { fileName: transfer.file_name, bytes };
}

/** The device confirms the bytes it received: `received` (again: the same answer). */
export async function acknowledgeTransfer(ctx: AppContext, device: DeviceCaller, id: string, sha256: string): Promise<DeviceTransfer> {
  const now = ctx.clock.now();
  const { transfer, session } = await ctx.db.transaction().execute(async (tx) => {
    const found = await transfers.transferOfDevice(tx, device.id, id, true);
    if (!found) throw notFound();
    if (found.status === 'cancelled') throw cancelledError();
    if (found.sha256 !== sha256.toLowerCase()) throw new HttpError(409, 'transfer.checksum_mismatch', 'transfer.checksum_mismatch');
    if (found.status !== 'queued') return { transfer: found, session: null };
    const received = await transfers.markReceived(tx, found.id, now);
    return { transfer: received, session: await recordStep(tx, device, received, 'device.parameter_set_received', {}) };
  });
  if (session) announceSession(ctx, session);
  return toDeviceTransfer(transfer);
}

/** The same spots fired with the same powers (what was stored also says where each lay). */
const sameSpots = (stored: DeliveredSpot[] | null, reported: DeliveredSpot[]) =>
  JSON.stringify((stored ?? []).map(({ id, powerMw }) => ({ id, powerMw }))) === JSON.stringify(reported);

/**
 * What the laser did: `treated` with the spots fired (each a spot of the plan), or `failed` with its reason.
 * Only a received transfer; the same report again answers the same, another one 409.
 */
export async function reportDelivery(ctx: AppContext, device: DeviceCaller, id: string, report: DeliveryReport): Promise<DeviceTransfer> {
  const spots = (report.spots ?? []).map(({ id: spotId, powerMw }) => ({ id: spotId, powerMw }));
  const reason = report.reason?.trim() ?? '';
  if (report.outcome === 'treated' && spots.length === 0) throw new HttpError(422, 'request.invalid', 'request.invalid', {}, { spots: ['transfer.no_spots'] });
  if (report.outcome === 'failed' && !reason) throw new HttpError(422, 'request.invalid', 'request.invalid', {}, { reason: ['validation.required'] });
  const at = new Date(report.at);
  const { transfer, session } = await ctx.db.transaction().execute(async (tx) => {
    const found = await transfers.transferOfDevice(tx, device.id, id, true);
    if (!found) throw notFound();
    if (found.status === 'cancelled') throw cancelledError();
    if (found.status === 'queued') throw new HttpError(409, 'transfer.not_received', 'transfer.not_received');
    if (found.status === 'treated' || found.status === 'failed') {
      const same =
        found.status === report.outcome &&
        found.finished_at !== null &&
        new Date(found.finished_at).getTime() === at.getTime() &&
        (report.outcome === 'treated' ? sameSpots(found.delivery, spots) : found.failure_reason === reason);
      if (!same) throw new HttpError(409, 'transfer.already_reported', 'transfer.already_reported');
      return { transfer: found, session: null };
    }
    let placed: DeliveredSpot[] = [];
    if (report.outcome === 'treated') {
      // Each fired spot kept with where it lay: the next visit shows it there even if this plan changes later.
      const planned = new Map(((await treatmentById(tx, found.treatment_id))?.plan?.spots ?? []).filter((spot) => spot.enabled).map((spot) => [spot.id, spot]));
      const unknown = spots.filter((spot) => !planned.has(spot.id));
      if (unknown.length || new Set(spots.map((spot) => spot.id)).size !== spots.length) {
        throw new HttpError(422, 'request.invalid', 'request.invalid', {}, { spots: ['transfer.unknown_spot'] });
      }
      placed = spots.map((spot) => ({ ...spot, x: planned.get(spot.id)!.x, y: planned.get(spot.id)!.y }));
    }
    const outcome = report.outcome === 'treated' ? { status: 'treated' as const, spots: placed } : { status: 'failed' as const, reason };
    const finished = await transfers.markFinished(tx, found.id, outcome, at);
    const detail = report.outcome === 'treated' ? { spots: spots.length } : { reason };
    const action = report.outcome === 'treated' ? 'device.delivery_treated' : 'device.delivery_failed';
    return { transfer: finished, session: await recordStep(tx, device, finished, action, detail) };
  });
  if (session) announceSession(ctx, session);
  return toDeviceTransfer(transfer);
}

/**
 * A transfer's step, audited with the session's patient in the step's own transaction (a receipt or report is
 * never kept without its entry, nor the entry without it). Answers the session, for its screens to be told.
 */
async function recordStep(tx: Queryable, device: DeviceCaller, transfer: TransferRow, action: AuditAction, detail: Record<string, unknown>) {
  const row = await treatmentById(tx, transfer.treatment_id);
  await audit(tx, device, {
    ...deviceEntry(device),
    action,
    outcome: 'success',
    patientIds: row ? [row.patient_id] : [],
    detail: { transferId: transfer.id, treatmentId: transfer.treatment_id, ...detail },
  });
  return row ?? null;
}

const conflict = (code: MessageKey) => new HttpError(409, code, code);

/**
 * A physician sends the session's parameter set to one of the clinic's enrolled devices: again to the same one
 * after it failed or was withdrawn, or to another. The device must deliver the plan as signed off: the plan
 * holds against its laser profile, and its wavelength is the one the parameter set was packed for. A transfer
 * still waiting for its laser is withdrawn by this; one a laser received (or treated with) is not replaced.
 */
export async function sendToDevice(ctx: AppContext, actor: Actor, treatmentId: string, deviceId: string): Promise<SessionTransfer> {
  const now = ctx.clock.now();
  const { transfer, row } = await ctx.db.transaction().execute(async (tx) => {
    const row = await activeTreatmentRow(tx, actor.clinicId, treatmentId, { lock: true });
    if (!row) throw notFound();
    if (row.locked) throw sessionLocked();
    const parameterSet = row.step_index === STEP_INDEX.available ? row.plan?.parameterSet : null;
    if (!parameterSet || !row.plan) throw conflict('transfer.not_available');
    const device = await treatmentDeviceRow(tx, actor.clinicId, { id: deviceId });
    if (!device) throw invalid({ deviceId: ['transfer.unknown_device'] });
    if (!device.enrolled) throw conflict('transfer.device_not_enrolled');
    const packedFor = await treatmentDeviceOf(tx, row);
    const profile = device.laser_profile;
    const field = await imagedFieldOf(tx, { ...row, plan: row.plan });
    const fits =
      profile !== null &&
      profile.wavelengthNm === packedFor?.laserProfile?.wavelengthNm &&
      checkPlan(checkedPlanOf(row.plan, row), { field, clinical: clinicalLimitsOf(), profile, powers: true, packing: true }).length === 0;
    if (!fits) throw conflict('transfer.device_cannot_deliver');
    const latest = await transfers.latestTransferOf(tx, row.id, true);
    if (latest?.status === 'received') throw conflict('transfer.already_received');
    if (latest?.status === 'treated') throw conflict('transfer.already_treated');
    const withdrawn = await transfers.cancelOpenTransfers(tx, row.id, now);
    const queued = await transfers.insertTransfer(tx, { clinicId: row.clinic_id, treatmentId: row.id, deviceId: device.id, ...parameterSet, at: now });
    await audit(tx, actor, {
      action: 'transfer.sent',
      outcome: 'success',
      targetType: 'treatment',
      targetId: row.id,
      patientIds: [row.patient_id],
      detail: { transferId: queued.id, device: device.device_id, replacedTransferId: withdrawn[0]?.id ?? null },
    });
    return { transfer: { ...queued, device_serial: device.device_id, device_description: device.description }, row };
  });
  announceSession(ctx, row);
  return toSessionTransfer(transfer);
}

/** A physician withdraws the parameter set from the laser it waits for, while the laser has not received it. */
export async function cancelTransfer(ctx: AppContext, actor: Actor, treatmentId: string): Promise<SessionTransfer> {
  const now = ctx.clock.now();
  const { transfer, row } = await ctx.db.transaction().execute(async (tx) => {
    const row = await activeTreatmentRow(tx, actor.clinicId, treatmentId, { lock: true });
    if (!row) throw notFound();
    if (row.locked) throw sessionLocked();
    const latest = await transfers.latestTransferOf(tx, row.id, true);
    if (latest?.status !== 'queued') throw conflict('transfer.not_cancellable');
    const cancelled = await transfers.markCancelled(tx, latest.id, now);
    await audit(tx, actor, {
      action: 'transfer.cancelled',
      outcome: 'success',
      targetType: 'treatment',
      targetId: row.id,
      patientIds: [row.patient_id],
      detail: { transferId: cancelled.id, device: latest.device_serial },
    });
    return { transfer: { ...cancelled, device_serial: latest.device_serial, device_description: latest.device_description }, row };
  });
  announceSession(ctx, row);
  return toSessionTransfer(transfer);
}
