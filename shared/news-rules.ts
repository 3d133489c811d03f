// The news wall's rules both sides apply: what a post and a category may hold, with the same
// Spanish field texts in compose (checked as the manager types) and in the server's 422, and a post's
// derived status. The entry rule (SPEC §2 `check-newsfeed-role`) is the route table's `browse`
// (src/machines/app/route-rules.ts).
import { hasAnyRole, NEWSFEED_ROLES } from './codes';
import {
  NEWS_ATTACHMENTS_MAX,
  NEWS_BODY_MAX,
  NEWS_CATEGORY_NAME_MAX,
  NEWS_TITLE_MAX,
  type NewsAudience,
  type NewsInput,
  type NewsStatus,
} from './news-contract';

export const NEWS_MESSAGES = {
  titleRequired: 'Debes escribir un título.',
  titleLong: `El título puede tener hasta ${NEWS_TITLE_MAX} caracteres.`,
  bodyRequired: 'Debes escribir el texto de la publicación.',
  bodyLong: `El texto puede tener hasta ${NEWS_BODY_MAX.toLocaleString('es-CL')} caracteres.`,
  audienceEmpty: 'Elige quién la ve: marca al menos una opción de la lista, o publícala para todos.',
  attachmentsMany: `Puedes adjuntar hasta ${NEWS_ATTACHMENTS_MAX} archivos.`,
  publishPast: 'La fecha de publicación no puede estar en el pasado.',
  endsBeforePublish: 'La fecha de término debe ser posterior a la de publicación.',
  endsPast: 'La fecha de término debe estar en el futuro.',
  dateInvalid: 'La fecha no es válida.',
  categoryRequired: 'Debes escribir un nombre para la categoría.',
  categoryLong: `El nombre puede tener hasta ${NEWS_CATEGORY_NAME_MAX} caracteres.`,
  categoryTaken: 'Ya existe una categoría con ese nombre.',
} as const;

type NewsField = 'title' | 'body' | 'audience' | 'attachment_ids' | 'publish_at' | 'ends_at';
export type NewsErrors = Partial<Record<NewsField, string>>;

/** Counted in characters as people see them, not UTF-16 units. */
const length = (text: string) => [...text].length;

/** A publish date may be up to this much in the past when saved (the form's "now" drifts while typing). */
const PUBLISH_SLACK_MS = 60_000;

function instant(value: string | null): number | null | 'invalid' {
  if (value === null) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? 'invalid' : ms;
}

function audienceError(audience: NewsAudience): string | null {
  return audience.scope === 'groups' && audience.level_ids.length === 0 && audience.course_ids.length === 0
    ? NEWS_MESSAGES.audienceEmpty
    : null;
}

/**
 * The field errors of a post as it would be saved at `now` (ms). `creating` checks the publish date
 * against now (an edit may keep a date already past: the post is on the wall since then).
 */
export function newsErrors(input: NewsInput, now: number, creating: boolean): NewsErrors {
  const errors: NewsErrors = {};
  const title = input.title.trim();
  if (title === '') errors.title = NEWS_MESSAGES.titleRequired;
  else if (length(title) > NEWS_TITLE_MAX) errors.title = NEWS_MESSAGES.titleLong;
  const body = input.body.trim();
  if (body === '') errors.body = NEWS_MESSAGES.bodyRequired;
  else if (length(body) > NEWS_BODY_MAX) errors.body = NEWS_MESSAGES.bodyLong;
  const audience = audienceError(input.audience);
  if (audience) errors.audience = audience;
  if (input.attachment_ids.length > NEWS_ATTACHMENTS_MAX) errors.attachment_ids = NEWS_MESSAGES.attachmentsMany;
  const publish = instant(input.publish_at);
  const ends = instant(input.ends_at);
  if (publish === 'invalid') errors.publish_at = NEWS_MESSAGES.dateInvalid;
  else if (creating && publish !== null && publish < now - PUBLISH_SLACK_MS) errors.publish_at = NEWS_MESSAGES.publishPast;
  if (ends === 'invalid') errors.ends_at = NEWS_MESSAGES.dateInvalid;
  else if (ends !== null) {
    if (ends <= now) errors.ends_at = NEWS_MESSAGES.endsPast;
    else if (typeof publish === 'number' && ends <= publish) errors.ends_at = NEWS_MESSAGES.endsBeforePublish;
  }
  return errors;
}

/** The field error of a category name, or null; `taken` says whether another category of the school folds to it. */
export function categoryNameError(name: string, taken: boolean): string | null {
  const text = name.trim();
  if (text === '') return NEWS_MESSAGES.categoryRequired;
  if (length(text) > NEWS_CATEGORY_NAME_MAX) return NEWS_MESSAGES.categoryLong;
  return taken ? NEWS_MESSAGES.categoryTaken : null;
}

/** A post's status at `now` (ms) from its marks and dates (news-contract.ts NewsStatus). */
export function newsStatus(
  post: { deleted_at: string | null; unpublished_at: string | null; publish_at: string; ends_at: string | null },
  now: number,
): NewsStatus {
  if (post.deleted_at !== null) return 'deleted';
  if (post.unpublished_at !== null) return 'unpublished';
  if (Date.parse(post.publish_at) > now) return 'scheduled';
  if (post.ends_at !== null && Date.parse(post.ends_at) <= now) return 'ended';
  return 'published';
}

/** Managers of the wall: categories, compose, trash (SPEC §6). */
export const isNewsManager = (roles: readonly string[]): boolean => hasAnyRole(roles, NEWSFEED_ROLES);
