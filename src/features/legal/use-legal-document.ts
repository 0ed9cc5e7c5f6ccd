import { useEffect, useState } from 'react';
import type { LegalDocumentName } from '@/app/paths';
import type { UiLanguage } from '@/lib/i18n';
import { loadedLegalDocument, loadLegalDocument, type LegalDocument } from './legal-documents';

export type LegalDocumentState =
  | { status: 'loading' }
  | { status: 'loaded'; document: LegalDocument }
  | { status: 'failed'; retry: () => void };

/** The document last shown, or the loader's failure, with the document and language it belongs to. */
type Outcome = { key: string } & ({ document: LegalDocument } | { failed: true });

/**
 * The Markdown of `name` in `language`, loaded on demand. While another language loads, the document already
 * shown stays, so that switching the language does not blank the page.
 */
export function useLegalDocument(name: LegalDocumentName, language: UiLanguage): LegalDocumentState {
  const key = `${language}/${name}`;
  const [outcome, setOutcome] = useState<Outcome>();
  const [attempt, setAttempt] = useState(0);
  const cached = loadedLegalDocument(name, language);

  useEffect(() => {
    // Remembered as the document shown even when it came from the cache: it stays while another language loads.
    const loaded = loadedLegalDocument(name, language);
    if (loaded) {
      setOutcome({ key, document: loaded });
      return;
    }
    let current = true;
    loadLegalDocument(name, language).then(
      (document) => current && setOutcome({ key, document }),
      () => current && setOutcome({ key, failed: true }),
    );
    return () => {
      current = false;
    };
  }, [key, name, language, attempt]);

  if (cached) return { status: 'loaded', document: cached };
  if (outcome && 'document' in outcome) return { status: 'loaded', document: outcome.document };
  if (outcome?.key === key) {
    return {
      status: 'failed',
      retry: () => {
        setOutcome(undefined);
        setAttempt((count) => count + 1);
      },
    };
  }
  return { status: 'loading' };
}
