// The instance's own state, for load balancers: does it reach its database and its file storage?
import { sql } from 'kysely';
import type { Health } from '../../generated/model/health';
import type { AppContext } from '../context';
import { HttpError } from '../http/errors';
import { success, type Handler, type Handlers } from '../http/handler';
import type { MessageKey } from '../i18n';

/** A balancer gives up on a slow answer anyway: after this, the part counts as not answering. */
const PART_TIMEOUT_MS = 5_000;

async function answers(part: () => Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), PART_TIMEOUT_MS)));
  try {
    return await Promise.race([part().then(() => true, () => false), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export function systemHandlers(ctx: AppContext): Handlers {
  const getHealth: Handler = async () => {
    const [database, storage] = await Promise.all([answers(() => sql`select 1`.execute(ctx.db)), answers(() => ctx.files.ping())]);
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
  return { getHealth };
}
