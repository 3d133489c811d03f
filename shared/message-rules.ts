// The message lifecycle rules of messages-contract.ts as one pure table, shared by the machines' guards
// and (later) the server's 409 `message.illegal_transition` check. No imports beyond the contract types.
import type { Folder, MessageKind } from './codes';

export type MessageAction = 'save' | 'schedule' | 'send' | 'cancelSchedule' | 'read' | 'delete' | 'restore' | 'purge';

export const MESSAGE_ACTIONS: readonly MessageAction[] = [
  'save',
  'schedule',
  'send',
  'cancelSchedule',
  'read',
  'delete',
  'restore',
  'purge',
];

/**
 * Which kinds each action may start from:
 * - a draft is edited (save), scheduled or sent; a scheduled message goes back to draft (cancel schedule)
 * - draft, scheduled, sent and received move to trash (delete); trash restores or purges
 * - only a received message is marked read (idempotent)
 */
const ALLOWED: Record<MessageAction, readonly MessageKind[]> = {
  save: ['draft'],
  schedule: ['draft'],
  send: ['draft'],
  cancelSchedule: ['scheduled'],
  read: ['received'],
  delete: ['draft', 'scheduled', 'sent', 'received'],
  restore: ['deleted'],
  purge: ['deleted'],
};

export function canTransition(kind: MessageKind, action: MessageAction): boolean {
  return ALLOWED[action].includes(kind);
}

/** The folder a message of this (not deleted) kind is listed in. */
export function folderOfKind(kind: Exclude<MessageKind, 'deleted'>): Folder {
  return kind === 'received' ? 'inbox' : kind;
}

/** The kind a message returns to when restored from trash to `folder`. */
export function kindOfFolder(folder: Exclude<Folder, 'trash'>): Exclude<MessageKind, 'deleted'> {
  return folder === 'inbox' ? 'received' : folder;
}
