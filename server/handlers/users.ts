import type { AppContext } from '../context';
import type { Handlers } from '../http/handler';

export function usersHandlers(_ctx: AppContext): Handlers {
  return {};
}
