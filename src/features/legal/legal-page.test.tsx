import type { RouteObject } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LEGAL_DOCUMENTS, paths, type LegalDocumentName } from '@/config/paths';
import type { UiLanguage } from '@/lib/i18n';
import { cleanup, click, getByLabel, getByText, renderRoutes, select, waitFor } from '@/testing/render';
import { loadLegalDocument, type LegalDocument } from './legal-documents';
import { LegalPage } from './legal-page';

// The real loader by default; single tests make it slow, fail or answer in another language.
vi.mock('./legal-documents', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./legal-documents')>();
  return {
    ...actual,
    loadLegalDocument: vi.fn(actual.loadLegalDocument),
  };
});

afterEach(() => {
  cleanup();
  vi.mocked(loadLegalDocument).mockReset();
});

/** The h1 of each document as the shipped Markdown spells it. */
const HEADINGS: Record<LegalDocumentName, Record<UiLanguage, string>> = {
  'privacy-policy': { en: 'Privacy policy', de: 'Datenschutzerklärung' },
  'terms-and-conditions': { en: 'Terms and conditions of use', de: 'Nutzungsbedingungen' },
  imprint: { en: 'Imprint', de: 'Impressum' },
  'legal-notice': { en: 'Legal notice', de: 'Rechtliche Hinweise' },
  eula: { en: 'End user license agreement (EULA)', de: 'Endbenutzer-Lizenzvertrag (EULA)' },
  'about-us': { en: 'About us', de: 'Über uns' },
};

const routes: RouteObject[] = [
  ...LEGAL_DOCUMENTS.map((document) => ({ path: `/${document}`, element: <LegalPage document={document} /> })),
  { path: paths.home.path, element: <h1>Home</h1> },
];

const headings = (container: HTMLElement) => [...container.querySelectorAll('h1')].map((h1) => h1.textContent);

async function renderDocument(document: LegalDocumentName, language: UiLanguage = 'en') {
  const rendered = await renderRoutes(routes, { path: `/${document}`, language });
  // Generous: the first visit of a document makes Vite transform its chunk.
  await waitFor(() => expect(rendered.container.querySelector('h1')).not.toBeNull(), 10_000);
  return rendered;
}

/** A promise the test settles when it wants the loader to answer. */
function deferred<T>() {
  let resolve: (value: T) => void = () => {};
  const promise = new Promise<T>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

describe('LegalPage (the six public legal and info pages)', () => {
  describe.each(LEGAL_DOCUMENTS)('%s', (document) => {
    it.each(['en', 'de'] as const)('shows the document in %s with its heading as the one h1', async (language) => {
      const { container } = await renderDocument(document, language);
      expect(headings(container)).toEqual([HEADINGS[document][language]]);
      expect(container.querySelector('article')?.getAttribute('lang')).toBe(language);
      expect(container.querySelector('main article h2, main article p')).not.toBeNull();
    });
  });

  it('frames the document: brand, language switch, the way home and the other legal pages', async () => {
    const { container } = await renderDocument('imprint');
    expect(container.querySelector('header .mp-brand')?.textContent).toBe('Macula Planner');
    expect(getByLabel<HTMLSelectElement>(container, 'Language').value).toBe('en');
    expect(getByText(container, 'footer a', 'Go to main page').getAttribute('href')).toBe('/');

    const nav = container.querySelector('nav[aria-label="Legal and info pages"]');
    const links = [...(nav?.querySelectorAll('a') ?? [])].map((a) => [a.textContent, a.getAttribute('href')]);
    expect(links).toEqual([
      ['Privacy policy', '/privacy-policy'],
      ['Terms and conditions', '/terms-and-conditions'],
      ['Imprint', '/imprint'],
      ['Legal notice', '/legal-notice'],
      ['EULA', '/eula'],
      ['About us', '/about-us'],
    ]);
    expect(nav?.querySelector('[aria-current="page"]')?.textContent).toBe('Imprint');
  });

  it('goes to another legal page and back to the main page without reloading', async () => {
    const { container, router } = await renderDocument('about-us');
    await click(getByText(container, 'nav a', 'EULA'));
    await waitFor(() => expect(headings(container)).toEqual([HEADINGS.eula.en]));
    expect(router.state.location.pathname).toBe('/eula');

    await click(getByText(container, 'footer a', 'Go to main page'));
    expect(router.state.location.pathname).toBe('/');
  });

  it('follows a link inside the document client-side', async () => {
    const { container, router } = await renderDocument('privacy-policy');
    await click(getByText(container, 'article a', 'imprint'));
    await waitFor(() => expect(headings(container)).toEqual([HEADINGS.imprint.en]));
    expect(router.state.location.pathname).toBe('/imprint');
  });

  it('shows the document in the new language when the language is switched', async () => {
    const { container } = await renderDocument('legal-notice');
    await select(getByLabel<HTMLSelectElement>(container, 'Language'), 'de');
    await waitFor(() => expect(headings(container)).toEqual([HEADINGS['legal-notice'].de]));
    expect(getByText(container, 'footer a', 'Zur Startseite').getAttribute('href')).toBe('/');
  });

  it('keeps the shown document, without a spinner, while the other language loads', async () => {
    const { container } = await renderDocument('eula');
    const german = deferred<LegalDocument>();
    vi.mocked(loadLegalDocument).mockReturnValueOnce(german.promise);

    await select(getByLabel<HTMLSelectElement>(container, 'Language'), 'de');
    expect(headings(container)).toEqual([HEADINGS.eula.en]);
    expect(container.querySelector('[aria-busy]')).toBeNull();

    german.resolve({ markdown: '# Lizenz\n\nText.', language: 'de' });
    await waitFor(() => expect(headings(container)).toEqual(['Lizenz']));
  });

  it('shows a spinner until the document has loaded', async () => {
    const document = deferred<LegalDocument>();
    vi.mocked(loadLegalDocument).mockReturnValueOnce(document.promise);

    const { container } = await renderRoutes(routes, { path: '/imprint' });
    expect(container.querySelector('main[aria-busy="true"] [aria-label="Loading…"]')).not.toBeNull();
    expect(headings(container)).toEqual([]);

    document.resolve({ markdown: '# Imprint\n\nText.', language: 'en' });
    await waitFor(() => expect(headings(container)).toEqual(['Imprint']));
  });

  it('marks an English document shown for want of a German one as English', async () => {
    vi.mocked(loadLegalDocument).mockResolvedValueOnce({ markdown: '# Imprint\n\nOnly in English.', language: 'en' });

    const { container } = await renderDocument('imprint', 'de');
    expect(headings(container)).toEqual(['Imprint']);
    expect(container.querySelector('article')?.getAttribute('lang')).toBe('en');
    expect(getByText(container, 'footer a', 'Zur Startseite')).toBeTruthy();
  });

  it('says so when the document cannot be loaded, and loads it on retry', async () => {
    vi.mocked(loadLegalDocument).mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'));

    const { container } = await renderDocument('privacy-policy', 'de');
    expect(headings(container)).toEqual(['Datenschutzerklärung']);
    expect(container.querySelector('[role="alert"]')?.textContent).toBe(
      'Diese Seite konnte nicht geladen werden. Bitte prüfen Sie Ihre Verbindung und versuchen Sie es erneut.',
    );

    await click(getByText(container, 'button', 'Erneut versuchen'));
    await waitFor(() => expect(container.querySelector('article')).not.toBeNull());
    expect(container.querySelector('[role="alert"]')).toBeNull();
    expect(loadLegalDocument).toHaveBeenLastCalledWith('privacy-policy', 'de');
  });
});
