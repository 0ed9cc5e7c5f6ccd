import { Button, Callout, Card } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths, type LegalDocumentName } from '@/config/paths';
import { LanguageSwitch } from '@/components/language-switch';
import { LegalLinks } from '@/components/legal-links';
import { PageSpinner } from '@/components/page-spinner';
import { FALLBACK_LANGUAGE, toUiLanguage } from '@/lib/i18n';
import { LegalMarkdown } from './legal-markdown';
import { useLegalDocument } from './use-legal-document';
import './legal-page.css';
import { MAIN_ID } from '@/components/skip-link';

/** The document's chunk did not load: the page still has its h1 (the document's name) and a way to retry. */
function LoadFailure({ document, retry }: { document: LegalDocumentName; retry: () => void }) {
  const { t } = useTranslation('legal');
  return (
    <>
      <h1 className="mp-page-title">{t(`documents.${document}`)}</h1>
      <Callout intent="danger" role="alert" className="mp-form-alert">
        {t('loadFailed.message')}
      </Callout>
      <Button intent="primary" onClick={retry}>
        {t('loadFailed.retry')}
      </Button>
    </>
  );
}

/**
 * A public legal or info page (privacy … about us): the operator's Markdown document in the UI language (English
 * when there is no translation), framed by the brand, the language switch and links to the other pages.
 */
export function LegalPage({ document }: { document: LegalDocumentName }) {
  const { t, i18n } = useTranslation(['legal', 'common']);
  const language = toUiLanguage(i18n.resolvedLanguage ?? i18n.language) ?? FALLBACK_LANGUAGE;
  const { data: shown, isPending, refetch } = useLegalDocument(document, language);
  if (isPending) return <PageSpinner />;

  return (
    <div className="mp-legal-page">
      <header className="mp-legal-header">
        <p className="mp-brand">{t('common:appName')}</p>
        <LanguageSwitch />
      </header>
      <main id={MAIN_ID} tabIndex={-1}>
        <Card className="mp-legal-card">
          {shown ? (
            <LegalMarkdown document={shown} />
          ) : (
            <LoadFailure document={document} retry={() => void refetch()} />
          )}
        </Card>
      </main>
      <footer className="mp-legal-footer">
        <Link to={paths.home.getHref()}>{t('home')}</Link>
        <LegalLinks />
      </footer>
    </div>
  );
}
