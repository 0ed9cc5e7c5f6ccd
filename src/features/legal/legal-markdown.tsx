import { Classes } from '@blueprintjs/core';
import type { ComponentProps } from 'react';
import Markdown, { type Components, type ExtraProps } from 'react-markdown';
import { Link } from 'react-router-dom';
import type { LegalDocument } from './legal-documents';

// "/imprint" is a page of this app; "//host/x" is another site without a scheme.
const isAppPath = (href: string) => href.startsWith('/') && !href.startsWith('//');
const isWebAddress = (href: string) => /^https?:\/\//i.test(href);

/**
 * Links of a document: pages of the app navigate client-side; other sites open in a new tab without access
 * to this one; mailto: and tel: links stay plain.
 */
function DocumentLink({ href = '', title, children }: ComponentProps<'a'> & ExtraProps) {
  if (isAppPath(href)) {
    return (
      <Link to={href} title={title}>
        {children}
      </Link>
    );
  }
  const newTab = isWebAddress(href) ? { target: '_blank' } : {};
  return (
    <a {...newTab} href={href} title={title} rel="noopener noreferrer">
      {children}
    </a>
  );
}

const components: Components = { a: DocumentLink };

/**
 * A legal or info document rendered to React elements (react-markdown builds elements, never HTML strings;
 * HTML inside the Markdown shows as text). Its `# ` heading is the page's h1.
 */
export function LegalMarkdown({ document }: { document: LegalDocument }) {
  return (
    <article className={`${Classes.RUNNING_TEXT} mp-legal-document`} lang={document.language}>
      <Markdown components={components}>{document.markdown}</Markdown>
    </article>
  );
}
