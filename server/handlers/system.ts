// The instance's own state, for load balancers (server/services/health.ts): 503 naming each part that does
// not answer.
import type { Health } from '../../generated/model/health';
import type { AppContext } from '../context';
import { HttpError } from '../http/errors';
import { success, type Handler, type Handlers } from '../http/handler';
import type { MessageKey } from '../i18n';
import { partsAnswering } from '../services/health';

export function systemHandlers(ctx: AppContext) {
  const getHealth: Handler = async () => {
    const { database, storage } = await partsAnswering(ctx);
    if (!database || !storage) {
      const failing: Record<string, MessageKey[]> = {};
      if (!database) failing.database = ['database.unavailable'];
      if (!storage) failing.storage = ['storage.unavailable'];
      const key: MessageKey = database ? 'storage.unavailable' : 'database.unavailable';
      throw new HttpError(503, key, key, {}, failing, {}, { 'Retry-After': '10' });
    }
    const health: Health = { database: 'ok', storage: 'ok' };
    return success(health);
  };
  return { getHealth } satisfies Handlers;
}
