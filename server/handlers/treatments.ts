// Treatments (sessions): NPT upload, reading a session and its images, deleting it. Physicians and nurses
// of the session's clinic only; reads of patient data are audited (ids only).
import type { UploadTreatmentParams } from '../../generated/model/uploadTreatmentParams';
import type { AppContext } from '../context';
import { isStagedFile } from '../storage';
import { HttpError } from '../http/errors';
import { actorOf } from '../http/actor';
import { type Handler, type Handlers, done, success } from '../http/handler';
import { translate } from '../i18n';
import { receiveExam } from '../services/uploads';
import type { IssueReportInput } from '../../generated/model/issueReportInput';
import type { TreatmentUpdate } from '../../generated/model/treatmentUpdate';
import { deleteSession, reportIssue, updateTreatmentDetails, withdrawIssueReport as withdrawReport } from '../services/treatment-changes';
import { loadTreatment, openTreatmentImage, readTreatment } from '../services/treatments';

type ById = { Params: { id: string } };

export function treatmentsHandlers(ctx: AppContext, wakeJobs: () => void) {
  const uploadTreatment: Handler<{ Querystring: UploadTreatmentParams; Body: { file?: unknown } | undefined }> = async (request, reply) => {
    const file = request.body?.file;
    if (!isStagedFile(file)) {
      throw new HttpError(422, 'request.invalid', 'request.invalid', {}, { file: ['upload.file_required'] });
    }
    const { patientId, confirmDevicePatientId } = request.query;
    const accepted = await receiveExam(ctx, actorOf(request), file, { patientId, confirmDevicePatientId });
    wakeJobs();
    return reply.code(201).send(success(accepted, translate(request.lang, 'treatment.uploaded')));
  };

  const getTreatment: Handler<ById> = async (request) => success(await readTreatment(ctx, actorOf(request), request.params.id));

  const getTreatmentImage: Handler<ById & { Params: { imageId: string; variant: 'display' | 'thumbnail' } }> = async (request, reply) => {
    const { id, imageId, variant } = request.params;
    const file = await openTreatmentImage(ctx, actorOf(request), id, imageId, variant);
    return reply.header('Cache-Control', 'no-store').header('Content-Length', file.size).type('image/jpeg').send(file.stream);
  };

  const deleteTreatment: Handler<ById> = async (request) => {
    await deleteSession(ctx, actorOf(request), request.params.id);
    return done(translate(request.lang, 'treatment.deleted'));
  };

  const updateTreatment: Handler<ById & { Body: TreatmentUpdate }> = async (request) => {
    const actor = actorOf(request);
    const row = await updateTreatmentDetails(ctx, actor, request.params.id, request.body);
    return success(await loadTreatment(ctx.db, actor.clinicId, row.id, actor.lang), translate(request.lang, 'treatment.updated'));
  };

  const reportTreatmentIssue: Handler<ById & { Body: IssueReportInput }> = async (request) => {
    const actor = actorOf(request);
    const row = await reportIssue(ctx, actor, request.params.id, request.body);
    return success(await loadTreatment(ctx.db, actor.clinicId, row.id, actor.lang), translate(request.lang, 'treatment.issue_reported'));
  };

  const withdrawIssueReport: Handler<ById> = async (request) =>
    success(await withdrawReport(ctx, actorOf(request), request.params.id), translate(request.lang, 'treatment.issue_report_withdrawn'));

  return { uploadTreatment, getTreatment, getTreatmentImage, deleteTreatment, updateTreatment, reportTreatmentIssue, withdrawIssueReport } satisfies Handlers;
}
