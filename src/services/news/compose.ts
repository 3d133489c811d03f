// The news wall's compose calls (shared/news-contract.ts) as actor logic: what the form opens with (the
// categories, the levels and courses of the school, the post being edited, this browser's backup), and the
// save (POST /news, PATCH /news/:id). Uploads are services/compose/upload.ts's, the clock shared/zoned-time.ts's,
// the backup's storage services/compose/backup.ts's (the same per-user backup as message compose). The
// wall's list and actions are services/news/wall.ts's.
import { array, boolean, literal, nullable, number, object, string, type } from 'superstruct';
import { COMPOSE_API, type RecipientLevel } from '../../../shared/compose-contract';
import { AttachmentSummaryStruct, RecipientGroupsBodyStruct } from '../../../shared/compose-structs';
import type { AttachmentSummary } from '../../../shared/messages-contract';
import { NEWS_API, type NewsAudience, type NewsCategory, type NewsInput, type NewsPost } from '../../../shared/news-contract';
import { NewsAudienceStruct, NewsCategoriesBodyStruct, NewsPostBodyStruct } from '../../../shared/news-structs';
import { readBackup, writeBackup } from '../compose/backup';
import { fromCall, parseBody, saveOne } from '../http/client';

/** A course as the audience picker shows it (the recipients' course without its people). */
export interface AudienceCourse {
  id: number;
  nombre: string;
  /** Null for electives (they cross levels). */
  level_id: number | null;
}

/** A wall time typed on the school's clock: YYYY-MM-DD and HH:mm. */
export interface WallTime {
  date: string;
  time: string;
}

/** A post's fields as the form holds them (the files apart: the form has entries, the backup summaries). */
export interface NewsFields {
  title: string;
  body: string;
  categoryId: number | null;
  audience: NewsAudience;
  /** Null: publish now. */
  publishAt: WallTime | null;
  /** Null: stays on the wall. */
  endsAt: WallTime | null;
  pinned: boolean;
}

/** What the news form keeps in this browser so a reload loses nothing typed. */
export interface NewsBackup extends NewsFields {
  /** Uploaded files (already on the server, so their ids stay valid). */
  attachments: AttachmentSummary[];
  /** The post this form edits (null: a new one). */
  postId: number | null;
  /** Epoch ms of the last change. */
  savedAt: number;
}

const NEWS_BACKUP_VERSION = 1;

const WallTimeStruct = type({ date: string(), time: string() });

const NewsBackupStruct = object({
  v: literal(NEWS_BACKUP_VERSION),
  value: type({
    title: string(),
    body: string(),
    categoryId: nullable(number()),
    audience: NewsAudienceStruct,
    publishAt: nullable(WallTimeStruct),
    endsAt: nullable(WallTimeStruct),
    pinned: boolean(),
    attachments: array(AttachmentSummaryStruct),
    postId: nullable(number()),
    savedAt: number(),
  }),
});

export const loadNewsBackup = (key: string): NewsBackup | null =>
  (readBackup(key, NewsBackupStruct)?.value as NewsBackup | undefined) ?? null;

export const saveNewsBackup = (key: string, value: NewsBackup): void => writeBackup(key, { v: NEWS_BACKUP_VERSION, value });

export interface NewsComposeStartInput {
  postId: number | null;
  backupKey: string;
}

export interface NewsComposeStart {
  categories: NewsCategory[];
  levels: RecipientLevel[];
  courses: AudienceCourse[];
  /** The post being edited (GET /news/:id), null for a new one. */
  post: NewsPost | null;
  backup: NewsBackup | null;
}

/** Categories, levels and courses, the post being edited and the backup, in parallel. */
export const fetchNewsComposeStart = fromCall<NewsComposeStart, NewsComposeStartInput>(async ({ input, signal, http }) => {
  const postPath = input.postId === null ? null : NEWS_API.post(input.postId);
  const [categories, groups, post] = await Promise.all([
    http.request(NEWS_API.categories, { signal }).then((body) => parseBody(body, NewsCategoriesBodyStruct, NEWS_API.categories).data),
    // The levels and courses alone: the whole school's directory (its people) is the picker's, not the audience's.
    http
      .request(COMPOSE_API.recipientCourses, { signal })
      .then((body) => parseBody(body, RecipientGroupsBodyStruct, COMPOSE_API.recipientCourses).data),
    postPath === null
      ? Promise.resolve(null)
      : http.request(postPath, { signal }).then((body) => parseBody(body, NewsPostBodyStruct, postPath).data),
  ]);
  return {
    categories: [...categories].sort((a, b) => a.position - b.position),
    levels: groups.levels,
    courses: groups.courses.map(({ id, nombre, level_id }) => ({ id, nombre, level_id })),
    post,
    backup: loadNewsBackup(input.backupKey),
  };
});

export interface SaveNewsInput {
  /** Null: a new post (POST); else the post edited (PATCH, the whole form). */
  id: number | null;
  input: NewsInput;
}

export const saveNewsPost = fromCall<NewsPost, SaveNewsInput>(({ input, signal, http }) =>
  saveOne(http, { id: input.id, collection: NEWS_API.news, one: NEWS_API.post }, input.input, NewsPostBodyStruct, signal),
);
