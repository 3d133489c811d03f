// /recipient-list/:id's pure rules: the rename's own check and its draft across reloads, what a removed
// member or a saved person changes in the rows, reading a 409 "used by a scheduled message", and the ids
// focus moves to. Apart from the machine (recipient-lists/recipient-list.ts) so views and tests use them alone.
import {
  LIST_NAME_MAX,
  type RecipientListMember,
  type RecipientListSummary,
  type UserToEdit,
} from '../../../shared/recipient-lists-contract';
import type { ApiFailure } from '../../services/http/client';

/** A delete refused (409 `list.scheduled`): the server's text naming the message, and its id when given. */
export interface ScheduledConflict {
  text: string;
  messageId: number | null;
}

export const DELETE_BUTTON_ID = 'recipient-list-delete';
export const RENAME_FIELD_ID = 'recipient-list-rename';
export const memberEditButtonId = (memberId: number) => `member-edit-${memberId}`;

/** The rename's own check: a name (≤ 80), other than the current one. */
export function renameError(name: string): string | null {
  const trimmed = name.trim();
  if (!trimmed) return 'recipientLists.error.nameRequired';
  if (trimmed.length > LIST_NAME_MAX) return 'recipientLists.error.nameTooLong';
  return null;
}

/** A rename worth sending: a valid name that is not the list's name already. */
export const isRenameChange = (draft: string, current: string): boolean => renameError(draft) === null && draft.trim() !== current;

/**
 * The rename field's text once the list is read again (loaded, refreshed, renamed): a field left as the old
 * name (or already holding the new one) follows the list's name; anything else the user typed stays.
 */
export function nameDraftAfter(draft: string, before: string | null, after: string): string {
  const typed = draft.trim();
  return before === null || typed === before || typed === after ? after : draft;
}

/** One member removed: the rows without it, and the list's counts one less (its stale count too if it was stale). */
export function withoutMember(list: RecipientListSummary | null, members: RecipientListMember[], memberId: number | null) {
  const gone = members.find((member) => member.id === memberId);
  return {
    members: members.filter((member) => member.id !== memberId),
    list: list && {
      ...list,
      users_count: Math.max(0, list.users_count - 1),
      stale_count: Math.max(0, list.stale_count - (gone?.stale ? 1 : 0)),
    },
  };
}

/** The person's record changed everywhere: every row of that person shows the saved name, e-mail and phone. */
export const withEditedUser = (members: RecipientListMember[], user: UserToEdit): RecipientListMember[] =>
  members.map((member) =>
    member.user_id === user.id && member.user_type === user.user_type
      ? { ...member, name: user.name, email: user.email, phone: user.fono_celular, dni: user.dni }
      : member,
  );

/** A 409 `list.scheduled`: the message's text (`errors.list`) and, when the server names it, its id (`errors.message_id`). */
export function conflictOf(failure: ApiFailure): ScheduledConflict | null {
  if (failure.status !== 409) return null;
  const id = Number(failure.fieldErrors.message_id?.[0]);
  return { text: failure.fieldErrors.list?.[0] ?? failure.message, messageId: Number.isInteger(id) && id > 0 ? id : null };
}
