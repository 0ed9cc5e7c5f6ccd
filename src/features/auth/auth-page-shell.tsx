import { Card } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageSwitch } from '@/components/language-switch';
import { LegalLinks } from '@/components/legal-links';

/** The card every public account page sits in: brand, one h1, content, language switch, legal links. */
export function AuthPageShell({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation('common');
  return (
    <main className="mp-page-center mp-auth-page">
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
