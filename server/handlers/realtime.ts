import type { AppContext } from '../context';
import type { Handlers } from '../http/handler';

export function realtimeHandlers(_ctx: AppContext): Handlers {
  return {};
}
