import { Button } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { MAX_MORE, pageNumbers, PER_PAGE, type ListView } from './list-view';

type ListPagingProps = {
  view: ListView;
  total: number;
  lastPage: number;
  loadingMore: boolean;
  onPage: (page: number) => void;
  onLoadMore: () => void;
};

/**
 * Both ways of paging the lists: previous/next with the page numbers, and "Load more", which appends the next page
 * below the shown ones (up to ten pages; then the numbers go on).
 */
export function ListPaging({ view, total, lastPage, loadingMore, onPage, onLoadMore }: ListPagingProps) {
  const { t } = useTranslation('patientList');
  const lastShown = Math.min(view.page + view.more, lastPage);
  const first = (view.page - 1) * PER_PAGE + 1;
  const last = Math.min(lastShown * PER_PAGE, total);
  const canLoadMore = lastShown < lastPage && view.more < MAX_MORE;

  return (
    <div className="mp-list-paging">
      <p className="mp-list-range" aria-live="polite">
        {t('paging.range', { first, last, total })}
      </p>
      {canLoadMore && (
        <Button className="mp-load-more" onClick={onLoadMore} loading={loadingMore}>
          {t('paging.loadMore')}
        </Button>
      )}
      {lastPage > 1 && (
        <nav aria-label={t('paging.label')}>
          <ul className="mp-pagination">
            <li>
              <Button
                icon="chevron-left"
                aria-label={t('paging.previous')}
                title={t('paging.previous')}
                disabled={view.page <= 1}
                onClick={() => onPage(view.page - 1)}
              />
            </li>
            {pageNumbers(view.page, lastPage).map((page, index) =>
              page === null ? (
                <li key={`gap-${index}`} className="mp-pagination-gap" aria-hidden="true">
                  …
                </li>
              ) : (
                <li key={page}>
                  <Button
                    variant={page >= view.page && page <= lastShown ? 'solid' : 'outlined'}
                    intent={page >= view.page && page <= lastShown ? 'primary' : 'none'}
                    aria-current={page === view.page ? 'page' : undefined}
                    aria-label={t('paging.page', { page })}
                    onClick={() => onPage(page)}
                  >
                    {page}
                  </Button>
                </li>
              ),
            )}
            <li>
              <Button
                icon="chevron-right"
                aria-label={t('paging.next')}
                title={t('paging.next')}
                disabled={lastShown >= lastPage}
                onClick={() => onPage(lastShown + 1)}
              />
            </li>
          </ul>
        </nav>
      )}
    </div>
  );
}
