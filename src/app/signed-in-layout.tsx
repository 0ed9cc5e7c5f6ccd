import { Alignment, Button, Menu, MenuItem, Navbar, PopoverNext, PopupKind, Tag } from '@blueprintjs/core';
import { useQueryClient } from '@tanstack/react-query';
import { useDeferredValue, useEffect } from 'react';
import { Link, Navigate, Outlet, useLocation, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { getGetProfileQueryKey, useUpdateProfile } from '@generated/hooks/profile/profile';
import type { Profile } from '@generated/model/profile';
import { useSignOut } from '@/features/auth/use-sign-out';
import { LanguageSwitch } from '@/components/language-switch';
import { LegalLinks } from '@/components/legal-links';
import { focusFirstMenuItem, onMenuKeyDown } from '@/components/menu-keyboard';
import { useNotify } from '@/components/notifications';
import { PageSpinner } from '@/components/page-spinner';
import { displayName } from '@/components/display-name';
import { UserAvatar } from '@/features/profile/user-avatar';
import { setPasswordChangeRequiredHandler } from '@/lib/api-client';
import type { UiLanguage } from '@/lib/i18n';
import { IdleLogout } from './idle-logout';
import { paths } from '@/config/paths';
import { areaOfRole, type Area } from '@/lib/roles';
import { useSessionGate, type GateTarget } from './session-gate';
import { useRoleLabel } from '@/lib/use-role-label';
import { MAIN_ID } from '@/components/skip-link';
import { RealtimeStatus } from '@/components/realtime-status';
import { NotificationBell } from '@/features/notifications/notification-bell';
import { useRealtimeUpdates } from './realtime-updates';

/** Listens for the clinic's changes while a user is signed in (renders nothing). */
function RealtimeUpdates({ profile }: { profile: Profile }) {
  useRealtimeUpdates(profile);
  return null;
}

type AreaLink = {
  to: string;
  label: `areas.${'admin' | 'physician' | 'devices' | 'securitySettings' | 'adminPatients' | 'billing' | 'accessLog'}`;
  /** Further paths that belong to the section (its link shows as the current one there too). */
  also?: string[];
};

/** The sections of each area that exist so far (issue 4: navigation shows only what exists). */
const AREA_LINKS: Record<Area, AreaLink[]> = {
  admin: [
    {
      to: paths.admin.root.getHref(),
      label: 'areas.admin',
      also: [paths.admin.physicians.path, paths.admin.itClinicAdmins.path, paths.admin.deactivated.path, paths.admin.addUser.path, paths.admin.editUser.path],
    },
    {
      to: paths.admin.patientList.getHref('active'),
      label: 'areas.adminPatients',
      also: [paths.admin.patientList.path, paths.admin.patientListDeleting.path, paths.admin.patientListArchived.path],
    },
    { to: paths.admin.securitySettings.getHref(), label: 'areas.securitySettings' },
    { to: paths.admin.devices.getHref(), label: 'areas.devices' },
    { to: paths.admin.billing.getHref(), label: 'areas.billing' },
    { to: paths.admin.accessLog.getHref(), label: 'areas.accessLog' },
  ],
  physician: [{ to: paths.physician.list.getHref(), label: 'areas.physician' }],
};

function AreaLinks({ profile }: { profile: Profile }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const area = areaOfRole(profile.role);
  if (!area) return null;
  return (
    <ul className="mp-area-links">
      {AREA_LINKS[area].map(({ to, label, also = [] }) => {
        const current = pathname === to || also.includes(pathname);
        return (
          <li key={to}>
            <Link to={to} className={`mp-area-link${current ? ' mp-area-link-active' : ''}`} aria-current={current ? 'page' : undefined}>
              {t(label)}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

/** The language switch of a signed-in user also saves the choice to the profile (it follows them to any browser). */
function useSaveLanguage(): (language: UiLanguage) => void {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const notify = useNotify();
  const updateProfile = useUpdateProfile({
    mutation: {
      onSuccess: (answer) => queryClient.setQueryData(getGetProfileQueryKey(), answer),
      onError: () => notify({ intent: 'danger', message: t('languageSaveFailed') }),
    },
  });
  return (language) => updateProfile.mutate({ data: { lang: language } });
}

function UserMenu({ profile }: { profile: Profile }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const roleLabel = useRoleLabel(profile.role);
  const { signOut, isSigningOut } = useSignOut();
  const name = displayName(profile);

  const menu = (
    <Menu aria-label={t('nav.userMenu')} onKeyDown={onMenuKeyDown}>
      <MenuItem
        icon="cog"
        text={t('nav.profileSettings')}
        onClick={() => void navigate(paths.profileSettings.getHref())}
      />
      <MenuItem icon="log-out" text={t('nav.logout')} onClick={signOut} disabled={isSigningOut} />
    </Menu>
  );

  return (
    <PopoverNext content={menu} placement="bottom-end" popupKind={PopupKind.MENU} onOpened={focusFirstMenuItem}>
      <Button
        variant="minimal"
        icon={<UserAvatar profile={profile} />}
        endIcon="caret-down"
        // The visible name and role first, as they read (WCAG 2.5.3), then what the button opens. The space between
        // them (not rendered in the flex row) keeps the visible text "name role", as the label has it.
        aria-label={`${name} ${roleLabel}, ${t('nav.userMenu')}`}
      >
        <span className="mp-current-user">
          <span className="mp-current-user-name">{name}</span>{' '}
          <Tag minimal multiline className="mp-nowrap">
            {roleLabel}
          </Tag>
        </span>
      </Button>
    </PopoverNext>
  );
}

function AppNavbar({ profile }: { profile: Profile }) {
  const { t } = useTranslation();
  const saveLanguage = useSaveLanguage();

  return (
    <header>
      <Navbar className="mp-navbar">
        <Navbar.Group align={Alignment.START}>
          <Navbar.Heading className="mp-navbar-brand">{t('appName')}</Navbar.Heading>
          <nav aria-label={t('nav.label')}>
            <AreaLinks profile={profile} />
          </nav>
        </Navbar.Group>
        <Navbar.Group align={Alignment.END} className="mp-navbar-end">
          {areaOfRole(profile.role) && (
            <>
              <RealtimeStatus />
              <NotificationBell />
            </>
          )}
          <LanguageSwitch onChoose={saveLanguage} />
          <Navbar.Divider />
          <UserMenu profile={profile} />
        </Navbar.Group>
      </Navbar>
    </header>
  );
}

/**
 * Any call answered 403 `auth.password_change_required` (the password expired while the user worked): the profile
 * is read again, and its flag sends to /new-password through the route guard, as when it said so from the start.
 */
function usePasswordChangeRequired(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    setPasswordChangeRequiredHandler(() => void queryClient.refetchQueries({ queryKey: getGetProfileQueryKey() }));
    return () => setPasswordChangeRequiredHandler();
  }, [queryClient]);
}

/**
 * Frame of the signed-in pages: the route guard (`area` names who may enter, and any call demanding a new password
 * sends to /new-password), the navbar, the main landmark the pages render into, and the idle logout.
 */
export function SignedInLayout({ area }: { area: GateTarget }) {
  const gate = useSessionGate(area);
  usePasswordChangeRequired();
  // The profile's answer arrives as an update React renders in one piece (a query's result is an external store),
  // and the frame with its page is some hundreds of components: 100 ms on a phone in which no tap is answered.
  // Drawn as a deferred render instead, React renders it in slices of a few milliseconds and shows the spinner
  // until it is done. Only the first drawing waits so: later answers (a new name, a new language) render at once.
  const frameDrawn = useDeferredValue(gate.state === 'ready');
  if (gate.state === 'redirect') return <Navigate to={gate.to} replace />;
  if (gate.state === 'loading' || !frameDrawn) return <PageSpinner />;

  const { profile } = gate;
  return (
    <div className="mp-shell">
      <RealtimeUpdates profile={profile} />
      <AppNavbar profile={profile} />
      <main className="mp-shell-main" id={MAIN_ID} tabIndex={-1}>
        <Outlet context={profile} />
      </main>
      <footer className="mp-shell-footer">
        <LegalLinks />
      </footer>
      {profile.logoutAfterSeconds != null && <IdleLogout idleSeconds={profile.logoutAfterSeconds} />}
    </div>
  );
}
