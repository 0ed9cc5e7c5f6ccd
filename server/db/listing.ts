// Pieces every list answer shares: the paging meta of the contract and safe text search.

export interface Page {
  page: number;
  perPage: number;
}

export const pageMeta = ({ page, perPage }: Page, total: number) => ({
  page,
  perPage,
  total,
  lastPage: Math.max(1, Math.ceil(total / perPage)),
});

/** An ILIKE pattern that finds `text` anywhere; %, _ and \ in the text are taken literally. */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
