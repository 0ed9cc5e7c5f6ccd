import { Alignment, Button, Navbar, Tag } from '@blueprintjs/core';
import { Navigate, Outlet, useOutletContext } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { Profile } from '@generated/model/profile';
import { useSignOut } from '@/features/auth/use-sign-out';
import { LanguageSwitch } from '@/components/language-switch';
import { PageSpinner } from '@/components/page-spinner';
import { displayName } from '@/components/profile-summary-card';
import type { Area } from './role-home';
import { useSessionGate } from './session-gate';
import { useRoleLabel } from './use-role-label';

/** The signed-in user's profile, for the pages inside the layout. */
export function useSignedInProfile(): Profile {
  return useOutletContext<Profile>();
}

function AppNavbar({ profile }: { profile: Profile }) {
  const { t } = useTranslation();
  const roleLabel = useRoleLabel(profile.role);
  const { signOut, isSigningOut } = useSignOut();
  const name = displayName(profile);

  return (
    <header>
      <Navbar className="mp-navbar">
        <Navbar.Group align={Alignment.START}>
          <Navbar.Heading className="mp-navbar-brand">{t('appName')}</Navbar.Heading>
        </Navbar.Group>
        <Navbar.Group align={Alignment.END} className="mp-navbar-end">
          <span className="mp-current-user" title={t('nav.currentUser', { name, role: roleLabel })}>
            <span className="mp-current-user-name">{name}</span>
            <Tag minimal>{roleLabel}</Tag>
          </span>
          <Navbar.Divider />
          <LanguageSwitch />
          <Navbar.Divider />
          <Button variant="minimal" icon="log-out" onClick={signOut} disabled={isSigningOut}>
            {t('nav.logout')}
          </Button>
        </Navbar.Group>
      </Navbar>
    </header>
  );
}

/**
 * Frame of the signed-in areas (/admin, /physician): the route guard, the navbar, and the main landmark
 * the area's pages render into.
 */
export function SignedInLayout({ area }: { area: Area }) {
  const gate = useSessionGate(area);
  if (gate.state === 'redirect') return <Navigate to={gate.to} replace />;
  if (gate.state === 'loading') return <PageSpinner />;

  return (
    <div className="mp-shell">
      <AppNavbar profile={gate.profile} />
      <main className="mp-shell-main">
        <Outlet context={gate.profile} />
      </main>
    </div>
  );
}
