// A numbered page as every list of the API answers it (SPEC §7 `{ data, meta, links }`, Laravel style).
import type { NumberedPage } from '../../shared/recipient-lists-contract';

/**
 * Page `page` of `items` out of `total`, with links to `path` carrying the page size, then `params`. Past the
 * end, "previous" is the last real page, so a stale link still leads somewhere useful.
 */
export function numberedPage<T>(
  items: T[],
  total: number,
  page: number,
  perPage: number,
  path: string,
  params: URLSearchParams = new URLSearchParams(),
): NumberedPage<T> {
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  const query = new URLSearchParams({ per_page: String(perPage) });
  for (const [key, value] of params) if (key !== 'per_page') query.append(key, value);
  const link = (n: number) => `/api${path}?page=${n}&${query}`;
  return {
    data: items,
    meta: { current_page: page, last_page: lastPage, per_page: perPage, total },
    links: { next: page < lastPage ? link(page + 1) : null, prev: page > 1 ? link(Math.min(page - 1, lastPage)) : null },
  };
}
