// What views read of the compose machine (compose/compose.ts): one primitive each, or a context reference that
// only changes with its value. Flags come from states and tags; the children from the snapshot.
import type { Estimate, RecipientPick, Recipients } from '../../../shared/compose-contract';
import type { ChannelCode } from '../../../shared/codes';
import type { CountedField, MergedSmsText } from '../../../shared/merge-fields';
import { serverMessage } from '../../services/http/client';
import type { AttachmentListActor } from './attachment-list';
import type { MessageKey } from '../../i18n';
import type { ComposeSnapshot } from './compose';
import { countedSms } from './merge-rules';
import { memoPerOwner } from '../app/memo';
import { reachedBy } from './outcome-rules';
import { canMarkEmergency, percentLeft, reserveNote } from './quota-rules';
import { activeSignature, signatureActive, timezoneOf, type AttachmentEntry, type ComposeField, type FieldError } from './rules';
import type { PickerActor } from './recipient-picker';

export const selectIsLoading = (snapshot: ComposeSnapshot): boolean => snapshot.matches('loading');
export const selectLoadFailed = (snapshot: ComposeSnapshot): boolean => snapshot.matches('loadFailed');
export const selectIsEditing = (snapshot: ComposeSnapshot): boolean => snapshot.matches({ form: 'editing' });
export const selectIsSavingDraft = (snapshot: ComposeSnapshot): boolean => snapshot.matches({ form: 'savingDraft' });
export const selectIsEstimating = (snapshot: ComposeSnapshot): boolean => snapshot.matches('estimating');
/** The estimate is shown and waits for compose.confirm / compose.cancel. */
export const selectIsConfirming = (snapshot: ComposeSnapshot): boolean => snapshot.matches('confirming');
export const selectIsSending = (snapshot: ComposeSnapshot): boolean => snapshot.matches('sending');
export const selectIsScheduling = (snapshot: ComposeSnapshot): boolean => snapshot.matches('scheduling');
export const selectHasFailed = (snapshot: ComposeSnapshot): boolean => snapshot.matches({ form: 'failed' });
export const selectIsSent = (snapshot: ComposeSnapshot): boolean => snapshot.matches('sent');
/** "¿Guardar los cambios antes de salir?" is asked (a navigation waits for the answer). */
export const selectIsAskingToLeave = (snapshot: ComposeSnapshot): boolean => snapshot.matches({ form: 'leaving' });
/** The draft is being saved on the way out. */
export const selectIsSavingToLeave = (snapshot: ComposeSnapshot): boolean =>
  snapshot.matches({ form: 'leaving' }) && snapshot.hasTag('busy');
/** A server call for the whole form is running: buttons disabled. */
export const selectIsBusy = (snapshot: ComposeSnapshot): boolean => snapshot.hasTag('busy');
/** The message is being checked, sent or scheduled: the main button shows it. */
export const selectIsSubmitting = (snapshot: ComposeSnapshot): boolean => snapshot.hasTag('submitting');
/** Inputs are read-only while the message is being checked and sent. */
export const selectIsLocked = (snapshot: ComposeSnapshot): boolean => !snapshot.matches('form');

export const selectDraftId = (snapshot: ComposeSnapshot): number | null => snapshot.context.draftId;
export const selectReplyToId = (snapshot: ComposeSnapshot): number | null => snapshot.context.replyToId;
export const selectTitle = (snapshot: ComposeSnapshot): string => snapshot.context.title;
export const selectContent = (snapshot: ComposeSnapshot): string => snapshot.context.content;
export const selectChannels = (snapshot: ComposeSnapshot): ChannelCode[] => snapshot.context.channels;
export const selectHasChannel = (snapshot: ComposeSnapshot, code: ChannelCode): boolean => snapshot.context.channels.includes(code);
const NO_CHANNELS: ChannelCode[] = [];
export const selectAvailableChannels = (snapshot: ComposeSnapshot): ChannelCode[] =>
  snapshot.context.setup?.availableChannels ?? NO_CHANNELS;
/** Whether the sender may send this message by SMS (the school offers it and the sender is allowed it). */
export const selectIsSmsOffered = (snapshot: ComposeSnapshot): boolean => selectAvailableChannels(snapshot).includes('sms');
export const selectRecipients = (snapshot: ComposeSnapshot): RecipientPick[] => snapshot.context.recipients;
export const selectAllowReplies = (snapshot: ComposeSnapshot): boolean => snapshot.context.allowReplies;
export const selectCopyToSender = (snapshot: ComposeSnapshot): boolean => snapshot.context.copyToSender;
export const selectScheduleDate = (snapshot: ComposeSnapshot): string => snapshot.context.schedule?.date ?? '';
export const selectScheduleTime = (snapshot: ComposeSnapshot): string => snapshot.context.schedule?.time ?? '';
export const selectHasSchedule = (snapshot: ComposeSnapshot): boolean => snapshot.context.schedule !== null;
/** The institution's time zone (IANA name): schedule inputs are on its wall clock. */
export const selectTimezone = (snapshot: ComposeSnapshot): string => timezoneOf(snapshot.context);
export const selectSignatureActive = (snapshot: ComposeSnapshot): boolean => signatureActive(snapshot.context);
/** The active signature's text, or null. */
export const selectSignature = (snapshot: ComposeSnapshot): string | null => activeSignature(snapshot.context);

/** The counter, remembered per compose actor: its picker (spawned once per visit), or its context before there is one. */
const smsTextOf = memoPerOwner(
  (_owner: object, content: string, signature: string | null, recipients: Recipients | null, picks: RecipientPick[]) =>
    countedSms(content, signature, recipients, picks),
);
/**
 * The live SMS counter, counted as validation and delivery count: merge fields at their longest value
 * among the picked recipients (compose/merge-rules.ts), from the picker's data. The same object while
 * content, signature, picks and the picker's data are unchanged.
 */
const selectSmsText = (snapshot: ComposeSnapshot): MergedSmsText => {
  const picker = snapshot.children.picker;
  const recipients = picker?.getSnapshot().context.recipients ?? null;
  return smsTextOf(
    picker ?? snapshot.context,
    snapshot.context.content,
    activeSignature(snapshot.context),
    recipients,
    snapshot.context.recipients,
  );
};
/** The merge fields the content uses, each with the longest value it was counted at (same array while unchanged). */
export const selectSmsFields = (snapshot: ComposeSnapshot): CountedField[] => selectSmsText(snapshot).fields;
export const selectSmsUnits = (snapshot: ComposeSnapshot): number => selectSmsText(snapshot).units;
export const selectSmsLimit = (snapshot: ComposeSnapshot): number => selectSmsText(snapshot).limit;
export const selectSmsOk = (snapshot: ComposeSnapshot): boolean => selectSmsText(snapshot).ok;
/** Characters SMS cannot carry, space-separated ('' when none). */
export const selectSmsUnsupported = (snapshot: ComposeSnapshot): string => selectSmsText(snapshot).unsupported.join(' ');

export const selectError = (snapshot: ComposeSnapshot, field: ComposeField): FieldError | undefined => snapshot.context.errors[field];
export const selectHasError = (snapshot: ComposeSnapshot, field: ComposeField): boolean => snapshot.context.errors[field] !== undefined;

/** The attachments as the list last reported them (key, size, status, what is on the server). */
export const selectAttachments = (snapshot: ComposeSnapshot): AttachmentEntry[] => snapshot.context.attachments;

export const selectEstimate = (snapshot: ComposeSnapshot): Estimate | null => snapshot.context.estimate;
/** People the last estimate says will get the message (an address on a chosen channel); null before one. */
export const selectReachedCount = (snapshot: ComposeSnapshot): number | null =>
  snapshot.context.estimate ? reachedBy(snapshot.context.estimate) : null;
/** People of the last estimate no chosen channel reaches (0 before one). */
export const selectUnreachableCount = (snapshot: ComposeSnapshot): number => snapshot.context.estimate?.unreachable ?? 0;
/** «Enviar» / «Programar» is offered: the machine takes it now (not while busy, not when nobody would get it). */
export const selectCanSend = (snapshot: ComposeSnapshot): boolean => snapshot.can({ type: 'compose.send' });
export const selectCanSchedule = (snapshot: ComposeSnapshot): boolean => snapshot.can({ type: 'compose.schedule' });
/** SMS this message uses per the last estimate (null before one, or without SMS). */
export const selectSmsTotal = (snapshot: ComposeSnapshot): number | null => snapshot.context.estimate?.sms?.total ?? null;
/** SMS left this month: the estimate's figure when there is one, the quota's otherwise. */
export const selectSmsRemaining = (snapshot: ComposeSnapshot): number | null =>
  snapshot.context.estimate?.sms?.remaining ?? snapshot.context.setup?.quota.sms.remaining ?? null;
export const selectSmsMonthlyLimit = (snapshot: ComposeSnapshot): number | null => snapshot.context.setup?.quota.sms.limit ?? null;
/**
 * The month (YYYY-MM) the estimate's SMS figures are of when it is not this one (a message scheduled for
 * another month is counted against that month's limit), so the line names it; null otherwise.
 */
export const selectSmsOtherMonth = (snapshot: ComposeSnapshot): string | null => {
  const month = snapshot.context.estimate?.sms?.month;
  return month && month !== snapshot.context.setup?.quota.month ? month : null;
};
/** The "Emergencia" mark: whether it is on, and whether the form offers it. */
export const selectEmergency = (snapshot: ComposeSnapshot): boolean => snapshot.context.emergency;
export const selectOffersEmergency = (snapshot: ComposeSnapshot): boolean => canMarkEmergency(snapshot.context);
/** SMS of this month's limit kept for emergencies: the estimate's figure when there is one, the quota's otherwise. */
export const selectSmsReserved = (snapshot: ComposeSnapshot): number =>
  snapshot.context.estimate?.sms?.reserved ?? snapshot.context.setup?.quota.sms.reserved ?? 0;
/** What the SMS lines add about the reserve (compose/quota-rules.ts `reserveNote`), or null. */
export const selectReserveNote = (snapshot: ComposeSnapshot): MessageKey | null => {
  const remaining = selectSmsRemaining(snapshot);
  return remaining === null ? null : reserveNote(remaining, selectSmsReserved(snapshot), snapshot.context.emergency);
};
/** The low-quota alert of `GET /quota` (the banner is for the admin roles; the view asks the session). */
export const selectSmsLow = (snapshot: ComposeSnapshot): boolean => snapshot.context.setup?.quota.sms.low === true;
/** The month's SMS left and the share of the limit it is, as `GET /quota` said when compose opened. */
export const selectQuotaSmsRemaining = (snapshot: ComposeSnapshot): number => snapshot.context.setup?.quota.sms.remaining ?? 0;
export const selectQuotaPercentLeft = (snapshot: ComposeSnapshot): number =>
  snapshot.context.setup ? percentLeft(snapshot.context.setup.quota.sms) : 0;
/** What the server said about the last failure (Spanish), or null when it said nothing a user should read. */
export const selectFailureMessage = (snapshot: ComposeSnapshot): string | null =>
  snapshot.context.failure ? serverMessage(snapshot.context.failure) : null;

// --- the children (spawned once the form is shown; the same reference for the whole visit) -------------

/** The recipient picker (null before the form is shown). */
export const selectPicker = (snapshot: ComposeSnapshot): PickerActor | null => snapshot.children.picker ?? null;
/** The attachment list (null before the form is shown). */
export const selectAttachmentList = (snapshot: ComposeSnapshot): AttachmentListActor | null => snapshot.children.attachments ?? null;
