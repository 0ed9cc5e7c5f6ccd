import type { AppContext } from '../context';
import type { Handlers } from '../http/handler';

export function authHandlers(_ctx: AppContext): Handlers {
  return {};
}
