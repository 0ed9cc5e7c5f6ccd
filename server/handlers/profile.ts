import type { AppContext } from '../context';
import type { Handlers } from '../http/handler';

export function profileHandlers(_ctx: AppContext): Handlers {
  return {};
}
