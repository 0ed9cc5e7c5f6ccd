// The clinic's access log (issue 27): IT admins read who read or changed which patient's data
// (server/services/audit-access-log.ts, which records the reading too).
import type { ListAccessLogParams } from '../../generated/model/listAccessLogParams';
import type { AppContext } from '../context';
import { actorOf } from '../http/actor';
import type { Handler, Handlers } from '../http/handler';
import { listAccessLog as readAccessLog } from '../services/audit-access-log';

export function accessLogHandlers(ctx: AppContext) {
  const listAccessLog: Handler<{ Querystring: ListAccessLogParams }> = async (request) => {
    const { data, meta } = await readAccessLog(ctx, actorOf(request), request.query);
    return { status: 'Success' as const, data, meta };
  };

  return { listAccessLog } satisfies Handlers;
}
