// Every area's handlers, keyed by operationId.
import type { AppContext } from '../context';
import type { Handlers } from '../http/handler';
import { authHandlers } from './auth';
import { clinicHandlers } from './clinic';
import { notificationsHandlers } from './notifications';
import { patientsHandlers } from './patients';
import { profileHandlers } from './profile';
import { realtimeHandlers } from './realtime';
import { usersHandlers } from './users';

export function allHandlers(ctx: AppContext): Handlers {
  return {
    ...authHandlers(ctx),
    ...profileHandlers(ctx),
    ...usersHandlers(ctx),
    ...clinicHandlers(ctx),
    ...notificationsHandlers(ctx),
    ...patientsHandlers(ctx),
    ...realtimeHandlers(ctx),
  };
}
