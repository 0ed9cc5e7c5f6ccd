// Treatments (sessions): NPT upload, reading a session and its images, deleting it. Physicians and nurses
// of the session's clinic only; reads of patient data are audited (ids only).
import type { UploadTreatmentParams } from '../../generated/model/uploadTreatmentParams';
import type { AppContext } from '../context';
import { isStagedFile, removeUnreferenced } from '../storage';
import { HttpError } from '../http/errors';
import { type Handler, type Handlers, done, success } from '../http/handler';
import { translate } from '../i18n';
import { audit } from '../services/audit';
import { acceptExam } from '../services/exam-upload';
import type { IssueReportInput } from '../../generated/model/issueReportInput';
import type { TreatmentUpdate } from '../../generated/model/treatmentUpdate';
import { deleteSession, reportIssue, updateTreatmentDetails } from '../services/treatment-changes';
import { imageFileOf, loadTreatment, treatmentFolder } from '../services/treatments';

type ById = { Params: { id: string } };

export function treatmentsHandlers(ctx: AppContext, wakeJobs: () => void): Handlers {
  const uploadTreatment: Handler<{ Querystring: UploadTreatmentParams; Body: { file?: unknown } | undefined }> = async (
    request,
    reply,
  ) => {
    const auth = request.auth!;
    const file = request.body?.file;
    if (!isStagedFile(file)) {
      throw new HttpError(422, 'request.invalid', 'request.invalid', {}, { file: ['upload.file_required'] });
    }
    try {
      const { patientId, confirmDevicePatientId } = request.query;
      const accepted = await acceptExam(ctx, request, auth, file, { patientId, confirmDevicePatientId, lang: request.lang });
      wakeJobs();
      return reply.code(201).send(success(accepted, translate(request.lang, 'treatment.uploaded')));
    } catch (error) {
      await audit(ctx.db, request, {
        action: 'treatment.uploaded',
        outcome: 'failure',
        detail: { code: error instanceof HttpError ? error.code : 'server.unexpected', size: file.size },
      });
      throw error;
    } finally {
      // Kept files were moved away; anything else of the upload goes.
      await ctx.files.discard(file);
    }
  };

  const getTreatment: Handler<ById> = async (request) => {
    const auth = request.auth!;
    const treatment = await loadTreatment(ctx.db, auth.clinicId, request.params.id, request.lang);
    await audit(ctx.db, request, { action: 'treatment.read', outcome: 'success', targetType: 'treatment', targetId: treatment.id });
    return success(treatment);
  };

  const getTreatmentImage: Handler<ById & { Params: { imageId: string; variant: 'display' | 'thumbnail' } }> = async (
    request,
    reply,
  ) => {
    const auth = request.auth!;
    const { id, imageId, variant } = request.params;
    const key = await imageFileOf(ctx.db, auth.clinicId, id, imageId, variant);
    const file = await ctx.files.open(key);
    if (!file) throw new HttpError(404, 'resource.not_found', 'resource.not_found');
    return reply.header('Cache-Control', 'no-store').header('Content-Length', file.size).type('image/jpeg').send(file.stream);
  };

  const deleteTreatment: Handler<ById> = async (request) => {
    const auth = request.auth!;
    const row = await deleteSession(ctx, auth, request.params.id, (tx, deleted) =>
      audit(tx, request, {
        action: 'treatment.deleted',
        outcome: 'success',
        targetType: 'treatment',
        targetId: deleted.id,
        detail: { patientId: deleted.patient_id },
      }),
    );
    const folder = `${auth.clinicId}/${treatmentFolder(row.patient_id, row.id)}`;
    await removeUnreferenced(request.log, `the deleted session's folder ${folder}`, () => ctx.files.removePrefix(folder));
    return done(translate(request.lang, 'treatment.deleted'));
  };

  const updateTreatment: Handler<ById & { Body: TreatmentUpdate }> = async (request) => {
    const auth = request.auth!;
    const row = await updateTreatmentDetails(ctx, auth, request.params.id, request.body);
    await audit(ctx.db, request, { action: 'treatment.updated', outcome: 'success', targetType: 'treatment', targetId: row.id });
    return success(await loadTreatment(ctx.db, auth.clinicId, row.id, request.lang), translate(request.lang, 'treatment.updated'));
  };

  const reportTreatmentIssue: Handler<ById & { Body: IssueReportInput }> = async (request) => {
    const auth = request.auth!;
    const row = await reportIssue(ctx, auth, request.params.id, request.body);
    await audit(ctx.db, request, {
      action: 'treatment.issue_reported',
      outcome: 'success',
      targetType: 'treatment',
      targetId: row.id,
      detail: { patientId: row.patient_id },
    });
    return success(await loadTreatment(ctx.db, auth.clinicId, row.id, request.lang), translate(request.lang, 'treatment.issue_reported'));
  };

  return { uploadTreatment, getTreatment, getTreatmentImage, deleteTreatment, updateTreatment, reportTreatmentIssue };
}
