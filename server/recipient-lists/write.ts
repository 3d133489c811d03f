// The calls that change a list, each checking its body and returning an outcome the route maps to a status:
// create from the picker's selection, rename and share, add members from picks, remove one or the stale
// ones, trash (refused while a scheduled message picks the list), restore, delete forever. The route has
// already found the list for the user (`findList`): these take its id as theirs to change.
import { sql } from 'drizzle-orm';
import { MAX_PICKS, type RecipientPick } from '../../shared/compose-contract';
import { LIST_NAME_MAX, type RecipientListSummary } from '../../shared/recipient-lists-contract';
import { transactionRetrying, type Db } from '../db/client';
import { rowsOf } from '../db/sql';
import { inZone } from '../db/time';
import { type FieldErrors, hasFieldErrors } from '../http/field-errors';
import { checkPicks, parsePick, summarizeReach } from '../recipients/expand';
import { addPicks, removeMember, removeStale, touchList } from './members';
import { listSummary, nameTaken, scheduledUse, type ListScope } from './queries';
import { LIST_MESSAGES } from './texts';

export type ListChange = { kind: 'invalid'; errors: FieldErrors } | { kind: 'ok'; list: RecipientListSummary };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `name` of a body: trimmed, 1–80 characters; or its field error. */
function parseName(raw: unknown): { ok: true; name: string } | { ok: false; error: string } {
  const name = typeof raw === 'string' ? raw.trim().replace(/\s+/g, ' ') : '';
  if (name === '') return { ok: false, error: LIST_MESSAGES.name };
  if (name.length > LIST_NAME_MAX) return { ok: false, error: LIST_MESSAGES.nameLong };
  return { ok: true, name };
}

/** `picks` of a body: one or more well-formed picks, each id of this school, each list visible to the user. */
async function parsePicks(
  db: Db,
  scope: ListScope,
  raw: unknown,
): Promise<{ ok: true; picks: RecipientPick[] } | { ok: false; error: string }> {
  if (!Array.isArray(raw) || raw.length === 0) {
    return { ok: false, error: Array.isArray(raw) ? LIST_MESSAGES.picks : LIST_MESSAGES.picksInvalid };
  }
  if (raw.length > MAX_PICKS) return { ok: false, error: LIST_MESSAGES.picksMany };
  const picks = raw.map(parsePick);
  if (picks.some((p) => p === null)) return { ok: false, error: LIST_MESSAGES.picksInvalid };
  const checked = await checkPicks(db, scope, picks as RecipientPick[]);
  if (!checked.ok) return { ok: false, error: checked.message };
  return { ok: true, picks: picks as RecipientPick[] };
}

/** Whether picks that added nobody reach nobody at all (empty groups), rather than only people already in. */
const reachesNobody = async (db: Db, scope: ListScope, picks: RecipientPick[]) => (await summarizeReach(db, scope, picks)).recipients === 0;

/** Thrown inside the create transaction to undo a list that would have no members. */
class EmptyList extends Error {}

/** `POST /recipient-lists`: a new list of the user's with everyone the picks reach. */
export async function createList(db: Db, scope: ListScope, body: unknown): Promise<ListChange> {
  if (!isObject(body)) return { kind: 'invalid', errors: { name: [LIST_MESSAGES.name], picks: [LIST_MESSAGES.picks] } };
  const errors: FieldErrors = {};
  const name = parseName(body.name);
  if (!name.ok) errors.name = [name.error];
  else if (await nameTaken(db, scope, name.name, null)) errors.name = [LIST_MESSAGES.nameTaken];
  if (body.shared !== undefined && typeof body.shared !== 'boolean') errors.shared = [LIST_MESSAGES.shared];
  const picks = await parsePicks(db, scope, body.picks);
  if (!picks.ok) errors.picks = [picks.error];
  if (!name.ok || !picks.ok || hasFieldErrors(errors)) return { kind: 'invalid', errors };

  let id: number;
  try {
    id = await transactionRetrying(db, async (tx) => {
      const result = await tx.execute(sql`
        insert into recipient_lists (institution_id, owner_user_id, name, shared)
        values (${scope.institutionId}, ${scope.userId}, ${name.name}, ${body.shared === true}) returning id`);
      const listId = Number(rowsOf<{ id: number }>(result)[0]!.id);
      // The groups picked have nobody in them: no list (one expansion, not a dry run before the real one).
      if ((await addPicks(tx, scope, listId, picks.picks)) === 0) throw new EmptyList();
      return listId;
    });
  } catch (error) {
    if (error instanceof EmptyList) return { kind: 'invalid', errors: { picks: [LIST_MESSAGES.picksEmpty] } };
    throw error;
  }
  return { kind: 'ok', list: (await listSummary(db, scope, id, 'owned'))! };
}

/** `PATCH /recipient-lists/:id`: a new name, sharing on or off, or both. */
export async function changeList(db: Db, scope: ListScope, id: number, body: unknown): Promise<ListChange> {
  if (!isObject(body) || (body.name === undefined && body.shared === undefined)) {
    return { kind: 'invalid', errors: { name: [LIST_MESSAGES.nothing] } };
  }
  const errors: FieldErrors = {};
  let name: string | undefined;
  if (body.name !== undefined) {
    const parsed = parseName(body.name);
    if (!parsed.ok) errors.name = [parsed.error];
    else if (await nameTaken(db, scope, parsed.name, id)) errors.name = [LIST_MESSAGES.nameTaken];
    else name = parsed.name;
  }
  if (body.shared !== undefined && typeof body.shared !== 'boolean') errors.shared = [LIST_MESSAGES.shared];
  if (hasFieldErrors(errors)) return { kind: 'invalid', errors };
  await db.execute(sql`
    update recipient_lists set updated_at = now()
      ${name === undefined ? sql`` : sql`, name = ${name}`}
      ${body.shared === undefined ? sql`` : sql`, shared = ${body.shared as boolean}`}
    where id = ${id}`);
  return { kind: 'ok', list: (await listSummary(db, scope, id, 'owned'))! };
}

export type ListTrashing = { kind: 'trashed' } | { kind: 'scheduled'; message: string; messageId: number | null };

/**
 * `DELETE /recipient-lists/:id`: to the trash, unless a scheduled message picks the list; the refusal names
 * that message as its school reads the time, and its id when it is the owner's own.
 */
export async function trashList(db: Db, scope: ListScope, id: number): Promise<ListTrashing> {
  const use = await scheduledUse(db, scope, id);
  if (use) {
    const message = LIST_MESSAGES.scheduled(use.title, inZone(use.scheduledAt, use.timezone), use.byOwner ? null : use.authorName);
    return { kind: 'scheduled', message, messageId: use.messageId };
  }
  await db.execute(sql`
    update recipient_lists set deleted_at = now(), deleted_by_user_id = ${scope.userId}
    where id = ${id} and deleted_at is null`);
  return { kind: 'trashed' };
}

/** `POST /recipient-lists/:id/restore`: out of the trash, as it was. */
export async function restoreList(db: Db, scope: ListScope, id: number): Promise<RecipientListSummary> {
  await db.execute(sql`update recipient_lists set deleted_at = null, deleted_by_user_id = null where id = ${id}`);
  return (await listSummary(db, scope, id, 'owned'))!;
}

/** `DELETE /recipient-lists/:id/forever`: only a list in the trash. */
export async function deleteListForever(db: Db, id: number): Promise<void> {
  await db.execute(sql`delete from recipient_lists where id = ${id} and deleted_at is not null`);
}

/**
 * `POST /recipient-lists/:id/members`: everyone the picks reach who is not in the list yet. Nobody new is
 * fine when they were all in the list already; picks of empty groups are a mistake to say.
 */
export async function addMembers(db: Db, scope: ListScope, id: number, body: unknown): Promise<ListChange> {
  const picks = await parsePicks(db, scope, isObject(body) ? body.picks : undefined);
  if (!picks.ok) return { kind: 'invalid', errors: { picks: [picks.error] } };
  const added = await transactionRetrying(db, async (tx) => {
    const n = await addPicks(tx, scope, id, picks.picks);
    if (n > 0) await touchList(tx, id);
    return n;
  });
  if (added === 0 && (await reachesNobody(db, scope, picks.picks))) {
    return { kind: 'invalid', errors: { picks: [LIST_MESSAGES.picksEmpty] } };
  }
  return { kind: 'ok', list: (await listSummary(db, scope, id, 'owned'))! };
}

/** `POST /recipient-lists/:id/members/remove-stale`: how many stale members went. */
export function removeStaleMembers(db: Db, id: number): Promise<number> {
  return transactionRetrying(db, async (tx) => {
    const n = await removeStale(tx, id);
    if (n > 0) await touchList(tx, id);
    return n;
  });
}

/** `DELETE /recipient-lists/:id/members/:memberId`: whether the member was in the list. */
export function removeListMember(db: Db, id: number, memberId: number): Promise<boolean> {
  return transactionRetrying(db, async (tx) => {
    const ok = await removeMember(tx, id, memberId);
    if (ok) await touchList(tx, id);
    return ok;
  });
}
