// A school's news categories (shared/news-contract.ts NewsCategory): listed by position with how many posts
// use each (the trash included), created last, renamed, reordered as a whole, deleted only when no post
// uses them. Names are unique per school once folded (shared/fold.ts): "Eventos" and "eventos" clash.
import { and, asc, count, eq, inArray, isNotNull, ne, sql } from 'drizzle-orm';
import type { NewsCategory } from '../../shared/news-contract';
import { categoryNameError } from '../../shared/news-rules';
import { fold } from '../../shared/fold';
import { isId } from '../http/params';
import { isUniqueViolation, readTogether, type Db, type Queryable } from '../db/client';
import { newsCategories, newsPosts } from '../db/schema/news';
import type { FieldErrors } from '../http/field-errors';

export const CATEGORY_MESSAGES = {
  name: 'El nombre debe ser un texto.',
  ids: 'Envía cada categoría del colegio exactamente una vez, en el orden nuevo.',
} as const;

/** The school's categories by position, each with its post count. */
export async function listCategories(db: Queryable, institutionId: number): Promise<NewsCategory[]> {
  const [rows, counts] = await readTogether(db, [
    () =>
      db
        .select({ id: newsCategories.id, name: newsCategories.name })
        .from(newsCategories)
        .where(eq(newsCategories.institutionId, institutionId))
        .orderBy(asc(newsCategories.position), asc(newsCategories.id)),
    () =>
      db
        .select({ id: newsPosts.categoryId, n: count() })
        .from(newsPosts)
        .where(and(eq(newsPosts.institutionId, institutionId), isNotNull(newsPosts.categoryId)))
        .groupBy(newsPosts.categoryId),
  ]);
  const used = new Map(counts.map((c) => [c.id, c.n]));
  return rows.map((r, i) => ({ id: r.id, name: r.name, position: i + 1, post_count: used.get(r.id) ?? 0 }));
}

async function one(db: Queryable, institutionId: number, id: number): Promise<NewsCategory | null> {
  return (await listCategories(db, institutionId)).find((c) => c.id === id) ?? null;
}

/** Locks one category of the school for a change; false when it is not the school's. */
async function lockCategory(db: Queryable, institutionId: number, id: number): Promise<boolean> {
  const rows = await db
    .select({ id: newsCategories.id })
    .from(newsCategories)
    .where(and(eq(newsCategories.id, id), eq(newsCategories.institutionId, institutionId)))
    .for('update');
  return rows.length > 0;
}

/** The body's `name`, or a 422 error. */
export function readName(body: unknown): { ok: true; name: string } | { ok: false; errors: FieldErrors } {
  const name = (body as { name?: unknown } | null)?.name;
  if (name !== undefined && typeof name !== 'string') return { ok: false, errors: { name: [CATEGORY_MESSAGES.name] } };
  return { ok: true, name: name ?? '' };
}

async function taken(db: Queryable, institutionId: number, key: string, except: number | null): Promise<boolean> {
  const rows = await db
    .select({ id: newsCategories.id })
    .from(newsCategories)
    .where(
      and(
        eq(newsCategories.institutionId, institutionId),
        eq(newsCategories.nameKey, key),
        except === null ? undefined : ne(newsCategories.id, except),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

export type CategoryOutcome = { kind: 'ok'; category: NewsCategory } | { kind: 'invalid'; errors: FieldErrors } | { kind: 'not_found' };

/** Creates (`id` null, at the last position) or renames a category. */
export async function saveCategory(db: Db, institutionId: number, id: number | null, rawName: string): Promise<CategoryOutcome> {
  const name = rawName.trim();
  const key = fold(name);
  const invalidName = (message: string): CategoryOutcome => ({ kind: 'invalid', errors: { name: [message] } });
  try {
    return await db.transaction(async (tx) => {
      if (id !== null && !(await lockCategory(tx, institutionId, id))) return { kind: 'not_found' as const };
      const error = categoryNameError(name, name !== '' && (await taken(tx, institutionId, key, id)));
      if (error) return invalidName(error);
      let savedId = id;
      if (id === null) {
        const [last] = await tx
          .select({ n: sql<number>`coalesce(max(${newsCategories.position}), 0)::int` })
          .from(newsCategories)
          .where(eq(newsCategories.institutionId, institutionId));
        const [row] = await tx
          .insert(newsCategories)
          .values({ institutionId, name, nameKey: key, position: (last?.n ?? 0) + 1 })
          .returning({ id: newsCategories.id });
        savedId = row!.id;
      } else {
        await tx.update(newsCategories).set({ name, nameKey: key }).where(eq(newsCategories.id, id));
      }
      return { kind: 'ok' as const, category: (await one(tx, institutionId, savedId!))! };
    });
  } catch (err) {
    // Two managers naming a category alike at once: the unique index decides, the loser hears why.
    if (isUniqueViolation(err)) return invalidName(categoryNameError(name, true)!);
    throw err;
  }
}

/** Sets the order: `ids` must be every category of the school exactly once (else 422; a foreign id is 404). */
export async function orderCategories(
  db: Db,
  institutionId: number,
  raw: unknown,
): Promise<{ kind: 'ok'; categories: NewsCategory[] } | { kind: 'invalid'; errors: FieldErrors } | { kind: 'not_found' }> {
  const ids = (raw as { ids?: unknown } | null)?.ids;
  const invalid = { kind: 'invalid' as const, errors: { ids: [CATEGORY_MESSAGES.ids] } };
  if (!Array.isArray(ids) || !ids.every(isId)) return invalid;
  return db.transaction(async (tx) => {
    const rows = await tx
      .select({ id: newsCategories.id })
      .from(newsCategories)
      .where(eq(newsCategories.institutionId, institutionId))
      .for('update');
    const mine = new Set(rows.map((r) => r.id));
    if (ids.some((id) => !mine.has(id))) return { kind: 'not_found' as const };
    if (new Set(ids).size !== ids.length || ids.length !== mine.size) return invalid;
    // One statement: positions are not unique, but a single UPDATE keeps the order consistent for readers.
    if (ids.length > 0) {
      await tx
        .update(newsCategories)
        .set({ position: sql`array_position(${sql`${`{${ids.join(',')}}`}::int[]`}, ${newsCategories.id})` })
        .where(and(eq(newsCategories.institutionId, institutionId), inArray(newsCategories.id, ids)));
    }
    return { kind: 'ok' as const, categories: await listCategories(tx, institutionId) };
  });
}

/** Deletes an unused category; `in_use` with how many posts (the trash included) hold it. */
export async function deleteCategory(
  db: Db,
  institutionId: number,
  id: number,
): Promise<{ kind: 'deleted' } | { kind: 'not_found' } | { kind: 'in_use'; posts: number }> {
  return db.transaction(async (tx) => {
    if (!(await lockCategory(tx, institutionId, id))) return { kind: 'not_found' as const };
    const [used] = await tx.select({ n: count() }).from(newsPosts).where(eq(newsPosts.categoryId, id));
    if ((used?.n ?? 0) > 0) return { kind: 'in_use' as const, posts: used!.n };
    await tx.delete(newsCategories).where(eq(newsCategories.id, id));
    return { kind: 'deleted' as const };
  });
}
