// The API's two ways of paging (SPEC §7: numbered pages with `meta.current_page` / `last_page`, and cursor
// pages with `meta.next_cursor`), turned into the one page shape lists use (machines/list/list.ts).
import type { NumberedPage } from '../../../shared/recipient-lists-contract';
import type { Paged } from '../../../shared/messages-contract';

/** One page of a list, whatever the API's paging. */
export interface ListPage<T> {
  items: T[];
  /** Items matching the query over every page, when the server says. */
  total: number | null;
  /** The next page's token (a page number or a cursor); null on the last page. */
  next: string | null;
}

export interface ListFetchInput<Q> {
  query: Q;
  /** null for the first page; the previous page's `next` otherwise. */
  after: string | null;
}

export function fromNumberedPage<T>(page: NumberedPage<T>): ListPage<T> {
  const { current_page: current, last_page: last, total } = page.meta;
  return { items: page.data, total, next: current < last ? String(current + 1) : null };
}

export function fromCursorPage<T>(page: Paged<T>): ListPage<T> {
  return { items: page.data, total: page.meta.total, next: page.meta.next_cursor };
}

/** The page number a `next` token stands for (numbered paging); 1 for the first page. */
export const pageNumberOf = (after: string | null): number => (after === null ? 1 : Number(after));
