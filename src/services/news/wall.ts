// The news wall's calls (shared/news-contract.ts `NEWS_API`) as actor logic: the wall's pages (the list
// pattern's `fetchPage`, cursor paging), the categories of its filter, and a manager's per-post actions on
// the desk (unpublish, publish again, to the trash, back from it). Every answer is checked with
// shared/news-structs.ts. Compose, categories and trash add their own calls in their own service files.
import { NEWS_API, NEWS_PAGE_SIZE, type NewsCategory, type NewsPost, type NewsQuery } from '../../../shared/news-contract';
import { NewsCategoriesBodyStruct, NewsPageStruct, NewsPostBodyStruct } from '../../../shared/news-structs';
import { fromCall, API_BASE, parseBody } from '../http/client';
import { fromCursorPage, type ListFetchInput, type ListPage } from '../list/pages';

/** What the wall asks for: a category (null: all), the search text, and the desk's every status. */
export interface WallQuery {
  category: number | null;
  q: string;
  /** The desk (managers) also sees scheduled, ended and unpublished posts. */
  all: boolean;
}

/** The query string of one page (empty filters left out, the search trimmed). */
function wallQueryParams(input: ListFetchInput<WallQuery>): NewsQuery {
  const q = input.query.q.trim();
  return {
    ...(input.query.category !== null ? { category: input.query.category } : {}),
    ...(q ? { q } : {}),
    ...(input.query.all ? { status: 'all' as const } : {}),
    ...(input.after !== null ? { cursor: input.after } : {}),
    limit: NEWS_PAGE_SIZE,
  };
}

export const fetchWallPage = fromCall<ListPage<NewsPost>, ListFetchInput<WallQuery>>(async ({ input, signal, http }) => {
  const body = await http.request(NEWS_API.news, { query: { ...wallQueryParams(input) }, signal });
  return fromCursorPage(parseBody(body, NewsPageStruct, NEWS_API.news));
});

export const fetchNewsCategories = fromCall<NewsCategory[]>(async ({ signal, http }) => {
  const body = await http.request(NEWS_API.categories, { signal });
  return parseBody(body, NewsCategoriesBodyStruct, NEWS_API.categories).data;
});

export interface PostIdInput {
  id: number;
}

const postAnswer = (body: unknown, path: string): NewsPost => parseBody(body, NewsPostBodyStruct, path).data;

/** A manager's action on one post: one call, answered with the post as it now stands. */
const postAction = (method: 'POST' | 'DELETE', pathOf: (id: number) => string) =>
  fromCall<NewsPost, PostIdInput>(async ({ input, signal, http }) => {
    const path = pathOf(input.id);
    return postAnswer(await http.request(path, { method, signal }), path);
  });

export const unpublishPost = postAction('POST', NEWS_API.unpublish);
export const publishPost = postAction('POST', NEWS_API.publish);
/** To the trash (`DELETE /news/:id`). */
export const trashPost = postAction('DELETE', NEWS_API.post);
export const restorePost = postAction('POST', NEWS_API.restore);

/** Where a post's file downloads or opens (its `url` is a path under the API base). */
export const newsFileHref = (url: string): string => `${API_BASE}${url}`;
