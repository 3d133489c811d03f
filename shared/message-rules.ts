// The message lifecycle rules of messages-contract.ts as one pure table, shared by the machines' guards
// and (later) the server's 409 `message.illegal_transition` check; and who may be answered, and how a reply
// starts, and how a guardian is named. No imports beyond the contracts and folding.
import type { ChannelCode, Folder, MessageKind, PersonKind } from './codes';
import { fold } from './fold';
import { TITLE_MAX_LENGTH, type RecipientPick } from './compose-contract';
import type { Person } from './messages-contract';

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

// --- replies ---------------------------------------------------------------------------------------------

/**
 * Whether staff may answer a message they see as `kind`: what reached their inbox from a guardian or a
 * student, always (a justificativo, a guardian's answer from the app); from a colleague, only when the
 * colleague allowed replies. The reading view offers "Responder" by it; send, estimate and drafts refuse
 * a `reply_to_id` it refuses.
 */
export function canReply(kind: MessageKind, senderKind: PersonKind, allowReplies: boolean): boolean {
  return kind === 'received' && (senderKind !== 'funcionario' || allowReplies);
}

/** The sender of a message as the pick a reply is addressed to (a guardian, a student, a colleague). */
export function senderPick(sender: Person): RecipientPick {
  const label = { label: sender.name };
  if (sender.kind === 'apoderado') return { kind: 'guardian', id: sender.id, ...label };
  if (sender.kind === 'estudiante') return { kind: 'student', id: sender.id, audience: 'estudiantes', ...label };
  return { kind: 'staff', id: sender.id, ...label };
}

const REPLY_PREFIX = /^\s*re\s*:/i;

/** "Re: <title>", without stacking ("Re: Re: …") and within the title's limit. */
export function replyTitle(title: string): string {
  return (REPLY_PREFIX.test(title) ? title.trim() : `Re: ${title.trim()}`).slice(0, TITLE_MAX_LENGTH);
}

/**
 * The channels a reply starts with, among `available` (the user's) and `reaching` (those on which the
 * person has an address): the ones the original came by (`receivedBy`: a guardian who wrote in the app is
 * answered in the app), else any that reach them. Of those, the app and e-mail, which cost nothing; otherwise
 * the first phone channel (SMS before WhatsApp), so one answer is one notification, not four.
 */
export function replyChannels(
  receivedBy: readonly ChannelCode[],
  reaching: readonly ChannelCode[],
  available: readonly ChannelCode[],
): ChannelCode[] {
  const usable = available.filter((code) => reaching.includes(code));
  const same = usable.filter((code) => receivedBy.includes(code));
  const candidates = same.length > 0 ? same : usable;
  const free = candidates.filter((code) => code === 'app-mobile' || code === 'e-mail');
  return free.length > 0 ? free : candidates.slice(0, 1);
}

/** Relationships that name a woman (as schools register them: «Madre», «Abuela», «Tía»…), folded. */
const FEMININE_RELATIONSHIPS = new Set([
  'madre',
  'mama',
  'abuela',
  'tia',
  'hermana',
  'madrastra',
  'tutora',
  'apoderada',
  'prima',
  'madrina',
]);

/** Whether a guardian registered with this relationship is named in the feminine ("Apoderada de …"). */
export function isFeminineRelationship(relationship: string): boolean {
  return FEMININE_RELATIONSHIPS.has(fold(relationship.trim()));
}
