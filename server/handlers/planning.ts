// The plan of a session as the planning wizard reads it. Saving the plan steps, sign-off and the parameter
// set come with the wizard; until then they answer 501, but a session they could never change already
// answers as it always will: 404 outside the caller's reach, the lock message once an issue was reported.
import type { AppContext } from '../context';
import { HttpError } from '../http/errors';
import { type Handler, type Handlers, success } from '../http/handler';
import { audit } from '../services/audit';
import { assertChangeable } from '../services/treatment-changes';
import { findTreatmentRow, planOf } from '../services/treatments';

type ById = { Params: { id: string } };

export function planningHandlers(ctx: AppContext): Handlers {
  const getPlan: Handler<ById> = async (request) => {
    const row = await findTreatmentRow(ctx.db, request.auth!.clinicId, request.params.id);
    await audit(ctx.db, request, { action: 'plan.read', outcome: 'success', targetType: 'treatment', targetId: row.id });
    return success(planOf(row));
  };

  const notYet: Handler<ById> = async (request) => {
    await assertChangeable(ctx, request.auth!, request.params.id);
    throw new HttpError(501, 'server.not_implemented', 'server.not_implemented');
  };

  return {
    getPlan,
    saveExclusionZones: notYet,
    saveMaculaGrid: notYet,
    saveBrightness: notYet,
    saveFinalAdjustments: notYet,
    confirmTreatment: notYet,
    downloadParameterSet: notYet,
  };
}
