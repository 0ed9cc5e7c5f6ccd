import type { AppContext } from '../context';
import type { Handlers } from '../http/handler';

export function patientsHandlers(_ctx: AppContext): Handlers {
  return {};
}
