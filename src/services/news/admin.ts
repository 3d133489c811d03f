// The managers' calls of the news wall (shared/news-contract.ts `NEWS_API`) as actor logic: the
// categories (list, create, rename, reorder, delete), the trash (cursor pages for the list pattern,
// restore, delete forever) and the printable week. Every answer is checked with shared/news-structs.ts.
// The readers' wall and compose calls are src/services/news/wall.ts.
import { NEWS_API, NEWS_PAGE_SIZE, type NewsCategory, type NewsPost, type NewsWeek } from '../../../shared/news-contract';
import {
  NewsCategoriesBodyStruct,
  NewsCategoryBodyStruct,
  NewsPageStruct,
  NewsPostBodyStruct,
  NewsWeekBodyStruct,
} from '../../../shared/news-structs';
import type { Paged } from '../../../shared/messages-contract';
import { fromCall, parseBody } from '../http/client';
import { fromCursorPage, type ListFetchInput, type ListPage } from '../list/pages';

// --- categories -------------------------------------------------------------------------------------

export const fetchNewsCategories = fromCall<NewsCategory[], void>(async ({ signal, http }) => {
  const body = await http.request(NEWS_API.categories, { signal });
  return parseBody(body, NewsCategoriesBodyStruct, NEWS_API.categories).data;
});

export const createNewsCategory = fromCall<NewsCategory, { name: string }>(async ({ input, signal, http }) => {
  const body = await http.request(NEWS_API.categories, { method: 'POST', body: { name: input.name }, signal });
  return parseBody(body, NewsCategoryBodyStruct, NEWS_API.categories).data;
});

export const renameNewsCategory = fromCall<NewsCategory, { id: number; name: string }>(async ({ input, signal, http }) => {
  const path = NEWS_API.category(input.id);
  return parseBody(await http.request(path, { method: 'PATCH', body: { name: input.name }, signal }), NewsCategoryBodyStruct, path).data;
});

/** Every category of the school, once, in the new order; the answer is the order the server keeps. */
export const reorderNewsCategories = fromCall<NewsCategory[], { ids: number[] }>(async ({ input, signal, http }) => {
  const body = await http.request(NEWS_API.categoryOrder, { method: 'PUT', body: { ids: input.ids }, signal });
  return parseBody(body, NewsCategoriesBodyStruct, NEWS_API.categoryOrder).data;
});

export const deleteNewsCategory = fromCall<void, { id: number }>(async ({ input, signal, http }) => {
  await http.request(NEWS_API.category(input.id), { method: 'DELETE', signal });
});

// --- trash ------------------------------------------------------------------------------------------

/** The trash has no filter; the list pattern still wants a query. */
export type NewsTrashQuery = Record<string, never>;

export const fetchNewsTrashPage = fromCall<ListPage<NewsPost>, ListFetchInput<NewsTrashQuery>>(async ({ input, signal, http }) => {
  const query = { limit: NEWS_PAGE_SIZE, ...(input.after === null ? {} : { cursor: input.after }) };
  const body = await http.request(NEWS_API.trash, { query, signal });
  return fromCursorPage(parseBody(body, NewsPageStruct, NEWS_API.trash) as Paged<NewsPost>);
});

export const restoreNewsPost = fromCall<NewsPost, { id: number }>(async ({ input, signal, http }) => {
  const path = NEWS_API.restore(input.id);
  return parseBody(await http.request(path, { method: 'POST', signal }), NewsPostBodyStruct, path).data;
});

export const purgeNewsPost = fromCall<void, { id: number }>(async ({ input, signal, http }) => {
  await http.request(NEWS_API.forever(input.id), { method: 'DELETE', signal });
});

// --- the printable week -----------------------------------------------------------------------------

/** `date`: YYYY-MM-DD of any day of the week; null = this week in the school's zone (the server decides). */
export const fetchNewsWeek = fromCall<NewsWeek, { date: string | null }>(async ({ input, signal, http }) => {
  const body = await http.request(NEWS_API.week, { query: input.date === null ? {} : { date: input.date }, signal });
  return parseBody(body, NewsWeekBodyStruct, NEWS_API.week).data;
});
