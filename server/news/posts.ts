// Read side of the news wall (shared/news-contract.ts): rows of news_posts turned into NewsPost (category,
// author, audience with its names, files), the wall's cursor pages, one post, the trash, the printable week
// and the guardian app's wall. Everything takes the school's id: another school's post is never found.
// Which posts are "on the wall" at an instant is `liveAt` (the SQL twin of shared/news-rules.ts newsStatus).
import { and, asc, desc, eq, gt, gte, inArray, isNotNull, isNull, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { GUARDIAN_WALL_API, type NewsAttachment, type NewsPost } from '../../shared/news-contract';
import { newsStatus } from '../../shared/news-rules';
import { fold } from '../../shared/fold';
import { MESSAGES_API } from '../../shared/messages-contract';
import { readTogether, type Queryable } from '../db/client';
import { users } from '../db/schema/auth';
import { messageAttachments } from '../db/schema/messages';
import { newsCategories, newsPostGroups, newsPosts } from '../db/schema/news';
import { courses, levels, studentGuardians, students } from '../db/schema/school';
import { escapeLike } from '../db/sql';

/** Shown in the post; other types are listed to download. */
const NEWS_IMAGE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** Who is reading: staff (managers see every status and may edit) or a guardian through the app. */
export type NewsReader =
  | { kind: 'staff'; institutionId: number; manager: boolean }
  | { kind: 'guardian'; institutionId: number; guardianId: number };

const deleter = alias(users, 'news_deleter');

/** Posts on the wall at `now`: not trashed, not taken off, published, not ended. */
export function liveAt(now: Date): SQL {
  return and(
    isNull(newsPosts.deletedAt),
    isNull(newsPosts.unpublishedAt),
    lte(newsPosts.publishAt, now),
    or(isNull(newsPosts.endsAt), gt(newsPosts.endsAt, now)),
  )!;
}

const POST_COLUMNS = {
  id: newsPosts.id,
  title: newsPosts.title,
  body: newsPosts.body,
  categoryId: newsPosts.categoryId,
  categoryName: newsCategories.name,
  authorId: newsPosts.authorUserId,
  authorName: users.name,
  audienceScope: newsPosts.audienceScope,
  pinned: newsPosts.pinned,
  publishAt: newsPosts.publishAt,
  endsAt: newsPosts.endsAt,
  unpublishedAt: newsPosts.unpublishedAt,
  deletedAt: newsPosts.deletedAt,
  deletedById: newsPosts.deletedByUserId,
  deletedByName: deleter.name,
  createdAt: newsPosts.createdAt,
  updatedAt: newsPosts.updatedAt,
  /** Microseconds since the epoch as text: the exact `publish_at` for the cursor. */
  publishAtUs: sql<string>`(extract(epoch from ${newsPosts.publishAt}) * 1000000)::bigint::text`,
};

type PostRow = {
  id: number;
  title: string;
  body: string;
  categoryId: number | null;
  categoryName: string | null;
  authorId: number;
  authorName: string;
  audienceScope: 'school' | 'groups';
  pinned: boolean;
  publishAt: Date;
  endsAt: Date | null;
  unpublishedAt: Date | null;
  deletedAt: Date | null;
  deletedById: number | null;
  deletedByName: string | null;
  createdAt: Date;
  updatedAt: Date;
  publishAtUs: string;
};

function selectPosts(db: Queryable) {
  return db
    .select(POST_COLUMNS)
    .from(newsPosts)
    .innerJoin(users, eq(users.id, newsPosts.authorUserId))
    .leftJoin(newsCategories, eq(newsCategories.id, newsPosts.categoryId))
    .leftJoin(deleter, eq(deleter.id, newsPosts.deletedByUserId));
}

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

/** The rows as the contract's NewsPost, with their audience and files read in two queries for all of them. */
async function toPosts(db: Queryable, rows: PostRow[], reader: NewsReader, now: Date): Promise<NewsPost[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [groups, files] = await readTogether(db, [
    () =>
      db
        .select({
          postId: newsPostGroups.postId,
          levelId: newsPostGroups.levelId,
          courseId: newsPostGroups.courseId,
          levelName: levels.name,
          levelPosition: levels.position,
          courseName: courses.name,
        })
        .from(newsPostGroups)
        .leftJoin(levels, eq(levels.id, newsPostGroups.levelId))
        .leftJoin(courses, eq(courses.id, newsPostGroups.courseId))
        .where(inArray(newsPostGroups.postId, ids))
        .orderBy(asc(levels.position), asc(courses.name)),
    () =>
      db
        .select({
          id: messageAttachments.id,
          postId: messageAttachments.newsPostId,
          name: messageAttachments.name,
          size: messageAttachments.size,
          contentType: messageAttachments.contentType,
        })
        .from(messageAttachments)
        .where(inArray(messageAttachments.newsPostId, ids))
        .orderBy(asc(messageAttachments.id)),
  ]);
  const staff = reader.kind === 'staff';
  return rows.map((r) => {
    const own = groups.filter((g) => g.postId === r.id);
    const levelIds = own.flatMap((g) => (g.levelId === null ? [] : [g.levelId]));
    const courseIds = own.flatMap((g) => (g.courseId === null ? [] : [g.courseId]));
    const names = [
      ...own.flatMap((g) => (g.levelId !== null && g.levelName ? [g.levelName] : [])),
      ...own.flatMap((g) => (g.courseId !== null && g.courseName ? [g.courseName] : [])),
    ];
    const attachments: NewsAttachment[] = files
      .filter((f) => f.postId === r.id)
      .map((f) => ({
        id: f.id,
        name: f.name,
        size: f.size,
        content_type: f.contentType,
        url: staff ? MESSAGES_API.attachment(f.id) : GUARDIAN_WALL_API.attachment(r.id, f.id),
        is_image: NEWS_IMAGE_TYPES.has(f.contentType),
      }));
    const dates = {
      deleted_at: iso(r.deletedAt),
      unpublished_at: iso(r.unpublishedAt),
      publish_at: r.publishAt.toISOString(),
      ends_at: iso(r.endsAt),
    };
    return {
      id: r.id,
      title: r.title,
      body: r.body,
      category: r.categoryId !== null && r.categoryName !== null ? { id: r.categoryId, name: r.categoryName } : null,
      author: { id: r.authorId, name: r.authorName },
      audience: { scope: r.audienceScope, level_ids: levelIds, course_ids: courseIds },
      // A guardian is not told which other courses a post was for.
      audience_names: r.audienceScope === 'groups' && reader.kind === 'staff' ? names : [],
      status: newsStatus(dates, now.getTime()),
      pinned: r.pinned,
      publish_at: dates.publish_at,
      ends_at: dates.ends_at,
      attachments,
      created_at: r.createdAt.toISOString(),
      updated_at: r.updatedAt.toISOString(),
      deleted_at: staff ? dates.deleted_at : null,
      deleted_by: staff && r.deletedById !== null && r.deletedByName !== null ? { id: r.deletedById, name: r.deletedByName } : null,
      editable: staff && reader.manager,
    };
  });
}

// --- cursor ---------------------------------------------------------------------------------------------

/** Where a wall page ends: the last post's (pinned, publish_at in µs, id); the trash uses (deleted_at, id). */
export interface WallCursor {
  pinned: boolean;
  atUs: string;
  id: number;
}

function encodeWallCursor(c: WallCursor): string {
  return Buffer.from(`${c.pinned ? 1 : 0}:${c.atUs}:${c.id}`).toString('base64url');
}

export function decodeWallCursor(raw: string): WallCursor | null {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(raw)) return null;
  const match = /^([01]):(-?[0-9]{1,18}):([1-9][0-9]{0,9})$/.exec(Buffer.from(raw, 'base64url').toString());
  if (!match) return null;
  return { pinned: match[1] === '1', atUs: match[2]!, id: Number(match[3]) };
}

const fromUs = (us: string) => sql`(timestamptz 'epoch' + ${us}::bigint * interval '1 microsecond')`;

// --- guardian audience ------------------------------------------------------------------------------------

/**
 * Posts a guardian may read: the school's, or those for a level or course where one of their children is
 * enrolled now (not withdrawn, not erased). Null when the guardian has no such child (then only whole-school posts).
 */
async function guardianGroups(db: Queryable, guardianId: number, institutionId: number, now: Date) {
  const rows = await db
    .selectDistinct({ courseId: courses.id, levelId: courses.levelId })
    .from(studentGuardians)
    .innerJoin(students, eq(students.id, studentGuardians.studentId))
    .innerJoin(courses, eq(courses.id, students.courseId))
    .where(
      and(
        eq(studentGuardians.guardianId, guardianId),
        eq(students.institutionId, institutionId),
        or(isNull(students.withdrawnAt), gt(students.withdrawnAt, now)),
        // An erased child left the school as a withdrawn one did: their course's posts are no longer the family's.
        isNull(students.erasedAt),
      ),
    );
  return { courseIds: [...new Set(rows.map((r) => r.courseId))], levelIds: [...new Set(rows.map((r) => r.levelId))] };
}

function audienceFor(groups: { courseIds: number[]; levelIds: number[] }): SQL {
  const school = eq(newsPosts.audienceScope, 'school');
  if (groups.courseIds.length === 0) return school;
  const ids = (list: number[]) => sql`${`{${list.join(',')}}`}::int[]`;
  // Aliased so that the outer post's id cannot be taken for a column of the subquery, whatever drizzle
  // renders it as.
  return or(
    school,
    sql`exists (select 1 from news_post_groups npg where npg.post_id = ${newsPosts.id}
      and (npg.course_id = any(${ids(groups.courseIds)}) or npg.level_id = any(${ids(groups.levelIds)})))`,
  )!;
}

/** What `reader` may see of the school's posts at `now` (managers with `all`: every status but the trash). */
async function visibleTo(db: Queryable, reader: NewsReader, all: boolean, now: Date): Promise<SQL> {
  const school = eq(newsPosts.institutionId, reader.institutionId);
  if (reader.kind === 'guardian') {
    return and(school, liveAt(now), audienceFor(await guardianGroups(db, reader.guardianId, reader.institutionId, now)))!;
  }
  return and(school, all && reader.manager ? isNull(newsPosts.deletedAt) : liveAt(now))!;
}

// --- the wall ---------------------------------------------------------------------------------------------

export interface WallQuery {
  categoryId: number | null;
  q: string;
  all: boolean;
  limit: number;
  cursor: WallCursor | null;
}

export interface WallPage {
  items: NewsPost[];
  nextCursor: string | null;
  total: number;
}

const WALL_ORDER = [desc(newsPosts.pinned), desc(newsPosts.publishAt), desc(newsPosts.id)];

/** One page of the wall: pinned first, then newest `publish_at`, then newest id. */
export async function listWall(db: Queryable, reader: NewsReader, query: WallQuery, now: Date): Promise<WallPage> {
  const conditions: SQL[] = [await visibleTo(db, reader, query.all, now)];
  if (query.categoryId !== null) conditions.push(eq(newsPosts.categoryId, query.categoryId));
  const needle = fold(query.q.trim());
  if (needle !== '') conditions.push(sql`${newsPosts.search} like ${`%${escapeLike(needle)}%`}`);
  const where = and(...conditions)!;
  const c = query.cursor;
  const after = c
    ? sql`(${newsPosts.pinned}, ${newsPosts.publishAt}, ${newsPosts.id}) < (${c.pinned}, ${fromUs(c.atUs)}, ${c.id})`
    : undefined;
  const [rows, [count]] = await readTogether(db, [
    () =>
      selectPosts(db)
        .where(and(where, after))
        .orderBy(...WALL_ORDER)
        .limit(query.limit + 1),
    () => db.select({ n: sql<number>`count(*)::int` }).from(newsPosts).where(where),
  ]);
  const page = rows.slice(0, query.limit) as PostRow[];
  const last = page.at(-1);
  return {
    items: await toPosts(db, page, reader, now),
    nextCursor: rows.length > query.limit && last ? encodeWallCursor({ pinned: last.pinned, atUs: last.publishAtUs, id: last.id }) : null,
    total: count?.n ?? 0,
  };
}

/**
 * The guardian app's numbered page of the wall: what any of `readers` may read (a session's guardian rows,
 * one per school of its phone), in one order.
 */
export async function guardianWallPage(
  db: Queryable,
  readers: readonly (NewsReader & { kind: 'guardian' })[],
  page: number,
  perPage: number,
  now: Date,
): Promise<{ items: NewsPost[]; total: number }> {
  const where = or(...(await Promise.all(readers.map((reader) => visibleTo(db, reader, false, now)))))!;
  const reader = readers[0]!;
  const [rows, [count]] = await readTogether(db, [
    () =>
      selectPosts(db)
        .where(where)
        .orderBy(...WALL_ORDER)
        .limit(perPage)
        .offset((page - 1) * perPage),
    () => db.select({ n: sql<number>`count(*)::int` }).from(newsPosts).where(where),
  ]);
  return { items: await toPosts(db, rows as PostRow[], reader, now), total: count?.n ?? 0 };
}

/**
 * One post as `reader` may see it: readers and guardians only on the wall, managers any not in the trash
 * (`trash: true`: only a trashed one). Null = 404.
 */
export async function findPost(db: Queryable, reader: NewsReader, id: number, now: Date, trash = false): Promise<NewsPost | null> {
  const where = trash
    ? and(eq(newsPosts.institutionId, reader.institutionId), isNotNull(newsPosts.deletedAt))
    : await visibleTo(db, reader, true, now);
  if (trash && !(reader.kind === 'staff' && reader.manager)) return null;
  const rows = await selectPosts(db)
    .where(and(where, eq(newsPosts.id, id)))
    .limit(1);
  const [post] = await toPosts(db, rows as PostRow[], reader, now);
  return post ?? null;
}

/** Any post of the school, trash included (after a write, to answer it). */
export async function readPost(db: Queryable, reader: NewsReader, id: number, now: Date): Promise<NewsPost | null> {
  const rows = await selectPosts(db)
    .where(and(eq(newsPosts.institutionId, reader.institutionId), eq(newsPosts.id, id)))
    .limit(1);
  const [post] = await toPosts(db, rows as PostRow[], reader, now);
  return post ?? null;
}

/** The trash, newest deleted first, cursor on (deleted_at, id). */
export async function listTrash(db: Queryable, reader: NewsReader, limit: number, cursor: WallCursor | null, now: Date): Promise<WallPage> {
  const where = and(eq(newsPosts.institutionId, reader.institutionId), isNotNull(newsPosts.deletedAt))!;
  const after = cursor ? sql`(${newsPosts.deletedAt}, ${newsPosts.id}) < (${fromUs(cursor.atUs)}, ${cursor.id})` : undefined;
  const [rows, [count]] = await readTogether(db, [
    () =>
      db
        .select({ ...POST_COLUMNS, deletedAtUs: sql<string>`(extract(epoch from ${newsPosts.deletedAt}) * 1000000)::bigint::text` })
        .from(newsPosts)
        .innerJoin(users, eq(users.id, newsPosts.authorUserId))
        .leftJoin(newsCategories, eq(newsCategories.id, newsPosts.categoryId))
        .leftJoin(deleter, eq(deleter.id, newsPosts.deletedByUserId))
        .where(and(where, after))
        .orderBy(desc(newsPosts.deletedAt), desc(newsPosts.id))
        .limit(limit + 1),
    () => db.select({ n: sql<number>`count(*)::int` }).from(newsPosts).where(where),
  ]);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    items: await toPosts(db, page as PostRow[], reader, now),
    nextCursor: rows.length > limit && last ? encodeWallCursor({ pinned: false, atUs: last.deletedAtUs, id: last.id }) : null,
    total: count?.n ?? 0,
  };
}

/**
 * Posts published in [from, to) (the week's instants in the school's zone) and out by now, not taken off or
 * trashed now. An older post still on the wall is not this week's news: the printout's dates stay inside its
 * heading's week. Pinned first, then newest.
 */
export async function weekPosts(db: Queryable, reader: NewsReader, from: Date, to: Date, now: Date): Promise<NewsPost[]> {
  const rows = await selectPosts(db)
    .where(
      and(
        eq(newsPosts.institutionId, reader.institutionId),
        isNull(newsPosts.deletedAt),
        isNull(newsPosts.unpublishedAt),
        gte(newsPosts.publishAt, from),
        lt(newsPosts.publishAt, to),
        // Nothing that is not out yet: a scheduled post of this week is not printed before it is published.
        lte(newsPosts.publishAt, now),
      ),
    )
    .orderBy(...WALL_ORDER)
    .limit(200);
  return toPosts(db, rows as PostRow[], reader, now);
}
