// Treatments (sessions) as the contract shows them: the summary of the patient card, the full session with
// its fundus images and plan, and the plan alone. Every query is scoped to the caller's clinic.
import type { Eye } from '../../generated/model/eye';
import type { ExamDiagnostics } from '../../generated/model/examDiagnostics';
import type { FundusImage } from '../../generated/model/fundusImage';
import type { FundusImageRole } from '../../generated/model/fundusImageRole';
import type { IolStatus } from '../../generated/model/iolStatus';
import type { LaserMode } from '../../generated/model/laserMode';
import type { LaserSettings } from '../../generated/model/laserSettings';
import type { Plan } from '../../generated/model/plan';
import type { PlanStepIndex } from '../../generated/model/planStepIndex';
import type { PlanStepName } from '../../generated/model/planStepName';
import type { Treatment } from '../../generated/model/treatment';
import type { SessionTransfer } from '../../generated/model/sessionTransfer';
import type { TreatmentSummary } from '../../generated/model/treatmentSummary';
import type { NptDiagnostics } from '../../src/domain/npt/manifest';
import type { Actor } from '../actor';
import type { AppContext } from '../context';
import type { Database, TreatmentImageRow, TreatmentRow } from '../db/tables';
import { notFound } from '../http/errors';
import { isMessageKey, translate, type Lang } from '../i18n';
import { latestTransferOf, latestTransfers, type SessionTransferRow } from '../repositories/transfers';
import * as repository from '../repositories/treatments';
import { audit } from './audit';
import { auditRead } from './audit-reads';
import { displayName } from './people';
import { planStatusOf } from './plan-status';
import { planSafetyOf } from './clinical-safety';

/** The folder of a session's files (exam file, images) in the clinic's file store. */
export const treatmentFolder = (patientId: string, treatmentId: string) => `treatments/${patientId}/${treatmentId}`;

const imagePath = (treatmentId: string, imageId: string, variant: 'display' | 'thumbnail') =>
  `/api/treatments/${treatmentId}/images/${imageId}/${variant}`;

/** The message of a processing error in the reader's language (stored as code and parameters). */
function errorOf(row: TreatmentRow, lang: Lang): TreatmentSummary['error'] {
  if (!row.error_code) return null;
  const params = row.error_params ?? {};
  const message = isMessageKey(row.error_code) ? translate(lang, row.error_code, params) : row.error_message ?? row.error_code;
  return { code: row.error_code, message };
}

/** A session's transfer to the laser as the product shows it (issue 29). */
export function toSessionTransfer(row: SessionTransferRow): SessionTransfer {
  const iso = (at: Date | string | null) => (at === null ? null : new Date(at).toISOString());
  return {
    id: row.id,
    status: row.status,
    device: { id: row.device_id, deviceId: row.device_serial, description: row.device_description },
    queuedAt: new Date(row.queued_at).toISOString(),
    receivedAt: iso(row.received_at),
    finishedAt: iso(row.finished_at),
    failureReason: row.status === 'failed' ? row.failure_reason : null,
    deliveredSpots: row.status === 'treated' ? (row.delivery ?? []).length : null,
  };
}

export function toTreatmentSummary(
  row: TreatmentRow,
  lang: Lang,
  fundusImageId: string | null = null,
  transfer: SessionTransferRow | null = null,
): TreatmentSummary {
  return {
    id: row.id,
    patientId: row.patient_id,
    number: row.number,
    date: new Date(row.date).toISOString(),
    eye: row.eye as Eye,
    description: row.description,
    planStatus: planStatusOf(row),
    step: row.step as PlanStepName,
    stepIndex: row.step_index as PlanStepIndex,
    locked: row.locked,
    brightness: row.brightness === null ? null : Number(row.brightness),
    totalSpots: row.total_spots,
    thumbnailUrl: fundusImageId ? imagePath(row.id, fundusImageId, 'thumbnail') : null,
    error: errorOf(row, lang),
    // The physician as named then; the id stays even when the account is gone (as with issue reports).
    modified:
      row.modified_at === null ? null : { by: { id: row.modified_by ?? row.id, name: row.modified_by_name ?? '' }, at: new Date(row.modified_at).toISOString() },
    transfer: transfer && toSessionTransfer(transfer),
    createdAt: new Date(row.created_at).toISOString(),
  };
}

/** The diagnostic data as the contract has it: every field the file knows, the unknown ones as written. */
export function examDiagnosticsOf(diagnostics: NptDiagnostics): ExamDiagnostics {
  return {
    iolStatus: diagnostics.iolStatus,
    centralRetinalThicknessUm: diagnostics.centralRetinalThicknessUm,
    visualAcuityLogMar: diagnostics.visualAcuityLogMar,
    notes: diagnostics.notes,
    additional: diagnostics.additional ?? [],
  };
}

export function laserSettingsOf(row: TreatmentRow): Required<LaserSettings> {
  const number = (value: number | null) => (value === null ? null : Number(value));
  return {
    spotSizeUm: number(row.spot_size_um),
    spotSpacing: number(row.spot_spacing),
    pulseDurationMs: number(row.pulse_duration_ms),
    laserMode: row.laser_mode as LaserMode | null,
    iolStatus: row.iol_status as IolStatus | null,
    laserDose: number(row.laser_dose),
    dutyCyclePercent: number(row.duty_cycle_percent),
  };
}

export function planOf(row: TreatmentRow, safety?: Plan['safety']): Plan {
  const stored = row.plan;
  return {
    ...(safety && { safety }),
    step: row.step as PlanStepName,
    stepIndex: row.step_index as PlanStepIndex,
    revision: row.plan_revision,
    scale: stored?.scale ?? null,
    fovea: stored?.fovea ?? null,
    opticDisc: stored?.opticDisc ?? null,
    imagedField: stored?.imagedField ?? null,
    exclusionZones: stored?.exclusionZones ?? null,
    gridSettings: stored?.gridSettings ?? null,
    spots: stored?.spots ?? [],
    brightness: stored?.brightness ?? null,
    signOff: stored?.signOff ?? null,
    parameterSet: stored?.parameterSet ?? null,
  };
}

function toFundusImage(image: TreatmentImageRow): FundusImage {
  return {
    id: image.id,
    role: image.role as FundusImageRole,
    width: image.width,
    height: image.height,
    displayUrl: imagePath(image.treatment_id, image.id, 'display'),
    thumbnailUrl: imagePath(image.treatment_id, image.id, 'thumbnail'),
  };
}

export async function summariesOf(db: Database, rows: TreatmentRow[], lang: Lang): Promise<TreatmentSummary[]> {
  const ids = rows.map((row) => row.id);
  const [fundus, sent] = [await repository.fundusImageIds(db, ids), await latestTransfers(db, ids)];
  return rows.map((row) => toTreatmentSummary(row, lang, fundus.get(row.id) ?? null, sent.get(row.id) ?? null));
}

export async function findTreatmentRow(db: Database, clinicId: string, id: string): Promise<TreatmentRow> {
  const row = await repository.activeTreatmentRow(db, clinicId, id);
  if (!row) throw notFound();
  return row;
}

export async function loadTreatment(db: Database, clinicId: string, id: string, lang: Lang): Promise<Treatment> {
  const row = await findTreatmentRow(db, clinicId, id);
  const images = await repository.treatmentImages(db, row.id);
  const uploader = row.created_by ? await repository.uploaderOf(db, row.created_by) : undefined;
  const fundus = images.find((image) => image.role === 'fundus');
  const transfer = await latestTransferOf(db, row.id);
  return {
    ...toTreatmentSummary(row, lang, fundus?.id ?? null, transfer ?? null),
    ...laserSettingsOf(row),
    deviceId: row.device_id,
    diagnostics: row.diagnostics,
    uploadedBy: uploader
      ? { id: uploader.id, name: displayName(uploader) }
      : null,
    images: images.map(toFundusImage),
    plan: planOf(row, await planSafetyOf(db, row)),
    issueReport: await issueReportOf(db, row.id),
  };
}

/** The issue report that locked the session, if any. */
async function issueReportOf(db: Database, treatmentId: string): Promise<Treatment['issueReport']> {
  const report = await repository.issueReport(db, treatmentId);
  if (!report) return null;
  return {
    id: report.id,
    reason: report.reason,
    // The reporter as they were named then; the id stays even when the account is gone.
    reportedBy: { id: report.reported_by ?? report.id, name: report.reported_by_name },
    reportedAt: new Date(report.reported_at).toISOString(),
  };
}

/** The stored file of one of a treatment's images. */
export async function imageFileOf(
  db: Database,
  clinicId: string,
  treatmentId: string,
  imageId: string,
  variant: 'display' | 'thumbnail',
): Promise<string> {
  return (await imageOf(db, clinicId, treatmentId, imageId, variant)).key;
}

/** An image's file and whose it is (the access log names the patient of every image read). */
export async function imageOf(
  db: Database,
  clinicId: string,
  treatmentId: string,
  imageId: string,
  variant: 'display' | 'thumbnail',
): Promise<{ key: string; patientId: string }> {
  const { patient_id: patientId } = await findTreatmentRow(db, clinicId, treatmentId);
  const image = await repository.imagePaths(db, clinicId, treatmentId, imageId);
  if (!image) throw notFound();
  return { key: variant === 'display' ? image.display_path : image.thumbnail_path, patientId };
}

/** A session as the patient card and the wizard read it; the read is audited with its patient. */
export async function readTreatment(ctx: AppContext, actor: Actor, id: string): Promise<Treatment> {
  const treatment = await loadTreatment(ctx.db, actor.clinicId, id, actor.lang);
  await audit(ctx.db, actor, { action: 'treatment.read', outcome: 'success', targetType: 'treatment', targetId: treatment.id, patientIds: [treatment.patientId] });
  return treatment;
}

/** An image of a session, opened from the file store; 404 when its file is gone. Reads are audited in batches. */
export async function openTreatmentImage(ctx: AppContext, actor: Actor, treatmentId: string, imageId: string, variant: 'display' | 'thumbnail') {
  const { key, patientId } = await imageOf(ctx.db, actor.clinicId, treatmentId, imageId, variant);
  const file = await ctx.files.open(key);
  if (!file) throw notFound();
  // Batched: a patient card asks for all its thumbnails at once.
  await auditRead(ctx.db, actor, { action: 'treatment.image_read', outcome: 'success', targetType: 'treatment', targetId: treatmentId, patientIds: [patientId], detail: { imageId, variant } });
  return file;
}
