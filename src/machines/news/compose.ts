// /mural/news/compose (new) and ?id=N (edit), managers only: title, body, category, images and
// files, audience (the whole school, or levels and courses), publish now or at a time on the school's
// clock, pin, optional end date. The rules are news/compose-rules.ts (shared/news-rules.ts's Spanish texts,
// the server's own); the files are message compose's attachment list (compose/attachment-list.ts, the same upload
// rules, limits and texts); the backup is message compose's store (services/compose/backup.ts).
//
// Flow: loading → editing ⇄ saving → saved (final: toast, backup cleared, to /mural). Each edit re-checks
// its field as the manager types and writes the backup; `news.save` with a refused field stays in editing
// with every error shown, a toast and the focus on the first refused field; a 422 puts the server's texts
// on their fields the same way; any other failure keeps the form and says so. Leaving with changes the
// server does not have asks «¿Descartar los cambios?» (`page.leave`, as message compose): Descartar drops
// the backup and lets the navigation through, Seguir editando stays.
import { assertEvent, assign, emit, enqueueActions, setup, spawnChild, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { NewsPost } from '../../../shared/news-contract';
import { toApiFailure, type ApiFailure } from '../../services/http/client';
import { clearComposeBackup } from '../../services/compose/backup';
import { fetchNewsComposeStart, saveNewsBackup, saveNewsPost, type NewsComposeStart, type WallTime } from '../../services/news/compose';
import { attachmentListMachine, type AttachmentListReport } from '../compose/attachment-list';
import { admitFiles } from '../compose/rules';
import {
  leaveRequestOf,
  navigateOf,
  relayEffects,
  type Effect,
  type LeaveRequest,
  type PageLeaveEvent,
  type RelayedEffect,
} from '../app/effects';
import {
  backupOf,
  CHECKED_TOGETHER,
  EMPTY_NEWS_FORM,
  firstInvalidField,
  newsFingerprint,
  newsFormErrors,
  newsInputOf,
  NEWS_TOAST_KEYS,
  recheck,
  restoredNewsForm,
  savedToast,
  serverNewsErrors,
  toggleGroup,
  type NewsComposeErrors,
  type NewsComposeField,
  type NewsComposeSetup,
  type NewsForm,
} from './compose-rules';

export interface NewsComposeInput {
  /** The post edited; null for a new one. */
  postId: number | null;
  /** localStorage key of this form's backup (per user, and per post or "new"). */
  backupKey: string;
  /** The school's IANA zone (the signed-in user's institution): dates are typed on its clock. */
  timezone: string;
}

export interface NewsComposeContext extends NewsComposeInput {
  setup: NewsComposeSetup | null;
  form: NewsForm;
  errors: NewsComposeErrors;
  /** Fingerprint of what the server holds (the post as loaded; an empty form for a new one). */
  savedForm: string;
  /** The form came back from this browser's backup (said once above the form). */
  restored: boolean;
  failure: ApiFailure | null;
  leaving: LeaveRequest | null;
}

type NewsTextField = 'title' | 'body';

export type NewsComposeEvent =
  | { type: 'news.change'; field: NewsTextField; value: string }
  | { type: 'news.setCategory'; id: number | null }
  | { type: 'news.setScope'; scope: 'school' | 'groups' }
  | { type: 'news.toggleGroup'; kind: 'level' | 'course'; id: number }
  | { type: 'news.setPublish'; at: WallTime | null }
  | { type: 'news.setEnds'; at: WallTime | null }
  | { type: 'news.setPinned'; pinned: boolean }
  | { type: 'news.dismissRestored' }
  | { type: 'news.save' }
  | { type: 'news.retry' }
  | { type: 'news.discard' }
  | { type: 'news.stay' }
  | { type: 'attachment.add'; files: File[] }
  | { type: 'attachment.remove'; key: string }
  | { type: 'attachment.retry'; key: string }
  | PageLeaveEvent
  | AttachmentListReport
  | RelayedEffect;

type FormChange = Partial<NewsForm>;

/** What an edit changes in the form and which field it re-checks. */
function editOf(context: NewsComposeContext, event: NewsComposeEvent): { change: FormChange; field: NewsComposeField | null } | null {
  switch (event.type) {
    case 'news.change':
      return { change: { [event.field]: event.value }, field: event.field };
    case 'news.setCategory':
      return { change: { categoryId: event.id }, field: 'category_id' };
    case 'news.setScope':
      return { change: { audience: { ...context.form.audience, scope: event.scope } }, field: 'audience' };
    case 'news.toggleGroup':
      return {
        change: { audience: toggleGroup(context.form.audience, event.kind, event.id, context.setup?.levels ?? []) },
        field: 'audience',
      };
    case 'news.setPublish':
      return { change: { publishAt: event.at }, field: 'publish_at' };
    case 'news.setEnds':
      return { change: { endsAt: event.at }, field: 'ends_at' };
    case 'news.setPinned':
      return { change: { pinned: event.pinned }, field: null };
    case 'attachments.changed':
      return { change: { attachments: event.entries }, field: 'attachment_ids' };
    default:
      return null;
  }
}

const creating = (context: NewsComposeContext) => context.postId === null;
const allErrors = (context: NewsComposeContext) => newsFormErrors(context.form, context.timezone, Date.now(), creating(context));
export const hasNewsChanges = (context: NewsComposeContext): boolean => newsFingerprint(context.form) !== context.savedForm;

export const newsComposeMachine = setup({
  types: {
    context: {} as NewsComposeContext,
    events: {} as NewsComposeEvent,
    emitted: {} as Effect,
    input: {} as NewsComposeInput,
    children: {} as { attachments: 'attachmentList'; attachmentEffects: 'relayEffects' },
  },
  actors: { fetchNewsComposeStart, saveNewsPost, attachmentList: attachmentListMachine, relayEffects },
  actions: {
    restore: assign(({ context }, start: NewsComposeStart) => {
      const { form, savedForm, restored } = restoredNewsForm(start, context.postId, context.timezone);
      return {
        setup: { categories: start.categories, levels: start.levels, courses: start.courses },
        form,
        savedForm,
        restored,
        failure: null,
      };
    }),
    spawnAttachments: spawnChild('attachmentList', {
      id: 'attachments',
      input: ({ context, self }) => ({
        parent: self,
        restored: context.form.attachments.flatMap((entry) => (entry.attachment ? [entry.attachment] : [])),
      }),
    }),
    relayAttachmentEffects: spawnChild('relayEffects', {
      id: 'attachmentEffects',
      input: ({ self }) => ({ parent: self, child: 'attachments' }),
    }),
    relay: emit(({ event }) => {
      assertEvent(event, 'effect.relay');
      return event.effect;
    }),
    /** The edit applied; its field (and those checked with it) re-checked as the manager types. */
    edit: assign(({ context, event }) => {
      const edit = editOf(context, event);
      if (!edit) return {};
      const next = { ...context, form: { ...context.form, ...edit.change } };
      const errors = edit.field === null ? context.errors : recheck(context.errors, allErrors(next), CHECKED_TOGETHER[edit.field]);
      return { form: next.form, errors, failure: null };
    }),
    saveBackup: ({ context }) => saveNewsBackup(context.backupKey, backupOf(context.form, context.postId, Date.now())),
    clearBackup: ({ context }) => clearComposeBackup(context.backupKey),
    /** The files the upload rules admit go to the list; the first one refused says why on the field. */
    addFiles: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'attachment.add');
      const { accepted, error } = admitFiles({ attachments: context.form.attachments, channels: [] }, event.files);
      const errors = { ...context.errors };
      if (error) errors.attachment_ids = error;
      else delete errors.attachment_ids;
      enqueue.assign({ errors });
      if (accepted.length > 0) enqueue.sendTo('attachments', { type: 'attachments.add', files: accepted });
    }),
    askRemove: enqueueActions(({ event, enqueue }) => {
      assertEvent(event, 'attachment.remove');
      enqueue.sendTo('attachments', { type: 'attachments.remove', key: event.key });
    }),
    askRetry: enqueueActions(({ event, enqueue }) => {
      assertEvent(event, 'attachment.retry');
      enqueue.sendTo('attachments', { type: 'attachments.retry', key: event.key });
    }),
    showErrors: assign(({ context }) => ({ errors: allErrors(context) })),
    serverErrors: assign((_, failure: ApiFailure) => ({ errors: serverNewsErrors(failure) })),
    keepFailure: assign((_, failure: ApiFailure) => ({ failure })),
    clearFailure: assign({ failure: null }),
    dismissRestored: assign({ restored: false }),
    focusFirstError: enqueueActions(({ context, enqueue }) => {
      const target = firstInvalidField(context.errors);
      if (target !== null) enqueue.emit({ type: 'focus', target });
    }),
    toastReview: emit({ type: 'toast', kind: 'error', key: NEWS_TOAST_KEYS.review }),
    toastFailed: emit({ type: 'toast', kind: 'error', key: NEWS_TOAST_KEYS.failed }),
    toastSaved: emit(({ context }, post: NewsPost) => ({
      type: 'toast' as const,
      kind: 'success' as const,
      ...savedToast(post, creating(context), context.timezone),
    })),
    keepLeave: assign(({ event }) => {
      assertEvent(event, 'page.leave');
      return { leaving: leaveRequestOf(event) };
    }),
    forgetLeave: assign({ leaving: null }),
    /** After a save: where the manager was going, else the managers' desk. */
    leave: emit(({ context }) => navigateOf(context.leaving, '/mural')),
  },
  guards: {
    isInvalid: ({ context }) => Object.keys(allErrors(context)).length > 0,
    hasChanges: ({ context }) => hasNewsChanges(context),
    isRefused: (_, failure: ApiFailure) => failure.status === 422,
    isRestored: ({ context }) => context.restored,
    canRemove: ({ context, event }) => {
      assertEvent(event, 'attachment.remove');
      return context.form.attachments.some((entry) => entry.key === event.key && entry.status !== 'removing');
    },
    isFailedUpload: ({ context, event }) => {
      assertEvent(event, 'attachment.retry');
      return context.form.attachments.some((entry) => entry.key === event.key && entry.status === 'failed');
    },
  },
}).createMachine({
  id: 'newsCompose',
  initial: 'loading',
  context: ({ input }) => ({
    ...input,
    setup: null,
    form: EMPTY_NEWS_FORM,
    errors: {},
    savedForm: newsFingerprint(EMPTY_NEWS_FORM),
    restored: false,
    failure: null,
    leaving: null,
  }),
  // The list reports in any state (an upload finishing while the post is being saved).
  on: {
    'attachments.changed': { actions: ['edit', 'saveBackup'] },
    'effect.relay': { actions: 'relay' },
  },
  states: {
    loading: {
      tags: 'busy',
      invoke: {
        id: 'loadNewsCompose',
        src: 'fetchNewsComposeStart',
        input: ({ context }) => ({ postId: context.postId, backupKey: context.backupKey }),
        onDone: {
          target: 'editing',
          actions: [{ type: 'restore', params: ({ event }) => event.output }, 'spawnAttachments', 'relayAttachmentEffects'],
        },
        onError: { target: 'loadFailed', actions: { type: 'keepFailure', params: ({ event }) => toApiFailure(event.error) } },
      },
    },
    // Not loaded (network, a post no longer there): said, with Reintentar.
    loadFailed: { on: { 'news.retry': { target: 'loading' } } },
    editing: {
      on: {
        'news.change': { actions: ['edit', 'saveBackup'] },
        'news.setCategory': { actions: ['edit', 'saveBackup'] },
        'news.setScope': { actions: ['edit', 'saveBackup'] },
        'news.toggleGroup': { actions: ['edit', 'saveBackup'] },
        'news.setPublish': { actions: ['edit', 'saveBackup'] },
        'news.setEnds': { actions: ['edit', 'saveBackup'] },
        'news.setPinned': { actions: ['edit', 'saveBackup'] },
        'news.dismissRestored': { guard: 'isRestored', actions: 'dismissRestored' },
        'attachment.add': { actions: 'addFiles' },
        'attachment.remove': { guard: 'canRemove', actions: 'askRemove' },
        'attachment.retry': { guard: 'isFailedUpload', actions: 'askRetry' },
        'news.save': [
          { guard: 'isInvalid', actions: ['showErrors', 'toastReview', 'focusFirstError'] },
          { target: 'saving', actions: 'clearFailure' },
        ],
        'page.leave': { guard: 'hasChanges', target: 'confirmingLeave', actions: 'keepLeave' },
      },
    },
    saving: {
      tags: 'busy',
      invoke: {
        id: 'saveNewsPost',
        src: 'saveNewsPost',
        input: ({ context }) => ({ id: context.postId, input: newsInputOf(context.form, context.timezone) }),
        onDone: {
          target: 'saved',
          actions: ['clearBackup', { type: 'toastSaved', params: ({ event }) => event.output }, 'leave'],
        },
        onError: [
          // Refused: the server's Spanish on its fields, the first one focused, the navigation dropped.
          {
            guard: { type: 'isRefused', params: ({ event }) => toApiFailure(event.error) },
            target: 'editing',
            actions: [
              { type: 'serverErrors', params: ({ event }) => toApiFailure(event.error) },
              'toastReview',
              'focusFirstError',
              'forgetLeave',
            ],
          },
          // Not saved (network, server): everything typed stays, said beside Publicar.
          {
            target: 'editing',
            actions: [{ type: 'keepFailure', params: ({ event }) => toApiFailure(event.error) }, 'toastFailed', 'forgetLeave'],
          },
        ],
      },
      // A navigation asked for meanwhile waits for the save, then goes there instead of /mural.
      on: { 'page.leave': { actions: 'keepLeave' } },
    },
    // «¿Descartar los cambios?»: Descartar drops what was typed (backup included) and goes; Seguir editando stays.
    confirmingLeave: {
      on: {
        'news.discard': { target: 'left', actions: ['clearBackup', 'leave'] },
        'news.stay': { target: 'editing', actions: 'forgetLeave' },
        'page.leave': { actions: 'keepLeave' },
      },
    },
    saved: { type: 'final' },
    left: { type: 'final' },
  },
});

export type NewsComposeActor = ActorRefFrom<typeof newsComposeMachine>;
export type NewsComposeSnapshot = SnapshotFrom<typeof newsComposeMachine>;
