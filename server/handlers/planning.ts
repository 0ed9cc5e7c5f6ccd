// The plan of a session through the planning wizard's steps: read it, save steps 1–4 (each answers the plan
// as it now stands, the next step already proposed), sign it off, download its parameter set and its treatment
// report, and read its audit trail.
import type { BrightnessInput } from '../../generated/model/brightnessInput';
import type { DownloadTreatmentReportParams } from '../../generated/model/downloadTreatmentReportParams';
import type { ExclusionZonesInput } from '../../generated/model/exclusionZonesInput';
import type { FinalAdjustmentsInput } from '../../generated/model/finalAdjustmentsInput';
import type { GetPreviousTreatmentParams } from '../../generated/model/getPreviousTreatmentParams';
import type { MaculaGridInput } from '../../generated/model/maculaGridInput';
import type { Plan } from '../../generated/model/plan';
import type { SignOffInput } from '../../generated/model/signOffInput';
import type { AppContext } from '../context';
import { type Handler, type Handlers, sendAttachment, success } from '../http/handler';
import { translate } from '../i18n';
import { treatmentDevicesForSession } from '../services/clinical-safety';
import { listPlanChanges } from '../services/plan-audit';
import { readPlan, saveBrightness, saveExclusionZones, saveFinalAdjustments, saveMaculaGrid } from '../services/plan-steps';
import { parameterSetFile, signOff } from '../services/parameter-set';
import { readPreviousTreatment } from '../services/previous-treatment';
import { treatmentReport } from '../services/treatment-report';
import { actorOf } from '../http/actor';
import type { Actor } from '../actor';

type ById = { Params: { id: string } };

export function planningHandlers(ctx: AppContext, wakeJobs: () => void) {
  const getPlan: Handler<ById> = async (request) => success(await readPlan(ctx, actorOf(request), request.params.id));

  /** A plan step: saved, and answered with the plan as it now stands. */
  const step =
    <B>(save: (ctx: AppContext, actor: Actor, id: string, body: B) => Promise<Plan>): Handler<ById & { Body: B }> =>
    async (request) =>
      success(await save(ctx, actorOf(request), request.params.id, request.body as B), translate(request.lang, 'treatment.updated'));

  const listTreatmentDevices: Handler<ById> = async (request) => success(await treatmentDevicesForSession(ctx, actorOf(request), request.params.id));

  const listTreatmentAudit: Handler<ById> = async (request) => success(await listPlanChanges(ctx, actorOf(request), request.params.id));

  const confirmTreatment: Handler<ById & { Body: SignOffInput }> = async (request) =>
    success(await signOff(ctx, actorOf(request), request.params.id, request.body, wakeJobs), translate(request.lang, 'plan.signed_off_message'));

  const downloadParameterSet: Handler<ById> = async (request, reply) => {
    return sendAttachment(reply, await parameterSetFile(ctx, actorOf(request), request.params.id));
  };

  const downloadTreatmentReport: Handler<ById & { Querystring: DownloadTreatmentReportParams }> = async (request, reply) => {
    const report = await treatmentReport(ctx, actorOf(request), request.params.id, request.query.timeZone);
    return reply
      .header('Content-Type', 'application/pdf')
      .header('Content-Disposition', `attachment; filename="${report.fileName}"`)
      .header('Cache-Control', 'no-store')
      .send(report.bytes);
  };

  const getPreviousTreatment: Handler<ById & { Querystring: GetPreviousTreatmentParams }> = async (request) =>
    success(await readPreviousTreatment(ctx, actorOf(request), request.params.id, wakeJobs, request.query.earlierSessionId));

  return {
    getPlan,
    getPreviousTreatment,
    saveExclusionZones: step<ExclusionZonesInput>(saveExclusionZones),
    saveMaculaGrid: step<MaculaGridInput>(saveMaculaGrid),
    saveBrightness: step<BrightnessInput>(saveBrightness),
    saveFinalAdjustments: step<FinalAdjustmentsInput>(saveFinalAdjustments),
    listTreatmentAudit,
    listTreatmentDevices,
    confirmTreatment,
    downloadParameterSet,
    downloadTreatmentReport,
  } satisfies Handlers;
}
