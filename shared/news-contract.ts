// API contract for the news wall (SPEC §1 "the news wall is for users whose device is latam",
// §2 entry redirect and sidebar link, §6 who manages), shared by the SPA and `server/`. Plain types and
// constants only.
//
// Who: every call below refuses a staff user whose device is not `latam` with 403 `news.device`
// (NEWS_TEXTS.device). Reading (GET /news, /news/:id, /news-categories, /news/week) is open to every
// latam staff user of the school; everything else to NEWSFEED_ROLES (shared/codes.ts) with 403
// `auth.forbidden` for others. Any manager of the school may edit any of its posts (a shared wall, not
// a personal one). Another school's ids are 404. Guardians read through the app API (GUARDIAN_WALL_API).
import type { AttachmentSummary } from './messages-contract';

export const NEWS_TITLE_MAX = 150;
export const NEWS_BODY_MAX = 10_000;
export const NEWS_CATEGORY_NAME_MAX = 60;
/** Images and files on one post; each follows the message upload rules (22 MB, same types). */
export const NEWS_ATTACHMENTS_MAX = 10;
export const NEWS_PAGE_SIZE = 20;

/**
 * Who sees a post besides the school's latam staff: every guardian of the school (`school`, both lists
 * empty), or the guardians of students enrolled in the chosen levels and courses (`groups`, at least one
 * id; a level means every course in it, now and later).
 */
export interface NewsAudience {
  scope: 'school' | 'groups';
  level_ids: number[];
  course_ids: number[];
}

/**
 * Where a post stands, derived from its dates and marks at the moment of the answer:
 * - scheduled: `publish_at` is in the future;
 * - published: on the wall now;
 * - ended: its `ends_at` has passed (off the wall, kept);
 * - unpublished: taken off the wall by a manager (can be published again);
 * - deleted: in the trash (GET /news/trash only).
 */
export const NEWS_STATUSES = ['scheduled', 'published', 'ended', 'unpublished', 'deleted'] as const;
export type NewsStatus = (typeof NEWS_STATUSES)[number];

export interface NewsCategory {
  id: number;
  name: string;
  /** 1-based order on the wall's filter and in compose. */
  position: number;
  /** Posts that use it, the trash included: a category with posts cannot be deleted. */
  post_count: number;
}

export interface NewsAttachment extends AttachmentSummary {
  /** image/png, image/jpeg, image/gif, image/webp: shown in the post; other files are listed to download. */
  is_image: boolean;
}

export interface NewsPost {
  id: number;
  title: string;
  body: string;
  category: { id: number; name: string } | null;
  author: { id: number; name: string };
  audience: NewsAudience;
  /** Names of the levels and courses of a `groups` audience, for "Para: 3° Básico A, 4° Medio" (empty for school). */
  audience_names: string[];
  status: NewsStatus;
  pinned: boolean;
  /** ISO instant it goes (or went) on the wall. */
  publish_at: string;
  /** ISO instant it leaves the wall; null = stays. */
  ends_at: string | null;
  attachments: NewsAttachment[];
  created_at: string;
  updated_at: string;
  /** Trash only. */
  deleted_at: string | null;
  deleted_by: { id: number; name: string } | null;
  /** The signed-in user may edit, unpublish and delete it (a manager of its school). */
  editable: boolean;
}

/**
 * `GET /news?category=&q=&status=&cursor=&limit=` → Paged<NewsPost> (shared/messages-contract.ts), pinned
 * posts first (newest pinned first), then newest `publish_at` first. `q` matches title and body ignoring
 * case and accents; `category` an id. Readers get only `published` posts. Managers may pass
 * `status=all` to also see scheduled, ended and unpublished ones (never the trash), each marked.
 */
export interface NewsQuery {
  category?: number;
  q?: string;
  status?: 'live' | 'all';
  cursor?: string;
  limit?: number;
}

/** Body of `POST /news` and `PATCH /news/:id` (PATCH: any subset). */
export interface NewsInput {
  title: string;
  body: string;
  category_id: number | null;
  audience: NewsAudience;
  /** Uploaded through POST /attachments; the post takes them (PATCH replaces the whole list). */
  attachment_ids: number[];
  /** ISO instant; null = now. Must not be in the past by more than a minute on create. */
  publish_at: string | null;
  /** ISO instant after `publish_at` (and in the future), or null. */
  ends_at: string | null;
  pinned: boolean;
}

/** `GET /news/week?date=YYYY-MM-DD` → { data: NewsWeek }: the printable wall of the week (Monday–Sunday, school's zone) holding `date`. */
export interface NewsWeek {
  /** Monday and Sunday of the week, YYYY-MM-DD in the school's zone. */
  from: string;
  to: string;
  school: string;
  /** Absolute address of the wall (/mural/news) for the QR code. */
  wall_url: string;
  /** Posts published that week (school's zone) and still out, pinned first then newest; whole-school and group posts alike. */
  posts: NewsPost[];
}

/**
 * Calls (under the API base):
 * - GET    /news                      Paged<NewsPost> (NewsQuery)
 * - GET    /news/:id                  { data: NewsPost }  (readers: published only; managers: any not trashed)
 * - GET    /news/week?date=           { data: NewsWeek }
 * - POST   /news                      NewsInput → 201 { data: NewsPost }
 * - PATCH  /news/:id                  Partial<NewsInput> → { data: NewsPost }
 * - POST   /news/:id/unpublish        → { data: NewsPost } (status unpublished)
 * - POST   /news/:id/publish          → { data: NewsPost } (back on the wall; publish_at kept if future)
 * - DELETE /news/:id                  → { data: NewsPost } to the trash (deleted_at, deleted_by)
 * - GET    /news/trash?cursor=        Paged<NewsPost>, newest deleted first
 * - POST   /news/:id/restore          → { data: NewsPost } out of the trash, as it was
 * - DELETE /news/:id/forever          → 204, only a trashed post (409 `message.illegal_transition` otherwise), its files too
 * - GET    /news-categories           { data: NewsCategory[] } by position
 * - POST   /news-categories           { name } → 201 { data: NewsCategory } (last position)
 * - PATCH  /news-categories/:id       { name } → { data: NewsCategory }
 * - PUT    /news-categories/order     { ids: number[] } every category of the school once → { data: NewsCategory[] }
 * - DELETE /news-categories/:id       → 204; 409 `news.category_in_use` with NEWS_TEXTS.categoryInUse(n) when posts use it
 * Errors: 422 `validation.failed` with `errors.<field>` in Spanish (title, body, category_id, audience,
 * attachment_ids, publish_at, ends_at, name, ids); 403 `news.device`; 403 `auth.forbidden`; 404.
 */
export const NEWS_API = {
  news: '/news',
  post: (id: number) => `/news/${id}`,
  week: '/news/week',
  unpublish: (id: number) => `/news/${id}/unpublish`,
  publish: (id: number) => `/news/${id}/publish`,
  trash: '/news/trash',
  restore: (id: number) => `/news/${id}/restore`,
  forever: (id: number) => `/news/${id}/forever`,
  categories: '/news-categories',
  category: (id: number) => `/news-categories/${id}`,
  categoryOrder: '/news-categories/order',
} as const;

/**
 * The guardian app's wall (bearer token, like /app/messages): `GET /app/wall?page=` → numbered page
 * `{ data: NewsPost[], meta: { current_page, last_page, per_page, total }, links }` of the published posts
 * addressed to the school or to a level/course of one of the guardian's enrolled children, same order as
 * the staff wall. `editable` is false and `deleted_*` null. `GET /app/wall/:id` one of those, else 404.
 * Files of those posts download from `/app/wall/:id/attachments/:attachmentId`.
 */
export const GUARDIAN_WALL_API = {
  wall: '/app/wall',
  post: (id: number) => `/app/wall/${id}`,
  attachment: (postId: number, attachmentId: number) => `/app/wall/${postId}/attachments/${attachmentId}`,
} as const;

/** Server texts the SPA may also show (Spanish, both locales). */
export const NEWS_TEXTS = {
  device: 'El mural no está disponible para tu cuenta.',
  categoryInUse: (posts: number) =>
    posts === 1
      ? 'La categoría tiene 1 publicación; cámbiala de categoría o elimínala antes de borrar la categoría.'
      : `La categoría tiene ${posts} publicaciones; cámbialas de categoría o elimínalas antes de borrar la categoría.`,
} as const;
