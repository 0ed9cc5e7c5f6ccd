import { Callout, Card } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { LanguageSwitch } from '@/components/language-switch';
import { LegalLinks } from '@/components/legal-links';
import { MAIN_ID } from '@/components/skip-link';

/** The card every public account page sits in: brand, one h1, content, language switch, legal links. */
export function AuthPageShell({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation('common');
  return (
    <main className="mp-page-center mp-auth-page" id={MAIN_ID} tabIndex={-1}>
      <Card className="mp-auth-card" elevation={2}>
        <p className="mp-brand">{t('appName')}</p>
        <h1 className="mp-page-title">{title}</h1>
        {children}
        <div className="mp-auth-footer">
          <LanguageSwitch />
        </div>
        <LegalLinks />
      </Card>
    </main>
  );
}

/** The link onwards under a public account page's form or message. */
export function AuthLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <p className="mp-auth-links">
      <Link to={to}>{children}</Link>
    </p>
  );
}

type AuthOutcomeProps = {
  title: string;
  /** success: done; warning: the link or invite cannot be used. */
  intent: 'success' | 'warning';
  /** Heading of the message, when it needs one. */
  heading?: string;
  message: string;
  link?: { to: string; label: string };
};

/** A public account page that only reports how things stand, with the one way onwards. */
export function AuthOutcome({ title, intent, heading, message, link }: AuthOutcomeProps) {
  return (
    <AuthPageShell title={title}>
      <Callout
        intent={intent}
        role={intent === 'success' ? 'status' : 'alert'}
        className="mp-form-alert"
        title={heading}
      >
        {message}
      </Callout>
      {link && <AuthLink to={link.to}>{link.label}</AuthLink>}
    </AuthPageShell>
  );
}
