import type { AppContext } from '../context';
import type { Handlers } from '../http/handler';

export function notificationsHandlers(_ctx: AppContext): Handlers {
  return {};
}
