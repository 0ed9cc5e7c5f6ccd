import type { LegalDocumentName } from '@/config/paths';
import { FALLBACK_LANGUAGE, type UiLanguage } from '@/lib/i18n';

/** A legal or info document as Markdown, with the language it is actually written in. */
export type LegalDocument = { markdown: string; language: UiLanguage };

/** Loaders of the Markdown files by path, as `import.meta.glob` returns them. */
export type LegalDocumentSources = Partial<Record<string, () => Promise<string>>>;

/*
 * The operator replaces these files (locales/<language>/legal/<name>.md) with their own text. Not eager: each
 * document is its own small chunk, loaded only when its page is shown in that language.
 */
const bundledSources: LegalDocumentSources = import.meta.glob<string>('../../../locales/*/legal/*.md', {
  query: '?raw',
  import: 'default',
});

const sourcePath = (language: UiLanguage, name: LegalDocumentName) => `../../../locales/${language}/legal/${name}.md`;

/** The loader for `name` in `language`, else in English: an operator may publish a document in English only. */
export function pickLegalDocumentSource(
  sources: LegalDocumentSources,
  name: LegalDocumentName,
  language: UiLanguage,
): { language: UiLanguage; load: () => Promise<string> } | undefined {
  for (const candidate of [language, FALLBACK_LANGUAGE]) {
    const load = sources[sourcePath(candidate, name)];
    if (load) return { language: candidate, load };
  }
  return undefined;
}

/** Fetches the document's chunk; rejects when the chunk cannot be loaded (offline, or gone after a deploy). */
export async function loadLegalDocument(name: LegalDocumentName, language: UiLanguage): Promise<LegalDocument> {
  const source = pickLegalDocumentSource(bundledSources, name, language);
  if (!source) throw new Error(`No legal document "${name}" in locales/`);
  return { markdown: await source.load(), language: source.language };
}
