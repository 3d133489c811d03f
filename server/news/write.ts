// Write side of the news wall: create and edit a post (shared/news-rules.ts newsErrors, the school's
// category and audience ids, the files it takes), take it off and put it back, the trash, and delete
// forever with its files. Any manager of the school may change any of its posts (a shared wall). Outcomes
// say what the route answers: `not_found` (404: another school's, or a foreign id in the body), `invalid`
// (422 per field), `illegal` (409: not in a state that allows it).
import { and, eq, inArray, isNotNull, isNull, notInArray } from 'drizzle-orm';
import { NEWS_ATTACHMENTS_MAX, type NewsAudience, type NewsInput } from '../../shared/news-contract';
import { NEWS_MESSAGES, newsErrors, newsStatus } from '../../shared/news-rules';
import { fold } from '../../shared/fold';
import { isId } from '../http/params';
import type { Db, Queryable } from '../db/client';
import { messageAttachments } from '../db/schema/messages';
import { newsCategories, newsPostGroups, newsPosts } from '../db/schema/news';
import { courses, levels } from '../db/schema/school';
import type { AttachmentStore } from '../storage/attachments';
import { type FieldErrors, addFieldError, hasFieldErrors } from '../http/field-errors';

export const NEWS_WRITE_MESSAGES = {
  body: 'Envía los datos de la publicación.',
  title: 'El título debe ser un texto.',
  text: 'El texto debe ser un texto.',
  category: 'La categoría debe ser un número o vacía.',
  audience: 'El público debe ser «school» (todo el colegio) o «groups» con listas de niveles y cursos.',
  attachments: 'Los archivos deben ser una lista de números.',
  attachmentUnavailable: 'Uno de los archivos ya pertenece a otra publicación o mensaje, o no lo subiste tú; súbelo de nuevo.',
  date: NEWS_MESSAGES.dateInvalid,
  pinned: 'Destacar debe ser verdadero o falso.',
  illegalUnpublish: 'Solo se puede quitar del mural una publicación publicada o programada.',
  illegalPublish: 'Solo se puede volver a publicar una publicación quitada del mural o terminada.',
  illegalRestore: 'La publicación no está en la papelera.',
  illegalForever: 'Solo se puede eliminar definitivamente una publicación que está en la papelera.',
} as const;

export interface Manager {
  userId: number;
  institutionId: number;
}

export type Parsed = { ok: true; value: Partial<NewsInput> } | { ok: false; errors: FieldErrors };

const isIdList = (v: unknown): v is number[] => Array.isArray(v) && v.every(isId);
const isDate = (v: unknown): v is string | null => v === null || (typeof v === 'string' && !Number.isNaN(Date.parse(v)));

/** The body's fields, types checked (`create`: the missing optional ones get their defaults). */
export function parseNewsInput(raw: unknown, mode: 'create' | 'update'): Parsed {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return { ok: false, errors: { title: [NEWS_WRITE_MESSAGES.body] } };
  const b = raw as Record<string, unknown>;
  const errors: FieldErrors = {};
  const value: Partial<NewsInput> = {};
  const has = (k: string) => b[k] !== undefined;
  if (has('title') || mode === 'create') {
    if (typeof b.title === 'string') value.title = b.title;
    else if (b.title === undefined) value.title = '';
    else errors.title = [NEWS_WRITE_MESSAGES.title];
  }
  if (has('body') || mode === 'create') {
    if (typeof b.body === 'string') value.body = b.body;
    else if (b.body === undefined) value.body = '';
    else errors.body = [NEWS_WRITE_MESSAGES.text];
  }
  if (has('category_id')) {
    if (b.category_id === null || isId(b.category_id)) value.category_id = b.category_id;
    else errors.category_id = [NEWS_WRITE_MESSAGES.category];
  } else if (mode === 'create') value.category_id = null;
  if (has('audience')) {
    const a = b.audience as Partial<NewsAudience> | null;
    const ok =
      a !== null &&
      typeof a === 'object' &&
      (a.scope === 'school' || a.scope === 'groups') &&
      isIdList(a.level_ids ?? []) &&
      isIdList(a.course_ids ?? []);
    if (ok) {
      value.audience =
        a.scope === 'school'
          ? { scope: 'school', level_ids: [], course_ids: [] }
          : { scope: 'groups', level_ids: [...new Set(a.level_ids ?? [])], course_ids: [...new Set(a.course_ids ?? [])] };
    } else errors.audience = [NEWS_WRITE_MESSAGES.audience];
  } else if (mode === 'create') value.audience = { scope: 'school', level_ids: [], course_ids: [] };
  if (has('attachment_ids')) {
    if (isIdList(b.attachment_ids)) value.attachment_ids = [...new Set(b.attachment_ids)];
    else errors.attachment_ids = [NEWS_WRITE_MESSAGES.attachments];
  } else if (mode === 'create') value.attachment_ids = [];
  for (const key of ['publish_at', 'ends_at'] as const) {
    if (has(key)) {
      if (isDate(b[key])) value[key] = b[key] as string | null;
      else errors[key] = [NEWS_WRITE_MESSAGES.date];
    } else if (mode === 'create') value[key] = null;
  }
  if (has('pinned')) {
    if (typeof b.pinned === 'boolean') value.pinned = b.pinned;
    else errors.pinned = [NEWS_WRITE_MESSAGES.pinned];
  } else if (mode === 'create') value.pinned = false;
  return hasFieldErrors(errors) ? { ok: false, errors } : { ok: true, value };
}

export type WriteOutcome =
  | { kind: 'ok'; id: number; removedKeys: string[] }
  | { kind: 'not_found' }
  | { kind: 'invalid'; errors: FieldErrors };

/** Every id of the list belongs to the school (else the caller answers 404). */
async function allOfSchool(
  db: Queryable,
  table: typeof levels | typeof courses | typeof newsCategories,
  ids: number[],
  institutionId: number,
) {
  if (ids.length === 0) return true;
  const rows = await db
    .select({ id: table.id })
    .from(table)
    .where(and(inArray(table.id, ids), eq(table.institutionId, institutionId)));
  return rows.length === ids.length;
}

const searchOf = (title: string, body: string) => fold(`${title.trim()}\n${body.trim()}`);

/**
 * Creates (`postId` null) or edits a post. On an edit the body is merged over the stored post, and the
 * file list, when given, replaces the post's: removed files are deleted (their keys come back so the
 * caller removes them from the store after commit).
 */
export async function savePost(
  db: Db,
  manager: Manager,
  postId: number | null,
  change: Partial<NewsInput>,
  now: Date,
): Promise<WriteOutcome> {
  return db.transaction(async (tx) => {
    let current: NewsInput | null = null;
    if (postId !== null) {
      current = await storedInput(tx, manager.institutionId, postId);
      if (current === null) return { kind: 'not_found' as const };
    }
    const input: NewsInput = { ...(current ?? ({} as NewsInput)), ...change } as NewsInput;
    const errors: FieldErrors = {};
    const checked = newsErrors(input, now.getTime(), postId === null);
    // An edit that leaves the end date alone is not refused because that date has passed (an ended post
    // can still be corrected); it must still come after the publish date.
    if (postId !== null && change.ends_at === undefined && checked.ends_at === NEWS_MESSAGES.endsPast) delete checked.ends_at;
    for (const [field, message] of Object.entries(checked)) errors[field] = [message];

    const categoryIds = input.category_id === null ? [] : [input.category_id];
    const [categoryOk, levelsOk, coursesOk] = [
      await allOfSchool(tx, newsCategories, categoryIds, manager.institutionId),
      await allOfSchool(tx, levels, input.audience.level_ids, manager.institutionId),
      await allOfSchool(tx, courses, input.audience.course_ids, manager.institutionId),
    ];
    if (!categoryOk || !levelsOk || !coursesOk) return { kind: 'not_found' as const };

    if (change.attachment_ids !== undefined && change.attachment_ids.length <= NEWS_ATTACHMENTS_MAX && change.attachment_ids.length > 0) {
      const files = await tx
        .select({
          id: messageAttachments.id,
          owner: messageAttachments.ownerUserId,
          messageId: messageAttachments.messageId,
          postId: messageAttachments.newsPostId,
        })
        .from(messageAttachments)
        .where(and(inArray(messageAttachments.id, change.attachment_ids), eq(messageAttachments.institutionId, manager.institutionId)))
        .for('update');
      if (files.length !== change.attachment_ids.length) return { kind: 'not_found' as const };
      const usable = files.every((f) =>
        postId !== null && f.postId === postId ? true : f.postId === null && f.messageId === null && f.owner === manager.userId,
      );
      if (!usable) addFieldError(errors, 'attachment_ids', NEWS_WRITE_MESSAGES.attachmentUnavailable);
    }
    if (hasFieldErrors(errors)) return { kind: 'invalid' as const, errors };

    const publishAt = input.publish_at === null ? now : new Date(input.publish_at);
    const values = {
      title: input.title.trim(),
      body: input.body.trim(),
      search: searchOf(input.title, input.body),
      categoryId: input.category_id,
      audienceScope: input.audience.scope,
      pinned: input.pinned,
      publishAt,
      endsAt: input.ends_at === null ? null : new Date(input.ends_at),
      updatedAt: now,
    };
    let id: number;
    if (postId === null) {
      const [row] = await tx
        .insert(newsPosts)
        .values({ ...values, institutionId: manager.institutionId, authorUserId: manager.userId, createdAt: now })
        .returning({ id: newsPosts.id });
      id = row!.id;
    } else {
      id = postId;
      // Without a new publish date the merged input carries the stored one: the post keeps its place.
      await tx.update(newsPosts).set(values).where(eq(newsPosts.id, id));
    }
    if (postId === null || change.audience !== undefined) {
      await tx.delete(newsPostGroups).where(eq(newsPostGroups.postId, id));
      const groups = [
        ...input.audience.level_ids.map((levelId) => ({ postId: id, levelId, courseId: null })),
        ...input.audience.course_ids.map((courseId) => ({ postId: id, levelId: null, courseId })),
      ];
      if (input.audience.scope === 'groups' && groups.length > 0) await tx.insert(newsPostGroups).values(groups);
    }
    let removedKeys: string[] = [];
    if (change.attachment_ids !== undefined) {
      const removed = await tx
        .delete(messageAttachments)
        .where(
          and(
            eq(messageAttachments.newsPostId, id),
            change.attachment_ids.length ? notInArray(messageAttachments.id, change.attachment_ids) : undefined,
          ),
        )
        .returning({ key: messageAttachments.storageKey });
      removedKeys = removed.flatMap((r) => (r.key ? [r.key] : []));
      if (change.attachment_ids.length > 0) {
        await tx.update(messageAttachments).set({ newsPostId: id }).where(inArray(messageAttachments.id, change.attachment_ids));
      }
    }
    return { kind: 'ok' as const, id, removedKeys };
  });
}

/** The stored post as an input (for merging an edit); trashed posts are not editable (null). */
async function storedInput(db: Queryable, institutionId: number, id: number): Promise<NewsInput | null> {
  const [row] = await db
    .select()
    .from(newsPosts)
    .where(and(eq(newsPosts.id, id), eq(newsPosts.institutionId, institutionId), isNull(newsPosts.deletedAt)))
    .for('update');
  if (!row) return null;
  const [groups, files] = [
    await db.select().from(newsPostGroups).where(eq(newsPostGroups.postId, id)),
    await db.select({ id: messageAttachments.id }).from(messageAttachments).where(eq(messageAttachments.newsPostId, id)),
  ];
  return {
    title: row.title,
    body: row.body,
    category_id: row.categoryId,
    audience: {
      scope: row.audienceScope,
      level_ids: groups.flatMap((g) => (g.levelId === null ? [] : [g.levelId])),
      course_ids: groups.flatMap((g) => (g.courseId === null ? [] : [g.courseId])),
    },
    attachment_ids: files.map((f) => f.id),
    publish_at: row.publishAt.toISOString(),
    ends_at: row.endsAt?.toISOString() ?? null,
    pinned: row.pinned,
  };
}

export type LifecycleOutcome = 'ok' | 'not_found' | 'illegal';
export type Transition = 'unpublish' | 'publish' | 'trash' | 'restore';

/** Unpublish, publish again, to the trash and back: one locked read of the post, then its marks. */
export async function movePost(db: Db, manager: Manager, id: number, to: Transition, now: Date): Promise<LifecycleOutcome> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(newsPosts)
      .where(and(eq(newsPosts.id, id), eq(newsPosts.institutionId, manager.institutionId)))
      .for('update');
    if (!row) return 'not_found';
    const status = newsStatus(
      {
        deleted_at: row.deletedAt?.toISOString() ?? null,
        unpublished_at: row.unpublishedAt?.toISOString() ?? null,
        publish_at: row.publishAt.toISOString(),
        ends_at: row.endsAt?.toISOString() ?? null,
      },
      now.getTime(),
    );
    const set = (values: Partial<typeof newsPosts.$inferInsert>) =>
      tx
        .update(newsPosts)
        .set({ ...values, updatedAt: now })
        .where(eq(newsPosts.id, id));
    switch (to) {
      case 'unpublish':
        if (status !== 'published' && status !== 'scheduled') return 'illegal';
        await set({ unpublishedAt: now });
        return 'ok';
      case 'publish': {
        if (status !== 'unpublished' && status !== 'ended') return 'illegal';
        // Back on the wall now: a date still to come is kept (it stays scheduled); a past one becomes now,
        // so the post comes back at the top; an end date already passed is dropped.
        const publishAt = row.publishAt > now ? row.publishAt : now;
        const endsAt = row.endsAt !== null && row.endsAt > now && row.endsAt > publishAt ? row.endsAt : null;
        await set({ unpublishedAt: null, publishAt, endsAt });
        return 'ok';
      }
      case 'trash':
        if (status === 'deleted') return 'illegal';
        await set({ deletedAt: now, deletedByUserId: manager.userId });
        return 'ok';
      case 'restore':
        if (status !== 'deleted') return 'illegal';
        await set({ deletedAt: null, deletedByUserId: null });
        return 'ok';
    }
  });
}

/** Deletes a trashed post and its files (rows in the transaction, files after commit). */
export async function deleteForever(db: Db, store: AttachmentStore, manager: Manager, id: number): Promise<LifecycleOutcome> {
  const outcome = await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ deletedAt: newsPosts.deletedAt })
      .from(newsPosts)
      .where(and(eq(newsPosts.id, id), eq(newsPosts.institutionId, manager.institutionId)))
      .for('update');
    if (!row) return 'not_found' as const;
    if (row.deletedAt === null) return 'illegal' as const;
    const files = await tx
      .delete(messageAttachments)
      .where(eq(messageAttachments.newsPostId, id))
      .returning({ key: messageAttachments.storageKey });
    await tx.delete(newsPosts).where(and(eq(newsPosts.id, id), isNotNull(newsPosts.deletedAt)));
    return files.flatMap((f) => (f.key ? [f.key] : []));
  });
  if (typeof outcome === 'string') return outcome;
  await store.remove(outcome);
  return 'ok';
}

/** The folded search text of a post (the seed writes it too). */
export const newsSearchText = searchOf;
