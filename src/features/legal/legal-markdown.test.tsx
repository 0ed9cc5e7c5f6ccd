import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, click, getByText, renderRoutes, waitFor } from '@/testing/render';
import { LegalMarkdown } from './legal-markdown';

afterEach(cleanup);

const MARKDOWN = [
  '# Title',
  '',
  'See the [imprint](/imprint), [our site](https://clinic.example/) or [write to us](mailto:info@clinic.example).',
  '',
  '- **bold** and *italic*',
  '',
  '<script>alert(1)</script>',
  '',
  'A [script address](javascript:alert(1)).',
].join('\n');

async function renderMarkdown(markdown = MARKDOWN) {
  return renderRoutes(
    [
      { path: '/privacy-policy', element: <LegalMarkdown document={{ markdown, language: 'de' }} /> },
      { path: '/imprint', element: <p>imprint page</p> },
    ],
    { path: '/privacy-policy' },
  );
}

describe('LegalMarkdown', () => {
  it('renders headings, paragraphs, lists and emphasis as elements, in the document language', async () => {
    const { container } = await renderMarkdown();
    const article = container.querySelector('article');
    expect(article?.getAttribute('lang')).toBe('de');
    expect(article?.querySelector('h1')?.textContent).toBe('Title');
    expect(article?.querySelector('li strong')?.textContent).toBe('bold');
    expect(article?.querySelector('li em')?.textContent).toBe('italic');
  });

  it('opens pages of the app client-side', async () => {
    const { container, router } = await renderMarkdown();
    const link = getByText<HTMLAnchorElement>(container, 'a', 'imprint');
    expect(link.getAttribute('href')).toBe('/imprint');
    expect(link.getAttribute('target')).toBeNull();

    await click(link);
    await waitFor(() => expect(container.textContent).toBe('imprint page'));
    expect(router.state.location.pathname).toBe('/imprint');
  });

  it('opens other sites in a new tab that gets no access to this one', async () => {
    const { container } = await renderMarkdown();
    const site = getByText<HTMLAnchorElement>(container, 'a', 'our site');
    expect([site.getAttribute('href'), site.getAttribute('target'), site.getAttribute('rel')]).toEqual([
      'https://clinic.example/',
      '_blank',
      'noopener noreferrer',
    ]);
    const mail = getByText<HTMLAnchorElement>(container, 'a', 'write to us');
    expect([mail.getAttribute('href'), mail.getAttribute('target')]).toEqual(['mailto:info@clinic.example', null]);
  });

  it('shows HTML as text and drops script addresses', async () => {
    const { container } = await renderMarkdown();
    expect(container.querySelector('script')).toBeNull();
    expect(container.textContent).toContain('<script>alert(1)</script>');
    expect(getByText(container, 'a', 'script address').getAttribute('href')).toBe('');
  });
});
