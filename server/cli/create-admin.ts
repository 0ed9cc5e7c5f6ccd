// `npm run create-admin -- --clinic "Name" --email a@b --first-name X --last-name Y [--lang de]`
// Creates the first IT admin of a real clinic (the clinic too, with default security settings, when no
// clinic of that name exists) and e-mails the invite; with no SMTP_URL the invite link is printed.
// Works in production: it needs no demo data.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { loadConfigOrExplain } from '../config';
import { systemClock, type AppContext } from '../context';
import { openConfiguredDatabaseOrExplain } from '../db/database';
import { migrate } from '../db/migrate';
import { createFileStore } from '../storage';
import type { Lang } from '../i18n';
import { createMailer, type Mailer, type MailMessage } from '../mail/mailer';
import { issueInvite } from '../services/invites';

/** A new clinic's idle logout (issue 27): on from the start, as an unattended clinic PC expects. */
export const NEW_CLINIC_IDLE_LOGOUT_MINUTES = 30;

export const USAGE = `Usage: npm run create-admin -- --clinic "Clinic name" --email admin@clinic.example --first-name Jonas --last-name Weber [--lang en|de]

Creates the clinic (unless a clinic of that name exists) and invites the user as its IT administrator.`;

export interface AdminRequest {
  clinic: string;
  email: string;
  firstName: string;
  lastName: string;
  lang: Lang;
}

/** A problem with the command's input (exit 2) or with the data (exit 1), with a message for the user. */
export class CommandError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2,
  ) {
    super(message);
  }
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Reads the command line; throws CommandError (exit 2) with what is missing or wrong. */
export function parseAdminArgs(argv: string[]): AdminRequest {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        clinic: { type: 'string' },
        email: { type: 'string' },
        'first-name': { type: 'string' },
        'last-name': { type: 'string' },
        lang: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new CommandError(`${(error as Error).message}\n\n${USAGE}`, 2);
  }
  if (values.help) throw new CommandError(USAGE, 2);
  const text = (name: string) => (typeof values[name] === 'string' ? (values[name] as string).trim() : '');
  const missing = ['clinic', 'email', 'first-name', 'last-name'].filter((name) => !text(name));
  if (missing.length) throw new CommandError(`Missing ${missing.map((m) => `--${m}`).join(', ')}.\n\n${USAGE}`, 2);
  const email = text('email');
  if (!EMAIL.test(email) || email.length > 254) throw new CommandError(`"${email}" is not a valid e-mail address.\n\n${USAGE}`, 2);
  const lang = text('lang') || 'en';
  if (lang !== 'en' && lang !== 'de') throw new CommandError(`--lang must be en or de (got "${lang}").\n\n${USAGE}`, 2);
  for (const name of ['clinic', 'first-name', 'last-name']) {
    if (text(name).length > 200) throw new CommandError(`--${name} is too long (at most 200 characters).`, 2);
  }
  return { clinic: text('clinic'), email, firstName: text('first-name'), lastName: text('last-name'), lang };
}

export interface AdminCreated {
  clinicId: string;
  clinicCreated: boolean;
  userId: string;
  /** The address belonged to this clinic's invited IT admin already: the invite was sent again. */
  resent: boolean;
  expiresAt: Date;
}

/** Creates the clinic when needed and the invited IT admin, then sends the invite. */
export async function createFirstAdmin(ctx: AppContext, input: AdminRequest): Promise<AdminCreated> {
  const created = await ctx.db.transaction().execute(async (tx) => {
    let clinic = await tx
      .selectFrom('clinics')
      .select('id')
      .where(sql<string>`lower(name)`, '=', input.clinic.toLowerCase())
      .orderBy('created_at')
      .limit(1)
      .executeTakeFirst();
    const taken = await tx
      .selectFrom('users')
      .select(['id', 'clinic_id', 'role', 'status'])
      .where(sql<string>`lower(email)`, '=', input.email.toLowerCase())
      .executeTakeFirst();
    if (taken) {
      // A second run after a failed e-mail (e.g. a wrong SMTP_URL) sends the invite again.
      const sameInvite =
        taken.clinic_id === clinic?.id && taken.role === 'clinic_it_admins' && ['pending', 'invite_expired'].includes(taken.status);
      if (!sameInvite) throw new CommandError(`The e-mail address ${input.email} is already in use.`, 1);
      return { clinicId: taken.clinic_id, clinicCreated: false, userId: taken.id, resent: true };
    }
    const clinicCreated = !clinic;
    if (!clinic) {
      clinic = await tx.insertInto('clinics').values({ name: input.clinic }).returning('id').executeTakeFirstOrThrow();
      // An unattended clinic PC signs its user out: idle logout after 30 minutes until the IT admin says otherwise.
      await tx
        .insertInto('security_settings')
        .values({ clinic_id: clinic.id, logout_time_interval: NEW_CLINIC_IDLE_LOGOUT_MINUTES, logout_time_period: 'minutes' })
        .execute();
    }
    const user = await tx
      .insertInto('users')
      .values({
        clinic_id: clinic.id,
        email: input.email,
        first_name: input.firstName,
        last_name: input.lastName,
        physician_name: null,
        role: 'clinic_it_admins',
        status: 'pending',
        invite_status: 'pending',
        previous_status: null,
        password_hash: null,
        password_changed_at: null,
        lang: input.lang,
        avatar_path: null,
        avatar_type: null,
        eula_accepted_at: null,
        eula_version: null,
        privacy_accepted_at: null,
        privacy_version: null,
        last_sign_in_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { clinicId: clinic.id, clinicCreated, userId: user.id, resent: false };
  });
  const expiresAt = await issueInvite(
    ctx,
    { id: created.userId, email: input.email, first_name: input.firstName, clinic_id: created.clinicId },
    input.lang,
  );
  return { ...created, expiresAt };
}

const isUniqueViolation = (error: unknown) => (error as { code?: string })?.code === '23505';

async function main(argv: string[]): Promise<number> {
  let input: AdminRequest;
  try {
    input = parseAdminArgs(argv);
  } catch (error) {
    if (error instanceof CommandError) {
      console.error(error.message);
      return error.exitCode;
    }
    throw error;
  }
  const config = loadConfigOrExplain();
  if (!config) return 1;
  // On PGlite this takes the data directory's lock: with a server running on it, the command stops here
  // instead of writing what the server would never see.
  const opened = await openConfiguredDatabaseOrExplain(config, 'Nothing was changed.');
  if (!opened) return 1;
  const { db, kind } = opened;
  try {
    await migrate(db, { kind });
    const sent: MailMessage[] = [];
    const outboxDir = join(config.dataDir, 'outbox');
    const mailer: Mailer = createMailer({ smtpUrl: config.smtpUrl, outboxDir, log: () => {} });
    const ctx: AppContext = {
      config,
      db,
      clock: systemClock,
      mailer: {
        ...mailer,
        async send(message) {
          sent.push(message);
          await mailer.send(message);
        },
      },
      files: createFileStore(config),
    };
    const result = await createFirstAdmin(ctx, input);
    if (result.resent) console.log(`${input.email} was already invited as IT admin of "${input.clinic}": sending the invite again.`);
    else if (result.clinicCreated) console.log(`Created clinic "${input.clinic}" with the default security settings.`);
    else console.log(`Clinic "${input.clinic}" exists; adding the IT admin to it.`);
    console.log(`Invited ${input.firstName} ${input.lastName} <${input.email}> as IT admin (invite valid until ${result.expiresAt.toISOString()}).`);
    if (config.smtpUrl) {
      console.log(`The invite was e-mailed through ${new URL(config.smtpUrl).host}.`);
    } else {
      const link = sent.at(-1)?.text.match(/https?:\/\/\S+/)?.[0];
      console.log(`No SMTP_URL is set: the e-mail was written to ${outboxDir}.`);
      if (link) console.log(`Invite link: ${link}`);
    }
    return 0;
  } catch (error) {
    if (error instanceof CommandError) {
      console.error(error.message);
      return error.exitCode;
    }
    if (isUniqueViolation(error)) {
      console.error(`The e-mail address ${input.email} is already in use.`);
      return 1;
    }
    console.error(`Could not create the IT admin: ${(error as Error).message}`);
    return 1;
  } finally {
    await db.destroy();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2));
}
