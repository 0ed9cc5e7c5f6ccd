import type { AppContext } from '../context';
import type { Handlers } from '../http/handler';

export function clinicHandlers(_ctx: AppContext): Handlers {
  return {};
}
