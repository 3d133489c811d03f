import { fold } from '../../shared/fold';
import type { MailboxEntryRow } from './rows';

/** A sent message in its author's Enviados, as a send files it: `label` names whom it went to. */
export function sentEntry(userId: number, institutionId: number, messageId: number, at: Date, label: string): MailboxEntryRow {
  return {
    userId,
    institutionId,
    messageId,
    folder: 'sent',
    deletedFrom: null,
    deletedAt: null,
    readAt: null,
    sortAt: at,
    counterpart: label,
    counterpartSearch: fold(label),
  };
}
