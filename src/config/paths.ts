/**
 * Every route of the customer's screen list, with its path pattern (for the router) and an href builder (for links and
 * redirects). Routes arrive issue by issue; their paths are fixed here so that no screen spells a path.
 * Identifiers go into the query string because the specification names the screens without them
 * (e.g. /physician/patient-card).
 */
const withQuery = (path: string, params: Record<string, string | number | undefined>): string => {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined) query.set(name, String(value));
  const search = query.toString();
  return search ? `${path}?${search}` : path;
};

/** The six legal and info documents (public pages), named as their paths. */
export const LEGAL_DOCUMENTS = [
  'privacy-policy',
  'terms-and-conditions',
  'imprint',
  'legal-notice',
  'eula',
  'about-us',
] as const;
export type LegalDocumentName = (typeof LEGAL_DOCUMENTS)[number];

export const paths = {
  /** Redirect hub: sends a signed-in user to the home of their role. */
  home: { path: '/', getHref: () => '/' },

  auth: {
    // After an idle logout (src/app/idle-logout.tsx) the page says why: ?signedOut=idle.
    signIn: { path: '/sign-in', getHref: (signedOut?: 'idle') => withQuery('/sign-in', { signedOut }) },
    resetPassword: { path: '/reset-password', getHref: () => '/reset-password' },
    newPassword: {
      path: '/new-password',
      getHref: (token?: string) => withQuery('/new-password', { token }),
    },
    approveAccount: {
      path: '/approve-account',
      getHref: (token?: string) => withQuery('/approve-account', { token }),
    },
    /** A user whose clinic requires a second factor sets it up here first (issue 27). */
    twoFactorSetup: { path: '/two-factor-setup', getHref: () => '/two-factor-setup' },
    /** The link mailed to a new e-mail address (issue 27): the change counts once it is opened and confirmed. */
    confirmEmail: {
      path: '/confirm-email',
      getHref: (token?: string) => withQuery('/confirm-email', { token }),
    },
  },

  errors: {
    unauthorized: { path: '/unauthorized', getHref: () => '/unauthorized' },
    forbidden: { path: '/forbidden', getHref: () => '/forbidden' },
    notFound: { path: '*' },
  },

  legal: {
    privacyPolicy: { path: '/privacy-policy', getHref: () => '/privacy-policy' },
    termsAndConditions: { path: '/terms-and-conditions', getHref: () => '/terms-and-conditions' },
    imprint: { path: '/imprint', getHref: () => '/imprint' },
    legalNotice: { path: '/legal-notice', getHref: () => '/legal-notice' },
    eula: { path: '/eula', getHref: () => '/eula' },
    aboutUs: { path: '/about-us', getHref: () => '/about-us' },
  },

  profileSettings: { path: '/profile-settings', getHref: () => '/profile-settings' },
  notifications: { path: '/notifications', getHref: () => '/notifications' },

  /** clinic_it_admins only. */
  admin: {
    root: { path: '/admin', getHref: () => '/admin' },
    physicians: { path: '/admin/physicians', getHref: () => '/admin/physicians' },
    itClinicAdmins: { path: '/admin/it-clinic-admin', getHref: () => '/admin/it-clinic-admin' },
    deactivated: { path: '/admin/deactivated', getHref: () => '/admin/deactivated' },
    patientList: {
      path: '/admin/patient-list',
      getHref: (view: 'active' | 'deleting' | 'archived' = 'active') => `/admin/patient-list/${view}`,
    },
    patientListActive: { path: '/admin/patient-list/active', getHref: () => '/admin/patient-list/active' },
    patientListDeleting: { path: '/admin/patient-list/deleting', getHref: () => '/admin/patient-list/deleting' },
    patientListArchived: { path: '/admin/patient-list/archived', getHref: () => '/admin/patient-list/archived' },
    securitySettings: { path: '/admin/security-settings', getHref: () => '/admin/security-settings' },
    devices: { path: '/admin/devices', getHref: () => '/admin/devices' },
    /** The billing tab the user screens mention (no route given); an addition of ours. */
    billing: { path: '/admin/billing', getHref: () => '/admin/billing' },
    /** The access log (issue 27), of the clinic or, with a patient, that patient's access history. */
    accessLog: { path: '/admin/access-log', getHref: (patientId?: string) => withQuery('/admin/access-log', { patientId }) },
    addUser: { path: '/admin/add', getHref: () => '/admin/add' },
    editUser: { path: '/admin/edit', getHref: (userId: string) => withQuery('/admin/edit', { userId }) },
  },

  /** clinic_physicians and clinic_nurses only. */
  physician: {
    root: { path: '/physician', getHref: () => '/physician' },
    list: { path: '/physician/list', getHref: () => '/physician/list' },
    patientCard: {
      path: '/physician/patient-card',
      getHref: (patientId: string) => withQuery('/physician/patient-card', { patientId }),
    },
    /** Session planning wizard, steps 0–5 (docs/planning-model.md); the specification names no path, this is ours. */
    planning: {
      path: '/physician/planning',
      getHref: (treatmentId: string, step?: number) => withQuery('/physician/planning', { treatmentId, step }),
    },
  },
} as const;
