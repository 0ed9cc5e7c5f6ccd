import { describe, expect, it } from 'vitest';
import { LEGAL_DOCUMENTS } from '@/config/paths';
import { LANGUAGES } from '@/lib/i18n';
import { loadLegalDocument, pickLegalDocumentSource, type LegalDocumentSources } from './legal-documents';

const source = (text: string) => async () => text;

describe('pickLegalDocumentSource', () => {
  const sources: LegalDocumentSources = {
    '../../../locales/en/legal/imprint.md': source('# Imprint'),
    '../../../locales/de/legal/imprint.md': source('# Impressum'),
    '../../../locales/en/legal/eula.md': source('# EULA'),
  };

  it('takes the document in the language asked for', async () => {
    const picked = pickLegalDocumentSource(sources, 'imprint', 'de');
    expect(picked?.language).toBe('de');
    expect(await picked?.load()).toBe('# Impressum');
  });

  it('falls back to English when there is no translation', async () => {
    const picked = pickLegalDocumentSource(sources, 'eula', 'de');
    expect(picked?.language).toBe('en');
    expect(await picked?.load()).toBe('# EULA');
  });

  it('finds nothing for a document that does not exist', () => {
    expect(pickLegalDocumentSource(sources, 'about-us', 'de')).toBeUndefined();
  });
});

describe('loadLegalDocument', () => {
  it.each(LEGAL_DOCUMENTS.flatMap((name) => LANGUAGES.map((language) => [name, language] as const)))(
    'ships %s in %s',
    async (name, language) => {
      const document = await loadLegalDocument(name, language);
      expect(document.language).toBe(language);
      expect(document.markdown).toMatch(/^# /);
    },
  );
});
