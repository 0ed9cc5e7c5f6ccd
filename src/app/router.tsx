import { createBrowserRouter, Navigate, type RouteObject } from 'react-router-dom';
import { PageSpinner } from '@/components/page-spinner';
import { UnexpectedErrorPage } from '@/features/errors/unexpected-error-page';
import { AppRoot } from './app-root';
import { paths, type LegalDocumentName } from '@/config/paths';

/*
 * Every screen is its own chunk (lazy). Only the routes built so far are registered; paths.ts names all
 * routes of the specification. Anything else, e.g. /admin/devices before its issue lands, is a 404.
 */
// The legal and info pages of seed-spec §2: one page component, one Markdown document per path.
const legalRoutes: RouteObject[] = Object.values(paths.legal).map(({ path }) => ({
  path,
  lazy: async () => {
    const { LegalPage } = await import('@/features/legal/legal-page');
    const document = path.slice(1) as LegalDocumentName;
    return { Component: () => <LegalPage document={document} /> };
  },
}));

export const routes: RouteObject[] = [
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
        lazy: async () => ({ Component: (await import('@/features/auth/sign-in-page')).SignInPage }),
      },
      {
        path: paths.auth.resetPassword.path,
        lazy: async () => ({ Component: (await import('@/features/auth/reset-password-page')).ResetPasswordPage }),
      },
      {
        path: paths.auth.newPassword.path,
        lazy: async () => ({ Component: (await import('@/features/auth/new-password-page')).NewPasswordPage }),
      },
      {
        path: paths.auth.approveAccount.path,
        lazy: async () => ({ Component: (await import('@/features/auth/approve-account-page')).ApproveAccountPage }),
      },
      {
        path: paths.errors.unauthorized.path,
        lazy: async () => ({ Component: (await import('@/features/errors/unauthorized-page')).UnauthorizedPage }),
      },
      {
        path: paths.errors.forbidden.path,
        lazy: async () => ({ Component: (await import('@/features/errors/forbidden-page')).ForbiddenPage }),
      },
      ...legalRoutes,
      {
        path: paths.profileSettings.path,
        lazy: async () => {
          const { SignedInLayout } = await import('./signed-in-layout');
          return { Component: () => <SignedInLayout area="any" /> };
        },
        children: [
          {
            index: true,
            lazy: async () => ({
              Component: (await import('@/features/profile/profile-settings-page')).ProfileSettingsPage,
            }),
          },
        ],
      },
      {
        path: paths.admin.root.path,
        lazy: async () => {
          const { SignedInLayout } = await import('./signed-in-layout');
          return { Component: () => <SignedInLayout area="admin" /> };
        },
        children: [
          {
            index: true,
            lazy: async () => {
              const { AreaStartPage } = await import('./area-start-page');
              return { Component: () => <AreaStartPage area="admin" /> };
            },
          },
        ],
      },
      {
        path: paths.physician.root.path,
        lazy: async () => {
          const { SignedInLayout } = await import('./signed-in-layout');
          return { Component: () => <SignedInLayout area="physician" /> };
        },
        children: [
          { index: true, element: <Navigate to={paths.physician.list.getHref()} replace /> },
          {
            path: paths.physician.list.path,
            lazy: async () => ({ Component: (await import('@/features/patients/patient-list-page')).PatientListPage }),
          },
          {
            path: paths.physician.patientCard.path,
            lazy: async () => ({
              Component: (await import('@/features/patient-card/patient-card-page')).PatientCardPage,
            }),
          },
        ],
      },
      {
        path: paths.errors.notFound.path,
        lazy: async () => ({ Component: (await import('@/features/errors/not-found-page')).NotFoundPage }),
      },
    ],
  },
];

export const createAppRouter = () => createBrowserRouter(routes);
