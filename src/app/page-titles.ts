import type { TFunction } from 'i18next';
import { LEGAL_DOCUMENTS, paths } from '@/config/paths';

/** The namespaces page titles come from (common first: its keys need no prefix). */
export const TITLE_NAMESPACES = ['common', 'auth', 'errors', 'legal', 'profile', 'patients', 'devices', 'staff', 'adminPatients', 'securitySettings', 'billing', 'accessLog', 'notifications'] as const;
type TitleT = TFunction<typeof TITLE_NAMESPACES>;

/**
 * The page's own title for every path the router knows (document.title shows it as "Anmelden – Macula
 * Planner"): the same text as the page's h1, so a tab, a bookmark and a screen reader's page list say what
 * the page says. Keyed by route path; a path the router does not know is the 404 page.
 */
const TITLES: Readonly<Record<string, (t: TitleT) => string | undefined>> = {
  // The redirect hub shows only a spinner on its way on: the product's name alone.
  [paths.home.path]: () => undefined,
  [paths.auth.signIn.path]: (t) => t('auth:signIn.title'),
  [paths.auth.resetPassword.path]: (t) => t('auth:resetPassword.title'),
  [paths.auth.newPassword.path]: (t) => t('auth:newPassword.title'),
  [paths.auth.approveAccount.path]: (t) => t('auth:approveAccount.title'),
  [paths.auth.confirmEmail.path]: (t) => t('auth:confirmEmail.title'),
  [paths.auth.twoFactorSetup.path]: (t) => t('auth:twoFactorSetup.title'),
  [paths.errors.unauthorized.path]: (t) => t('errors:unauthorized.title'),
  [paths.errors.forbidden.path]: (t) => t('errors:forbidden.title'),
  ...Object.fromEntries(
    LEGAL_DOCUMENTS.map((document) => [`/${document}`, (t: TitleT) => t(`legal:documents.${document}`)]),
  ),
  [paths.profileSettings.path]: (t) => t('profile:title'),
  [paths.admin.root.path]: (t) => t('staff:titles.clinical'),
  [paths.admin.physicians.path]: (t) => t('staff:titles.clinical'),
  [paths.admin.itClinicAdmins.path]: (t) => t('staff:titles.itAdmins'),
  [paths.admin.deactivated.path]: (t) => t('staff:titles.deactivated'),
  [paths.admin.addUser.path]: (t) => t('staff:form.addTitle'),
  [paths.admin.editUser.path]: (t) => t('staff:form.editTitleLoading'),
  [paths.admin.patientList.path]: (t) => t('adminPatients:titles.active'),
  [paths.admin.patientListActive.path]: (t) => t('adminPatients:titles.active'),
  [paths.admin.patientListDeleting.path]: (t) => t('adminPatients:titles.deleting'),
  [paths.admin.patientListArchived.path]: (t) => t('adminPatients:titles.archived'),
  [paths.admin.securitySettings.path]: (t) => t('securitySettings:title'),
  [paths.admin.devices.path]: (t) => t('devices:title'),
  [paths.admin.billing.path]: (t) => t('billing:title'),
  [paths.admin.accessLog.path]: (t) => t('accessLog:title'),
  [paths.notifications.path]: (t) => t('notifications:title'),
  [paths.physician.root.path]: (t) => t('areas.physician'),
  [paths.physician.list.path]: (t) => t('patients:pageTitle.list'),
  [paths.physician.patientCard.path]: (t) => t('patients:pageTitle.card'),
  [paths.physician.planning.path]: (t) => t('patients:pageTitle.planning'),
};

/** The route paths that have a title of their own (all but the 404 page's `*`). */
export const TITLED_PATHS = Object.keys(TITLES);

const withoutTrailingSlash = (pathname: string) => (pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname);

/** document.title for `pathname` in the language of `t`. */
export function pageTitle(pathname: string, t: TitleT): string {
  const titleOf = TITLES[withoutTrailingSlash(pathname)] ?? ((translate: TitleT) => translate('errors:notFound.title'));
  const page = titleOf(t);
  return page ? t('pageTitle', { page }) : t('appName');
}
