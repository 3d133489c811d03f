// /recipient-list/:id (SPEC §2, §3): one list with its members (contact data, device colour,
// stale members), and what its owner does with it: rename, share with the school's staff, add members
// with the compose picker (the child `picker`, spawned once the list is shown), remove one or every stale
// member, edit a member's contact data (the child `memberEditor`, recipient-lists/member-editor.ts, invoked while its
// dialog is open, its focus moves relayed), delete to the trash after a question. A colleague's shared list
// is read-only: those events are refused by `isOwner`, so `state.can` offers none of them. "Usar en mensaje
// nuevo" is for all. A delete refused because a scheduled message uses the list keeps the list and names
// that message. The rename field's text is the context's `nameDraft`: typing is kept across every reload.
// The pure rules are in recipient-lists/recipient-list-rules.ts.
import { and, assertEvent, assign, emit, enqueueActions, not, sendTo, setup, type SnapshotFrom } from 'xstate';
import type { RecipientPick } from '../../../shared/compose-contract';
import type { RecipientListMember, RecipientListSummary, UserToEdit } from '../../../shared/recipient-lists-contract';
import { toApiFailure, type ApiFailure } from '../../services/http/client';
import {
  addMembers,
  deleteList,
  fetchListDetail,
  removeMember,
  removeStale,
  updateList,
  type ListDetail,
} from '../../services/recipient-lists/recipient-lists';
import { relayEffects, type Effect, type RelayedEffect } from '../app/effects';
import { memberEditorMachine, type PhonePrefix } from './member-editor';
import {
  conflictOf,
  DELETE_BUTTON_ID,
  isRenameChange,
  memberEditButtonId,
  nameDraftAfter,
  RENAME_FIELD_ID,
  renameError,
  withEditedUser,
  withoutMember,
  type ScheduledConflict,
} from './recipient-list-rules';
import { recipientPickerMachine, type PickerReport } from '../compose/recipient-picker';
import { afterSearch, afterShowMore, hasMoreRows, MEMBER_VIEW, type MemberView, type MemberViewChange } from './member-rows';

export interface RecipientListInput {
  id: number;
  /** The school's country prefix for the contact editor (+56 Chile, +52 Mexico). */
  defaultPrefix: PhonePrefix;
}

/** With the members table's search and slice (recipient-lists/member-rows.ts), for everyone, whatever runs meanwhile. */
export interface RecipientListContext extends RecipientListInput, MemberView {
  list: RecipientListSummary | null;
  members: RecipientListMember[];
  /** 404: not this user's list (or deleted meanwhile). No retry. */
  notFound: boolean;
  /** What the rename field holds: the list's name until the owner types, then what they typed. */
  nameDraft: string;
  /** The rename field's error text key, or the server's text. */
  nameError: string | null;
  conflict: ScheduledConflict | null;
  /** The member being removed or edited. */
  memberId: number | null;
}

export type RecipientListEvent =
  | { type: 'detail.retry' }
  | { type: 'detail.changeName'; name: string }
  | { type: 'detail.rename' }
  | { type: 'detail.share'; shared: boolean }
  | { type: 'detail.addMembers' }
  | { type: 'detail.removeMember'; memberId: number }
  | { type: 'detail.removeStale' }
  | { type: 'detail.editMember'; memberId: number }
  | { type: 'detail.delete' }
  | { type: 'detail.confirm' }
  | { type: 'detail.cancel' }
  | { type: 'detail.use' }
  | { type: 'detail.dismissConflict' }
  | { type: 'members.search'; query: string }
  | { type: 'members.showMore' }
  | PickerReport
  | RelayedEffect;

type ToastKey = Extract<Effect, { type: 'toast' }>['key'];
/** A call on this list that failed: back to idle, and a toast says so (the screen keeps what it showed). */
const REQUEST_FAILED = { target: 'idle', actions: { type: 'toast', params: { kind: 'error', key: 'error.request' } } } as const;

const NO_PICKS: RecipientPick[] = [];

export const recipientListMachine = setup({
  types: {
    input: {} as RecipientListInput,
    context: {} as RecipientListContext,
    events: {} as RecipientListEvent,
    emitted: {} as Effect,
    children: {} as { picker: 'recipientPicker'; memberEditor: 'memberEditor'; memberEditorEffects: 'relayEffects' },
  },
  actors: {
    fetchListDetail,
    updateList,
    addMembers,
    removeMember,
    removeStale,
    deleteList,
    recipientPicker: recipientPickerMachine,
    memberEditor: memberEditorMachine,
    relayEffects,
  },
  actions: {
    assignDetail: assign(({ context }, detail: ListDetail) => ({
      list: detail.list,
      members: detail.members,
      notFound: false,
      nameDraft: nameDraftAfter(context.nameDraft, context.list?.name ?? null, detail.list.name),
    })),
    assignList: assign(({ context }, list: RecipientListSummary) => ({
      list,
      nameError: null,
      nameDraft: nameDraftAfter(context.nameDraft, context.list?.name ?? null, list.name),
    })),
    assignNotFound: assign((_, failure: ApiFailure) => ({ notFound: failure.status === 404 })),
    changeName: assign(({ event }) => {
      assertEvent(event, 'detail.changeName');
      return { nameDraft: event.name, nameError: null };
    }),
    assignNameError: assign(({ context }) => ({ nameError: renameError(context.nameDraft) })),
    assignServerNameError: assign((_, failure: ApiFailure) => ({
      nameError: failure.fieldErrors.name?.[0] ?? 'recipientLists.saveFailed',
    })),
    assignMember: assign(({ event }) => {
      assertEvent(event, ['detail.removeMember', 'detail.editMember']);
      return { memberId: event.memberId };
    }),
    clearMember: assign({ memberId: null }),
    dropMember: assign(({ context }) => ({ ...withoutMember(context.list, context.members, context.memberId), memberId: null })),
    /** The person's record changed everywhere: this list's row shows it now. */
    applyEdit: assign(({ context }, user: UserToEdit | null) => ({
      members: user ? withEditedUser(context.members, user) : context.members,
      memberId: null,
    })),
    assignConflict: assign((_, failure: ApiFailure) => ({ conflict: conflictOf(failure) })),
    clearConflict: assign({ conflict: null }),
    viewMembers: enqueueActions(({ enqueue }, change: MemberViewChange) => {
      enqueue.assign(change.view);
      if (change.focus) enqueue.emit({ type: 'focus', target: change.focus });
    }),
    openPicker: sendTo('picker', { type: 'picker.open' }),
    /** The picker starts empty for the next "Añadir miembros". */
    resetPicker: sendTo('picker', { type: 'picker.sync', picks: NO_PICKS }),
    spawnPicker: assign(({ spawn, self }) => {
      spawn('recipientPicker', { id: 'picker', input: { initial: [], parent: self } });
      return {};
    }),
    toast: emit((_, params: { kind: 'success' | 'error'; key: ToastKey }) => ({
      type: 'toast' as const,
      kind: params.kind,
      key: params.key,
    })),
    toastStaleRemoved: emit((_, removed: number) => ({
      type: 'toast' as const,
      kind: 'success' as const,
      key: 'recipientLists.staleRemoved' as const,
      params: { count: removed },
    })),
    toastShared: emit(({ context }) => ({
      type: 'toast' as const,
      kind: 'success' as const,
      key: context.list?.shared ? ('recipientLists.sharedOn' as const) : ('recipientLists.sharedOff' as const),
    })),
    focus: emit((_, target: string) => ({ type: 'focus' as const, target })),
    /** The contact editor's focus moves (its first refused field), passed on to the app edge. */
    relay: emit(({ event }) => {
      assertEvent(event, 'effect.relay');
      return event.effect;
    }),
    goToLists: emit({ type: 'navigate', to: '/recipient-lists' }),
    useInMessage: emit(({ context }) => ({ type: 'navigate' as const, to: `/new?list=${context.id}` })),
    /** The dialog closed: a saved person's row changes (with the toast), and focus returns to its "Editar". */
    afterEditor: enqueueActions(({ enqueue, context }, user: UserToEdit | null) => {
      const memberId = context.memberId;
      if (user) enqueue.emit({ type: 'toast', kind: 'success', key: 'recipientLists.memberSaved' });
      if (memberId !== null) enqueue.emit({ type: 'focus', target: memberEditButtonId(memberId) });
    }),
  },
  guards: {
    isOwner: ({ context }) => context.list?.is_owner === true,
    isRenameValid: ({ context }) => context.list?.is_owner === true && isRenameChange(context.nameDraft, context.list.name),
    isRenameInvalid: ({ context }) => context.list?.is_owner === true && renameError(context.nameDraft) !== null,
    isOtherSharing: ({ context, event }) => {
      assertEvent(event, 'detail.share');
      return context.list?.is_owner === true && context.list.shared !== event.shared;
    },
    isListedMember: ({ context, event }) => {
      assertEvent(event, ['detail.removeMember', 'detail.editMember']);
      return context.list?.is_owner === true && context.members.some((member) => member.id === event.memberId);
    },
    hasStale: ({ context }) => context.list?.is_owner === true && context.members.some((member) => member.stale !== null),
    hasPicks: ({ event }) => {
      assertEvent(event, 'picker.confirmed');
      return event.picks.length > 0;
    },
    isConflict: (_, failure: ApiFailure) => conflictOf(failure) !== null,
    hasConflict: ({ context }) => context.conflict !== null,
    hasOtherQuery: ({ context, event }) => event.type === 'members.search' && event.query !== context.memberQuery,
    hasMoreRows: ({ context }) => hasMoreRows(context.members, context.memberQuery, context.memberLimit),
  },
}).createMachine({
  id: 'recipientList',
  initial: 'loading',
  context: ({ input }) => ({
    ...input,
    list: null,
    members: [],
    notFound: false,
    nameDraft: '',
    nameError: null,
    conflict: null,
    memberId: null,
    ...MEMBER_VIEW,
  }),
  states: {
    loading: {
      tags: 'busy',
      invoke: {
        id: 'fetchListDetail',
        src: 'fetchListDetail',
        input: ({ context }) => ({ id: context.id }),
        onDone: { target: 'ready', actions: [{ type: 'assignDetail', params: ({ event }) => event.output }, 'spawnPicker'] },
        onError: { target: 'failed', actions: { type: 'assignNotFound', params: ({ event }) => toApiFailure(event.error) } },
      },
    },
    // Not found (no retry) or not loaded (Reintentar).
    failed: {
      on: { 'detail.retry': { target: 'loading' } },
    },
    ready: {
      on: {
        // Confirmed in the picker with nothing picked: nothing to add, the picker starts empty again. Picks
        // are added from idle on the owner's list only (below): never over a running call or a colleague's list.
        'picker.confirmed': { guard: not('hasPicks'), actions: 'resetPicker' },
        'members.search': { guard: 'hasOtherQuery', actions: { type: 'viewMembers', params: ({ event }) => afterSearch(event.query) } },
        'members.showMore': {
          guard: 'hasMoreRows',
          actions: { type: 'viewMembers', params: ({ context }) => afterShowMore(context.members, context) },
        },
        // The owner types whenever (a call running too): the text is kept, and a reload does not replace it.
        'detail.changeName': { guard: 'isOwner', actions: 'changeName' },
      },
      initial: 'idle',
      states: {
        idle: {
          on: {
            'detail.rename': [
              { guard: 'isRenameValid', target: 'renaming' },
              { guard: 'isRenameInvalid', actions: ['assignNameError', { type: 'focus', params: RENAME_FIELD_ID }] },
            ],
            'detail.share': { guard: 'isOtherSharing', target: 'sharing' },
            'detail.addMembers': { guard: 'isOwner', actions: 'openPicker' },
            'picker.confirmed': { guard: and(['isOwner', 'hasPicks']), target: 'adding' },
            'detail.removeMember': { guard: 'isListedMember', target: 'removingMember', actions: 'assignMember' },
            'detail.removeStale': { guard: 'hasStale', target: 'removingStale' },
            'detail.editMember': { guard: 'isListedMember', target: 'editingMember', actions: 'assignMember' },
            'detail.delete': { guard: 'isOwner', target: 'confirmingDelete', actions: 'clearConflict' },
            'detail.use': { actions: 'useInMessage' },
            'detail.dismissConflict': { guard: 'hasConflict', actions: 'clearConflict' },
          },
        },
        renaming: {
          tags: 'busy',
          invoke: {
            id: 'updateList',
            src: 'updateList',
            input: ({ context }) => ({ id: context.id, name: context.nameDraft.trim() }),
            onDone: {
              target: 'idle',
              actions: [
                { type: 'assignList', params: ({ event }) => event.output },
                { type: 'toast', params: { kind: 'success', key: 'recipientLists.renamed' } },
              ],
            },
            onError: {
              target: 'idle',
              actions: [
                { type: 'assignServerNameError', params: ({ event }) => toApiFailure(event.error) },
                { type: 'focus', params: RENAME_FIELD_ID },
              ],
            },
          },
        },
        sharing: {
          tags: 'busy',
          invoke: {
            id: 'shareList',
            src: 'updateList',
            input: ({ context, event }) => {
              assertEvent(event, 'detail.share');
              return { id: context.id, shared: event.shared };
            },
            onDone: { target: 'idle', actions: [{ type: 'assignList', params: ({ event }) => event.output }, 'toastShared'] },
            onError: REQUEST_FAILED,
          },
        },
        adding: {
          tags: 'busy',
          invoke: {
            id: 'addMembers',
            src: 'addMembers',
            input: ({ context, event }) => {
              assertEvent(event, 'picker.confirmed');
              return { id: context.id, picks: event.picks };
            },
            onDone: {
              target: 'refreshing',
              actions: ['resetPicker', { type: 'toast', params: { kind: 'success', key: 'recipientLists.membersAdded' } }],
            },
            onError: { target: 'idle', actions: ['resetPicker', { type: 'toast', params: { kind: 'error', key: 'error.request' } }] },
          },
        },
        removingMember: {
          tags: 'busy',
          invoke: {
            id: 'removeMember',
            src: 'removeMember',
            input: ({ context }) => ({ id: context.id, memberId: context.memberId ?? 0 }),
            onDone: {
              target: 'idle',
              actions: ['dropMember', { type: 'toast', params: { kind: 'success', key: 'recipientLists.memberRemoved' } }],
            },
            onError: { target: 'idle', actions: ['clearMember', { type: 'toast', params: { kind: 'error', key: 'error.request' } }] },
          },
        },
        removingStale: {
          tags: 'busy',
          invoke: {
            id: 'removeStale',
            src: 'removeStale',
            input: ({ context }) => ({ id: context.id }),
            onDone: { target: 'refreshing', actions: { type: 'toastStaleRemoved', params: ({ event }) => event.output } },
            onError: REQUEST_FAILED,
          },
        },
        // The members again after a change the server computed (added picks expanded, stale ones gone).
        refreshing: {
          tags: 'busy',
          invoke: {
            id: 'refreshDetail',
            src: 'fetchListDetail',
            input: ({ context }) => ({ id: context.id }),
            onDone: { target: 'idle', actions: { type: 'assignDetail', params: ({ event }) => event.output } },
            // The change was made; the rows shown may be behind, which a reload of the page fixes.
            onError: REQUEST_FAILED,
          },
        },
        editingMember: {
          on: { 'effect.relay': { actions: 'relay' } },
          invoke: [
            {
              id: 'memberEditor',
              src: 'memberEditor',
              input: ({ context }) => ({ listId: context.id, memberId: context.memberId ?? 0, defaultPrefix: context.defaultPrefix }),
              // The person saved, or null when the dialog closed without saving.
              onDone: {
                target: 'idle',
                actions: [
                  { type: 'afterEditor', params: ({ event }) => event.output.user },
                  { type: 'applyEdit', params: ({ event }) => event.output.user },
                ],
              },
            },
            // Started after the editor (same step), so it finds it among this actor's children.
            { id: 'memberEditorEffects', src: 'relayEffects', input: ({ self }) => ({ parent: self, child: 'memberEditor' }) },
          ],
        },
        confirmingDelete: {
          on: {
            'detail.confirm': { target: 'deleting' },
            'detail.cancel': { target: 'idle', actions: { type: 'focus', params: DELETE_BUTTON_ID } },
          },
        },
        deleting: {
          tags: 'busy',
          invoke: {
            id: 'deleteList',
            src: 'deleteList',
            input: ({ context }) => ({ id: context.id }),
            onDone: {
              target: 'idle',
              actions: [{ type: 'toast', params: { kind: 'success', key: 'recipientLists.deleted' } }, 'goToLists'],
            },
            onError: [
              {
                guard: { type: 'isConflict', params: ({ event }) => toApiFailure(event.error) },
                target: 'idle',
                actions: { type: 'assignConflict', params: ({ event }) => toApiFailure(event.error) },
              },
              REQUEST_FAILED,
            ],
          },
        },
      },
    },
  },
});

export type RecipientListSnapshot = SnapshotFrom<typeof recipientListMachine>;
