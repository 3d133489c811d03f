// The news compose form's rules, pure: the form a start restores (the post edited, or this
// browser's backup), what the server receives, the field errors (shared/news-rules.ts's Spanish texts, the
// same as the server's 422, plus message compose's attachment texts), which field takes the focus, and the
// toast of a save. The machine (news/compose.ts) runs them on its own context; views only show the outcome.
import type { NewsAudience, NewsCategory, NewsInput, NewsPost } from '../../../shared/news-contract';
import { newsErrors } from '../../../shared/news-rules';
import type { AttachmentSummary } from '../../../shared/messages-contract';
import type { RecipientLevel } from '../../../shared/compose-contract';
import type { MessageKey } from '../../i18n';
import type { ApiFailure } from '../../services/http/client';
import type { AudienceCourse, NewsBackup, NewsComposeStart, NewsFields, WallTime } from '../../services/news/compose';
import { utcToZoned, zonedToUtc } from '../../../shared/zoned-time';
import { restoredEntries } from '../compose/attachment-list';
import { ERROR_KEYS, type AttachmentEntry, type FieldError } from '../compose/rules';

export type NewsComposeField = 'title' | 'body' | 'category_id' | 'attachment_ids' | 'audience' | 'publish_at' | 'ends_at';

/** A field's error: the shared rules' (or the server's) Spanish text, or an i18n key (the upload texts). */
export type NewsFieldError = { text: string } | FieldError;
export type NewsComposeErrors = Partial<Record<NewsComposeField, NewsFieldError>>;

/** The form: the post's fields as typed (dates on the school's clock) and the files as the list reports them. */
export interface NewsForm extends NewsFields {
  attachments: AttachmentEntry[];
}

export interface NewsComposeSetup {
  categories: NewsCategory[];
  levels: RecipientLevel[];
  courses: AudienceCourse[];
}

export const EMPTY_NEWS_FORM: NewsForm = {
  title: '',
  body: '',
  categoryId: null,
  audience: { scope: 'school', level_ids: [], course_ids: [] },
  publishAt: null,
  endsAt: null,
  pinned: false,
  attachments: [],
};

/** DOM ids of the fields, in the order a save checks them (the first refused one takes the focus). */
export const NEWS_FIELD_IDS: Readonly<Record<NewsComposeField, string>> = {
  title: 'news-title',
  body: 'news-body',
  category_id: 'news-category',
  attachment_ids: 'news-files',
  audience: 'news-audience',
  publish_at: 'news-publish-date',
  ends_at: 'news-ends-date',
};
const FIELD_ORDER = Object.keys(NEWS_FIELD_IDS) as NewsComposeField[];

export const NEWS_TOAST_KEYS = {
  created: 'newsCompose.toast.created',
  updated: 'newsCompose.toast.updated',
  scheduled: 'newsCompose.toast.scheduled',
  review: 'compose.errors.review',
  failed: 'error.request',
} as const satisfies Record<string, MessageKey>;

/** A typed wall time as the server's instant: null for "now", `invalid` for a date or time not understood. */
function instantOf(at: WallTime | null, timezone: string): string | null {
  if (at === null) return null;
  return zonedToUtc(at.date, at.time, timezone) ?? 'invalid';
}

const uploaded = (entries: readonly AttachmentEntry[]): AttachmentSummary[] =>
  entries.flatMap((entry) => (entry.status === 'uploaded' && entry.attachment ? [entry.attachment] : []));

/** What POST /news or PATCH /news/:id receives (only sent once `newsFormErrors` is empty). */
export function newsInputOf(form: NewsForm, timezone: string): NewsInput {
  const audience = form.audience.scope === 'school' ? { scope: 'school' as const, level_ids: [], course_ids: [] } : form.audience;
  return {
    title: form.title.trim(),
    body: form.body.trim(),
    category_id: form.categoryId,
    audience,
    attachment_ids: uploaded(form.attachments).map((attachment) => attachment.id),
    publish_at: instantOf(form.publishAt, timezone),
    ends_at: instantOf(form.endsAt, timezone),
    pinned: form.pinned,
  };
}

/** Every field error of the form at `now`: the shared rules, and files still uploading or failed. */
export function newsFormErrors(form: NewsForm, timezone: string, now: number, creating: boolean): NewsComposeErrors {
  const errors: NewsComposeErrors = {};
  for (const [field, text] of Object.entries(newsErrors(newsInputOf(form, timezone), now, creating))) {
    errors[field as NewsComposeField] = { text };
  }
  const live = form.attachments.filter((entry) => entry.status !== 'removing');
  if (live.some((entry) => entry.status === 'uploading')) errors.attachment_ids = { key: ERROR_KEYS.attachmentsUploading };
  else if (live.some((entry) => entry.status === 'failed')) errors.attachment_ids = { key: ERROR_KEYS.attachmentsFailed };
  return errors;
}

/** The fields an edit of `field` re-checks as the manager types (the dates check each other). */
export const CHECKED_TOGETHER: Readonly<Record<NewsComposeField, readonly NewsComposeField[]>> = {
  title: ['title'],
  body: ['body'],
  category_id: ['category_id'],
  attachment_ids: ['attachment_ids'],
  audience: ['audience'],
  publish_at: ['publish_at', 'ends_at'],
  ends_at: ['ends_at'],
};

/** `errors` with `fields` re-checked: each shows its current error, or none. */
export function recheck(errors: NewsComposeErrors, all: NewsComposeErrors, fields: readonly NewsComposeField[]): NewsComposeErrors {
  const next: NewsComposeErrors = { ...errors };
  for (const field of fields) {
    const error = all[field];
    if (error) next[field] = error;
    else delete next[field];
  }
  return next;
}

export function firstInvalidField(errors: NewsComposeErrors): string | null {
  const field = FIELD_ORDER.find((name) => errors[name] !== undefined);
  return field === undefined ? null : NEWS_FIELD_IDS[field];
}

/** A 422's texts on their fields (the server's Spanish, the same rules); other fields' texts are dropped. */
export function serverNewsErrors(failure: ApiFailure): NewsComposeErrors {
  const errors: NewsComposeErrors = {};
  for (const [name, texts] of Object.entries(failure.fieldErrors)) {
    const text = texts[0];
    if (text !== undefined && (FIELD_ORDER as string[]).includes(name)) errors[name as NewsComposeField] = { text };
  }
  return errors;
}

/** What the server would hold of the form: compared to tell whether leaving loses something. */
export const newsFingerprint = (form: NewsForm): string =>
  JSON.stringify([
    form.title,
    form.body,
    form.categoryId,
    form.audience,
    form.publishAt,
    form.endsAt,
    form.pinned,
    form.attachments.filter((entry) => entry.status !== 'removing').map((entry) => entry.attachment?.id ?? entry.key),
  ]);

/** The form of a post being edited; its dates on the school's clock. */
function postForm(post: NewsPost, timezone: string): NewsForm {
  return {
    title: post.title,
    body: post.body,
    categoryId: post.category?.id ?? null,
    audience: post.audience,
    publishAt: utcToZoned(post.publish_at, timezone),
    endsAt: post.ends_at ? utcToZoned(post.ends_at, timezone) : null,
    pinned: post.pinned,
    attachments: restoredEntries(post.attachments),
  };
}

function backupForm(backup: NewsBackup): NewsForm {
  const { title, body, categoryId, audience, publishAt, endsAt, pinned, attachments } = backup;
  return { title, body, categoryId, audience, publishAt, endsAt, pinned, attachments: restoredEntries(attachments) };
}

/**
 * The form a start opens with, what the server holds of it (its fingerprint) and whether the backup was
 * used: the backup of this same form when newer than the post edited (always, for a new post).
 */
export function restoredNewsForm(start: NewsComposeStart, postId: number | null, timezone: string) {
  const saved = start.post ? postForm(start.post, timezone) : EMPTY_NEWS_FORM;
  const { backup } = start;
  const backupWins =
    backup !== null && backup.postId === postId && (start.post === null || backup.savedAt > Date.parse(start.post.updated_at));
  // A category deleted since the backup was written falls back to "Sin categoría".
  const form = backupWins ? backupForm(backup) : saved;
  const categoryId = start.categories.some((category) => category.id === form.categoryId) ? form.categoryId : null;
  return {
    form: { ...form, categoryId },
    savedForm: newsFingerprint(saved),
    restored: backupWins && newsFingerprint(form) !== newsFingerprint(saved),
  };
}

export function backupOf(form: NewsForm, postId: number | null, now: number): NewsBackup {
  const { title, body, categoryId, audience, publishAt, endsAt, pinned } = form;
  return { title, body, categoryId, audience, publishAt, endsAt, pinned, attachments: uploaded(form.attachments), postId, savedAt: now };
}

/** "Publicación creada", "Publicación actualizada", or "Publicación programada para el 12-03-2026 a las 08:00". */
export function savedToast(post: NewsPost, creating: boolean, timezone: string): { key: MessageKey; params?: Record<string, string> } {
  if (post.status === 'scheduled') {
    const at = utcToZoned(post.publish_at, timezone);
    if (at) {
      const [year, month, day] = at.date.split('-');
      return { key: NEWS_TOAST_KEYS.scheduled, params: { date: `${day}-${month}-${year}`, time: at.time } };
    }
  }
  return { key: creating ? NEWS_TOAST_KEYS.created : NEWS_TOAST_KEYS.updated };
}

/** The audience with a level or course switched; choosing a level drops its courses (the level covers them). */
export function toggleGroup(audience: NewsAudience, kind: 'level' | 'course', id: number, levels: readonly RecipientLevel[]): NewsAudience {
  const flip = (ids: number[]) => (ids.includes(id) ? ids.filter((other) => other !== id) : [...ids, id]);
  if (kind === 'course') return { ...audience, scope: 'groups', course_ids: flip(audience.course_ids) };
  const level_ids = flip(audience.level_ids);
  const covered = new Set(level_ids.includes(id) ? (levels.find((level) => level.id === id)?.course_ids ?? []) : []);
  return { scope: 'groups', level_ids, course_ids: audience.course_ids.filter((course) => !covered.has(course)) };
}
