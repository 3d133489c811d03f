// /recipient-list/:id's pure rules: the rename's own check, reading a 409 "used by a scheduled message",
// and the ids focus moves to. Apart from the machine (recipient-list.ts) so views and tests use them alone.
import { LIST_NAME_MAX } from '../../shared/recipient-lists-contract';
import { toApiFailure } from '../services/http';

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

/** A 409 `list.scheduled`: the message's text (`errors.list`) and, when the server names it, its id (`errors.message_id`). */
export function conflictOf(error: unknown): ScheduledConflict | null {
  const failure = toApiFailure(error);
  if (failure.status !== 409) return null;
  const id = Number(failure.fieldErrors.message_id?.[0]);
  return { text: failure.fieldErrors.list?.[0] ?? failure.message, messageId: Number.isInteger(id) && id > 0 ? id : null };
}
