// /recipient-list/:id (SPEC §2, §3, issue 14): one list with its members (contact data, device colour,
// stale members), and what its owner does with it: rename, share with the school's staff, add members
// with the compose picker (the child `picker`, spawned once the list is shown), remove one or every stale
// member, edit a member's contact data (the child `memberEditor`, member-editor.ts, invoked while its
// dialog is open), delete to the trash after a question. A colleague's shared list is read-only: those
// events are refused by `isOwner`, so `state.can` offers none of them. "Usar en mensaje nuevo" is for all.
// A delete refused because a scheduled message uses the list keeps the list and names that message.
import { assertEvent, assign, emit, enqueueActions, sendTo, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { RecipientPick } from '../../shared/compose-contract';
import { type RecipientListMember, type RecipientListSummary, type UserToEdit } from '../../shared/recipient-lists-contract';
import { toApiFailure } from '../services/http';
import { addMembers, deleteList, fetchListDetail, removeMember, removeStale, updateList, type ListDetail } from '../services/recipient-lists';
import type { Effect } from './effects';
import { errorOf } from './recipient-lists';
import { memberEditorMachine, type PhonePrefix } from './member-editor';
import { conflictOf, DELETE_BUTTON_ID, memberEditButtonId, RENAME_FIELD_ID, renameError, type ScheduledConflict } from './recipient-list-rules';
import { recipientPickerMachine, type PickerReport } from './recipient-picker';

export interface RecipientListInput {
  id: number;
  /** The school's country prefix for the contact editor (+56 Chile, +52 Mexico). */
  defaultPrefix: PhonePrefix;
}

export interface RecipientListContext extends RecipientListInput {
  list: RecipientListSummary | null;
  members: RecipientListMember[];
  /** 404: not this user's list (or deleted meanwhile). No retry. */
  notFound: boolean;
  /** The rename field's error text key, or the server's text. */
  nameError: string | null;
  conflict: ScheduledConflict | null;
  /** The member being removed or edited. */
  memberId: number | null;
}

export type RecipientListEvent =
  | { type: 'detail.retry' }
  | { type: 'detail.rename'; name: string }
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
  | PickerReport;

export const recipientListMachine = setup({
  types: {
    input: {} as RecipientListInput,
    context: {} as RecipientListContext,
    events: {} as RecipientListEvent,
    emitted: {} as Effect,
  },
  actors: { fetchListDetail, updateList, addMembers, removeMember, removeStale, deleteList, recipientPicker: recipientPickerMachine, memberEditor: memberEditorMachine },
  actions: {
    assignDetail: assign((_, detail: ListDetail) => ({ list: detail.list, members: detail.members, notFound: false })),
    assignList: assign((_, list: RecipientListSummary) => ({ list, nameError: null })),
    assignNotFound: assign(({ event }) => ({ notFound: toApiFailure(errorOf(event)).status === 404 })),
    assignNameError: assign(({ event }) => {
      assertEvent(event, 'detail.rename');
      return { nameError: renameError(event.name) };
    }),
    assignServerNameError: assign(({ event }) => ({ nameError: toApiFailure(errorOf(event)).fieldErrors.name?.[0] ?? 'recipientLists.saveFailed' })),
    assignMember: assign(({ event }) => {
      assertEvent(event, ['detail.removeMember', 'detail.editMember']);
      return { memberId: event.memberId };
    }),
    clearMember: assign({ memberId: null }),
    dropMember: assign(({ context }) => ({
      members: context.members.filter((member) => member.id !== context.memberId),
      list: context.list ? { ...context.list, users_count: Math.max(0, context.list.users_count - 1), stale_count: Math.max(0, context.list.stale_count - (context.members.find((m) => m.id === context.memberId)?.stale ? 1 : 0)) } : null,
      memberId: null,
    })),
    /** The person's record changed everywhere: this list's row shows it now. */
    applyEdit: assign(({ context }, user: UserToEdit | null) => {
      if (!user) return { memberId: null };
      return {
        members: context.members.map((member) =>
          member.user_id === user.id && member.user_type === user.user_type ? { ...member, name: user.name, email: user.email, phone: user.fono_celular } : member,
        ),
        memberId: null,
      };
    }),
    assignConflict: assign(({ event }) => ({ conflict: conflictOf(errorOf(event)) })),
    clearConflict: assign({ conflict: null }),
    openPicker: sendTo('picker', { type: 'picker.open' }),
    /** The picker starts empty for the next "Añadir miembros". */
    resetPicker: sendTo('picker', { type: 'picker.sync', picks: [] as RecipientPick[] }),
    spawnPicker: assign(({ spawn, self }) => {
      spawn('recipientPicker', { id: 'picker', input: { initial: [], parent: self } });
      return {};
    }),
    toast: emit((_, params: { kind: 'success' | 'error'; key: 'recipientLists.renamed' | 'recipientLists.sharedOn' | 'recipientLists.sharedOff' | 'recipientLists.membersAdded' | 'recipientLists.memberRemoved' | 'recipientLists.staleRemoved' | 'recipientLists.memberSaved' | 'recipientLists.deleted' | 'error.request' }) => ({
      type: 'toast' as const,
      kind: params.kind,
      key: params.key,
    })),
    toastStaleRemoved: emit((_, removed: number) => ({ type: 'toast' as const, kind: 'success' as const, key: 'recipientLists.staleRemoved' as const, params: { count: removed } })),
    toastShared: emit(({ context }) => ({ type: 'toast' as const, kind: 'success' as const, key: context.list?.shared ? ('recipientLists.sharedOn' as const) : ('recipientLists.sharedOff' as const) })),
    focus: emit((_, target: string) => ({ type: 'focus' as const, target })),
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
    isRenameValid: ({ context, event }) => {
      assertEvent(event, 'detail.rename');
      return context.list?.is_owner === true && renameError(event.name) === null && event.name.trim() !== context.list.name;
    },
    isRenameInvalid: ({ context, event }) => {
      assertEvent(event, 'detail.rename');
      return context.list?.is_owner === true && renameError(event.name) !== null;
    },
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
    isConflict: ({ event }) => conflictOf(errorOf(event)) !== null,
    hasConflict: ({ context }) => context.conflict !== null,
  },
}).createMachine({
  id: 'recipientList',
  initial: 'loading',
  context: ({ input }) => ({ ...input, list: null, members: [], notFound: false, nameError: null, conflict: null, memberId: null }),
  states: {
    loading: {
      tags: 'busy',
      invoke: {
        id: 'fetchListDetail',
        src: 'fetchListDetail',
        input: ({ context }) => ({ id: context.id }),
        onDone: { target: 'ready', actions: [{ type: 'assignDetail', params: ({ event }) => event.output }, 'spawnPicker'] },
        onError: { target: 'failed', actions: 'assignNotFound' },
      },
    },
    // Not found (no retry) or not loaded (Reintentar).
    failed: {
      on: { 'detail.retry': { target: 'loading' } },
    },
    ready: {
      on: {
        // Confirmed in the picker: the picks join the list (empty: nothing to do).
        'picker.confirmed': [{ guard: 'hasPicks', target: '.adding' }, { actions: 'resetPicker' }],
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
            input: ({ context, event }) => {
              assertEvent(event, 'detail.rename');
              return { id: context.id, name: event.name.trim() };
            },
            onDone: { target: 'idle', actions: [{ type: 'assignList', params: ({ event }) => event.output }, { type: 'toast', params: { kind: 'success', key: 'recipientLists.renamed' } }] },
            onError: { target: 'idle', actions: ['assignServerNameError', { type: 'focus', params: RENAME_FIELD_ID }] },
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
            onError: { target: 'idle', actions: { type: 'toast', params: { kind: 'error', key: 'error.request' } } },
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
            onDone: { target: 'refreshing', actions: ['resetPicker', { type: 'toast', params: { kind: 'success', key: 'recipientLists.membersAdded' } }] },
            onError: { target: 'idle', actions: ['resetPicker', { type: 'toast', params: { kind: 'error', key: 'error.request' } }] },
          },
        },
        removingMember: {
          tags: 'busy',
          invoke: {
            id: 'removeMember',
            src: 'removeMember',
            input: ({ context }) => ({ id: context.id, memberId: context.memberId as number }),
            onDone: { target: 'idle', actions: ['dropMember', { type: 'toast', params: { kind: 'success', key: 'recipientLists.memberRemoved' } }] },
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
            onError: { target: 'idle', actions: { type: 'toast', params: { kind: 'error', key: 'error.request' } } },
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
            onError: { target: 'idle', actions: { type: 'toast', params: { kind: 'error', key: 'error.request' } } },
          },
        },
        editingMember: {
          invoke: {
            id: 'memberEditor',
            src: 'memberEditor',
            input: ({ context }) => {
              const member = context.members.find((m) => m.id === context.memberId) as RecipientListMember;
              return { listId: context.id, memberId: member.id, defaultPrefix: context.defaultPrefix };
            },
            onDone: {
              target: 'idle',
              actions: [
                { type: 'afterEditor', params: ({ event }: { event: { output: { user: UserToEdit | null } } }) => event.output.user },
                { type: 'applyEdit', params: ({ event }: { event: { output: { user: UserToEdit | null } } }) => event.output.user },
              ],
            },
          },
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
            onDone: { target: 'idle', actions: [{ type: 'toast', params: { kind: 'success', key: 'recipientLists.deleted' } }, 'goToLists'] },
            onError: [
              { guard: 'isConflict', target: 'idle', actions: 'assignConflict' },
              { target: 'idle', actions: { type: 'toast', params: { kind: 'error', key: 'error.request' } } },
            ],
          },
        },
      },
    },
  },
});

export type RecipientListMachine = typeof recipientListMachine;
export type RecipientListSnapshot = SnapshotFrom<typeof recipientListMachine>;
export type MemberEditorActor = ActorRefFrom<typeof memberEditorMachine>;

export const selectDetailLoading = (s: RecipientListSnapshot): boolean => s.matches('loading');
export const selectDetailFailed = (s: RecipientListSnapshot): boolean => s.matches('failed');
export const selectNotFound = (s: RecipientListSnapshot): boolean => s.context.notFound;
export const selectList = (s: RecipientListSnapshot): RecipientListSummary | null => s.context.list;
export const selectMembers = (s: RecipientListSnapshot): RecipientListMember[] => s.context.members;
export const selectNameError = (s: RecipientListSnapshot): string | null => s.context.nameError;
export const selectConflict = (s: RecipientListSnapshot): ScheduledConflict | null => s.context.conflict;
export const selectBusy = (s: RecipientListSnapshot): boolean => s.hasTag('busy');
export const selectConfirmingDelete = (s: RecipientListSnapshot): boolean => s.matches({ ready: 'confirmingDelete' });
export const selectDetailPicker = (s: RecipientListSnapshot) => s.children.picker as ActorRefFrom<typeof recipientPickerMachine> | undefined;
export const selectMemberEditor = (s: RecipientListSnapshot): MemberEditorActor | undefined => s.children.memberEditor as MemberEditorActor | undefined;
export const selectStaleCount = (s: RecipientListSnapshot): number => s.context.members.filter((member) => member.stale !== null).length;
export const selectCanManage = (s: RecipientListSnapshot): boolean => s.can({ type: 'detail.addMembers' });
export const selectCanDelete = (s: RecipientListSnapshot): boolean => s.can({ type: 'detail.delete' });
export const selectCanRemoveStale = (s: RecipientListSnapshot): boolean => s.can({ type: 'detail.removeStale' });
export const selectRemovingId = (s: RecipientListSnapshot): number | null => (s.matches({ ready: 'removingMember' }) ? s.context.memberId : null);
