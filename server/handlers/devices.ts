// Devices as API clients (issue 29): the IT admin adds a device, issues enrolment codes and revokes
// credentials; the sync app enrols, sends heartbeats, uploads exams, and fetches, confirms and reports the signed
// plans' parameter sets. The rules are in server/services/device-sync.ts and transfers.ts.
import type { DeliveryReport } from '../../generated/model/deliveryReport';
import type { DeviceInput } from '../../generated/model/deviceInput';
import type { EnrolDeviceRequest } from '../../generated/model/enrolDeviceRequest';
import type { HeartbeatRequest } from '../../generated/model/heartbeatRequest';
import type { TransferReceipt } from '../../generated/model/transferReceipt';
import type { TransferTarget } from '../../generated/model/transferTarget';
import type { AppContext } from '../context';
import { actorOf, deviceOf, originOf } from '../http/actor';
import { HttpError } from '../http/errors';
import type { Handler, Handlers } from '../http/handler';
import { sendAttachment, success } from '../http/handler';
import { translate } from '../i18n';
import * as sync from '../services/device-sync';
import * as transfers from '../services/transfers';
import { receiveExam } from '../services/uploads';
import { isStagedFile } from '../storage';

export function devicesHandlers(ctx: AppContext, wakeJobs: () => void) {
  const addDevice: Handler<{ Body: DeviceInput }> = async (request, reply) => {
    const added = await sync.addDevice(ctx, actorOf(request), request.body);
    return reply.code(201).send(success(added, translate(request.lang, 'device.added')));
  };

  const issueDeviceEnrolmentCode: Handler<{ Params: { id: string } }> = async (request) =>
    success(await sync.issueEnrolmentCode(ctx, actorOf(request), request.params.id), translate(request.lang, 'device.enrolment_issued'));

  const revokeDeviceCredential: Handler<{ Params: { id: string } }> = async (request) =>
    success(await sync.revokeDeviceCredential(ctx, actorOf(request), request.params.id), translate(request.lang, 'device.revoked'));

  const enrolDevice: Handler<{ Body: EnrolDeviceRequest }> = async (request) =>
    success(await sync.enrolDevice(ctx, originOf(request), request.body.code, request.body.syncAppVersion), translate(request.lang, 'device.enrolled'));

  const sendDeviceHeartbeat: Handler<{ Body: HeartbeatRequest }> = async (request) =>
    success(await sync.recordHeartbeat(ctx, deviceOf(request), request.body.syncAppVersion));

  const uploadDeviceExam: Handler<{ Body: { file?: unknown } | undefined }> = async (request, reply) => {
    const file = request.body?.file;
    if (!isStagedFile(file)) throw new HttpError(422, 'request.invalid', 'request.invalid', {}, { file: ['upload.file_required'] });
    const accepted = await receiveExam(ctx, deviceOf(request), file, {});
    wakeJobs();
    const data = { treatmentId: accepted.treatment.id, patientId: accepted.patient.id, patientCreated: accepted.patientCreated, sha256: file.sha256 };
    return reply.code(201).send(success(data, translate(request.lang, 'treatment.uploaded')));
  };

  const listDeviceParameterSets: Handler = async (request) => success(await transfers.listDeviceTransfers(ctx, deviceOf(request)));

  const downloadDeviceParameterSet: Handler<{ Params: { id: string } }> = async (request, reply) => {
    return sendAttachment(reply, await transfers.deviceParameterSetFile(ctx, deviceOf(request), request.params.id));
  };

  const acknowledgeDeviceParameterSet: Handler<{ Params: { id: string }; Body: TransferReceipt }> = async (request) =>
    success(await transfers.acknowledgeTransfer(ctx, deviceOf(request), request.params.id, request.body.sha256), translate(request.lang, 'transfer.received'));

  const reportDeviceDelivery: Handler<{ Params: { id: string }; Body: DeliveryReport }> = async (request) =>
    success(await transfers.reportDelivery(ctx, deviceOf(request), request.params.id, request.body), translate(request.lang, 'transfer.delivered'));

  const sendParameterSetToDevice: Handler<{ Params: { id: string }; Body: TransferTarget }> = async (request) => {
    const transfer = await transfers.sendToDevice(ctx, actorOf(request), request.params.id, request.body.deviceId);
    return success(transfer, translate(request.lang, 'transfer.sent', { device: transfer.device.deviceId }));
  };

  const cancelParameterSetTransfer: Handler<{ Params: { id: string } }> = async (request) =>
    success(await transfers.cancelTransfer(ctx, actorOf(request), request.params.id), translate(request.lang, 'transfer.withdrawn'));

  return {
    sendParameterSetToDevice,
    cancelParameterSetTransfer,
    addDevice,
    issueDeviceEnrolmentCode,
    revokeDeviceCredential,
    enrolDevice,
    sendDeviceHeartbeat,
    uploadDeviceExam,
    listDeviceParameterSets,
    downloadDeviceParameterSet,
    acknowledgeDeviceParameterSet,
    reportDeviceDelivery,
  } satisfies Handlers;
}
