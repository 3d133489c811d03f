// The compose machine as one (compose/compose.ts): its actions and guards, the submission states, the
// draft-saving and leave-asking states and the restored start (compose/start-rules.ts) run in every path.
import {
  assign,
  createActor,
  emit,
  fromPromise,
  sendTo,
  setup,
  type AnyActorRef,
  type AnyEventObject,
  type AnyMachineSnapshot,
  type StateValue,
} from 'xstate';
import { describe, expect, it } from 'vitest';
import { composeMachine, type ComposeSnapshot } from '../../src/machines/compose/compose';
import { PROBLEM_KEYS, TOAST_KEYS } from '../../src/machines/compose/outcome-rules';
import { composeErrors, ERROR_KEYS, formFingerprint, type AttachmentEntry } from '../../src/machines/compose/rules';
import {
  selectAttachmentList,
  selectAttachments,
  selectAvailableChannels,
  selectCanSchedule,
  selectCanSend,
  selectChannels,
  selectContent,
  selectError,
  selectHasFailed,
  selectIsAskingToLeave,
  selectIsBusy,
  selectIsConfirming,
  selectIsEditing,
  selectIsLoading,
  selectIsSavingDraft,
  selectIsSavingToLeave,
  selectIsSent,
  selectIsSubmitting,
  selectLoadFailed,
  selectPicker,
  selectReachedCount,
  selectSignature,
  selectSmsLimit,
  selectSmsOk,
  selectTitle,
} from '../../src/machines/compose/selectors';
import { selectPeopleCount, selectPeopleExact } from '../../src/machines/compose/recipient-picker-selectors';
import type { ComposeStart } from '../../src/services/compose/compose';
import { loadComposeBackup, saveComposeBackup, type ComposeBackup } from '../../src/services/compose/backup';
import type { ComposeDraft, Estimate, RecipientPick } from '../../shared/compose-contract';
import type { AttachmentSummary } from '../../shared/messages-contract';
import { smsText } from '../../shared/sms-text';
import { defineModelTests, send, settle, T0, type Delivery, type Fakes, type StepEnv } from './harness';
import { composeWithRealChildren, deletes, uploads } from './doubles';
import { failure } from './fixtures';
import { composeBackup, composeDraft, composeSetup, estimate, sendResult } from '../fixtures/compose';
import { attachmentSummary } from '../fixtures/messages';
import { thirdGrade } from '../fixtures/recipients';
import { installMemoryStorage } from './memory-storage';

// --- a localStorage for node (the backup goes through the real service helpers) ----------------------
const store = installMemoryStorage();

const cs = (snapshot: AnyMachineSnapshot) => snapshot as unknown as ComposeSnapshot;
const MB = 1024 * 1024;
const BACKUP_KEY = 'compose:7:new';

// --- fixtures ---------------------------------------------------------------------------------------

/** App, e-mail and SMS offered; signature «CSA»; 90 of 100 SMS left. */
const SETUP = composeSetup();
const PICK: RecipientPick = { kind: 'course', id: 10, audience: 'apoderados', label: '3° Básico A' };
const SUM_A = attachmentSummary(41, { size: MB });
const SUM_B = attachmentSummary(42, { size: 2 * MB });

/** A valid form backed up a second ago, draft 5's. */
const backup = (over: Partial<ComposeBackup>): ComposeBackup =>
  composeBackup({ recipients: [PICK], attachments: [SUM_A], draftId: 5, savedAt: T0 - 1000, ...over });

/** Starts (loader outputs). Each has its own draft id, so a vertex knows which baseline it edits. */
const START_EMPTY: ComposeStart = { setup: SETUP, draft: null, backup: null, reply: null };
const START_VALID: ComposeStart = { setup: SETUP, draft: null, backup: backup({}), reply: null };
const START_BIG: ComposeStart = {
  setup: SETUP,
  draft: null,
  backup: backup({ draftId: 6, attachments: [attachmentSummary(43, { size: 12 * MB }), attachmentSummary(44, { size: 12 * MB })] }),
  reply: null,
};
const DRAFT = composeDraft(7, {
  title: 'Borrador',
  content: 'Texto del borrador',
  channels: ['sms', 'whatsapp'],
  recipients: [PICK],
  allow_replies: true,
  scheduled_at: '2030-01-01T13:00:00.000Z',
  updated_at: new Date(T0).toISOString(),
});
/** The backup is older than the draft: the draft wins (and whatsapp, not available, is dropped). */
const START_DRAFT: ComposeStart = {
  setup: SETUP,
  draft: DRAFT,
  backup: backup({ draftId: 7, title: 'Viejo', savedAt: T0 - 60_000 }),
  reply: null,
};
const STARTS = [START_EMPTY, START_VALID, START_BIG, START_DRAFT];
const draftIdOf = (start: ComposeStart) => (start.draft ? start.draft.id : (start.backup?.draftId ?? null));

/** 30 people, two of them without an e-mail address; 30 SMS with 20 left (over quota, when it says so). */
const estimateOf = (problems: Estimate['problems']): Estimate =>
  estimate(30, {
    channels: [{ code: 'e-mail', deliveries: 30, missing_address: 2, opted_out: 0, blocked: 0 }],
    sms: { segments_per_message: 1, total: 30, remaining: 20, limit: 100, reserved: 0, month: '2026-03' },
    problems,
  });
const ESTIMATE_OK = estimateOf([]);
const ESTIMATE_QUOTA = estimateOf(['sms.quota_exceeded']);
/** 30 people, none with an address on the chosen channel: nothing to send. */
const ESTIMATE_NOBODY = estimate(30, {
  unreachable: 30,
  channels: [{ code: 'e-mail', deliveries: 0, missing_address: 30, opted_out: 0, blocked: 0 }],
});
/** Handed over; 2 of the 30 have no address on any of its channels. */
const SENT = sendResult(900, { recipients: 30, deliveries: 30, unreachable: 2 });
const SCHEDULED = sendResult(901, { kind: 'scheduled', recipients: 30, deliveries: 30 });
const SAVED: ComposeDraft = { ...DRAFT, id: 55 };
const INVALID = failure(422, 'validation.failed', 'Datos inválidos', {
  title: ['El título es obligatorio.'],
  scheduled_at: ['Debe ser futura.'],
});
const QUOTA = failure(409, 'compose.quota', 'Cupo insuficiente', { quota: ['sms.insufficient'] });
const SERVER_DOWN = failure(500, 'server.error', 'Error del servidor');

const FILE_B = new File([new Uint8Array(2 * MB)], 'doc-42.pdf', { type: 'application/pdf' });
const FILE_HUGE = new File([new Uint8Array(23 * MB)], 'video.pdf', { type: 'application/pdf' });
const FILE_EXE = new File(['MZ'], 'virus.exe', { type: 'application/octet-stream' });
const EMOJI = 'Hola 😀';
const LONG_SMS = 'a'.repeat(155);

// --- events -----------------------------------------------------------------------------------------

const EDITS: AnyEventObject[] = [
  { type: 'compose.change', field: 'title', value: '' },
  { type: 'compose.change', field: 'title', value: 't'.repeat(201) },
  { type: 'compose.change', field: 'content', value: '' },
  { type: 'compose.change', field: 'content', value: 'c'.repeat(20_001) },
  { type: 'compose.change', field: 'content', value: EMOJI },
  { type: 'compose.change', field: 'content', value: LONG_SMS },
  { type: 'compose.toggleChannel', code: 'sms' },
  { type: 'compose.toggleChannel', code: 'e-mail' },
  { type: 'compose.toggleChannel', code: 'whatsapp' },
  // The picks confirmed in the picker's dialog (it reports them to compose).
  { type: 'picker.confirmed', picks: [] },
  { type: 'compose.removeRecipient', pick: PICK },
  { type: 'picker.confirmed', picks: Array.from({ length: 2001 }, (_, n) => ({ kind: 'staff', id: n + 1 })) },
  { type: 'compose.toggleOption', option: 'allowReplies' },
  { type: 'compose.toggleOption', option: 'copyToSender' },
  // The "Emergencia" mark: may spend the SMS reserve; offered while the school sends SMS.
  { type: 'compose.toggleEmergency' },
  { type: 'compose.setSchedule', date: '2030-01-01', time: '10:00' },
  { type: 'compose.setSchedule', date: '2020-01-01', time: '10:00' },
  { type: 'compose.setSchedule', date: '2030-02-30', time: '10:00' },
  { type: 'compose.clearSchedule' },
  { type: 'template.insert', content: 'Texto de plantilla' },
  // A template chosen in the picker (after its question when the form had text): title and content replaced.
  { type: 'template.apply', title: 'Reunión de apoderados', content: 'Hola {apoderado}: {estudiante} tiene reunión.' },
  // `name` only tells the events apart in the graph (a File serializes to {}).
  { type: 'attachment.add', files: [FILE_B], name: FILE_B.name },
  { type: 'attachment.add', files: [FILE_HUGE], name: FILE_HUGE.name },
  { type: 'attachment.add', files: [FILE_EXE], name: FILE_EXE.name },
  { type: 'attachment.remove', key: 'attachment-1' },
  { type: 'attachment.remove', key: 'attachment-2' },
  { type: 'attachment.retry', key: 'attachment-2' },
];
const EDIT_TYPES = new Set([
  'compose.change',
  'compose.toggleChannel',
  'picker.confirmed',
  'compose.removeRecipient',
  'compose.toggleOption',
  'compose.toggleEmergency',
  'compose.setSchedule',
  'compose.clearSchedule',
  'template.insert',
  'template.apply',
  'attachment.add',
  'attachment.remove',
  'attachment.retry',
]);
const COMMANDS: AnyEventObject[] = [
  // "Usar plantilla": compose opens its template picker, saying whether the form has text to replace.
  { type: 'template.open' },
  { type: 'compose.send' },
  { type: 'compose.schedule' },
  { type: 'compose.save' },
  { type: 'compose.retry' },
  { type: 'compose.confirm' },
  { type: 'compose.cancel' },
];
/** The app asks before a link (and, while asking, the browser's Back pressed again); then the author's answers. */
const LEAVE_LINK = { type: 'page.leave', to: '/draft' };
const LEAVE_BACK = { type: 'page.leave', to: '/inbox', back: true };
const ANSWERS: AnyEventObject[] = [{ type: 'compose.saveAndLeave' }, { type: 'compose.discard' }, { type: 'compose.stay' }];
const LEAVING: AnyEventObject[] = [LEAVE_LINK, LEAVE_BACK, ...ANSWERS];
const ATTACHMENT_COMMANDS = new Set(['attachment.add', 'attachment.remove', 'attachment.retry']);

/**
 * What the attachment list can report for START_VALID's files (draft 5): the reopened one (`attachment-1`)
 * and FILE_B once added (`attachment-2`), each in every state the list can hold it. Which one is offered
 * where is `listReports` below; the list's own model test covers how it gets there.
 */
const A1: AttachmentEntry = { key: 'attachment-1', size: SUM_A.size, status: 'uploaded', attachment: SUM_A };
const A2: AttachmentEntry = { key: 'attachment-2', size: FILE_B.size, status: 'uploading', attachment: null };
const A1_STATES: (AttachmentEntry | null)[] = [A1, { ...A1, status: 'removing' }, null];
const A2_STATES: (AttachmentEntry | null)[] = [null, A2, { ...A2, status: 'uploaded', attachment: SUM_B }, { ...A2, status: 'failed' }];
const REPORTS: AnyEventObject[] = A1_STATES.flatMap((a1) =>
  A2_STATES.map((a2) => {
    const entries = [a1, a2].filter((entry): entry is AttachmentEntry => entry !== null);
    // `label` only makes path titles readable.
    return {
      type: 'attachments.changed',
      label: entries.map((entry) => `${entry.key.slice(-1)}:${entry.status}`).join(' ') || 'none',
      entries,
    };
  }),
);
/** What the list's failed upload emits; compose passes it on. */
const UPLOAD_TOAST = { type: 'toast', kind: 'error', key: 'compose.attachment.uploadFailed' };

const IO = ['loadCompose', 'estimate', 'sendMessage', 'scheduleMessage', 'saveDraft'];

// --- bounding the graph -----------------------------------------------------------------------------

interface Ctx {
  draftId: number | null;
  title: string;
  content: string;
  channels: string[];
  recipients: unknown[];
  allowReplies: boolean;
  copyToSender: boolean;
  emergency: boolean;
  schedule: { date: string; time: string } | null;
  attachments: { key: string; status: string; size: number }[];
  intent: string;
  setup: unknown;
  backupKey: string;
  savedForm: string;
  leaving: { to: string; back?: boolean } | null;
}

const formOf = (c: Ctx) => ({
  title: c.title,
  content: c.content,
  channels: c.channels,
  recipients: c.recipients.length,
  options: [c.allowReplies, c.copyToSender, c.emergency],
  schedule: c.schedule,
  attachments: c.attachments.map((entry) => `${entry.key}:${entry.status}`),
});

/** The form a start restores, as `formOf` sees it. */
function baselineOf(start: ComposeStart) {
  const actor = createActor(composeMachine.provide({ actors: { fetchComposeStart: fromPromise(async () => start), ...STAND_INS } }), {
    input: { draftId: null, replyToId: null, backupKey: 'baseline' },
  });
  actor.start();
  return actor;
}
const BASELINES = new Map<number | null, ReturnType<typeof formOf>>();

/** How many parts of the form differ from the start it came from. */
function distance(c: Ctx): number {
  const base = BASELINES.get(c.draftId);
  if (!base) return 99;
  const now = formOf(c);
  return (Object.keys(now) as (keyof typeof now)[]).filter((key) => JSON.stringify(now[key]) !== JSON.stringify(base[key])).length;
}

/** Second edits that make a rule fail together with the first one (SMS content, SMS attachments). */
function secondEditAllowed(c: Ctx, event: AnyEventObject): boolean {
  const sms = c.channels.includes('sms');
  if (event.type === 'compose.change' && event.field === 'content') return sms && (event.value === EMOJI || event.value === LONG_SMS);
  if (event.type === 'compose.toggleChannel') return event.code === 'sms' && c.attachments.length === 2;
  if (event.type === 'attachment.add') return sms && event.files[0] === FILE_B;
  if (event.type === 'attachment.retry') return c.attachments.some((entry) => entry.key === 'attachment-2' && entry.status === 'failed');
  // Removing a file still uploading, or one that failed: nothing on the server, the child just stops.
  if (event.type === 'attachment.remove')
    return event.key === 'attachment-2' && c.attachments.some((entry) => entry.key === 'attachment-2' && entry.status !== 'uploaded');
  return false;
}

/**
 * The paths are bounded by what is offered where (everything else is the same few transitions again):
 * - START_VALID's form is edited once by every edit, and twice only where two edits make one rule
 *   fail together (SMS content, SMS + a second attachment, an upload to retry);
 * - a send/schedule is tried from a start's own form, or from an edited form the rules refuse;
 * - saving, failing and retrying happen from the starts' own forms.
 */
function offered(snapshot: AnyMachineSnapshot, event: AnyEventObject): boolean {
  const c = snapshot.context as Ctx & { errors: object; failure: unknown };
  const entry = (key: string) => c.attachments.find((candidate) => candidate.key === key);
  if (event.type === 'xstate.done.actor.sendMessage') return event.output === SENT;
  if (event.type === 'xstate.done.actor.scheduleMessage') return event.output === SCHEDULED;
  // The list reports only what it can have done from the entries compose knows (START_VALID's files).
  if (event.type === 'attachments.changed') {
    return c.draftId === 5 && listReports(snapshot).some((entries) => JSON.stringify(entries) === JSON.stringify(event.entries));
  }
  // The list's toasts pass through compose whatever it is doing; once is enough.
  if (event.type === 'effect.relay') return c.draftId === 5 && snapshot.matches({ form: 'editing' }) && distance(c) === 0;
  if (event.type.startsWith('xstate.')) return true;
  if (LEAVING.includes(event)) return leaveOffered(snapshot, event);
  // While asked, the dialog is all there is (modal): only its answers and a second request reach compose.
  if (snapshot.matches({ form: 'leaving' })) return false;
  const titleCleared = event.type === 'compose.change' && event.field === 'title' && event.value === '';
  const answer = event.type === 'compose.confirm' || event.type === 'compose.cancel';
  // The estimate waits for the author; a double click on "Enviar" there changes nothing.
  if (snapshot.matches('confirming')) return answer || event.type === 'compose.send';
  if (answer) return false;
  // "Usar plantilla" from each start's own form (empty, or with text), and once typed in the empty one.
  if (event.type === 'template.open') return snapshot.matches({ form: 'editing' }) && distance(c) <= (c.draftId === null ? 1 : 0);
  if (!snapshot.matches('form')) {
    // Busy or not loaded: an edit and the double click (a second send) change nothing.
    return event.type === 'compose.send' || event.type === 'compose.retry' || titleCleared;
  }
  const d = distance(c);
  const refused = (intent: 'send' | 'schedule') => Object.keys(composeErrors(c as never, intent, Date.now())).length > 0;
  // Nobody would get it: «Enviar» and «Programar» are not taken; after an edit they are offered again.
  if (snapshot.matches({ form: 'editing' }) && 'reach' in c.errors) {
    return (
      event.type === 'compose.send' ||
      event.type === 'compose.schedule' ||
      (event.type === 'compose.toggleOption' && event.option === 'allowReplies')
    );
  }
  if (snapshot.matches({ form: 'editing' }) && Object.keys(c.errors).length > 0 && c.draftId !== null) return false;
  if (EDIT_TYPES.has(event.type)) {
    if (c.draftId === null) return (event.type === 'template.insert' || event.type === 'template.apply') && c.content === '';
    // After a failure or while saving: one edit that breaks a rule, one that keeps the message valid.
    const repliesToggled = event.type === 'compose.toggleOption' && event.option === 'allowReplies';
    if (!snapshot.matches({ form: 'editing' }))
      return (titleCleared || (repliesToggled && snapshot.matches({ form: 'failed' }))) && d === 0;
    // Over the 22 MB total already (restored), one more file is refused at once.
    if (c.draftId === 6) return d === 0 && event.type === 'attachment.add' && event.name === FILE_B.name;
    if (c.draftId !== 5) return false;
    if (event.type === 'attachment.remove' || event.type === 'attachment.retry') {
      if (!entry(event.key)) return false;
    }
    if (d === 0) return true;
    if (d === 1) return secondEditAllowed(c, event);
    return false;
  }
  if (event.type === 'compose.save') return d === 0 && (c.draftId === null || c.draftId === 5);
  if (event.type === 'compose.send' || event.type === 'compose.schedule') {
    const intent = event.type === 'compose.send' ? 'send' : 'schedule';
    // From a failure, a changed message is a new send (a fresh key).
    return d === 0 || c.draftId === null || (d <= 2 && refused(intent)) || (snapshot.matches({ form: 'failed' }) && d === 1);
  }
  return true;
}

/** Whether the form differs from what the server has (an oracle: the fields compose keeps, compared). */
const unsaved = (c: Ctx) => formFingerprint(c as never) !== c.savedForm;

/**
 * Leaving is asked for from every start's own form (clean: the empty one and the reopened draft; unsaved:
 * the restored backups) and from START_EMPTY once typed in; a second request (Back) and the answers while
 * asked. Saving on the way out is tried from START_EMPTY and START_VALID (the only ones `compose.save` takes).
 */
function leaveOffered(snapshot: AnyMachineSnapshot, event: AnyEventObject): boolean {
  const c = snapshot.context as Ctx & { errors: object; intent: string };
  const d = distance(c);
  if (snapshot.matches({ form: 'leaving' })) {
    // Back pressed again is tried once, while asked; saving on the way out where a save is tried at all.
    if (event === LEAVE_BACK) return snapshot.matches({ form: { leaving: 'asking' } }) && c.leaving?.back !== true;
    return event !== LEAVE_LINK && (event.type !== 'compose.saveAndLeave' || c.draftId === null || c.draftId === 5);
  }
  if (event !== LEAVE_LINK || c.leaving !== null) return false;
  // From each kind of place once: a form refused by the rules, a schedule and a failed reload are the same question.
  if (Object.keys(c.errors).length > 0 || c.intent !== 'send') return false;
  return c.draftId === 5 ? d === 0 : d <= 1;
}

/** The file refused when added to this form, or null (SPEC §9, an oracle independent of compose-rules). */
function refusalOf(c: Ctx, file: File): string | null {
  const live = c.attachments.filter((entry) => entry.status !== 'removing');
  return file === FILE_EXE
    ? ERROR_KEYS.attachmentType
    : file === FILE_HUGE
      ? ERROR_KEYS.attachmentTooLarge
      : live.reduce((sum, entry) => sum + entry.size, 0) + file.size > 22 * MB
        ? ERROR_KEYS.attachmentsTooLarge
        : c.channels.includes('sms') && live.length >= 1
          ? ERROR_KEYS.smsOneAttachment
          : null;
}

/**
 * What the list may report next, from the entries compose knows: an upload or a delete settling (any
 * time), or its answer to a command compose forwards (offered where that command is offered).
 */
function listReports(snapshot: AnyMachineSnapshot): AttachmentEntry[][] {
  const entries = (snapshot.context as Ctx).attachments as AttachmentEntry[];
  const replace = (key: string, next: AttachmentEntry | null) =>
    entries.flatMap((entry) => (entry.key !== key ? [entry] : next ? [next] : []));
  const asked = (type: string, key: string) => offered(snapshot, { type, key });
  const reports: AttachmentEntry[][] = [];
  for (const entry of entries) {
    if (entry.status === 'uploading')
      reports.push(
        replace(entry.key, { ...entry, status: 'uploaded', attachment: SUM_B }),
        replace(entry.key, { ...entry, status: 'failed' }),
      );
    if (entry.status === 'removing') reports.push(replace(entry.key, null), replace(entry.key, { ...entry, status: 'uploaded' }));
    if (entry.status === 'uploaded' && asked('attachment.remove', entry.key))
      reports.push(replace(entry.key, { ...entry, status: 'removing' }));
    if ((entry.status === 'uploading' || entry.status === 'failed') && asked('attachment.remove', entry.key))
      reports.push(replace(entry.key, null));
    if (entry.status === 'failed' && asked('attachment.retry', entry.key))
      reports.push(replace(entry.key, { ...entry, status: 'uploading' }));
  }
  const added = { type: 'attachment.add', files: [FILE_B], name: FILE_B.name };
  if (!entries.some((entry) => entry.key === A2.key) && offered(snapshot, added) && refusalOf(snapshot.context as Ctx, FILE_B) === null)
    reports.push([...entries, A2]);
  return reports;
}

// --- where each step goes ----------------------------------------------------------------------------

/**
 * What a draft of this form would hold, field by field (the leaving decision's "unsaved"): the texts, the
 * channels, the picks, the options, the schedule and the files not being removed (by their server id, or
 * as themselves while still uploading). Labels are not part of a pick.
 */
function printOf(
  c: Pick<Ctx, 'title' | 'content' | 'channels' | 'allowReplies' | 'copyToSender' | 'emergency' | 'schedule'> & {
    recipients: readonly unknown[];
    attachments: readonly { key: string; status: string; attachment?: { id: number } | null }[];
  },
): string {
  const picks = (c.recipients as RecipientPick[]).map((pick) => `${pick.kind}-${pick.id}-${'audience' in pick ? pick.audience : ''}`);
  const files = c.attachments.filter((entry) => entry.status !== 'removing').map((entry) => entry.attachment?.id ?? entry.key);
  return JSON.stringify([c.title, c.content, c.channels, picks, c.allowReplies, c.copyToSender, c.schedule, files, c.emergency]);
}
/** A new message before anything is typed: empty, replies allowed (a family can answer unless told not to). */
const NOTHING = {
  title: '',
  content: '',
  channels: [],
  recipients: [],
  allowReplies: true,
  copyToSender: false,
  emergency: false,
  schedule: null,
  attachments: [],
};
/** Draft 7 as the server has it: whatsapp, which this school does not offer, is not part of it; 13:00Z is 10:00 in Santiago. */
const DRAFT_AS_SAVED = {
  title: 'Borrador',
  content: 'Texto del borrador',
  channels: ['sms'],
  recipients: [PICK],
  allowReplies: true,
  copyToSender: false,
  emergency: false,
  schedule: { date: '2030-01-01', time: '10:00' },
  attachments: [],
};

/**
 * The test's own memory of the path being run: what the server has of this form (a reopened draft, or for
 * a new message how it started: nothing; then what each finished save sent), what the running save sends,
 * and which call failed last.
 */
let serverHas = printOf(NOTHING);
let saving: string | null = null;
let failedCall: 'estimate' | 'send' | null = null;

/** Something typed would be lost by leaving now. */
const unsavedNow = (c: Parameters<typeof printOf>[0]) => printOf(c) !== serverHas;

/** The last estimate of this very form found nobody its channels reach (decision: refuse a send that reaches nobody). */
const reachedNobody = (estimated: Estimate | null) => estimated !== null && estimated.recipients - estimated.unreachable <= 0;

/** The server refused the fields (send's rules, a 422), or the quota ran out since the estimate. */
const refusedFields = (error: unknown) => (error as { status?: number }).status === 422;
const quotaRanOut = (error: unknown) => (error as { code?: string }).code === 'compose.quota';

/** Enviar / Programar: not taken while the estimate found nobody; refused by the rules, the form says why. */
const attempt =
  (intent: 'send' | 'schedule', refused: 'stays' | 'form.editing') =>
  ({ context, stay }: { context: Ctx & { estimate: Estimate | null }; stay: StateValue }): StateValue => {
    if (reachedNobody(context.estimate)) return stay;
    if (passesRules(context, intent)) return 'estimating';
    return refused === 'stays' ? stay : refused;
  };

/** A navigation asked for: held with the question only when something would be lost. */
const askIfUnsaved = ({ context, stay }: { context: Ctx & Parameters<typeof printOf>[0]; stay: StateValue }): StateValue =>
  unsavedNow(context) ? 'form.leaving.asking' : stay;

// --- oracle -----------------------------------------------------------------------------------------

const toast = (kind: 'success' | 'warning' | 'error', key: string, params?: Record<string, string | number>) =>
  params ? { type: 'toast', kind, key, params } : { type: 'toast', kind, key };
const SMS_PARAMS = { total: 30, remaining: 20, limit: 100 };
const COUNTS = { type: 'counts.changed' };

/** The control of each field, in the order the form shows them: a refused send focuses the first invalid. */
const FOCUS_ORDER: [string, string][] = [
  ['title', 'compose-title'],
  ['recipients', 'compose-recipients'],
  ['channels', `compose-channel-${SETUP.availableChannels[0]}`],
  ['content', 'compose-content'],
  ['attachments', 'compose-attachments-input'],
  ['schedule', 'compose-schedule-date'],
];
const refusal = (to: AnyMachineSnapshot) => {
  const errors = to.context.errors as Record<string, unknown>;
  const [, target] = FOCUS_ORDER.find(([field]) => errors[field] !== undefined) ?? [];
  return [toast('error', TOAST_KEYS.review), ...(target ? [{ type: 'focus', target }] : [])];
};

/** The navigation held, let through: where it was going, a Back as a Back. */
const navigateTo = (from: AnyMachineSnapshot) => {
  const leaving = (from.context as Ctx).leaving as { to: string; back?: boolean };
  return { type: 'navigate', to: leaving.to, ...(leaving.back ? { back: true } : {}) };
};

function emits(env: StepEnv): AnyEventObject[] {
  const { event, from, to } = env;
  switch (event.type) {
    case 'compose.send':
    case 'compose.schedule':
      // Refused by the client rules: stays in the form (back to editing) with a toast, the focus on the
      // first field to fix. Not taken at all once the estimate found nobody the channels reach.
      if ('reach' in from.context.errors) return [];
      return from.matches('form') && !from.matches({ form: 'savingDraft' }) && !from.matches({ form: 'leaving' }) && to.matches('form')
        ? refusal(to)
        : [];
    case 'compose.retry':
      // A retry of a message changed after the failure is checked again, like a send.
      return from.matches({ form: 'failed' }) && to.matches({ form: 'editing' }) ? refusal(to) : [];
    case 'compose.cancel':
      // Back from the confirmation: keyboard focus returns to the button that asked.
      return from.matches('confirming') ? [{ type: 'focus', target: 'compose-submit' }] : [];
    case 'xstate.done.actor.estimate':
      if (event.output === ESTIMATE_NOBODY) return [toast('error', ERROR_KEYS.nobodyReachable, { count: 30 })];
      return (event.output as Estimate).problems.length > 0 ? [toast('error', PROBLEM_KEYS['sms.quota_exceeded'], SMS_PARAMS)] : [];
    case 'xstate.error.actor.estimate':
      // Refused by the server's rules (the estimate applies send's): like a client refusal, focus goes to
      // the first field to fix.
      return event.error === INVALID ? refusal(to) : [toast('error', TOAST_KEYS.sendFailed)];
    // Sending, scheduling and saving change the folder counters (SPEC §7): `counts.changed` comes last.
    // Handed over for sending, and how many nothing reaches (a warning then); all reached, a success.
    case 'xstate.done.actor.sendMessage':
      return [toast('warning', TOAST_KEYS.sentUnreachable, { count: 2 }), { type: 'navigate', to: '/sent/message/900' }, COUNTS];
    case 'xstate.done.actor.scheduleMessage':
      return [toast('success', TOAST_KEYS.scheduled), { type: 'navigate', to: '/scheduled/message/901' }, COUNTS];
    case 'xstate.error.actor.sendMessage':
    case 'xstate.error.actor.scheduleMessage':
      if (event.error === INVALID) return refusal(to);
      // The estimate's SMS figures travel with the quota error.
      if (event.error === QUOTA) return [toast('error', PROBLEM_KEYS['sms.insufficient'], from.context.estimate ? SMS_PARAMS : undefined)];
      return [toast('error', TOAST_KEYS.sendFailed)];
    case 'xstate.done.actor.saveDraft': {
      // Saved while the author waited to leave: they go (unless something was typed since the save began).
      const leaves = from.context.leaving !== null && to.status === 'done';
      return [toast('success', TOAST_KEYS.saved), COUNTS, ...(leaves ? [navigateTo(from)] : [])];
    }
    case 'xstate.error.actor.saveDraft':
      // Saving on the way out and refused: the form, with the focus on the field to fix.
      if (event.error === INVALID && from.matches({ form: 'leaving' })) return refusal(to);
      return [toast('error', event.error === INVALID ? TOAST_KEYS.review : TOAST_KEYS.requestFailed)];
    case 'compose.discard':
      return from.matches({ form: { leaving: 'asking' } }) ? [navigateTo(from)] : [];
    case 'effect.relay':
      // The attachment list's toasts reach the app through compose.
      return [UPLOAD_TOAST];
    default:
      return [];
  }
}

// --- assertions -------------------------------------------------------------------------------------

/** Entering `state` starts its call once; staying in it starts none. */
function expectStarted(env: StepEnv, state: StateValue, id: string) {
  if (env.event.type === 'xstate.init') return;
  expect(env.started, `${id} started`).toEqual(env.from.matches(state as never) ? [] : [id]);
}

function expectRunning(env: StepEnv, id: string | null) {
  for (const other of IO) expect(env.fakes.isRunning(other), `${other} running`).toBe(other === id);
}

/** Keys seen on this path, to check a retry reuses one and an edit never does. */
let keys: string[] = [];
let lastKey: string | null = null;

/** What compose hands its children in this step, from the step alone. */
function expectedForwards({ event, from, to }: StepEnv): { to: string; event: AnyEventObject }[] {
  // The picker shows the estimate's people count for the chips it counted.
  if (event.type === 'xstate.done.actor.estimate') {
    return [
      { to: 'picker', event: { type: 'picker.estimated', picks: from.context.recipients, people: (event.output as Estimate).recipients } },
    ];
  }
  if (!from.matches('form')) return [];
  const c = from.context as Ctx;
  const entry = c.attachments.find((candidate) => candidate.key === event.key);
  switch (event.type) {
    // The rules first: only a file they admit reaches the list.
    case 'attachment.add': {
      const file = (event.files as File[])[0] as File;
      return refusalOf(c, file) === null ? [{ to: 'attachments', event: { type: 'attachments.add', files: [file] } }] : [];
    }
    case 'attachment.remove':
      return entry && entry.status !== 'removing' ? [{ to: 'attachments', event: { type: 'attachments.remove', key: event.key } }] : [];
    case 'attachment.retry':
      return entry?.status === 'failed' ? [{ to: 'attachments', event: { type: 'attachments.retry', key: event.key } }] : [];
    // The picker's selection follows the chips.
    case 'compose.removeRecipient':
      return [{ to: 'picker', event: { type: 'picker.sync', picks: to.context.recipients } }];
    // The template picker opens; choosing will ask first when the form has a title or content typed.
    case 'template.open':
      return [{ to: 'templates', event: { type: 'templates.open', replaces: c.title.trim() !== '' || c.content.trim() !== '' } }];
    default:
      return [];
  }
}

function expectForwards(env: StepEnv) {
  const told = (delivery: Delivery) =>
    (delivery.to === 'attachments' || delivery.to === 'picker' || delivery.to === 'templates') &&
    !/^(xstate|test)\./.test(delivery.event.type);
  expect(
    env.delivered.filter(told).map(({ to, event }) => ({ to, event })),
    'what compose tells its children',
  ).toEqual(expectedForwards(env));
}

/** An edit of the form: a change of what `formOf` sees, or an attachment command compose acted on. */
const isEdit = (env: StepEnv) =>
  EDIT_TYPES.has(env.event.type) &&
  env.from.matches('form') &&
  (JSON.stringify(formOf(env.from.context as Ctx)) !== JSON.stringify(formOf(env.to.context as Ctx)) ||
    env.event.type === 'attachment.add' ||
    (ATTACHMENT_COMMANDS.has(env.event.type) && expectedForwards(env).length > 0));

function expectKey(env: StepEnv) {
  const real = (env.actor.getSnapshot() as AnyMachineSnapshot).context.idempotencyKey as string | null;
  const edited = isEdit(env);
  if (edited) expect(real, 'an edit drops the idempotency key').toBeNull();
  if (lastKey !== null && real !== null) expect(real, 'the key of the same message never changes').toBe(lastKey);
  if (lastKey === null && real !== null) {
    expect(real).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys, 'a fresh key is new').not.toContain(real);
    keys.push(real);
  }
  lastKey = real;
}

function expectBackup(snapshot: AnyMachineSnapshot, env: StepEnv) {
  const c = snapshot.context as Ctx;
  const saved = loadComposeBackup(c.backupKey);
  // Once saved, the form's backup is its draft's (what the page opens `/new?draft=55` with), not the new form's.
  expect(c.backupKey).toBe(c.draftId === SAVED.id ? 'compose:7:55' : BACKUP_KEY);
  if (c.backupKey !== BACKUP_KEY) expect(loadComposeBackup(BACKUP_KEY), "the new form's backup moved").toBeNull();
  if (snapshot.matches('sent')) {
    expect(saved, 'a sent message leaves no backup').toBeNull();
    return;
  }
  if (isEdit(env) || env.event.type === 'attachments.changed' || env.event.type === 'xstate.done.actor.saveDraft') {
    // Everything typed is in the backup, with the files already on the server.
    expect(saved).toMatchObject({
      title: c.title,
      content: c.content,
      channels: c.channels,
      recipients: c.recipients,
      schedule: c.schedule,
      draftId: c.draftId,
    });
    const uploaded = (c.attachments as AttachmentEntry[]).flatMap((entry) =>
      entry.status === 'uploaded' && entry.attachment ? [entry.attachment] : [],
    );
    expect(saved?.attachments).toEqual(uploaded);
    expect(saved?.savedAt).toBe(T0);
  }
}

function expectForm(snapshot: AnyMachineSnapshot, env: StepEnv) {
  const s = cs(snapshot);
  expect(selectTitle(s)).toBe(snapshot.context.title);
  expect(selectContent(s)).toBe(snapshot.context.content);
  expect(selectAvailableChannels(s)).toEqual(SETUP.availableChannels);
  expect(selectSignature(s)).toBe('CSA');
  // Live SMS counter: 154 with the signature active.
  expect(selectSmsLimit(s)).toBe(154);
  expect(selectSmsOk(s)).toBe(smsText(snapshot.context.content, 'CSA').ok);
  for (const code of selectChannels(s)) expect(SETUP.availableChannels).toContain(code);
  if (env.event.type === 'xstate.done.actor.loadCompose') {
    const start = env.event.output as ComposeStart;
    expect(snapshot.context.draftId).toBe(draftIdOf(start));
    if (start === START_DRAFT) {
      expect(snapshot.context).toMatchObject({
        title: 'Borrador',
        channels: ['sms'],
        allowReplies: true,
        schedule: { date: '2030-01-01', time: '10:00' },
      });
    }
    if (start === START_VALID)
      expect(selectAttachments(s).map((entry) => [entry.key, entry.status])).toEqual([['attachment-1', 'uploaded']]);
  }
  // The children: the picker holds the chips' selection; the list started from the reopened files.
  const real = env.actor.getSnapshot() as ComposeSnapshot;
  expect(selectPicker(real)?.getSnapshot().context.picks, 'picker in step with the chips').toEqual(snapshot.context.recipients);
  const list = selectAttachmentList(real)?.getSnapshot() as AnyMachineSnapshot | undefined;
  expect(list, 'attachment list').toBeDefined();
  if (env.event.type === 'xstate.done.actor.loadCompose') {
    expect(list?.context.restored).toEqual(selectAttachments(s).flatMap((entry) => (entry.attachment ? [entry.attachment] : [])));
    expect(selectAttachments(s).every((entry) => entry.status === 'uploaded')).toBe(true);
  }
  expectBackup(snapshot, env);
  expectKey(env);
}

/**
 * The rule that refuses each field of this form for `intent` (SPEC §9, the limits of the contract), written
 * for this test's data apart from compose's rules: null where the field passes.
 */
function ruleKeysOf(c: Ctx, intent: string) {
  const sms = c.channels.includes('sms');
  const content =
    c.content === ''
      ? ERROR_KEYS.contentRequired
      : c.content.length > 20_000
        ? ERROR_KEYS.contentTooLong
        : sms && c.content === EMOJI
          ? ERROR_KEYS.smsUnsupported
          : sms && c.content.length > 154
            ? ERROR_KEYS.smsTooLong
            : null;
  const live = c.attachments.filter((entry) => entry.status !== 'removing');
  const total = live.reduce((sum, entry) => sum + entry.size, 0);
  const attachments = live.some((entry) => entry.status === 'uploading')
    ? ERROR_KEYS.attachmentsUploading
    : live.some((entry) => entry.status === 'failed')
      ? ERROR_KEYS.attachmentsFailed
      : sms && live.length > 1
        ? ERROR_KEYS.smsOneAttachment
        : total > 22 * MB
          ? ERROR_KEYS.attachmentsTooLarge
          : null;
  const schedule =
    intent !== 'schedule'
      ? null
      : c.schedule === null
        ? ERROR_KEYS.scheduleRequired
        : c.schedule.date === '2030-02-30'
          ? ERROR_KEYS.scheduleInvalid
          : c.schedule.date === '2020-01-01'
            ? ERROR_KEYS.schedulePast
            : null;
  return {
    title: c.title.trim() === '' ? ERROR_KEYS.titleRequired : c.title.length > 200 ? ERROR_KEYS.titleTooLong : null,
    recipients:
      c.recipients.length === 0 ? ERROR_KEYS.recipientsRequired : c.recipients.length > 2000 ? ERROR_KEYS.tooManyRecipients : null,
    channels: c.channels.length === 0 ? ERROR_KEYS.channelsRequired : null,
    content,
    attachments,
    schedule,
  };
}

/** The client rules let this form go for `intent`. */
const passesRules = (c: Ctx, intent: string) => Object.values(ruleKeysOf(c, intent)).every((key) => key === null);

/** The validation outcome of a refused send/schedule, rule by rule. */
function expectRuleErrors(snapshot: AnyMachineSnapshot, env: StepEnv) {
  const retried = env.event.type === 'compose.retry' && env.from.matches({ form: 'failed' });
  if (!(env.event.type === 'compose.send' || env.event.type === 'compose.schedule' || retried) || !snapshot.matches('form')) return;
  if (!env.from.matches('form') || env.from.matches({ form: 'savingDraft' }) || env.from.matches({ form: 'leaving' })) return;
  // Not taken (nobody would get it): nothing was checked.
  if ('reach' in env.from.context.errors) return;
  const intent = retried ? env.from.context.intent : env.event.type === 'compose.send' ? 'send' : 'schedule';
  const s = cs(snapshot);
  const c = env.from.context as Ctx;
  const keyOf = (field: Parameters<typeof selectError>[1]) => selectError(s, field)?.key ?? null;
  const expected = ruleKeysOf(c, intent);
  expect(keyOf('title')).toBe(expected.title);
  expect(keyOf('recipients')).toBe(expected.recipients);
  expect(keyOf('channels')).toBe(expected.channels);
  expect(keyOf('content')).toBe(expected.content);
  if (expected.content === ERROR_KEYS.smsUnsupported) expect(selectError(s, 'content')?.params).toEqual({ chars: '😀' });
  if (expected.content === ERROR_KEYS.smsTooLong)
    expect(selectError(s, 'content')?.params).toEqual({ units: c.content.length, limit: 154 });
  expect(keyOf('attachments')).toBe(expected.attachments);
  expect(keyOf('schedule')).toBe(expected.schedule);
  expect(keyOf('quota')).toBeNull();
  expect(Object.keys(snapshot.context.errors).length, 'a refused send names at least one field').toBeGreaterThan(0);
  for (const key of Object.values(snapshot.context.errors as Record<string, { key: string }>)) RULES_SEEN.add(key.key);
}

/** What `attachment.add` refuses at once (SPEC §9), not uploading it. */
function expectAddRefusals(snapshot: AnyMachineSnapshot, env: StepEnv) {
  if (env.event.type !== 'attachment.add' || !env.from.matches({ form: 'editing' })) return;
  const file = (env.event.files as File[])[0] as File;
  const refusal = refusalOf(env.from.context as Ctx, file);
  expect(selectError(cs(snapshot), 'attachments')?.key ?? null).toBe(refusal);
  if (refusal) REFUSALS_SEEN.add(refusal);
  // A refused file is not uploaded: it never reaches the list (see expectForwards).
  const added = env.delivered.filter((delivery) => delivery.to === 'attachments' && delivery.event.type === 'attachments.add');
  expect(added.length).toBe(refusal ? 0 : 1);
}

const RULES_SEEN = new Set<string>();
const REFUSALS_SEEN = new Set<string>();

// --- the children: stand-ins for the model (the picker and the list have their own model tests) -------

/** Holds the selection compose keeps in step, and confirms the picks the test gives it, as the picker does. */
const pickerStandIn = setup({
  types: {
    input: {} as { initial: RecipientPick[]; parent: AnyActorRef },
    context: {} as { parent: AnyActorRef; picks: RecipientPick[] },
    events: {} as { type: 'picker.sync'; picks: RecipientPick[] } | { type: 'test.confirm'; picks: RecipientPick[] },
  },
}).createMachine({
  id: 'pickerStandIn',
  context: ({ input }) => ({ parent: input.parent, picks: input.initial }),
  on: {
    'picker.sync': { actions: assign({ picks: ({ event }) => event.picks }) },
    'test.confirm': {
      actions: [
        assign({ picks: ({ event }) => event.picks }),
        sendTo(
          ({ context }) => context.parent,
          ({ event }) => ({ type: 'picker.confirmed', picks: event.picks }),
        ),
      ],
    },
  },
});

/** Reports the entries and emits the toast the test asks for; what compose tells it is read from the deliveries. */
const listStandIn = setup({
  types: {
    input: {} as { parent: AnyActorRef; restored: AttachmentSummary[] },
    context: {} as { parent: AnyActorRef; restored: AttachmentSummary[] },
    events: {} as { type: 'test.report'; entries: AttachmentEntry[] } | { type: 'test.toast' },
    emitted: {} as AnyEventObject,
  },
}).createMachine({
  id: 'listStandIn',
  context: ({ input }) => ({ ...input }),
  on: {
    'test.report': {
      actions: sendTo(
        ({ context }) => context.parent,
        ({ event }) => ({ type: 'attachments.changed', entries: event.entries }),
      ),
    },
    'test.toast': { actions: emit(UPLOAD_TOAST) },
  },
});

/** Takes what compose tells it (read from the deliveries); the template picker has its own model test. */
const templatesStandIn = setup({ types: { input: {} as { parent: AnyActorRef } } }).createMachine({ id: 'templatesStandIn' });

const STAND_INS = {
  recipientPicker: pickerStandIn as never,
  attachmentList: listStandIn as never,
  templatePicker: templatesStandIn as never,
};

/** Compose with every server call a controllable fake and stand-ins for its children. */
const fakedComposeMachine = (fakes: Fakes, logic: typeof composeMachine = composeMachine) =>
  logic.provide({
    actors: {
      fetchComposeStart: fakes.promise(),
      estimate: fakes.promise(),
      sendMessage: fakes.promise(),
      scheduleMessage: fakes.promise(),
      saveDraft: fakes.promise(),
      ...STAND_INS,
    },
  });

const childOf = (env: StepEnv, id: 'picker' | 'attachments') => (env.actor.getSnapshot() as AnyMachineSnapshot).children[id] as AnyActorRef;

const step = (run: (env: StepEnv) => void) => (env: StepEnv) => run(env);

// Baselines are computed once the loader outputs are known (the actor runs the real restore).
for (const start of STARTS) {
  const actor = baselineOf(start);
  await new Promise((resolve) => setTimeout(resolve, 0));
  BASELINES.set(draftIdOf(start), formOf(actor.getSnapshot().context as unknown as Ctx));
  actor.stop();
}
store.clear();

defineModelTests({
  name: 'compose',
  machine: composeMachine,
  // The header, SPEC §5, §8, §9 and the compose decisions (drafts save without requirements, confirm with
  // the server's estimate, a send is idempotent, refuse a send that reaches nobody, leaving asks first).
  // Edits, the children's reports and their relayed toasts never move it.
  oracle: {
    initial: 'loading',
    targets: {
      loading: { 'xstate.done.actor.loadCompose': 'form.editing', 'xstate.error.actor.loadCompose': 'loadFailed' },
      loadFailed: { 'compose.retry': 'loading' },
      'form.editing': {
        'compose.send': attempt('send', 'stays'),
        'compose.schedule': attempt('schedule', 'stays'),
        // A draft needs nothing to be saved.
        'compose.save': 'form.savingDraft',
        'page.leave': askIfUnsaved,
      },
      'form.failed': {
        // Reintentar repeats what failed. A message changed since (an edit drops its key) is a new one,
        // checked again first; an estimate that failed is asked again, since nothing goes out before the
        // author confirms its cost; a confirmed send is resent as it was, under the same key.
        'compose.retry': ({ context }) => {
          if (context.idempotencyKey === null) return passesRules(context, context.intent) ? 'estimating' : 'form.editing';
          if (failedCall === 'estimate') return 'estimating';
          return context.intent === 'schedule' ? 'scheduling' : 'sending';
        },
        'compose.send': attempt('send', 'form.editing'),
        'compose.schedule': attempt('schedule', 'form.editing'),
        'compose.save': 'form.savingDraft',
        'page.leave': askIfUnsaved,
      },
      'form.savingDraft': {
        // A navigation asked for meanwhile goes once saved, unless something was typed since the save began.
        'xstate.done.actor.saveDraft': ({ context }) =>
          context.leaving === null ? 'form.editing' : printOf(context) === saving ? 'left' : 'form.leaving.asking',
        // Refused by the server's rules: the form, the navigation dropped; any other failure asks again.
        'xstate.error.actor.saveDraft': ({ event, context }) =>
          refusedFields(event.error) || context.leaving === null ? 'form.editing' : 'form.leaving.asking',
      },
      'form.leaving.asking': { 'compose.saveAndLeave': 'form.leaving.saving', 'compose.discard': 'left', 'compose.stay': 'form.editing' },
      'form.leaving.saving': {
        'xstate.done.actor.saveDraft': 'left',
        'xstate.error.actor.saveDraft': ({ event }) => (refusedFields(event.error) ? 'form.editing' : 'form.leaving.asking'),
      },
      estimating: {
        // Nobody reached, or a quota problem: back to the form, said there; otherwise the cost to confirm.
        'xstate.done.actor.estimate': ({ event }) =>
          reachedNobody(event.output) || event.output.problems.length > 0 ? 'form.editing' : 'confirming',
        'xstate.error.actor.estimate': ({ event }) => (refusedFields(event.error) ? 'form.editing' : 'form.failed'),
      },
      confirming: {
        'compose.confirm': ({ context }) => (context.intent === 'schedule' ? 'scheduling' : 'sending'),
        'compose.cancel': 'form.editing',
        'page.leave': askIfUnsaved,
      },
      sending: {
        'xstate.done.actor.sendMessage': 'sent',
        'xstate.error.actor.sendMessage': ({ event }) =>
          refusedFields(event.error) || quotaRanOut(event.error) ? 'form.editing' : 'form.failed',
      },
      scheduling: {
        'xstate.done.actor.scheduleMessage': 'sent',
        'xstate.error.actor.scheduleMessage': ({ event }) =>
          refusedFields(event.error) || quotaRanOut(event.error) ? 'form.editing' : 'form.failed',
      },
    },
  },
  traversal: {
    input: { draftId: null, replyToId: null, backupKey: BACKUP_KEY },
    events: [...EDITS, ...COMMANDS, ...LEAVING],
    internal: [
      ...STARTS.map((start) => ({ type: 'xstate.done.actor.loadCompose', output: start })),
      { type: 'xstate.error.actor.loadCompose', error: SERVER_DOWN },
      { type: 'xstate.done.actor.estimate', output: ESTIMATE_OK },
      { type: 'xstate.done.actor.estimate', output: ESTIMATE_QUOTA },
      { type: 'xstate.done.actor.estimate', output: ESTIMATE_NOBODY },
      { type: 'xstate.error.actor.estimate', error: INVALID },
      { type: 'xstate.error.actor.estimate', error: SERVER_DOWN },
      { type: 'xstate.done.actor.sendMessage', output: SENT },
      { type: 'xstate.error.actor.sendMessage', error: INVALID },
      { type: 'xstate.error.actor.sendMessage', error: QUOTA },
      { type: 'xstate.error.actor.sendMessage', error: SERVER_DOWN },
      { type: 'xstate.done.actor.scheduleMessage', output: SCHEDULED },
      { type: 'xstate.error.actor.scheduleMessage', error: INVALID },
      { type: 'xstate.error.actor.scheduleMessage', error: QUOTA },
      { type: 'xstate.error.actor.scheduleMessage', error: SERVER_DOWN },
      { type: 'xstate.done.actor.saveDraft', output: SAVED },
      { type: 'xstate.error.actor.saveDraft', error: INVALID },
      { type: 'xstate.error.actor.saveDraft', error: SERVER_DOWN },
      ...REPORTS,
      { type: 'effect.relay', effect: UPLOAD_TOAST },
    ],
    filterEvents: offered,
    serializeState: (snapshot) => {
      const c = snapshot.context as Ctx & { idempotencyKey: string | null; errors: object; failure: unknown };
      // Whether an estimate is known tells a failed send (resent at once) from a failed estimate (asked again).
      const estimated = snapshot.context.estimate !== null;
      return JSON.stringify([
        snapshot.value,
        c.draftId,
        formOf(c),
        c.intent,
        c.idempotencyKey !== null,
        Object.keys(c.errors).sort(),
        c.failure !== null,
        unsaved(c),
        c.leaving,
        estimated,
      ]);
    },
    stopWhen: (snapshot) => snapshot.status === 'done',
    limit: 50_000,
  },
  createActor: ({ fakes, inspect, machine }) => {
    keys = [];
    lastKey = null;
    serverHas = printOf(NOTHING);
    saving = null;
    failedCall = null;
    store.clear();
    return createActor(fakedComposeMachine(fakes, machine), { input: { draftId: null, replyToId: null, backupKey: BACKUP_KEY }, inspect });
  },
  contextOf: (context) => {
    const { idempotencyKey, ...rest } = context as { idempotencyKey: string | null };
    // Keys are random: compared by presence here, by value in expectKey.
    return JSON.parse(JSON.stringify({ ...rest, idempotencyKey: idempotencyKey !== null }));
  },
  states: {
    loading: (snapshot, env) => {
      expect(selectIsLoading(cs(snapshot))).toBe(true);
      expect(env.fakes.inputOf('loadCompose')).toEqual({ draftId: null, replyToId: null, backupKey: BACKUP_KEY });
      expectRunning(env, 'loadCompose');
      expectStarted(env, 'loading', 'loadCompose');
      expectForwards(env);
    },
    loadFailed: (snapshot, env) => {
      expect(selectLoadFailed(cs(snapshot))).toBe(true);
      expect(snapshot.context.failure?.code).toBe('server.error');
      expectRunning(env, null);
      expectForwards(env);
    },
    form: (snapshot, env) => {
      expectForm(snapshot, env);
      expectForwards(env);
      expectRuleErrors(snapshot, env);
      expectAddRefusals(snapshot, env);
      if (env.event.type === 'xstate.done.actor.estimate' && env.event.output === ESTIMATE_NOBODY) {
        // Nobody has an address on the chosen channels: said on the estimate, and nothing is offered to send.
        expect(snapshot.context.estimate).toEqual(ESTIMATE_NOBODY);
        expect(selectError(cs(snapshot), 'reach')).toEqual({ key: ERROR_KEYS.nobodyReachable, params: { count: 30 } });
        expect(selectReachedCount(cs(snapshot))).toBe(0);
        expect(selectCanSend(cs(snapshot))).toBe(false);
        expect(selectCanSchedule(cs(snapshot))).toBe(false);
      } else if (env.event.type === 'xstate.done.actor.estimate') {
        // Quota problems: the estimate is kept for "uses N SMS of M left", and the field error names it.
        expect(snapshot.context.estimate).toEqual(ESTIMATE_QUOTA);
        expect(selectError(cs(snapshot), 'quota')).toEqual({ key: PROBLEM_KEYS['sms.quota_exceeded'], params: SMS_PARAMS });
      }
      if (env.event.error === QUOTA) expect(selectError(cs(snapshot), 'quota')?.key).toBe(PROBLEM_KEYS['sms.insufficient']);
      if (env.event.error === INVALID) {
        // The server's Spanish messages, on the fields it names.
        expect(selectError(cs(snapshot), 'title')).toEqual({ key: ERROR_KEYS.server, params: { message: 'El título es obligatorio.' } });
        expect(selectError(cs(snapshot), 'schedule')).toEqual({ key: ERROR_KEYS.server, params: { message: 'Debe ser futura.' } });
      }
    },
    'form.editing': (snapshot, env) => {
      expect(selectIsEditing(cs(snapshot))).toBe(true);
      expect(selectIsBusy(cs(snapshot))).toBe(false);
      expect(selectIsSubmitting(cs(snapshot))).toBe(false);
      expectRunning(env, null);
      // Sending is offered unless this very form was estimated to reach nobody (any edit offers it again).
      const nobody = snapshot.context.estimate === ESTIMATE_NOBODY;
      expect(selectCanSend(cs(snapshot))).toBe(!nobody);
      expect(selectCanSchedule(cs(snapshot))).toBe(!nobody);
      if (env.event.type === 'xstate.done.actor.saveDraft') expect(snapshot.context.draftId).toBe(SAVED.id);
    },
    'form.savingDraft': (snapshot, env) => {
      expect(selectIsSavingDraft(cs(snapshot))).toBe(true);
      expect(selectIsBusy(cs(snapshot))).toBe(true);
      expect(selectIsSubmitting(cs(snapshot))).toBe(false);
      expectRunning(env, 'saveDraft');
      expectStarted(env, { form: 'savingDraft' }, 'saveDraft');
      // What this save sends is the form as it began.
      if (!env.from.matches({ form: 'savingDraft' })) saving = printOf(snapshot.context);
      const input = env.fakes.inputOf('saveDraft') as {
        id: number | null;
        input: { title: string; attachment_ids: number[] };
        replyToId: number | null;
      };
      // What was there when saving started (typing may go on meanwhile).
      if (env.event.type !== 'compose.save') return;
      // First save creates (id null), later ones update the same draft.
      expect(input.id).toBe(snapshot.context.draftId);
      expect(input.input.title).toBe(snapshot.context.title);
      expect(input.input.attachment_ids).toEqual(
        (snapshot.context.attachments as { status: string; attachment: AttachmentSummary | null }[]).flatMap((entry) =>
          entry.status === 'uploaded' && entry.attachment ? [entry.attachment.id] : [],
        ),
      );
    },
    'form.leaving': (snapshot, env) => {
      expect(selectIsAskingToLeave(cs(snapshot))).toBe(true);
      // Held: where the user was going, the latest request; and something would be lost without asking.
      const leaving = snapshot.context.leaving as Ctx['leaving'];
      expect(leaving).not.toBeNull();
      if (env.event.type === 'page.leave') expect(leaving).toEqual({ to: env.event.to, ...(env.event.back ? { back: true } : {}) });
      expect((env.actor.getSnapshot() as AnyMachineSnapshot).can(LEAVE_BACK), 'a second request is taken').toBe(true);
      if (env.from.matches('form') && !env.from.matches({ form: 'leaving' }) && env.event.type === 'page.leave') {
        expect(unsaved(env.from.context as Ctx), 'only an unsaved form asks').toBe(true);
      }
      // Asked only when the form differs from what the server has (the test's own account of it).
      if (env.event.type === 'page.leave' && !env.from.matches({ form: 'leaving' })) expect(unsavedNow(snapshot.context)).toBe(true);
    },
    'form.leaving.asking': (snapshot, env) => {
      expect(selectIsSavingToLeave(cs(snapshot))).toBe(false);
      expect(selectIsBusy(cs(snapshot))).toBe(false);
      expectRunning(env, null);
    },
    'form.leaving.saving': (snapshot, env) => {
      expect(selectIsSavingToLeave(cs(snapshot))).toBe(true);
      expect(selectIsBusy(cs(snapshot))).toBe(true);
      expectRunning(env, 'saveDraft');
      expectStarted(env, { form: { leaving: 'saving' } }, 'saveDraft');
      if (!env.from.matches({ form: { leaving: 'saving' } })) saving = printOf(snapshot.context);
      const input = env.fakes.inputOf('saveDraft') as { id: number | null; input: { title: string; content: string } };
      expect(input.id).toBe(snapshot.context.draftId);
      expect(input.input).toMatchObject({ title: snapshot.context.title, content: snapshot.context.content });
    },
    'form.failed': (snapshot, env) => {
      expect(selectHasFailed(cs(snapshot))).toBe(true);
      expect(snapshot.context.failure).not.toBeNull();
      expectRunning(env, null);
    },
    confirming: (snapshot, env) => {
      expect(selectIsConfirming(cs(snapshot))).toBe(true);
      expect(selectIsBusy(cs(snapshot))).toBe(false);
      expect(selectIsSubmitting(cs(snapshot))).toBe(false);
      expectRunning(env, null);
      expectForwards(env);
      // The cost shown is the estimate just received, and nothing is sent yet.
      expect(snapshot.context.estimate).toEqual(ESTIMATE_OK);
      expect(selectReachedCount(cs(snapshot))).toBe(30);
      expect(snapshot.context.idempotencyKey).not.toBeNull();
      expect(Object.keys(snapshot.context.errors)).toEqual([]);
      expectKey(env);
    },
    estimating: (snapshot, env) => {
      expect(selectIsBusy(cs(snapshot))).toBe(true);
      expect(selectIsSubmitting(cs(snapshot))).toBe(true);
      expectForwards(env);
      expectRunning(env, 'estimate');
      expectStarted(env, 'estimating', 'estimate');
      // The draft travels with the estimate as with the send: its own attachments are not someone else's.
      const { input, draftId } = env.fakes.inputOf('estimate') as {
        input: { scheduled_at: string | null; channels: string[] };
        draftId: number | null;
      };
      expect(draftId).toBe(snapshot.context.draftId);
      expect(input.channels).toEqual(snapshot.context.channels);
      expect(input.scheduled_at).toBe(snapshot.context.intent === 'schedule' ? '2030-01-01T13:00:00.000Z' : null);
      expect(Object.keys(snapshot.context.errors)).toEqual([]);
      expectKey(env);
    },
    sending: (snapshot, env) => {
      expect(selectIsBusy(cs(snapshot))).toBe(true);
      expect(selectIsSubmitting(cs(snapshot))).toBe(true);
      expectForwards(env);
      expectRunning(env, 'sendMessage');
      expectStarted(env, 'sending', 'sendMessage');
      const input = env.fakes.inputOf('sendMessage') as {
        idempotencyKey: string;
        draftId: number | null;
        input: { scheduled_at: string | null };
      };
      expect(input.idempotencyKey).toBe((env.actor.getSnapshot() as AnyMachineSnapshot).context.idempotencyKey);
      expect(input.draftId).toBe(snapshot.context.draftId);
      expect(input.input.scheduled_at).toBeNull();
      expectKey(env);
    },
    scheduling: (snapshot, env) => {
      expect(selectIsBusy(cs(snapshot))).toBe(true);
      expect(selectIsSubmitting(cs(snapshot))).toBe(true);
      expectForwards(env);
      expectRunning(env, 'scheduleMessage');
      expectStarted(env, 'scheduling', 'scheduleMessage');
      const input = env.fakes.inputOf('scheduleMessage') as { idempotencyKey: string; input: { scheduled_at: string | null } };
      expect(input.idempotencyKey).toBe((env.actor.getSnapshot() as AnyMachineSnapshot).context.idempotencyKey);
      // 10:00 in Santiago in January (summer, -03).
      expect(input.input.scheduled_at).toBe('2030-01-01T13:00:00.000Z');
      expectKey(env);
    },
    // Saved or discarded on the way out: done, nothing running, no backup left to bring it back.
    left: (snapshot, env) => {
      expect(env.actor.getSnapshot().status).toBe('done');
      expect(selectIsAskingToLeave(cs(snapshot))).toBe(false);
      expectRunning(env, null);
      expect(loadComposeBackup(snapshot.context.backupKey as string), 'backup cleared').toBeNull();
      expect(loadComposeBackup(BACKUP_KEY), 'backup cleared').toBeNull();
      if (env.event.type === 'compose.discard') expect(snapshot.context.draftId).toBe(env.from.context.draftId);
      else expect(snapshot.context.draftId).toBe(SAVED.id);
    },
    sent: (snapshot, env) => {
      expect(selectIsSent(cs(snapshot))).toBe(true);
      expect(env.actor.getSnapshot().status).toBe('done');
      expect(loadComposeBackup(BACKUP_KEY), 'backup cleared').toBeNull();
      expectForwards(env);
    },
  },
  events: {
    ...Object.fromEntries(
      [
        ...EDIT_TYPES,
        'compose.send',
        'compose.schedule',
        'compose.save',
        'compose.retry',
        'compose.confirm',
        'compose.cancel',
        'page.leave',
        'compose.saveAndLeave',
        'compose.discard',
        'compose.stay',
        'template.open',
      ].map((type) => [type, step(send)]),
    ),
    ...Object.fromEntries(
      IO.flatMap((id) => [
        [`xstate.done.actor.${id}`, step(settle)],
        [`xstate.error.actor.${id}`, step(settle)],
      ]),
    ),
    // The server has the draft it reopened, or for a new form nothing yet (a backup is only the browser's).
    'xstate.done.actor.loadCompose': step((env) => {
      serverHas = printOf(env.event.output === START_DRAFT ? DRAFT_AS_SAVED : NOTHING);
      settle(env);
    }),
    // Saved: the server has what the save sent.
    'xstate.done.actor.saveDraft': step((env) => {
      if (saving !== null) serverHas = saving;
      settle(env);
    }),
    'xstate.error.actor.estimate': step((env) => {
      failedCall = 'estimate';
      settle(env);
    }),
    'xstate.error.actor.sendMessage': step((env) => {
      failedCall = 'send';
      settle(env);
    }),
    'xstate.error.actor.scheduleMessage': step((env) => {
      failedCall = 'send';
      settle(env);
    }),
    // The children's reports and effects come from the children.
    'picker.confirmed': step((env) => childOf(env, 'picker').send({ type: 'test.confirm', picks: env.event.picks })),
    'attachments.changed': step((env) => childOf(env, 'attachments').send({ type: 'test.report', entries: env.event.entries })),
    'effect.relay': step((env) => childOf(env, 'attachments').send({ type: 'test.toast' })),
  },
  emits,
  // The tests below check that the paths met every rule: under `npm run mutation` the stored subset of
  // paths keeps one for each set of errors the whole plan shows.
  mutationFacts: (snapshot) =>
    Object.values(snapshot.context.errors as Record<string, { key: string }>)
      .map((error) => error.key)
      .sort()
      .join(),
});

describe('compose rules (model paths)', () => {
  it('refused a send or schedule for every client rule, each on its own', () => {
    const rules = [
      'titleRequired',
      'titleTooLong',
      'recipientsRequired',
      'tooManyRecipients',
      'channelsRequired',
      'contentRequired',
      'contentTooLong',
      'smsTooLong',
      'smsUnsupported',
      'attachmentsUploading',
      'attachmentsFailed',
      'smsOneAttachment',
      'attachmentsTooLarge',
      'scheduleRequired',
      'scheduleInvalid',
      'schedulePast',
    ] as const;
    expect([...RULES_SEEN].sort()).toEqual(rules.map((rule) => ERROR_KEYS[rule]).sort());
  });

  it('refused at once the files it must not upload', () => {
    expect([...REFUSALS_SEEN].sort()).toEqual(
      [ERROR_KEYS.attachmentType, ERROR_KEYS.attachmentTooLarge, ERROR_KEYS.attachmentsTooLarge, ERROR_KEYS.smsOneAttachment].sort(),
    );
  });
});

describe('compose idempotency and backup (one scripted path)', () => {
  it('reuses the key on retry, makes a new one after an edit, keeps and then clears the backup', async () => {
    const { Fakes, flush } = await import('./harness');
    store.clear();
    const fakes = new Fakes();
    const actor = createActor(fakedComposeMachine(fakes), { input: { draftId: null, replyToId: null, backupKey: BACKUP_KEY } }).start();
    const sentKey = () => (fakes.inputOf('sendMessage') as { idempotencyKey: string }).idempotencyKey;
    // The "new" form that first saved draft 5 left a backup under another key.
    saveComposeBackup('compose:7:new-other', backup({ draftId: 5 }));
    saveComposeBackup('compose:7:unrelated', backup({ draftId: 99 }));
    fakes.resolve('loadCompose', START_VALID);
    await flush();
    actor.send({ type: 'compose.change', field: 'content', value: 'Hola de nuevo' });
    expect(loadComposeBackup(BACKUP_KEY)?.content).toBe('Hola de nuevo');
    actor.send({ type: 'compose.send' });
    actor.send({ type: 'compose.send' }); // double click: ignored
    fakes.resolve('estimate', ESTIMATE_OK);
    await flush();
    expect(actor.getSnapshot().matches('confirming')).toBe(true);
    expect(fakes.calls.filter((call) => call.id === 'sendMessage')).toHaveLength(0);
    actor.send({ type: 'compose.confirm' });
    await flush();
    const first = sentKey();
    fakes.reject('sendMessage', SERVER_DOWN);
    await flush();
    expect(actor.getSnapshot().matches({ form: 'failed' })).toBe(true);
    actor.send({ type: 'compose.retry' });
    await flush();
    expect(sentKey()).toBe(first);
    fakes.reject('sendMessage', SERVER_DOWN);
    await flush();
    actor.send({ type: 'compose.toggleOption', option: 'copyToSender' });
    actor.send({ type: 'compose.send' });
    fakes.resolve('estimate', ESTIMATE_OK);
    await flush();
    actor.send({ type: 'compose.confirm' });
    await flush();
    const second = sentKey();
    expect(second).not.toBe(first);
    expect(loadComposeBackup(BACKUP_KEY)?.copyToSender).toBe(true);
    fakes.resolve('sendMessage', SENT);
    await flush();
    expect(actor.getSnapshot().status).toBe('done');
    expect(loadComposeBackup(BACKUP_KEY)).toBeNull();
    // Sending draft 5 also drops the other backups of draft 5, and only those.
    expect(loadComposeBackup('compose:7:new-other')).toBeNull();
    expect(loadComposeBackup('compose:7:unrelated')?.draftId).toBe(99);
    expect(fakes.calls.filter((call) => call.id === 'sendMessage')).toHaveLength(3);
  });
});

describe('compose new message start', () => {
  async function started(start: ComposeStart, draftId: number | null = null) {
    const { Fakes, flush } = await import('./harness');
    store.clear();
    const fakes = new Fakes();
    const actor = createActor(composeMachine.provide({ actors: { fetchComposeStart: fakes.promise(), ...STAND_INS } }), {
      input: { draftId, replyToId: null, backupKey: BACKUP_KEY },
    }).start();
    fakes.resolve('loadCompose', start);
    await flush();
    return actor;
  }

  it('allows replies on a new message (families can answer unless the author says no), and nothing is unsaved yet', async () => {
    const actor = await started(START_EMPTY);
    expect(actor.getSnapshot().matches({ form: 'editing' })).toBe(true);
    expect(actor.getSnapshot().context.allowReplies).toBe(true);
    // Untouched, leaving asks nothing; turned off, it is a change worth asking about.
    const fresh = actor.getSnapshot().context;
    expect(formFingerprint(fresh)).toBe(fresh.savedForm);
    actor.send({ type: 'compose.toggleOption', option: 'allowReplies' });
    expect(actor.getSnapshot().context.allowReplies).toBe(false);
    actor.send({ type: 'page.leave', to: '/inbox' });
    expect(actor.getSnapshot().matches({ form: 'leaving' })).toBe(true);
    actor.stop();
  });

  it('keeps the choice a draft was saved with, replies off included', async () => {
    const draft = composeDraft(8, { title: 'Sin respuestas', allow_replies: false, updated_at: new Date(T0).toISOString() });
    const actor = await started({ setup: SETUP, draft, backup: null, reply: null }, 8);
    expect(actor.getSnapshot().context.allowReplies).toBe(false);
    actor.stop();
  });
});

describe('compose reply start', () => {
  const pick: RecipientPick = { kind: 'guardian', id: 4, label: 'Rosa Díaz' };
  const QUOTE = 'El 12-03-2026 a las 10:15, Rosa Díaz escribió:\n> Tomás faltó por fiebre.';

  async function replyTo(
    reaching: ComposeStart['setup']['availableChannels'],
    receivedBy: ComposeStart['setup']['availableChannels'] = ['app-mobile'],
  ) {
    const { Fakes, flush } = await import('./harness');
    store.clear();
    const fakes = new Fakes();
    const actor = createActor(
      composeMachine.provide({ actors: { fetchComposeStart: fakes.promise(), estimate: fakes.promise(), ...STAND_INS } }),
      {
        input: { draftId: null, replyToId: 31, backupKey: BACKUP_KEY },
      },
    ).start();
    expect(fakes.inputOf('loadCompose')).toEqual({ draftId: null, replyToId: 31, backupKey: BACKUP_KEY });
    fakes.resolve('loadCompose', {
      ...START_EMPTY,
      reply: { title: 'Re: Justificativo', pick, channels: reaching, receivedBy, quote: QUOTE },
    });
    await flush();
    return { actor, fakes };
  }

  it('starts a reply as "Re: <title>" to the sender, by the channel they wrote by, quoting the original, and estimates it as a reply', async () => {
    // The guardian wrote in the app; e-mail and the phone reach them too, but the answer goes where they asked.
    const { actor, fakes } = await replyTo(['app-mobile', 'e-mail', 'sms', 'whatsapp']);
    expect(actor.getSnapshot().context).toMatchObject({
      title: 'Re: Justificativo',
      recipients: [pick],
      channels: ['app-mobile'],
      content: `\n\n${QUOTE}`,
      // A family answered can answer back.
      allowReplies: true,
      replyToId: 31,
    });
    actor.send({ type: 'compose.change', field: 'content', value: `Que se mejore.\n\n${QUOTE}` });
    actor.send({ type: 'compose.send' });
    expect(actor.getSnapshot().matches('estimating')).toBe(true);
    // The estimate checks the reply as send will.
    expect(fakes.inputOf('estimate')).toMatchObject({ replyToId: 31, input: { title: 'Re: Justificativo', recipients: [pick] } });
    actor.stop();
  });

  it('starts on the free channels that reach the sender when the one they wrote by is not offered to this user', async () => {
    // This school's compose offers app, e-mail and SMS; the colleague wrote by WhatsApp.
    const { actor } = await replyTo(['app-mobile', 'e-mail', 'sms', 'whatsapp'], ['whatsapp']);
    expect(actor.getSnapshot().context.channels).toEqual(['app-mobile', 'e-mail']);
    actor.stop();
  });

  it('starts a reply by SMS alone, without the quote, when only a phone reaches the sender', async () => {
    const { actor } = await replyTo(['sms', 'whatsapp']);
    // The SMS carries the content and one segment: the quote would not fit.
    expect(actor.getSnapshot().context).toMatchObject({ title: 'Re: Justificativo', recipients: [pick], channels: ['sms'], content: '' });
    actor.stop();
  });
});

describe('compose with its real children (one scripted path)', () => {
  /** Course 10 is PICK's, staff 900 Marta Muñoz. */
  const RECIPIENTS = thirdGrade();

  it('admits files into the list, sends what is uploaded, relays its toasts, and keeps the picker in step with the chips', async () => {
    const { Fakes, flush } = await import('./harness');
    store.clear();
    uploads.clear();
    deletes.clear();
    const fakes = new Fakes();
    const actor = createActor(composeWithRealChildren(fakes), { input: { draftId: null, replyToId: null, backupKey: BACKUP_KEY } }).start();
    const emitted: AnyEventObject[] = [];
    actor.on('*', (event) => emitted.push(event));
    const files = () => selectAttachments(actor.getSnapshot()).map((entry) => `${entry.key}:${entry.status}`);
    fakes.resolve('loadCompose', START_VALID);
    await flush();
    const list = selectAttachmentList(actor.getSnapshot());
    expect(files()).toEqual(['attachment-1:uploaded']);
    expect(list?.getSnapshot().context.entries.map((entry) => entry.ref.getSnapshot().value)).toEqual(['uploaded']);

    // A file the rules refuse never reaches the list; an admitted one uploads, and a send waits for it.
    actor.send({ type: 'attachment.add', files: [FILE_EXE] });
    expect(selectError(actor.getSnapshot(), 'attachments')?.key).toBe(ERROR_KEYS.attachmentType);
    actor.send({ type: 'attachment.add', files: [FILE_B] });
    await flush();
    expect(files()).toEqual(['attachment-1:uploaded', 'attachment-2:uploading']);
    actor.send({ type: 'compose.send' });
    expect(selectError(actor.getSnapshot(), 'attachments')?.key).toBe(ERROR_KEYS.attachmentsUploading);
    emitted.length = 0;

    // A failed upload: the list's toast reaches the app through compose; retried, it is on the server.
    uploads.get(FILE_B.name)?.reject(SERVER_DOWN);
    await flush();
    expect(files()).toEqual(['attachment-1:uploaded', 'attachment-2:failed']);
    expect(emitted).toEqual([{ type: 'toast', kind: 'error', key: 'compose.attachment.uploadFailed' }]);
    actor.send({ type: 'attachment.retry', key: 'attachment-2' });
    await flush();
    uploads.get(FILE_B.name)?.resolve(SUM_B);
    await flush();
    expect(files()).toEqual(['attachment-1:uploaded', 'attachment-2:uploaded']);
    expect(loadComposeBackup(BACKUP_KEY)?.attachments).toEqual([SUM_A, SUM_B]);

    // Removing the reopened file deletes it on the server first.
    actor.send({ type: 'attachment.remove', key: 'attachment-1' });
    await flush();
    expect(files()).toEqual(['attachment-1:removing', 'attachment-2:uploaded']);
    deletes.get(SUM_A.id)?.resolve(undefined);
    await flush();
    expect(files()).toEqual(['attachment-2:uploaded']);
    expect(Object.keys(actor.getSnapshot().children)).not.toContain('attachment-1');
    expect(loadComposeBackup(BACKUP_KEY)?.attachments).toEqual([SUM_B]);

    // The picker loaded the recipients with the form and starts from the chips; its dialog confirms
    // picks into chips, and a removed chip leaves its selection too.
    const picker = selectPicker(actor.getSnapshot());
    fakes.resolve('loadRecipients', RECIPIENTS);
    await flush();
    expect(picker?.getSnapshot().context.picks).toEqual([PICK]);
    picker?.send({ type: 'picker.open' });
    picker?.send({ type: 'picker.toggle', pick: { kind: 'staff', id: 900 } });
    picker?.send({ type: 'picker.confirm' });
    await flush();
    expect(picker?.getSnapshot().matches({ dialog: 'closed' })).toBe(true);
    expect(actor.getSnapshot().context.recipients).toEqual([PICK, { kind: 'staff', id: 900, label: 'Marta Muñoz' }]);
    actor.send({ type: 'compose.removeRecipient', pick: PICK });
    expect(picker?.getSnapshot().context.picks).toEqual([{ kind: 'staff', id: 900, label: 'Marta Muñoz' }]);

    // What is sent is what is on the server.
    actor.send({ type: 'compose.send' });
    expect((fakes.inputOf('estimate') as { input: { attachment_ids: number[] } }).input.attachment_ids).toEqual([SUM_B.id]);

    // Once the estimate answers, its people count is the one the chips and the dialog show (Marta's
    // cargo counted 4, say), not the picker's approximation (1).
    expect([selectPeopleCount(picker!.getSnapshot()), selectPeopleExact(picker!.getSnapshot())]).toEqual([1, false]);
    fakes.resolve('estimate', estimate(4));
    await flush();
    expect(actor.getSnapshot().matches('confirming')).toBe(true);
    expect([selectPeopleCount(picker!.getSnapshot()), selectPeopleExact(picker!.getSnapshot())]).toEqual([4, true]);
    actor.stop();
  });
});
