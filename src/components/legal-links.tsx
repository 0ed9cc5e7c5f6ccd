import { Classes } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router-dom';
import { paths, type LegalDocumentName } from '@/config/paths';

// Each legal document is named as its path (see LEGAL_DOCUMENTS), which also names its link label.
const links = Object.values(paths.legal).map(({ path, getHref }) => ({
  name: path.slice(1) as LegalDocumentName,
  href: getHref(),
}));

/** Links to the six legal and info pages (privacy … about us); the current page's link is marked as such. */
export function LegalLinks() {
  const { t } = useTranslation('legal');
  return (
    <nav aria-label={t('links')} className="mp-legal-links">
      <ul className={`${Classes.LIST_UNSTYLED} ${Classes.TEXT_SMALL}`}>
        {links.map(({ name, href }) => (
          <li key={name}>
            <NavLink to={href}>{t(`documents.${name}`)}</NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
