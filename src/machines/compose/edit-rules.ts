// What the author's edits do to the compose form, pure: the fields an edit changes (typing, channels,
// chips, options, schedule, a template's text) and what any edit drops (the field's error, the estimate,
// the send's key). The form and its checks are compose/rules.ts; the compose machine (compose/compose.ts) applies
// these to its context.
import { TITLE_MAX_LENGTH, type RecipientPick } from '../../../shared/compose-contract';
import type { ChannelCode } from '../../../shared/codes';
import { pickKey } from '../../../shared/recipient-index';
import type { ComposeErrors, ComposeField, ComposeForm } from './rules';

/** Any edit: the field's error goes, the estimate is stale, and the next send is a new message. */
export function edited(current: { errors: ComposeErrors }, ...fields: ComposeField[]) {
  const errors = { ...current.errors };
  for (const field of [...fields, 'quota' as const, 'reach' as const]) delete errors[field];
  return { errors, estimate: null, idempotencyKey: null };
}

/** What the author types, ticks and picks in the form itself. */
export type FormEdit =
  | { type: 'compose.change'; field: 'title' | 'content'; value: string }
  | { type: 'compose.toggleChannel'; code: ChannelCode }
  /** A chip's remove button. */
  | { type: 'compose.removeRecipient'; pick: RecipientPick }
  | { type: 'compose.toggleOption'; option: 'allowReplies' | 'copyToSender' }
  /** The "Emergencia" mark: offered while the school sends SMS (compose/quota-rules.ts). */
  | { type: 'compose.toggleEmergency' }
  | { type: 'compose.setSchedule'; date: string; time: string }
  | { type: 'compose.clearSchedule' }
  /** Appends a template's text to the content (`template.apply` replaces it instead). */
  | { type: 'template.insert'; content: string }
  /** A template chosen in the template picker (compose/template-picker.ts): it replaces the title and the content. */
  | { type: 'template.apply'; title: string; content: string };

/** The form after `edit` (the fields it changes, and what any edit drops). */
export function applyEdit(form: ComposeForm & { errors: ComposeErrors }, edit: FormEdit): Partial<ComposeForm> & ReturnType<typeof edited> {
  switch (edit.type) {
    case 'compose.change':
      return { ...(edit.field === 'title' ? { title: edit.value } : { content: edit.value }), ...edited(form, edit.field) };
    case 'template.insert':
      return { content: form.content === '' ? edit.content : `${form.content}\n${edit.content}`, ...edited(form, 'content') };
    case 'template.apply':
      return { title: edit.title.slice(0, TITLE_MAX_LENGTH), content: edit.content, ...edited(form, 'title', 'content') };
    case 'compose.toggleChannel': {
      const on = form.channels.includes(edit.code);
      // Kept in the contract's order whatever the click order.
      const available = form.setup?.availableChannels ?? [];
      const channels = available.filter((code) => (code === edit.code ? !on : form.channels.includes(code)));
      return { channels, ...edited(form, 'channels', 'content', 'attachments') };
    }
    case 'compose.removeRecipient': {
      const key = pickKey(edit.pick);
      return { recipients: form.recipients.filter((pick) => pickKey(pick) !== key), ...edited(form, 'recipients') };
    }
    case 'compose.toggleOption':
      return {
        ...(edit.option === 'allowReplies' ? { allowReplies: !form.allowReplies } : { copyToSender: !form.copyToSender }),
        ...edited(form),
      };
    case 'compose.toggleEmergency':
      // The quota problem may change with it (the reserve), so the estimate is stale like after any edit.
      return { emergency: !form.emergency, ...edited(form) };
    case 'compose.setSchedule':
      // Both inputs emptied is no schedule at all.
      return { schedule: edit.date === '' && edit.time === '' ? null : { date: edit.date, time: edit.time }, ...edited(form, 'schedule') };
    case 'compose.clearSchedule':
      return { schedule: null, ...edited(form, 'schedule') };
  }
}
