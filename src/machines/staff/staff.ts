// /settings/staff (administrators): the school's staff, searched, filtered by state, sorted and paged (the
// list pattern, list/list.ts, hosted as the child `list`), and what an administrator does to one account,
// one at a time: roles and device (a dialog; what the server refuses, such as the last administrator or
// one's own admin role, is said there and everything picked stays), deactivate (a question saying what
// happens, then the shared lists and scheduled messages the server names for handing over), reactivate,
// resend and revoke an invitation. «Invitar personal» opens the invite dialog (staff/invite.ts, the child
// `invite`), which says `invite.closed` when it closes; the list loads again when someone was invited.
// What is offered for a row is `state.can(...)` of its event: staff-rules.ts says which account allows what.
import { assertEvent, assign, emit, sendTo, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { RoleCode } from '../../../shared/codes';
import type { Handover, SortOrder, StaffDevice, StaffMember, StaffSort, StaffState } from '../../../shared/staff-contract';
import type { MessageKey } from '../../i18n';
import { serverMessage, toApiFailure, type ApiFailure } from '../../services/http/client';
import {
  changeStaff,
  deactivateStaff,
  fetchStaffPage,
  reactivateStaff,
  resendInvitation,
  revokeInvitation,
  type StaffListQuery,
} from '../../services/staff/staff';
import type { Effect } from '../app/effects';
import { listChild, listHostActions, listOf } from '../list/list';
import { inviteMachine } from './invite';
import { canChange, canDeactivate, canReactivate, canResend, canRevoke, changeOf, rolesProblem, toggledRoles } from './staff-rules';

const staffListMachine = listOf<StaffMember, StaffListQuery>(fetchStaffPage, (member) => member.id);
export type StaffListActor = ActorRefFrom<typeof staffListMachine>;
type StaffListSnapshot = SnapshotFrom<typeof staffListMachine>;

/** A refusal said in a dialog: a text key (checked here) or the server's Spanish text. */
export type StaffProblem = { key: MessageKey } | { text: string };

export interface StaffContext {
  q: string;
  state: StaffState | null;
  sort: StaffSort;
  order: SortOrder;
  /** The list's rows (the list's own array), to find the account an event names. */
  items: StaffMember[];
  /** The account a dialog or a request is about. */
  target: StaffMember | null;
  /** The roles and device dialog as picked. */
  roles: RoleCode[];
  device: StaffDevice;
  problem: StaffProblem | null;
  /** What the deactivated person leaves to hand over, as the server named it. */
  handover: Handover | null;
}

export type StaffEvent =
  | { type: 'staff.search'; q: string }
  | { type: 'staff.filter'; state: StaffState | null }
  | { type: 'staff.sort'; sort: StaffSort; order: SortOrder }
  | { type: 'staff.loadMore' }
  | { type: 'staff.retry' }
  | { type: 'staff.edit'; id: number }
  | { type: 'staff.toggleRole'; role: RoleCode }
  | { type: 'staff.device'; device: StaffDevice }
  | { type: 'staff.save' }
  | { type: 'staff.cancel' }
  | { type: 'staff.deactivate'; id: number }
  | { type: 'staff.confirm' }
  | { type: 'staff.close' }
  | { type: 'staff.reactivate'; id: number }
  | { type: 'staff.resend'; id: number }
  | { type: 'staff.revoke'; id: number }
  | { type: 'staff.invite' }
  /** From the invite dialog as it closes: how many were invited (the list loads again when some were). */
  | { type: 'invite.closed'; invited: number }
  | { type: 'xstate.snapshot.list'; snapshot: StaffListSnapshot };

export interface StaffInput {
  q?: string;
}

export const STAFF_INVITE_BUTTON_ID = 'staff-invite';
export const STAFF_ROLES_FIELD_ID = 'staff-roles';
/** A row's first action button: where the focus goes back when its dialog closes. */
export const staffRowId = (id: number): string => `staff-row-${id}`;

const queryOf = (context: StaffContext): StaffListQuery => ({
  q: context.q,
  state: context.state,
  sort: context.sort,
  order: context.order,
});

/** The account a row event names, among the rows shown. */
const memberOf = (context: StaffContext, id: number): StaffMember | undefined => context.items.find((member) => member.id === id);

/** The server's words for a refusal of roles (422 `errors.roles`) or of a deactivation (409), else the failure's own key. */
function problemOf(failure: ApiFailure, fallback: MessageKey): StaffProblem {
  const text = failure.fieldErrors.roles?.[0] ?? failure.fieldErrors.device?.[0] ?? serverMessage(failure);
  return text ? { text } : { key: fallback };
}

/** A row event's guard: the account it names is shown and allows it. */
const rowGuard =
  (allows: (member: StaffMember) => boolean) =>
  ({ context, event }: { context: StaffContext; event: StaffEvent }) => {
    const member = 'id' in event ? memberOf(context, event.id) : undefined;
    return member !== undefined && allows(member);
  };

export const staffMachine = setup({
  types: {
    context: {} as StaffContext,
    events: {} as StaffEvent,
    emitted: {} as Effect,
    input: {} as StaffInput | undefined,
    children: {} as { list: 'list'; invite: 'invite' },
  },
  actors: {
    list: staffListMachine,
    invite: inviteMachine,
    changeStaff,
    deactivateStaff,
    reactivateStaff,
    resendInvitation,
    revokeInvitation,
  },
  actions: {
    ...listHostActions<StaffContext, StaffEvent, StaffListQuery>(queryOf),
    forgetItems: assign({ items: [] }),
    assignItems: assign({
      items: ({ event }) => {
        assertEvent(event, 'xstate.snapshot.list');
        return event.snapshot.context.items;
      },
    }),
    assignSearch: assign(({ event }) => {
      assertEvent(event, 'staff.search');
      return { q: event.q };
    }),
    assignFilter: assign(({ event }) => {
      assertEvent(event, 'staff.filter');
      return { state: event.state };
    }),
    assignSort: assign(({ event }) => {
      assertEvent(event, 'staff.sort');
      return { sort: event.sort, order: event.order };
    }),
    assignTarget: assign(({ context, event }) => {
      assertEvent(event, ['staff.edit', 'staff.deactivate', 'staff.reactivate', 'staff.resend', 'staff.revoke']);
      const target = memberOf(context, event.id) ?? null;
      return { target, roles: target?.roles ?? [], device: target?.device ?? 'cl', problem: null, handover: null };
    }),
    toggleRole: assign(({ context, event }) => {
      assertEvent(event, 'staff.toggleRole');
      return { roles: toggledRoles(context.roles, event.role), problem: null };
    }),
    assignDevice: assign(({ event }) => {
      assertEvent(event, 'staff.device');
      return { device: event.device, problem: null };
    }),
    assignRolesProblem: assign(({ context }) => {
      const problem = context.target ? rolesProblem(context.target, context.roles) : null;
      return { problem: problem ? { key: `staff.error.${problem}` as const } : null };
    }),
    assignProblem: assign((_, problem: StaffProblem) => ({ problem })),
    assignHandover: assign((_, handover: Handover) => ({ handover })),
    clearDialog: assign({ target: null, problem: null, handover: null }),
    /** The fresher account in place of the row, without a reload. */
    updateRow: sendTo('list', (_, member: StaffMember) => ({ type: 'list.update' as const, items: [member] })),
    toast: emit((_, params: { key: MessageKey; name: string }) => ({
      type: 'toast' as const,
      kind: params.key === 'staff.toast.resentNotSent' ? ('warning' as const) : ('success' as const),
      key: params.key,
      params: { name: params.name },
    })),
    toastFailed: emit((_, failure: ApiFailure) => {
      const reason = serverMessage(failure);
      return reason
        ? { type: 'toast' as const, kind: 'error' as const, key: 'staff.toast.refused' as const, params: { reason } }
        : { type: 'toast' as const, kind: 'error' as const, key: 'staff.toast.failed' as const };
    }),
    focusRow: emit(({ context }) => ({
      type: 'focus' as const,
      target: context.target ? staffRowId(context.target.id) : STAFF_INVITE_BUTTON_ID,
    })),
    focusRoles: emit({ type: 'focus', target: STAFF_ROLES_FIELD_ID }),
    focusInvite: emit({ type: 'focus', target: STAFF_INVITE_BUTTON_ID }),
  },
  guards: {
    canChange: rowGuard(canChange),
    canDeactivate: rowGuard(canDeactivate),
    canReactivate: rowGuard(canReactivate),
    canResend: rowGuard(canResend),
    canRevoke: rowGuard(canRevoke),
    hasRolesProblem: ({ context }) => context.target !== null && rolesProblem(context.target, context.roles) !== null,
    hasChange: ({ context }) => context.target !== null && changeOf(context.target, context.roles, context.device) !== null,
    hasInvited: ({ event }) => {
      assertEvent(event, 'invite.closed');
      return event.invited > 0;
    },
  },
}).createMachine({
  id: 'staff',
  initial: 'shown',
  context: ({ input }) => ({
    q: input?.q ?? '',
    state: null,
    sort: 'name',
    order: 'asc',
    items: [],
    target: null,
    roles: [],
    device: 'cl',
    problem: null,
    handover: null,
  }),
  states: {
    shown: {
      invoke: { ...listChild(queryOf), onError: { target: 'crashed', actions: ['forgetItems', 'clearDialog'] } },
      on: {
        'staff.search': { actions: ['assignSearch', 'askQuery'] },
        'staff.filter': { actions: ['assignFilter', 'askQuery'] },
        'staff.sort': { actions: ['assignSort', 'askQuery'] },
        'staff.loadMore': { actions: 'askMore' },
        'staff.retry': { actions: 'askReload' },
      },
      initial: 'idle',
      states: {
        idle: {
          on: {
            'staff.edit': { guard: 'canChange', target: 'editing', actions: 'assignTarget' },
            'staff.deactivate': { guard: 'canDeactivate', target: 'confirmingDeactivate', actions: 'assignTarget' },
            'staff.reactivate': { guard: 'canReactivate', target: 'reactivating', actions: 'assignTarget' },
            'staff.resend': { guard: 'canResend', target: 'resending', actions: 'assignTarget' },
            'staff.revoke': { guard: 'canRevoke', target: 'revoking', actions: 'assignTarget' },
            'staff.invite': { target: 'inviting' },
          },
        },
        // Roles and device of `target`: checked here first, then saved; a refusal keeps what was picked.
        editing: {
          initial: 'open',
          states: {
            open: {
              on: {
                'staff.toggleRole': { actions: 'toggleRole' },
                'staff.device': { actions: 'assignDevice' },
                'staff.save': [
                  { guard: 'hasRolesProblem', actions: ['assignRolesProblem', 'focusRoles'] },
                  { guard: 'hasChange', target: 'saving' },
                  // Nothing changed: nothing to ask the server.
                  { target: '#staff.shown.idle', actions: ['focusRow', 'clearDialog'] },
                ],
                'staff.cancel': { target: '#staff.shown.idle', actions: ['focusRow', 'clearDialog'] },
              },
            },
            saving: {
              tags: 'busy',
              invoke: {
                id: 'changeStaff',
                src: 'changeStaff',
                input: ({ context }) => ({
                  id: context.target?.id ?? 0,
                  change: (context.target && changeOf(context.target, context.roles, context.device)) ?? {},
                }),
                onDone: {
                  target: '#staff.shown.idle',
                  actions: [
                    { type: 'updateRow', params: ({ event }) => event.output },
                    { type: 'toast', params: ({ event }) => ({ key: 'staff.toast.changed', name: event.output.name }) },
                    'focusRow',
                    'clearDialog',
                  ],
                },
                onError: {
                  target: 'open',
                  actions: [
                    { type: 'assignProblem', params: ({ event }) => problemOf(toApiFailure(event.error), 'staff.error.changeFailed') },
                    'focusRoles',
                  ],
                },
              },
            },
          },
        },
        // «¿Desactivar a …?»: what happens is said; Desactivar asks the server.
        confirmingDeactivate: {
          on: {
            'staff.confirm': { target: 'deactivating' },
            'staff.cancel': { target: 'idle', actions: ['focusRow', 'clearDialog'] },
          },
        },
        deactivating: {
          tags: 'busy',
          invoke: {
            id: 'deactivateStaff',
            src: 'deactivateStaff',
            input: ({ context }) => ({ id: context.target?.id ?? 0 }),
            onDone: {
              target: 'handover',
              actions: [
                { type: 'updateRow', params: ({ event }) => event.output.member },
                { type: 'assignHandover', params: ({ event }) => event.output.handover },
                { type: 'toast', params: ({ event }) => ({ key: 'staff.toast.deactivated', name: event.output.member.name }) },
              ],
            },
            // The last administrator, oneself: the server's words in the question, which stays open.
            onError: {
              target: 'confirmingDeactivate',
              actions: {
                type: 'assignProblem',
                params: ({ event }) => problemOf(toApiFailure(event.error), 'staff.error.deactivateFailed'),
              },
            },
          },
        },
        // Deactivated: the shared lists and scheduled messages they leave, to hand over; Cerrar closes.
        handover: {
          on: { 'staff.close': { target: 'idle', actions: ['focusRow', 'clearDialog'] } },
        },
        reactivating: {
          tags: 'busy',
          invoke: {
            id: 'reactivateStaff',
            src: 'reactivateStaff',
            input: ({ context }) => ({ id: context.target?.id ?? 0 }),
            onDone: {
              target: 'idle',
              actions: [
                { type: 'updateRow', params: ({ event }) => event.output },
                { type: 'toast', params: ({ event }) => ({ key: 'staff.toast.reactivated', name: event.output.name }) },
                'clearDialog',
              ],
            },
            onError: {
              target: 'idle',
              actions: [{ type: 'toastFailed', params: ({ event }) => toApiFailure(event.error) }, 'clearDialog'],
            },
          },
        },
        resending: {
          tags: 'busy',
          invoke: {
            id: 'resendInvitation',
            src: 'resendInvitation',
            input: ({ context }) => ({ id: context.target?.id ?? 0 }),
            onDone: {
              target: 'idle',
              actions: [
                { type: 'updateRow', params: ({ event }) => event.output.member },
                {
                  type: 'toast',
                  params: ({ event }) => ({
                    key: event.output.mailSent ? 'staff.toast.resent' : 'staff.toast.resentNotSent',
                    name: event.output.member.name,
                  }),
                },
                'clearDialog',
              ],
            },
            onError: {
              target: 'idle',
              actions: [{ type: 'toastFailed', params: ({ event }) => toApiFailure(event.error) }, 'clearDialog'],
            },
          },
        },
        revoking: {
          tags: 'busy',
          invoke: {
            id: 'revokeInvitation',
            src: 'revokeInvitation',
            input: ({ context }) => ({ id: context.target?.id ?? 0 }),
            onDone: {
              target: 'idle',
              actions: [
                { type: 'updateRow', params: ({ event }) => event.output },
                { type: 'toast', params: ({ event }) => ({ key: 'staff.toast.revoked', name: event.output.name }) },
                'clearDialog',
              ],
            },
            onError: {
              target: 'idle',
              actions: [{ type: 'toastFailed', params: ({ event }) => toApiFailure(event.error) }, 'clearDialog'],
            },
          },
        },
        // «Invitar personal»: the dialog lives as long as it is open, so nothing typed is lost meanwhile.
        inviting: {
          // A crashed dialog (a bug) closes; the list stays.
          invoke: {
            id: 'invite',
            src: 'invite',
            input: ({ self }) => ({ parent: self }),
            onError: { target: 'idle', actions: 'focusInvite' },
          },
          on: {
            'invite.closed': [
              { guard: 'hasInvited', target: 'idle', actions: ['askReload', 'focusInvite'] },
              { target: 'idle', actions: 'focusInvite' },
            ],
          },
        },
      },
    },
    // The list broke (a bug, not a failed request): Reintentar opens it again on the same search.
    crashed: {
      on: { 'staff.retry': { target: 'shown' } },
    },
  },
});

export type StaffActor = ActorRefFrom<typeof staffMachine>;
export type StaffSnapshot = SnapshotFrom<typeof staffMachine>;

// Selectors: primitives, or references the context keeps; what a row offers is `state.can` of its event.
export const selectStaffList = (s: StaffSnapshot): StaffListActor | undefined => s.children.list;
export const selectInvite = (s: StaffSnapshot) => s.children.invite;
export const selectStaffItems = (s: StaffSnapshot): StaffMember[] => s.context.items;
export const selectStaffQ = (s: StaffSnapshot): string => s.context.q;
export const selectStateFilter = (s: StaffSnapshot): StaffState | null => s.context.state;
/** The order as one value (`name_asc`), as the order select offers it. */
export const selectSortKey = (s: StaffSnapshot): `${StaffSort}_${SortOrder}` => `${s.context.sort}_${s.context.order}`;
export const selectHasCrashed = (s: StaffSnapshot): boolean => s.matches('crashed');
export const selectTarget = (s: StaffSnapshot): StaffMember | null => s.context.target;
export const selectIsEditing = (s: StaffSnapshot): boolean => s.matches({ shown: 'editing' });
export const selectIsConfirmingDeactivate = (s: StaffSnapshot): boolean =>
  s.matches({ shown: 'confirmingDeactivate' }) || s.matches({ shown: 'deactivating' });
export const selectIsShowingHandover = (s: StaffSnapshot): boolean => s.matches({ shown: 'handover' });
export const selectIsBusy = (s: StaffSnapshot): boolean => s.hasTag('busy');
export const selectRoles = (s: StaffSnapshot): RoleCode[] => s.context.roles;
export const selectDevice = (s: StaffSnapshot): StaffDevice => s.context.device;
export const selectProblem = (s: StaffSnapshot): StaffProblem | null => s.context.problem;
export const selectHandover = (s: StaffSnapshot): Handover | null => s.context.handover;
/** The row a request runs for (its buttons wait), or null. */
export const selectWorkingId = (s: StaffSnapshot): number | null => (s.hasTag('busy') ? (s.context.target?.id ?? null) : null);
