// Patients: the lists, the patient card, the deletion workflow and the sessions of a patient.
// Physicians and nurses work with active patients; IT admins with every list, archive, restore and erase.
// Every read of patient data is audited (ids and counts only, never names).
import type { ComparePatientTreatmentsParams } from '../../generated/model/comparePatientTreatmentsParams';
import type { IdList } from '../../generated/model/idList';
import type { ListPatientsParams } from '../../generated/model/listPatientsParams';
import type { ListPatientTreatmentsParams } from '../../generated/model/listPatientTreatmentsParams';
import type { PatientBulkUpdate } from '../../generated/model/patientBulkUpdate';
import type { PatientCreate } from '../../generated/model/patientCreate';
import type { PatientDeletionRequestBody } from '../../generated/model/patientDeletionRequestBody';
import type { PatientUpdate } from '../../generated/model/patientUpdate';
import type { AppContext } from '../context';
import { forbidden, HttpError, invalid } from '../http/errors';
import { type Handler, type Handlers, done, success } from '../http/handler';
import { translate, type MessageKey } from '../i18n';
import { audit } from '../services/audit';
import { auditRead } from '../services/audit-reads';
import {
  bulkUpdatePatients,
  compareTreatments,
  createPatient,
  erasePatients,
  getPatientOrThrow,
  isUnusableText,
  listPatients,
  listTreatments,
  requestDeletion,
  updatePatient,
} from '../services/patients';

type ById = { Params: { id: string } };

const isAdmin = (role: string) => role === 'clinic_it_admins';

const BULK_MESSAGES: Record<PatientBulkUpdate['action'], [MessageKey, MessageKey]> = {
  archive: ['patient.archived', 'patient.archived_many'],
  unarchive: ['patient.unarchived', 'patient.unarchived_many'],
  restore: ['patient.restored', 'patient.restored_many'],
};

export function patientsHandlers(ctx: AppContext): Handlers {
  const listPatientsHandler: Handler<{ Querystring: ListPatientsParams }> = async (request) => {
    const auth = request.auth!;
    const query = request.query;
    const status = query.status ?? 'active';
    if (!isAdmin(auth.role) && status !== 'active') {
      await audit(ctx.db, request, { action: 'patient.list', outcome: 'denied', detail: { status } });
      throw forbidden();
    }
    if (query.birthdayFrom && query.birthdayTo && query.birthdayFrom > query.birthdayTo) {
      throw invalid({ birthdayTo: ['patient.birthday_range'] });
    }
    if (query.search && isUnusableText(query.search)) throw invalid({ search: ['validation.invalid'] });
    const result = await listPatients(ctx.db, auth.clinicId, {
      page: query.page ?? 1,
      perPage: query.perPage ?? 20,
      search: query.search,
      birthdayFrom: query.birthdayFrom,
      birthdayTo: query.birthdayTo,
      status,
      planStatus: query.planStatus,
      sort: query.sort ?? '-latestSessionDate',
    }, request);
    await auditRead(ctx.db, request, {
      action: 'patient.list',
      outcome: 'success',
      targetType: 'patient',
      detail: { status, count: result.data.length, total: result.meta.total, page: result.meta.page },
    });
    return { status: 'Success' as const, data: result.data, meta: result.meta };
  };

  const createPatientHandler: Handler<{ Body: PatientCreate }> = async (request, reply) => {
    const patient = await createPatient(ctx, request, request.body);
    reply.code(201);
    return success(patient, translate(request.lang, 'patient.created'));
  };

  const getPatientHandler: Handler<ById> = async (request) => {
    const auth = request.auth!;
    try {
      const patient = await getPatientOrThrow(ctx.db, auth.clinicId, request.params.id, !isAdmin(auth.role));
      await audit(ctx.db, request, { action: 'patient.read', outcome: 'success', targetType: 'patient', targetId: patient.id });
      return success(patient);
    } catch (error) {
      if (error instanceof HttpError && error.statusCode === 404) {
        await audit(ctx.db, request, { action: 'patient.read', outcome: 'failure', targetType: 'patient', targetId: request.params.id });
      }
      throw error;
    }
  };

  const updatePatientHandler: Handler<ById & { Body: PatientUpdate }> = async (request) => {
    const patient = await updatePatient(ctx, request, request.params.id, request.body);
    return success(patient, translate(request.lang, 'patient.updated'));
  };

  const requestDeletionHandler: Handler<ById & { Body: PatientDeletionRequestBody }> = async (request) => {
    const patient = await requestDeletion(ctx, request, request.params.id, request.body.reason);
    return success(patient, translate(request.lang, 'patient.deletion_requested'));
  };

  const bulkUpdateHandler: Handler<{ Body: PatientBulkUpdate }> = async (request) => {
    const { ids, action } = request.body;
    const changed = await bulkUpdatePatients(ctx, request, ids, action);
    const [one, many] = BULK_MESSAGES[action];
    return success({ action, ids: changed }, translate(request.lang, changed.length === 1 ? one : many, { count: changed.length }));
  };

  const deletePatientHandler: Handler<ById> = async (request) => {
    await erasePatients(ctx, request, [request.params.id]);
    return done(translate(request.lang, 'patient.erased'));
  };

  const deletePatientsHandler: Handler<{ Body: IdList }> = async (request) => {
    const { ids } = request.body;
    await erasePatients(ctx, request, ids);
    return done(translate(request.lang, ids.length === 1 ? 'patient.erased' : 'patient.erased_many', { count: ids.length }));
  };

  const listTreatmentsHandler: Handler<ById & { Querystring: ListPatientTreatmentsParams }> = async (request) => {
    const auth = request.auth!;
    const page = { page: request.query.page ?? 1, perPage: request.query.perPage ?? 20 };
    const result = await listTreatments(ctx.db, auth.clinicId, request.params.id, page, request.lang);
    await audit(ctx.db, request, {
      action: 'patient.treatments.list',
      outcome: 'success',
      targetType: 'patient',
      targetId: request.params.id,
      detail: { count: result.data.length },
    });
    return { status: 'Success' as const, data: result.data, meta: result.meta };
  };

  const compareHandler: Handler<ById & { Querystring: ComparePatientTreatmentsParams }> = async (request) => {
    const auth = request.auth!;
    const { first, second } = request.query;
    if (first.toLowerCase() === second.toLowerCase()) {
      throw new HttpError(422, 'comparison.same_treatment', 'comparison.same_treatment', {}, {
        second: ['comparison.same_treatment'],
      });
    }
    const data = await compareTreatments(ctx.db, auth.clinicId, request.params.id, first, second, request.lang);
    await audit(ctx.db, request, {
      action: 'patient.treatments.compare',
      outcome: 'success',
      targetType: 'patient',
      targetId: request.params.id,
      detail: { treatments: [first, second] },
    });
    return success(data);
  };

  return {
    listPatients: listPatientsHandler,
    createPatient: createPatientHandler,
    getPatient: getPatientHandler,
    updatePatient: updatePatientHandler,
    requestPatientDeletion: requestDeletionHandler,
    bulkUpdatePatients: bulkUpdateHandler,
    deletePatient: deletePatientHandler,
    deletePatients: deletePatientsHandler,
    listPatientTreatments: listTreatmentsHandler,
    comparePatientTreatments: compareHandler,
  };
}
