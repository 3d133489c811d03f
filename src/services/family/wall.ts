// The school's wall in the families' app (shared/news-contract.ts GUARDIAN_WALL_API) as actor logic: its
// numbered pages, one post, and a post's file. A file comes with the bearer token (an <img src> could not
// send it), so it is fetched here as a Blob; the view shows it through an object URL it revokes when the
// picture leaves the screen (wall-file.tsx `useObjectUrl`).
import type { Infer } from 'superstruct';
import { fromPromise } from 'xstate';
import { bearer } from '../../../shared/family-contract';
import { GUARDIAN_WALL_API, type NewsPost } from '../../../shared/news-contract';
import { GuardianWallPageStruct, NewsPostBodyStruct } from '../../../shared/news-structs';
import { API_BASE, call, FamilyFailureError, noAnswer } from './api';

export type FamilyWallPage = Infer<typeof GuardianWallPageStruct>;

export const fetchWallPage = fromPromise<FamilyWallPage, { token: string; page: number }>(({ input, signal }) =>
  call(GUARDIAN_WALL_API.wall, GuardianWallPageStruct, { query: { page: input.page }, token: input.token, signal }),
);

export const fetchWallPost = fromPromise<NewsPost, { token: string; id: number }>(async ({ input, signal }) => {
  const { data } = await call(GUARDIAN_WALL_API.post(input.id), NewsPostBodyStruct, { token: input.token, signal });
  return data;
});

export interface WallFileInput {
  token: string;
  postId: number;
  attachmentId: number;
}

/** One file of a post, its bytes. */
export const fetchWallFile = fromPromise<Blob, WallFileInput>(async ({ input, signal }) => {
  let response: Response;
  try {
    response = await fetch(`${API_BASE}${GUARDIAN_WALL_API.attachment(input.postId, input.attachmentId)}`, {
      headers: { Authorization: bearer(input.token) },
      signal,
    });
  } catch {
    throw noAnswer();
  }
  if (!response.ok) throw new FamilyFailureError({ status: response.status, code: 'http', message: '', fieldErrors: {} });
  try {
    return await response.blob();
  } catch {
    throw noAnswer();
  }
});
