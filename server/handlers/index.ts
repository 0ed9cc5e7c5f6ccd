// Every area's handlers, keyed by operationId.
import type { AppContext } from '../context';
import type { AllHandlers } from '../http/handler';
import { accessLogHandlers } from './access-log';
import { annotationsHandlers } from './annotations';
import { authHandlers } from './auth';
import { clinicHandlers } from './clinic';
import { devicesHandlers } from './devices';
import { notificationsHandlers } from './notifications';
import { patientsHandlers } from './patients';
import { planningHandlers } from './planning';
import { profileHandlers } from './profile';
import { realtimeHandlers } from './realtime';
import { systemHandlers } from './system';
import { treatmentsHandlers } from './treatments';
import { twoFactorHandlers } from './two-factor';
import { usersHandlers } from './users';

/** `wakeJobs` tells the background worker that new work is queued. */
export function allHandlers(ctx: AppContext, wakeJobs: () => void): AllHandlers {
  return {
    ...authHandlers(ctx),
    ...profileHandlers(ctx),
    ...twoFactorHandlers(ctx),
    ...usersHandlers(ctx),
    ...clinicHandlers(ctx),
    ...devicesHandlers(ctx, wakeJobs),
    ...notificationsHandlers(ctx),
    ...patientsHandlers(ctx),
    ...realtimeHandlers(ctx),
    ...systemHandlers(ctx),
    ...treatmentsHandlers(ctx, wakeJobs),
    ...planningHandlers(ctx, wakeJobs),
    ...annotationsHandlers(ctx),
    ...accessLogHandlers(ctx),
  };
}
