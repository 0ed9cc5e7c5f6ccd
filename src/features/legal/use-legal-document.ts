import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { LegalDocumentName } from '@/config/paths';
import type { UiLanguage } from '@/lib/i18n';
import { loadLegalDocument } from './legal-documents';

/**
 * The Markdown of `name` in `language`, loaded on demand. While another language loads, the document already
 * shown stays, so that switching the language does not blank the page.
 */
export function useLegalDocument(name: LegalDocumentName, language: UiLanguage) {
  return useQuery({
    queryKey: ['legal-document', language, name],
    queryFn: () => loadLegalDocument(name, language),
    // Bundled with this build: it cannot change while the app is open.
    staleTime: Infinity,
    refetchInterval: false,
    // Part of the app, nothing to keep in browser storage.
    meta: { persist: false },
    placeholderData: keepPreviousData,
    // A chunk that failed to load (offline, or gone after a deploy) gets the page's own retry button.
    retry: false,
  });
}
