// The plan of a session through the planning wizard's steps: read it, save steps 1–4 (each answers the plan
// as it now stands, the next step already proposed), sign it off, download its parameter set and its treatment
// report, and read its audit trail.
import type { BrightnessInput } from '../../generated/model/brightnessInput';
import type { DownloadTreatmentReportParams } from '../../generated/model/downloadTreatmentReportParams';
import type { ExclusionZonesInput } from '../../generated/model/exclusionZonesInput';
import type { FinalAdjustmentsInput } from '../../generated/model/finalAdjustmentsInput';
import type { GetPreviousTreatmentParams } from '../../generated/model/getPreviousTreatmentParams';
import type { MaculaGridInput } from '../../generated/model/maculaGridInput';
import type { SignOffInput } from '../../generated/model/signOffInput';
import type { AppContext } from '../context';
import { type Handler, type Handlers, success } from '../http/handler';
import { translate } from '../i18n';
import { audit } from '../services/audit';
import { planSafetyOf, treatmentDevicesOf } from '../services/clinical-safety';
import { listPlanChanges } from '../services/plan-audit';
import { saveBrightness, saveExclusionZones, saveFinalAdjustments, saveMaculaGrid, type PlanActor } from '../services/plan-steps';
import { parameterSetFile, signOff } from '../services/parameter-set';
import { previousTreatment } from '../services/previous-treatment';
import { sessionLocked } from '../services/treatment-changes';
import { treatmentReport } from '../services/treatment-report';
import { findTreatmentRow, loadTreatment, planOf } from '../services/treatments';

type ById = { Params: { id: string } };

export function planningHandlers(ctx: AppContext, wakeJobs: () => void): Handlers {
  const getPlan: Handler<ById> = async (request) => {
    const row = await findTreatmentRow(ctx.db, request.auth!.clinicId, request.params.id);
    await audit(ctx.db, request, { action: 'plan.read', outcome: 'success', targetType: 'treatment', targetId: row.id });
    return success(planOf(row, await planSafetyOf(ctx.db, row)));
  };

  /** A plan step: saved, then the plan read back as it now stands. */
  const step =
    <B>(action: string, save: (ctx: AppContext, actor: PlanActor, id: string, body: B) => Promise<void>): Handler<ById & { Body: B }> =>
    async (request) => {
      const auth = request.auth!;
      await save(ctx, { userId: auth.userId, clinicId: auth.clinicId, role: auth.role }, request.params.id, request.body as B);
      await audit(ctx.db, request, { action, outcome: 'success', targetType: 'treatment', targetId: request.params.id });
      const row = await findTreatmentRow(ctx.db, auth.clinicId, request.params.id);
      return success(planOf(row, await planSafetyOf(ctx.db, row)), translate(request.lang, 'treatment.updated'));
    };

  const listTreatmentDevices: Handler<ById> = async (request) => {
    // 404 for a session out of reach, as every read of a session.
    const row = await findTreatmentRow(ctx.db, request.auth!.clinicId, request.params.id);
    return success(await treatmentDevicesOf(ctx.db, row.clinic_id));
  };

  const listTreatmentAudit: Handler<ById> = async (request) => {
    const row = await findTreatmentRow(ctx.db, request.auth!.clinicId, request.params.id);
    return success(await listPlanChanges(ctx.db, row.id, request.lang));
  };

  const confirmTreatment: Handler<ById & { Body: SignOffInput }> = async (request) => {
    const auth = request.auth!;
    try {
      await signOff(ctx, { userId: auth.userId, clinicId: auth.clinicId, role: auth.role }, request.params.id, request.body, wakeJobs);
    } catch (error) {
      const reason = error instanceof Error ? error.message : 'unknown';
      await audit(ctx.db, request, { action: 'plan.sign_off', outcome: 'failure', targetType: 'treatment', targetId: request.params.id, detail: { reason } });
      throw error;
    }
    await audit(ctx.db, request, { action: 'plan.sign_off', outcome: 'success', targetType: 'treatment', targetId: request.params.id });
    return success(await loadTreatment(ctx.db, auth.clinicId, request.params.id, request.lang), translate(request.lang, 'plan.signed_off_message'));
  };

  const downloadParameterSet: Handler<ById> = async (request, reply) => {
    const row = await findTreatmentRow(ctx.db, request.auth!.clinicId, request.params.id);
    if (row.locked) throw sessionLocked();
    const file = await parameterSetFile(ctx, row);
    await audit(ctx.db, request, { action: 'plan.parameter_set_downloaded', outcome: 'success', targetType: 'treatment', targetId: row.id });
    return reply
      .header('Content-Type', 'application/octet-stream')
      .header('Content-Disposition', `attachment; filename="${file.fileName}"`)
      .header('Cache-Control', 'no-store')
      .send(file.bytes);
  };

  const downloadTreatmentReport: Handler<ById & { Querystring: DownloadTreatmentReportParams }> = async (request, reply) => {
    const { timeZone } = request.query;
    const report = await treatmentReport(ctx, request.auth!, request.params.id, request.lang, timeZone);
    await audit(ctx.db, request, {
      action: 'plan.report_downloaded',
      outcome: 'success',
      targetType: 'treatment',
      targetId: report.treatmentId,
      detail: { lang: request.lang, timeZone: report.timeZone },
    });
    return reply
      .header('Content-Type', 'application/pdf')
      .header('Content-Disposition', `attachment; filename="${report.fileName}"`)
      .header('Cache-Control', 'no-store')
      .send(report.bytes);
  };

  const getPreviousTreatment: Handler<ById & { Querystring: GetPreviousTreatmentParams }> = async (request) => {
    const auth = request.auth!;
    const answer = await previousTreatment(ctx, auth.clinicId, request.params.id, request.lang, wakeJobs, request.query.earlierSessionId);
    await audit(ctx.db, request, {
      action: 'plan.previous_treatment_read',
      outcome: 'success',
      targetType: 'treatment',
      targetId: request.params.id,
      detail: { earlierTreatmentId: answer.session?.id ?? null, state: answer.state },
    });
    return success(answer);
  };

  return {
    getPlan,
    getPreviousTreatment,
    saveExclusionZones: step<ExclusionZonesInput>('plan.exclusion_zones_saved', saveExclusionZones),
    saveMaculaGrid: step<MaculaGridInput>('plan.macula_grid_saved', saveMaculaGrid),
    saveBrightness: step<BrightnessInput>('plan.brightness_saved', saveBrightness),
    saveFinalAdjustments: step<FinalAdjustmentsInput>('plan.final_adjustments_saved', saveFinalAdjustments),
    listTreatmentAudit,
    listTreatmentDevices,
    confirmTreatment,
    downloadParameterSet,
    downloadTreatmentReport,
  };
}
