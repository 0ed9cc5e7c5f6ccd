// Accepting an uploaded NPT exam: the file is read and checked before anything is stored, the patient is
// taken from the file (matched to a patient of the clinic or created), and the session is added with a
// processing job in one transaction. A refused file leaves no row and no file behind.
import type { Gender } from '../../generated/model/gender';
import type { Patient } from '../../generated/model/patient';
import type { PatientComparison } from '../../generated/model/patientComparison';
import { PatientField } from '../../generated/model/patientField';
import type { TreatmentSummary } from '../../generated/model/treatmentSummary';
import type { ExamManifest, NptPatient } from '../../src/domain/npt/manifest';
import type { Actor } from '../actor';
import type { DeviceCaller } from './device-sync';
import { type AppContext, logOf } from '../context';
import type { Database, PatientRow } from '../db/tables';
import { removeUnreferenced, type StagedFile } from '../storage';
import { HttpError, notFound } from '../http/errors';
import { type Lang, type MessageKey, translate } from '../i18n';
import { enqueue } from '../jobs/queue';
import * as repository from '../repositories/exams';
import { insertPatient, lockPatientRows } from '../repositories/patients';
import { audit } from './audit';
import { getPatientOrThrow, patientLabel } from './patients';
import { examDiagnosticsOf, toTreatmentSummary, treatmentFolder } from './treatments';
import { isUniqueViolation } from './users';
import { announce, event } from '../realtime/announce';
import { runTask } from '../workers/pool';

export interface AcceptedExam {
  treatment: TreatmentSummary;
  patient: Patient;
  patientCreated: boolean;
}

// Well-known other file types get "not an NPT file" (415) rather than "damaged NPT file" (422).
const OTHER_TYPES: { magic: number[]; name: string }[] = [
  { magic: [0xff, 0xd8, 0xff], name: 'jpeg' },
  { magic: [0x89, 0x50, 0x4e, 0x47], name: 'png' },
  { magic: [0x25, 0x50, 0x44, 0x46], name: 'pdf' },
  { magic: [0x47, 0x49, 0x46, 0x38], name: 'gif' },
  { magic: [0x49, 0x49, 0x2a, 0x00], name: 'tiff' },
  { magic: [0x4d, 0x4d, 0x00, 0x2a], name: 'tiff' },
  { magic: [0x42, 0x4d], name: 'bmp' },
];

const unsupported = () =>
  new HttpError(415, 'upload.unsupported_type', 'upload.unsupported_type', {}, { file: ['upload.unsupported_type'] });

function checkType(filename: string, bytes: Uint8Array): void {
  const extension = /\.([^./\\]+)$/.exec(filename)?.[1]?.toLowerCase();
  if (filename && extension !== 'npt') throw unsupported();
  if (OTHER_TYPES.some(({ magic }) => magic.every((byte, i) => bytes[i] === byte))) throw unsupported();
}

const BIRTHDAY_FORMATS: Record<Lang, Intl.DateTimeFormat> = {
  en: new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }),
  de: new Intl.DateTimeFormat('de-DE', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }),
};
const formatBirthday = (lang: Lang, birthday: string) => BIRTHDAY_FORMATS[lang].format(new Date(`${birthday}T00:00:00Z`));

/** Reads the staged upload as an exam, or throws the HTTP error the contract names for it. */
export async function readUploadedExam(ctx: AppContext, file: StagedFile): Promise<ExamManifest> {
  if (file.truncated) {
    throw new HttpError(413, 'upload.too_large', 'upload.npt_too_large', { limitMb: Math.round(ctx.config.bodyLimit / 1024 / 1024) });
  }
  // Read from the staging folder, inflated and validated in a worker thread.
  const { head, read } = await runTask('readExamManifest', { path: file.path, maxFileBytes: ctx.config.bodyLimit });
  checkType(file.filename, head);
  if (!read.ok) {
    const { code, field, params } = read.error;
    const key = `npt.${code}` as MessageKey;
    throw new HttpError(422, key, key, params, field ? { [field]: [key] } : {});
  }
  const manifest = read.manifest;
  // What a pure reader cannot know: today's date.
  const now = ctx.clock.now();
  if (manifest.patient.birthday > now.toISOString().slice(0, 10)) {
    throw new HttpError(422, 'npt.field_invalid', 'npt.field_invalid', { field: 'patient.birthday' }, {
      'patient.birthday': ['treatment.birthday_future'],
    });
  }
  if (new Date(manifest.exam.capturedAt).getTime() > now.getTime() + 24 * 60 * 60 * 1000) {
    throw new HttpError(422, 'npt.field_invalid', 'npt.field_invalid', { field: 'exam.capturedAt' }, {
      'exam.capturedAt': ['treatment.capture_future'],
    });
  }
  return manifest;
}

const same = (a: string, b: string) => a.trim().toLocaleLowerCase('de') === b.trim().toLocaleLowerCase('de');

/** Whether a patient of the clinic is the file's patient: the device id decides when both have one. */
function isFilePatient(row: PatientRow, patient: NptPatient): boolean {
  if (row.device_patient_id) return row.device_patient_id === patient.deviceSideId;
  return same(row.name, patient.name) && same(row.second_name, patient.secondName) && row.birthday === patient.birthday;
}

/** The clinic's active patient that is the file's patient, if any. */
async function matchPatient(db: Database, clinicId: string, patient: NptPatient): Promise<PatientRow | null> {
  const candidates = await repository.filePatientCandidates(db, clinicId, patient);
  return (
    candidates.find((row) => row.device_patient_id === patient.deviceSideId) ??
    candidates.find((row) => isFilePatient(row, patient)) ??
    null
  );
}

async function rejectDuplicate(db: Database, clinicId: string, sha256: string): Promise<void> {
  const existing = await repository.sessionOfFile(db, clinicId, sha256);
  if (!existing) return;
  throw new HttpError(
    409,
    'treatment.duplicate_upload',
    'treatment.duplicate_upload',
    { number: existing.number, patient: patientLabel(existing) },
    {},
    { treatment: { id: existing.id, patientId: existing.patient_id } },
  );
}

/**
 * In what the file's patient differs from the patient it was uploaded for (the contract's PatientComparison):
 * the names as `isFilePatient` compares them, the device patient id only where the patient has one.
 */
export function comparePatients(uploadedFor: PatientRow, file: NptPatient): PatientComparison {
  const differs: Record<PatientField, boolean> = {
    deviceId: uploadedFor.device_patient_id !== null && uploadedFor.device_patient_id !== file.deviceSideId,
    name: !same(uploadedFor.name, file.name),
    secondName: !same(uploadedFor.second_name, file.secondName),
    birthday: uploadedFor.birthday !== file.birthday,
    gender: uploadedFor.gender !== file.gender,
  };
  const differences = Object.values(PatientField).filter((field) => differs[field]);
  return {
    differences,
    file: { deviceId: file.deviceSideId, name: file.name, secondName: file.secondName, birthday: file.birthday, gender: file.gender },
    uploadedFor: {
      id: uploadedFor.id,
      deviceId: uploadedFor.device_patient_id,
      name: uploadedFor.name,
      secondName: uploadedFor.second_name,
      birthday: uploadedFor.birthday,
      gender: uploadedFor.gender as Gender,
    },
    confirmable: differences.length === 1 && differences[0] === 'deviceId',
  };
}

const LIST_FORMATS: Record<Lang, Intl.ListFormat> = {
  en: new Intl.ListFormat('en-GB', { type: 'conjunction' }),
  de: new Intl.ListFormat('de-DE', { type: 'conjunction' }),
};

function mismatch(lang: Lang, comparison: PatientComparison, known: PatientRow | null): HttpError {
  const { file } = comparison;
  const named = known
    ? { id: known.id, name: known.name, secondName: known.second_name, birthday: known.birthday, gender: known.gender }
    : { id: null, name: file.name, secondName: file.secondName, birthday: file.birthday, gender: file.gender };
  const extra = { patient: named, comparison };
  // Only the device's id differs: say so plainly, the card's patient may well be the file's.
  if (comparison.confirmable) {
    const params = { fileDeviceId: file.deviceId, patientDeviceId: comparison.uploadedFor.deviceId ?? '' };
    return new HttpError(409, 'treatment.patient_mismatch', 'treatment.device_patient_id_mismatch', params, {}, extra);
  }
  const differences = LIST_FORMATS[lang].format(comparison.differences.map((field) => translate(lang, `patient.field.${field}`)));
  return new HttpError(
    409,
    'treatment.patient_mismatch',
    'treatment.patient_mismatch',
    {
      patient: patientLabel({ name: named.name, second_name: named.secondName }),
      birthday: formatBirthday(lang, named.birthday),
      differences,
    },
    {},
    extra,
  );
}

/** Who uploads an exam: a signed-in user, or a laser's sync app with its own credential (issue 29). */
export type ExamUploader = Actor | DeviceCaller;

/** The uploader as the rows and the audit name it: a user (id and role), or a device (its row id, role `device`). */
function uploaderOf(uploader: ExamUploader): { userId: string | null; role: string; deviceId: string | null } {
  return 'userId' in uploader ? { userId: uploader.userId, role: uploader.role, deviceId: null } : { userId: null, role: 'device', deviceId: uploader.id };
}

/**
 * Adds the session of an uploaded exam. `patientId` is the patient the upload was made for (the patient
 * card's "Add new session"); without it the file's patient is matched or created.
 */
export async function acceptExam(
  ctx: AppContext,
  uploader: ExamUploader,
  file: StagedFile,
  options: { patientId?: string; confirmDevicePatientId?: boolean },
): Promise<AcceptedExam> {
  const { clinicId } = uploader;
  const { lang } = uploader;
  const { userId, role, deviceId } = uploaderOf(uploader);
  const manifest = await readUploadedExam(ctx, file);
  const filePatient = manifest.patient;

  let target: PatientRow | null = null;
  let devicePatientIdConfirmed = false;
  if (options.patientId) {
    target = await repository.activePatient(ctx.db, clinicId, options.patientId);
    if (!target) throw notFound();
    if (!isFilePatient(target, filePatient)) {
      const comparison = comparePatients(target, filePatient);
      // Confirmed by a person: the patient keeps their own device id (the update below sets only a missing one).
      devicePatientIdConfirmed = Boolean(options.confirmDevicePatientId) && comparison.confirmable;
      if (!devicePatientIdConfirmed) throw mismatch(lang, comparison, await matchPatient(ctx.db, clinicId, filePatient));
    }
  }
  await rejectDuplicate(ctx.db, clinicId, file.sha256);

  const matched = target ?? (await matchPatient(ctx.db, clinicId, filePatient));
  const treatmentId = crypto.randomUUID();
  const newPatientId = matched ? null : crypto.randomUUID();
  const now = ctx.clock.now();
  let fileKey: string | null = null;
  try {
    // Into the store before the transaction: no row lock waits for the bytes to reach object storage.
    fileKey = await ctx.files.keep(file, clinicId, treatmentFolder(matched?.id ?? newPatientId!, treatmentId));
    const created = await ctx.db.transaction().execute(async (tx) => {
      let patientId = matched?.id ?? null;
      if (patientId) {
        // The row lock orders concurrent uploads for one patient, so session numbers stay unique.
        await lockPatientRows(tx, clinicId, [patientId]);
        await repository.setMissingDevicePatientId(tx, patientId, filePatient.deviceSideId, now);
      } else {
        patientId = await insertPatient(tx, {
          id: newPatientId!,
          clinicId,
          name: filePatient.name.trim(),
          secondName: filePatient.secondName.trim(),
          birthday: filePatient.birthday,
          gender: filePatient.gender,
          description: null,
          devicePatientId: filePatient.deviceSideId,
          createdBy: userId,
          at: now,
        });
        await audit(tx, uploader, {
          action: 'patient.created',
          outcome: 'success',
          clinicId,
          actorId: userId,
          actorRole: role,
          targetType: 'patient',
          targetId: patientId,
          detail: { from: 'npt', ...(deviceId && { deviceId }) },
        });
      }
      const number = (await repository.highestSessionNumber(tx, patientId)) + 1;
      const laser = manifest.laser;
      const row = await repository.insertTreatment(tx, {
        id: treatmentId,
        clinic_id: clinicId,
        patient_id: patientId,
        number,
        date: manifest.exam.capturedAt,
        eye: manifest.exam.eye,
        description: null,
        created_by: userId,
        uploaded_by_device_id: deviceId,
        created_at: now,
        updated_at: now,
        file_path: fileKey,
        file_sha256: file.sha256,
        file_size: file.size,
        device_id: manifest.device.deviceId,
        spot_size_um: laser?.spotSizeUm ?? null,
        spot_spacing: laser?.spotSpacing ?? null,
        pulse_duration_ms: laser?.pulseDurationMs ?? null,
        laser_mode: laser?.laserMode ?? null,
        iol_status: manifest.diagnostics.iolStatus ?? null,
        laser_dose: laser?.laserDose ?? null,
        duty_cycle_percent: laser?.laserMode === 'micropulse' ? (laser.dutyCyclePercent ?? null) : null,
        diagnostics: JSON.stringify(examDiagnosticsOf(manifest.diagnostics)),
      });
      await enqueue(tx, { kind: 'treatment.process', clinicId, subjectId: treatmentId, now });
      await audit(tx, uploader, {
        action: 'treatment.uploaded',
        outcome: 'success',
        clinicId,
        actorId: userId,
        actorRole: role,
        targetType: 'treatment',
        targetId: treatmentId,
        detail: { patientId, size: file.size, sha256: file.sha256, ...(devicePatientIdConfirmed && { devicePatientIdConfirmed }), ...(deviceId && { deviceId }) },
      });
      return { row, patientId };
    });
    announce(ctx, [
      event(matched ? 'patients.changed' : 'patients.created', clinicId, { patientIds: [created.patientId] }),
      event('treatment.modified', clinicId, { patientId: created.patientId, treatmentId }),
    ]);
    return {
      treatment: toTreatmentSummary(created.row, lang),
      patient: await getPatientOrThrow(ctx.db, clinicId, created.patientId, true),
      patientCreated: !matched,
    };
  } catch (error) {
    const kept = fileKey;
    if (kept) await removeUnreferenced(logOf(ctx), `the exam ${kept}`, () => ctx.files.remove(kept));
    // The same file uploaded at the same moment: the unique index decides, the loser hears "duplicate".
    if (isUniqueViolation(error)) await rejectDuplicate(ctx.db, clinicId, file.sha256);
    throw error;
  }
}
