// An exam upload as the API receives it: the staged file accepted as a session (services/exam-upload.ts), a
// refusal audited with the patients its answer shows, and whatever of the upload was not kept discarded.
import type { AppContext } from '../context';
import { HttpError } from '../http/errors';
import type { StagedFile } from '../storage';
import { audit } from './audit';
import { acceptExam, type AcceptedExam, type ExamUploader } from './exam-upload';

/** The patients an upload's conflict answer shows (treatment.patient_mismatch, treatment.duplicate_upload). */
function conflictPatients(error: HttpError): string[] {
  const { patient, comparison, treatment } = error.extra as {
    patient?: { id?: string | null };
    comparison?: { uploadedFor?: { id?: string } };
    treatment?: { patientId?: string };
  };
  return [comparison?.uploadedFor?.id, patient?.id, treatment?.patientId].filter((id): id is string => typeof id === 'string');
}

export async function receiveExam(
  ctx: AppContext,
  actor: ExamUploader,
  file: StagedFile,
  options: { patientId?: string; confirmDevicePatientId?: boolean },
): Promise<AcceptedExam> {
  try {
    return await acceptExam(ctx, actor, file, options);
  } catch (error) {
    const device = 'userId' in actor ? null : actor;
    await audit(ctx.db, actor, {
      action: 'treatment.uploaded',
      outcome: 'failure',
      clinicId: actor.clinicId,
      ...(device && { actorRole: 'device' }),
      // A conflict answers with patient data (the card's patient, the file's known one, a duplicate's owner).
      patientIds: error instanceof HttpError ? conflictPatients(error) : [],
      detail: { code: error instanceof HttpError ? error.code : 'server.unexpected', size: file.size, ...(device && { deviceId: device.id }) },
    });
    throw error;
  } finally {
    // Kept files were moved away; anything else of the upload goes.
    await ctx.files.discard(file);
  }
}
