// The news wall: a school's categories and posts, and who each post is for. Files of a post are
// rows of message_attachments with `news_post_id` set (same upload rules and store as messages).
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './auth';
import { createdAt, id, institutionId } from './institutions';
import { courses, levels } from './school';

/** `name_key` is the folded name (shared/fold.ts): no two categories of a school look alike. */
export const newsCategories = pgTable(
  'news_categories',
  {
    id: id(),
    institutionId: institutionId(),
    name: text('name').notNull(),
    nameKey: text('name_key').notNull(),
    position: smallint('position').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('news_categories_name_idx').on(t.institutionId, t.nameKey),
    index('news_categories_position_idx').on(t.institutionId, t.position),
  ],
);

/**
 * One post. Its status is derived (shared/news-contract.ts NewsStatus): `deleted_at` set = trash,
 * `unpublished_at` set = taken off, `publish_at` future = scheduled, `ends_at` past = ended, else on the
 * wall. `audience_scope` is `school` or `groups` (then news_post_groups lists the levels/courses).
 * `search` is the folded title + body, as messages.search.
 */
export const newsPosts = pgTable(
  'news_posts',
  {
    id: id(),
    institutionId: institutionId(),
    authorUserId: integer('author_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    categoryId: integer('category_id').references(() => newsCategories.id, { onDelete: 'restrict' }),
    title: text('title').notNull(),
    body: text('body').notNull(),
    search: text('search').notNull(),
    audienceScope: text('audience_scope', { enum: ['school', 'groups'] }).notNull(),
    pinned: boolean('pinned').notNull().default(false),
    publishAt: timestamp('publish_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    unpublishedAt: timestamp('unpublished_at', { withTimezone: true }),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    deletedByUserId: integer('deleted_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // The wall: a school's live posts, pinned first then newest (NULLS FIRST as a plain DESC sort).
    index('news_posts_wall_idx')
      .on(t.institutionId, t.pinned.desc().nullsFirst(), t.publishAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.deletedAt} is null`),
    index('news_posts_trash_idx').on(t.institutionId, t.deletedAt.desc()).where(sql`${t.deletedAt} is not null`),
    index('news_posts_category_idx').on(t.categoryId),
    check('news_posts_audience_check', sql`${t.audienceScope} in ('school', 'groups')`),
    check('news_posts_ends_check', sql`${t.endsAt} is null or ${t.endsAt} > ${t.publishAt}`),
  ],
);

/** The levels and courses a `groups` post is for: exactly one of the two per row. */
export const newsPostGroups = pgTable(
  'news_post_groups',
  {
    postId: integer('post_id')
      .notNull()
      .references(() => newsPosts.id, { onDelete: 'cascade' }),
    levelId: integer('level_id').references(() => levels.id, { onDelete: 'cascade' }),
    courseId: integer('course_id').references(() => courses.id, { onDelete: 'cascade' }),
  },
  (t) => [
    index('news_post_groups_post_idx').on(t.postId),
    index('news_post_groups_course_idx').on(t.courseId),
    index('news_post_groups_level_idx').on(t.levelId),
    check('news_post_groups_one_check', sql`(${t.levelId} is null) <> (${t.courseId} is null)`),
  ],
);
