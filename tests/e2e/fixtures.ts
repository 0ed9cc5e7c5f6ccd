// The journeys' test: the language a project runs in with its texts, and staff accounts made for each test
// through the API (an IT admin invites, the invitee accepts through the mailed link), so tests can run in
// parallel without sharing an account, its throttling or its language.
import { randomUUID } from 'node:crypto';
import { test as base, expect, type APIRequestContext } from '@playwright/test';
import type { Language } from '../../generated/model/language';
import type { SignedInResponse } from '../../generated/model/signedInResponse';
import type { StaffRole } from '../../generated/model/staffRole';
import { mailedLink } from './outbox';
import { REFERENCE_URL } from './reference-server';
import { TEXTS, type Texts } from './texts';

/** The demo seed's clinic and its IT admin (server/seed/demo.ts, README), who invites the journeys' staff. */
export const DEMO_CLINIC = 'Augenklinik am See';
export const DEMO_ADMIN = { email: 'admin@clinic.example', password: 'Demo-Clinic-2026!' };

/** Meets the demo clinic's strength level (standard: 8 characters, a capital, a small letter, a number). */
const STAFF_PASSWORD = 'Journey-Pass-2026';

export interface StaffAccount {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  role: StaffRole;
}

export interface Invitation {
  account: StaffAccount;
  /** The /approve-account link of the invite e-mail. */
  link: string;
}

/**
 * The profile language of a new user (the test's language unless given), and a word their last name starts
 * with (a test finds its own users in the shared demo clinic by searching for it).
 */
type StaffOptions = { lang?: Language; family?: string };

export interface Staff {
  /** A new user of `role`, invited (pending); the password is the one to choose. */
  invite(role: StaffRole, options?: StaffOptions): Promise<Invitation>;
  /** A new active user of `role`. */
  create(role: StaffRole, options?: StaffOptions): Promise<StaffAccount>;
}

export interface JourneyOptions {
  /** The UI language of the project (playwright.config.ts): the browser's locale and the staff's language. */
  lang: Language;
}

interface JourneyFixtures {
  /** The catalogues of `lang` (locales/<lang>/*.json), for the texts the pages must show. */
  texts: Texts;
  staff: Staff;
}

interface WorkerFixtures {
  /** The reference server's API, signed in as the demo IT admin. */
  clinicAdmin: APIRequestContext;
}

async function signInToken(api: APIRequestContext, credentials: { email: string; password: string }): Promise<string> {
  const response = await api.post('/api/sign-in', { data: { ...credentials, remember: false } });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as SignedInResponse).data.token;
}

async function inviteStaff(clinicAdmin: APIRequestContext, role: StaffRole, lang: Language, family = 'Journey'): Promise<Invitation> {
  const id = randomUUID().slice(0, 8);
  const account: StaffAccount = {
    email: `${role}-${lang}-${id}@e2e.clinic.example`,
    password: STAFF_PASSWORD,
    firstName: 'Eva',
    lastName: `${family} ${id}`,
    role,
  };
  // The new user's language is the language of the request that adds them (server/handlers/users.ts).
  const response = await clinicAdmin.post('/api/users', {
    headers: { Language: lang },
    multipart: {
      firstName: account.firstName,
      lastName: account.lastName,
      email: account.email,
      role,
      draft: '0',
      // Adding an IT admin is confirmed with the acting admin's own password (issue 27).
      ...(role === 'clinic_it_admins' && { currentPassword: DEMO_ADMIN.password }),
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return { account, link: await mailedLink(account.email, '/approve-account') };
}

async function acceptInvitation(api: APIRequestContext, { account, link }: Invitation): Promise<void> {
  const token = new URL(link).searchParams.get('token');
  const response = await api.post('/api/accept-invite', {
    data: {
      token,
      password: account.password,
      passwordConfirmation: account.password,
      acceptEula: true,
      acceptPrivacyNotice: true,
    },
  });
  expect(response.status(), await response.text()).toBe(200);
}

export const test = base.extend<JourneyOptions & JourneyFixtures, WorkerFixtures>({
  lang: ['en', { option: true }],
  texts: async ({ lang }, use) => use(TEXTS[lang]),
  clinicAdmin: [
    async ({ playwright }, use) => {
      const anonymous = await playwright.request.newContext({ baseURL: REFERENCE_URL });
      const token = await signInToken(anonymous, DEMO_ADMIN);
      await anonymous.dispose();
      const clinicAdmin = await playwright.request.newContext({
        baseURL: REFERENCE_URL,
        extraHTTPHeaders: { Authorization: `Bearer ${token}` },
      });
      await use(clinicAdmin);
      await clinicAdmin.dispose();
    },
    { scope: 'worker' },
  ],
  staff: async ({ clinicAdmin, lang, request }, use) => {
    await use({
      invite: (role, options) => inviteStaff(clinicAdmin, role, options?.lang ?? lang, options?.family),
      create: async (role, options) => {
        const invitation = await inviteStaff(clinicAdmin, role, options?.lang ?? lang, options?.family);
        await acceptInvitation(request, invitation);
        return invitation.account;
      },
    });
  },
});

export { expect };
