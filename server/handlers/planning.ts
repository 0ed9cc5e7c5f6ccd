// The plan of a session as the planning wizard reads it. Saving the plan steps comes with the wizard.
import type { AppContext } from '../context';
import { type Handler, type Handlers, success } from '../http/handler';
import { audit } from '../services/audit';
import { findTreatmentRow, planOf } from '../services/treatments';

type ById = { Params: { id: string } };

export function planningHandlers(ctx: AppContext): Handlers {
  const getPlan: Handler<ById> = async (request) => {
    const row = await findTreatmentRow(ctx.db, request.auth!.clinicId, request.params.id);
    await audit(ctx.db, request, { action: 'plan.read', outcome: 'success', targetType: 'treatment', targetId: row.id });
    return success(planOf(row));
  };
  return { getPlan };
}
