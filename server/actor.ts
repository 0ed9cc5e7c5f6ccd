// Who is acting, as services see it: no Fastify type crosses into services. Handlers build these from the
// request (server/http/actor.ts); jobs and command-line tools build them by hand.
import type { Lang } from './i18n';

/** Where a call came from: enough for the audit log and for messages in the caller's language. */
export interface Origin {
  /** The client's address as the trusted proxies report it (TRUST_PROXY); null outside HTTP. */
  ip: string | null;
  lang: Lang;
}

/** A signed-in caller: the user, their clinic and role, and the sign-in session the call belongs to. */
export interface Actor extends Origin {
  userId: string;
  clinicId: string;
  role: string;
  /** The sign-in session of the call; absent for work done on a user's behalf outside a request (the demo seed). */
  sessionId?: string;
}

/** An origin outside any request (jobs, command-line tools): no address, English messages. */
export const systemOrigin: Origin = { ip: null, lang: 'en' };
