// Which form a compose start restores (a new message, a reply, a draft, or the browser's backup of any of
// them), and the fingerprint of what the server has for it, pure. The compose machine runs them once
// its start is loaded (its `restore` action); the form's own rules are compose/rules.ts.
import type { ChannelCode } from '../../../shared/codes';
import type { ComposeDraft } from '../../../shared/compose-contract';
import { replyChannels } from '../../../shared/message-rules';
import type { AttachmentSummary } from '../../../shared/messages-contract';
import type { ComposeSetup, ComposeStart, ReplyStart } from '../../services/compose/compose';
import { utcToZoned } from '../../../shared/zoned-time';
import { EMPTY_FORM, formFingerprint, type AttachmentEntry } from './rules';

/** The form a start restores: the backup when it is newer than the draft (or there is no draft). */
export function restoredForm(start: ComposeStart, draftId: number | null) {
  const { setup: loaded, draft, backup } = start;
  const keep = (channels: ChannelCode[]) => channels.filter((code) => loaded.availableChannels.includes(code));
  const backupWins =
    backup !== null &&
    (draft === null || backup.savedAt > Date.parse(draft.updated_at)) &&
    (draftId === null || backup.draftId === draftId);
  if (backupWins) {
    return {
      // A backup written before the "Emergencia" mark existed has none.
      form: { ...backup, channels: keep(backup.channels), emergency: backup.emergency ?? false },
      attachments: backup.attachments,
      draftId: draftId ?? backup.draftId,
      replyTo: null,
    };
  }
  if (draft) return { form: draftForm(draft, loaded, keep), attachments: draft.attachments, draftId: draft.id, replyTo: draft.reply_to_id };
  const reply = start.reply ? replyForm(start.reply, loaded.availableChannels) : {};
  const list = start.list ? { recipients: [start.list] } : {};
  return { form: { ...EMPTY_FORM, ...list, ...reply }, attachments: [] as AttachmentSummary[], draftId, replyTo: null };
}

/**
 * A new reply: "Re: <title>" to whoever sent the original, by the channel they wrote by when it reaches them
 * (message-rules.ts `replyChannels`), the original quoted under a blank line to write in, and replies allowed so the family or
 * colleague can answer back. By SMS alone it starts empty: one segment carries the answer, not a quote.
 */
function replyForm(reply: ReplyStart, available: readonly ChannelCode[]) {
  const channels = replyChannels(reply.receivedBy, reply.channels, available);
  return {
    title: reply.title,
    recipients: reply.pick ? [reply.pick] : [],
    channels,
    content: channels.includes('sms') ? '' : `\n\n${reply.quote}`,
    allowReplies: true,
  };
}

/** The fingerprint of what the server has for this start (the draft, or nothing yet): the form without its backup. */
export function savedFingerprintOf(start: ComposeStart, draftId: number | null): string {
  const { form, attachments } = restoredForm({ ...start, backup: null }, draftId);
  const entries = attachments.map(
    (attachment): AttachmentEntry => ({ key: `saved-${attachment.id}`, size: attachment.size, status: 'uploaded', attachment }),
  );
  return formFingerprint({ setup: start.setup, draftId, ...form, attachments: entries });
}

function draftForm(draft: ComposeDraft, loaded: ComposeSetup, keep: (channels: ChannelCode[]) => ChannelCode[]) {
  const schedule = draft.scheduled_at ? utcToZoned(draft.scheduled_at, loaded.quota.timezone) : null;
  return {
    title: draft.title,
    content: draft.content,
    channels: keep(draft.channels),
    recipients: draft.recipients,
    allowReplies: draft.allow_replies,
    copyToSender: draft.copy_to_sender,
    emergency: draft.emergency,
    schedule,
  };
}
