import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { Navigate, type LoaderFunction, type RouteObject } from 'react-router-dom';
import { PageSpinner } from '@/components/page-spinner';
import { UnexpectedErrorPage } from '@/features/errors/unexpected-error-page';
import { AppRoot } from './app-root';
import { paths, type LegalDocumentName } from '@/config/paths';
import { preloadNamespaces, type Namespace } from '@/lib/i18n';

/*
 * Every screen is its own chunk (lazy). Only the routes built so far are registered; paths.ts names all
 * routes of the specification. Anything else, e.g. /admin/devices before its issue lands, is a 404.
 */
/**
 * A lazy route whose code and texts load side by side: `namespaces` are the catalogues the page needs beyond
 * the bundled ones (src/lib/i18n.ts). A namespace left out still loads, after the code, behind a spinner.
 * `pickLoader` names the module's loader, which prefetches the page's data (the generated get…QueryOptions)
 * once the code is there, while the signed-in frame still waits for the profile.
 */
function page<M>(
  namespaces: Namespace[],
  load: () => Promise<M>,
  pick: (module: M) => ComponentType,
  pickLoader?: (module: M) => LoaderFunction,
) {
  return async () => {
    const [module] = await Promise.all([load(), preloadNamespaces(...namespaces)]);
    return { Component: pick(module), ...(pickLoader && { loader: pickLoader(module) }) };
  };
}

// The auth pages show the legal and info links under their form.
const AUTH_NAMESPACES: Namespace[] = ['auth', 'legal'];
// The signed-in layout: the legal links in its footer, the avatar of the profile feature in its menu.
const SIGNED_IN_NAMESPACES: Namespace[] = ['legal', 'profile', 'notifications'];

// The six public legal and info pages: one page component, one Markdown document per path.
const legalRoutes: RouteObject[] = Object.values(paths.legal).map(({ path }) => ({
  path,
  lazy: page(
    ['legal'],
    () => import('@/features/legal/legal-page'),
    ({ LegalPage }) =>
      function LegalDocumentPage() {
        return <LegalPage document={path.slice(1) as LegalDocumentName} />;
      },
  ),
}));

/** The staff lists and the user form of /admin (IT admins only): one page per list, one form in two modes. */
const staffRoutes: RouteObject[] = [
  ...(
    [
      [undefined, 'clinical'],
      [paths.admin.physicians.path, 'clinical'],
      [paths.admin.itClinicAdmins.path, 'itAdmins'],
      [paths.admin.deactivated.path, 'deactivated'],
    ] as const
  ).map(([path, scope]) => ({
    ...(path ? { path } : { index: true }),
    lazy: page(['staff'], () => import('@/features/staff/staff-list-page'), ({ StaffListPage }) =>
      function StaffList() {
        return <StaffListPage scope={scope} />;
      },
    ),
  })),
  ...([
    [paths.admin.addUser.path, 'add'],
    [paths.admin.editUser.path, 'edit'],
  ] as const).map(([path, mode]) => ({
    path,
    lazy: page(['staff'], () => import('@/features/staff/user-form-page'), ({ UserFormPage }) =>
      function UserForm() {
        return <UserFormPage mode={mode} />;
      },
    ),
  })),
];

/** The signed-in frame of the pages every signed-in role may open (profile settings, notifications). */
const anyAreaLayout = page(SIGNED_IN_NAMESPACES, () => import('./signed-in-layout'), ({ SignedInLayout }) =>
  function AnyAreaLayout() {
    return <SignedInLayout area="any" />;
  },
);

/** The app's routes; `queryClient` is the cache the route loaders prefetch into (the one the pages read). */
export const createRoutes = (queryClient: QueryClient): RouteObject[] => [
  {
    id: 'root',
    // Skip link, page title and focus on a route change, around every page.
    Component: AppRoot,
    // Eager on purpose: it must show when loading a lazy route fails.
    errorElement: <UnexpectedErrorPage />,
    hydrateFallbackElement: <PageSpinner />,
    children: [
      {
        index: true,
        lazy: async () => ({ Component: (await import('./home-redirect')).HomeRedirect }),
      },
      {
        path: paths.auth.signIn.path,
        lazy: page(AUTH_NAMESPACES, () => import('@/features/auth/sign-in-page'), (m) => m.SignInPage),
      },
      {
        path: paths.auth.resetPassword.path,
        lazy: page(AUTH_NAMESPACES, () => import('@/features/auth/reset-password-page'), (m) => m.ResetPasswordPage),
      },
      {
        path: paths.auth.newPassword.path,
        lazy: page(AUTH_NAMESPACES, () => import('@/features/auth/new-password-page'), (m) => m.NewPasswordPage),
      },
      {
        path: paths.auth.approveAccount.path,
        lazy: page(AUTH_NAMESPACES, () => import('@/features/auth/approve-account-page'), (m) => m.ApproveAccountPage),
      },
      {
        path: paths.auth.twoFactorSetup.path,
        lazy: page([...AUTH_NAMESPACES, 'twoFactor'], () => import('@/features/auth/two-factor-setup-page'), (m) => m.TwoFactorSetupPage),
      },
      {
        path: paths.auth.confirmEmail.path,
        lazy: page(AUTH_NAMESPACES, () => import('@/features/auth/confirm-email-page'), (m) => m.ConfirmEmailPage),
      },
      {
        path: paths.errors.unauthorized.path,
        lazy: page(['legal'], () => import('@/features/errors/unauthorized-page'), (m) => m.UnauthorizedPage),
      },
      {
        path: paths.errors.forbidden.path,
        lazy: page(['legal'], () => import('@/features/errors/forbidden-page'), (m) => m.ForbiddenPage),
      },
      ...legalRoutes,
      {
        path: paths.profileSettings.path,
        lazy: anyAreaLayout,
        children: [
          {
            index: true,
            lazy: page(['profile', 'twoFactor'], () => import('@/features/profile/profile-settings-page'), (m) => m.ProfileSettingsPage),
          },
        ],
      },
      {
        path: paths.notifications.path,
        lazy: anyAreaLayout,
        children: [
          {
            index: true,
            lazy: page(['notifications'], () => import('@/features/notifications/notifications-page'), (m) => m.NotificationsPage),
          },
        ],
      },
      {
        path: paths.admin.root.path,
        lazy: page(SIGNED_IN_NAMESPACES, () => import('./signed-in-layout'), ({ SignedInLayout }) =>
          function AdminAreaLayout() {
            return <SignedInLayout area="admin" />;
          },
        ),
        children: [
          ...staffRoutes,
          { path: paths.admin.patientList.path, element: <Navigate to={paths.admin.patientList.getHref('active')} replace /> },
          ...(
            [
              [paths.admin.patientListActive.path, 'active'],
              [paths.admin.patientListDeleting.path, 'deleting'],
              [paths.admin.patientListArchived.path, 'archived'],
            ] as const
          ).map(([path, list]) => ({
            path,
            lazy: page(['adminPatients', 'patients'], () => import('@/features/admin-patients/admin-patients-page'), ({ AdminPatientsPage }) =>
              function AdminPatientList() {
                return <AdminPatientsPage list={list} />;
              },
            ),
          })),
          {
            path: paths.admin.securitySettings.path,
            lazy: page(['securitySettings'], () => import('@/features/security-settings/security-settings-page'), (m) => m.SecuritySettingsPage),
          },
          {
            path: paths.admin.billing.path,
            lazy: page(['billing'], () => import('@/features/billing/billing-page'), (m) => m.BillingPage),
          },
          {
            path: paths.admin.devices.path,
            lazy: page(['devices'], () => import('@/features/devices/devices-page'), (m) => m.DevicesPage),
          },
          {
            path: paths.admin.accessLog.path,
            lazy: page(['accessLog', 'dates'], () => import('@/features/access-log/access-log-page'), (m) => m.AccessLogPage),
          },
        ],
      },
      {
        path: paths.physician.root.path,
        lazy: page(SIGNED_IN_NAMESPACES, () => import('./signed-in-layout'), ({ SignedInLayout }) =>
          function PhysicianAreaLayout() {
            return <SignedInLayout area="physician" />;
          },
        ),
        children: [
          { index: true, element: <Navigate to={paths.physician.list.getHref()} replace /> },
          {
            path: paths.physician.list.path,
            // The page itself asks for what a changed query (filter, sort, page) shows: the loader serves
            // the arrival on the route only, and a filter change does not wait for a navigation's loaders.
            shouldRevalidate: () => false,
            lazy: page(
              ['patients', 'patientList', 'examUpload', 'dates'],
              () => import('@/features/patients/patient-list-page'),
              (m) => m.PatientListPage,
              (m) => m.patientListLoader(queryClient),
            ),
          },
          {
            path: paths.physician.patientCard.path,
            lazy: page(
              ['patients', 'patientCard', 'examUpload'],
              () => import('@/features/patient-card/patient-card-page'),
              (m) => m.PatientCardPage,
              (m) => m.patientCardLoader(queryClient),
            ),
          },
          {
            path: paths.physician.planning.path,
            // The previous treatment's panel shows with the viewer: its texts come with the page, not after it.
            lazy: page(['patients', 'planning', 'previousTreatment'], () => import('@/features/planning/planning-page'), (m) => m.PlanningPage),
          },
        ],
      },
      {
        path: paths.errors.notFound.path,
        lazy: page(['legal'], () => import('@/features/errors/not-found-page'), (m) => m.NotFoundPage),
      },
    ],
  },
];

