import { Button, Classes } from '@blueprintjs/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PageMeta } from '@generated/model/pageMeta';
import { formatNumber } from '@/lib/format';
import { useLeaving } from './use-leaving';
import './icons';

/** A search is sent once typing pauses this long. */
const SEARCH_DELAY_MS = 300;

/**
 * The text of a list's search box and the search the list shows: `apply` gets the trimmed text once typing
 * pauses, unless it is the search shown already, or the user has followed a link away meanwhile.
 */
export function useSearchAfterPause(shown: string, apply: (search: string) => void): [string, (text: string) => void] {
  const [typed, setTyped] = useState(shown);
  const latestApply = useRef(apply);
  latestApply.current = apply;
  const leaving = useLeaving();
  // The pause counts from the last keystroke only: a render for another reason (a list refetched because
  // realtime announced a change) must not start it again.
  useEffect(() => {
    if (typed.trim() === shown) return;
    const typedOn = window.location.pathname;
    const timer = window.setTimeout(() => {
      if (!leaving(typedOn)) latestApply.current(typed.trim());
    }, SEARCH_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [typed, shown, leaving]);
  return [typed, setTyped];
}

/** Grey rows where a list's first page is still loading. */
export function SkeletonRows({ columns, rows = 3 }: { columns: number; rows?: number }) {
  return Array.from({ length: rows }, (_, row) => (
    <tr key={row} aria-hidden="true">
      {Array.from({ length: columns }, (_, cell) => (
        <td key={cell}>
          <span className={Classes.SKELETON}>&nbsp;&nbsp;&nbsp;&nbsp;&nbsp;&nbsp;&nbsp;&nbsp;</span>
        </td>
      ))}
    </tr>
  ));
}

/** The catalogues of the lists that page this way; each has range, paging, previous, next and pageOf. */
type PagedNamespace = 'devices' | 'staff' | 'adminPatients' | 'notifications' | 'accessLog';

type RangePagingProps = {
  namespace: PagedNamespace;
  meta: PageMeta;
  onPage: (page: number) => void;
  /** Shown between the range and the pages, e.g. the page size. */
  children?: React.ReactNode;
};

/** "1–20 of 57" (numbers as the UI language writes them) and, with more than one page, previous and next around "Page 1 of 3". */
export function RangePaging({ namespace, meta, onPage, children }: RangePagingProps) {
  const { t, i18n } = useTranslation(namespace);
  const number = (value: number) => formatNumber(value, i18n.language);
  const first = (meta.page - 1) * meta.perPage + 1;
  const last = Math.min(meta.page * meta.perPage, meta.total);
  return (
    <div className="mp-list-paging">
      <p className="mp-list-range" aria-live="polite">
        {t('range', { first: number(first), last: number(last), total: number(meta.total) })}
      </p>
      {children}
      {meta.lastPage > 1 && (
        <nav aria-label={t('paging')} className="mp-simple-paging">
          <Button icon="chevron-left" disabled={meta.page <= 1} onClick={() => onPage(meta.page - 1)}>
            {t('previous')}
          </Button>
          <span>{t('pageOf', { page: meta.page, lastPage: meta.lastPage })}</span>
          <Button endIcon="chevron-right" disabled={meta.page >= meta.lastPage} onClick={() => onPage(meta.page + 1)}>
            {t('next')}
          </Button>
        </nav>
      )}
    </div>
  );
}
