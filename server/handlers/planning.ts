// The plan of a session through the planning wizard's steps: read it, save steps 1–4 (each answers the plan
// as it now stands, the next step already proposed), and read its audit trail. Sign-off, packing and the
// parameter set come next; until then they answer 501, but a session they could never change already
// answers as it always will: 404 outside the caller's reach, the lock message once an issue was reported.
import type { BrightnessInput } from '../../generated/model/brightnessInput';
import type { ExclusionZonesInput } from '../../generated/model/exclusionZonesInput';
import type { FinalAdjustmentsInput } from '../../generated/model/finalAdjustmentsInput';
import type { MaculaGridInput } from '../../generated/model/maculaGridInput';
import type { AppContext } from '../context';
import { HttpError } from '../http/errors';
import { type Handler, type Handlers, success } from '../http/handler';
import { translate } from '../i18n';
import { audit } from '../services/audit';
import { listPlanChanges } from '../services/plan-audit';
import { saveBrightness, saveExclusionZones, saveFinalAdjustments, saveMaculaGrid, type PlanActor } from '../services/plan-steps';
import { assertChangeable } from '../services/treatment-changes';
import { findTreatmentRow, planOf } from '../services/treatments';

type ById = { Params: { id: string } };

export function planningHandlers(ctx: AppContext): Handlers {
  const getPlan: Handler<ById> = async (request) => {
    const row = await findTreatmentRow(ctx.db, request.auth!.clinicId, request.params.id);
    await audit(ctx.db, request, { action: 'plan.read', outcome: 'success', targetType: 'treatment', targetId: row.id });
    return success(planOf(row));
  };

  /** A plan step: saved, then the plan read back as it now stands. */
  const step =
    <B>(action: string, save: (ctx: AppContext, actor: PlanActor, id: string, body: B) => Promise<void>): Handler<ById & { Body: B }> =>
    async (request) => {
      const auth = request.auth!;
      await save(ctx, { userId: auth.userId, clinicId: auth.clinicId, role: auth.role }, request.params.id, request.body as B);
      await audit(ctx.db, request, { action, outcome: 'success', targetType: 'treatment', targetId: request.params.id });
      const row = await findTreatmentRow(ctx.db, auth.clinicId, request.params.id);
      return success(planOf(row), translate(request.lang, 'treatment.updated'));
    };

  const listTreatmentAudit: Handler<ById> = async (request) => {
    const row = await findTreatmentRow(ctx.db, request.auth!.clinicId, request.params.id);
    return success(await listPlanChanges(ctx.db, row.id, request.lang));
  };

  const notYet: Handler<ById> = async (request) => {
    await assertChangeable(ctx, request.auth!, request.params.id);
    throw new HttpError(501, 'server.not_implemented', 'server.not_implemented');
  };

  return {
    getPlan,
    saveExclusionZones: step<ExclusionZonesInput>('plan.exclusion_zones_saved', saveExclusionZones),
    saveMaculaGrid: step<MaculaGridInput>('plan.macula_grid_saved', saveMaculaGrid),
    saveBrightness: step<BrightnessInput>('plan.brightness_saved', saveBrightness),
    saveFinalAdjustments: step<FinalAdjustmentsInput>('plan.final_adjustments_saved', saveFinalAdjustments),
    listTreatmentAudit,
    confirmTreatment: notYet,
    downloadParameterSet: notYet,
  };
}
