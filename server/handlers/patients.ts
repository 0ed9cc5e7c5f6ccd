// Patients: the lists, the patient card, the deletion workflow and the sessions of a patient. Each handler
// reads the request, calls services/patients.ts with the caller's Actor and answers; who may do what, and
// what is audited, is the service's.
import type { ComparePatientTreatmentsParams } from '../../generated/model/comparePatientTreatmentsParams';
import type { IdList } from '../../generated/model/idList';
import type { ListPatientsParams } from '../../generated/model/listPatientsParams';
import type { ListPatientTreatmentsParams } from '../../generated/model/listPatientTreatmentsParams';
import type { PatientBulkUpdate } from '../../generated/model/patientBulkUpdate';
import type { PatientCreate } from '../../generated/model/patientCreate';
import type { PatientDeletionRequestBody } from '../../generated/model/patientDeletionRequestBody';
import type { PatientUpdate } from '../../generated/model/patientUpdate';
import type { AppContext } from '../context';
import { actorOf } from '../http/actor';
import { type Handler, type Handlers, done, success } from '../http/handler';
import { translate, type MessageKey } from '../i18n';
import {
  bulkUpdatePatients,
  compareTreatments,
  createPatient,
  erasePatients,
  listPatients,
  listTreatments,
  readPatient,
  requestDeletion,
  updatePatient,
} from '../services/patients';

type ById = { Params: { id: string } };

const BULK_MESSAGES: Record<PatientBulkUpdate['action'], [MessageKey, MessageKey]> = {
  archive: ['patient.archived', 'patient.archived_many'],
  unarchive: ['patient.unarchived', 'patient.unarchived_many'],
  restore: ['patient.restored', 'patient.restored_many'],
};

export function patientsHandlers(ctx: AppContext) {
  const listPatientsHandler: Handler<{ Querystring: ListPatientsParams }> = async (request) => {
    // The request lets the list's version check reuse what the sign-in check read (server/db/freshness.ts).
    const result = await listPatients(ctx, actorOf(request), request.query, request);
    return { status: 'Success' as const, data: result.data, meta: result.meta };
  };

  const createPatientHandler: Handler<{ Body: PatientCreate }> = async (request, reply) => {
    const patient = await createPatient(ctx, actorOf(request), request.body);
    reply.code(201);
    return success(patient, translate(request.lang, 'patient.created'));
  };

  const getPatientHandler: Handler<ById> = async (request) => success(await readPatient(ctx, actorOf(request), request.params.id));

  const updatePatientHandler: Handler<ById & { Body: PatientUpdate }> = async (request) => {
    const patient = await updatePatient(ctx, actorOf(request), request.params.id, request.body);
    return success(patient, translate(request.lang, 'patient.updated'));
  };

  const requestDeletionHandler: Handler<ById & { Body: PatientDeletionRequestBody }> = async (request) => {
    const patient = await requestDeletion(ctx, actorOf(request), request.params.id, request.body.reason);
    return success(patient, translate(request.lang, 'patient.deletion_requested'));
  };

  const bulkUpdateHandler: Handler<{ Body: PatientBulkUpdate }> = async (request) => {
    const { ids, action } = request.body;
    const changed = await bulkUpdatePatients(ctx, actorOf(request), ids, action);
    const [one, many] = BULK_MESSAGES[action];
    return success({ action, ids: changed }, translate(request.lang, changed.length === 1 ? one : many, { count: changed.length }));
  };

  const deletePatientHandler: Handler<ById> = async (request) => {
    await erasePatients(ctx, actorOf(request), [request.params.id]);
    return done(translate(request.lang, 'patient.erased'));
  };

  const deletePatientsHandler: Handler<{ Body: IdList }> = async (request) => {
    const { ids } = request.body;
    await erasePatients(ctx, actorOf(request), ids);
    return done(translate(request.lang, ids.length === 1 ? 'patient.erased' : 'patient.erased_many', { count: ids.length }));
  };

  const listTreatmentsHandler: Handler<ById & { Querystring: ListPatientTreatmentsParams }> = async (request) => {
    const page = { page: request.query.page ?? 1, perPage: request.query.perPage ?? 20 };
    const result = await listTreatments(ctx, actorOf(request), request.params.id, page);
    return { status: 'Success' as const, data: result.data, meta: result.meta };
  };

  const compareHandler: Handler<ById & { Querystring: ComparePatientTreatmentsParams }> = async (request) => {
    const { first, second } = request.query;
    return success(await compareTreatments(ctx, actorOf(request), request.params.id, first, second));
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
  } satisfies Handlers;
}
