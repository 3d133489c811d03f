// /recipient-lists (SPEC §2): the user's lists and the colleagues' shared ones, paged with
// "Cargar más" and searched (the list pattern, list/list.ts, hosted as the child `list`), and "Nueva lista": a
// name and the compose recipient picker (compose/recipient-picker.ts, invoked as `picker` while the form is open,
// reporting `picker.confirmed` here). Saving opens the new list; a refused name or selection keeps
// everything typed and picked, with the server's field errors beside the fields.
import { assertEvent, assign, emit, sendTo, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { RecipientPick } from '../../../shared/compose-contract';
import { LIST_NAME_MAX, type RecipientListSummary } from '../../../shared/recipient-lists-contract';
import type { MessageKey } from '../../i18n';
import { toApiFailure, type ApiFailure } from '../../services/http/client';
import { createList, fetchListsPage, type ListsQuery } from '../../services/recipient-lists/recipient-lists';
import type { Effect } from '../app/effects';
import { listOf, listChild, listHostActions } from '../list/list';
import { recipientPickerMachine, type PickerReport } from '../compose/recipient-picker';

const listsListMachine = listOf<RecipientListSummary, ListsQuery>(fetchListsPage, (list) => list.id);
export type ListsListActor = ActorRefFrom<typeof listsListMachine>;
type ListsListSnapshot = SnapshotFrom<typeof listsListMachine>;

/** Field errors of a form: a text key (client check) or the server's Spanish text. */
export type FieldErrors = Partial<Record<string, { key: MessageKey } | { text: string }>>;

export interface ListsContext {
  q: string;
  items: RecipientListSummary[];
  name: string;
  picks: RecipientPick[];
  errors: FieldErrors;
}

export type ListsEvent =
  | { type: 'lists.search'; q: string }
  | { type: 'lists.loadMore' }
  | { type: 'lists.retry' }
  | { type: 'lists.create' }
  | { type: 'lists.name'; name: string }
  | { type: 'lists.removePick'; pick: RecipientPick }
  | { type: 'lists.save' }
  | { type: 'lists.cancel' }
  | PickerReport
  | { type: 'xstate.snapshot.list'; snapshot: ListsListSnapshot };

/** The id of the new list's name field (focus goes there when it is refused). */
export const LIST_NAME_FIELD_ID = 'recipient-list-name';
export const LIST_PICKS_FIELD_ID = 'recipient-list-picks';
export const LIST_CREATE_BUTTON_ID = 'recipient-lists-create';

const NO_ERRORS: FieldErrors = {};
const NO_PICKS: RecipientPick[] = [];

/** What the form itself can tell before asking the server: a name (≤ 80) and someone in the list. */
export function createErrors(name: string, picks: readonly RecipientPick[]): FieldErrors {
  const errors: FieldErrors = {};
  const trimmed = name.trim();
  if (!trimmed) errors.name = { key: 'recipientLists.error.nameRequired' };
  else if (trimmed.length > LIST_NAME_MAX) errors.name = { key: 'recipientLists.error.nameTooLong' };
  if (picks.length === 0) errors.picks = { key: 'recipientLists.error.picksRequired' };
  return errors;
}

/** A 422's per-field texts, first of each field, as the form shows them. */
export function serverErrors(failure: ApiFailure): FieldErrors | null {
  if (failure.status !== 422) return null;
  const errors: FieldErrors = {};
  for (const [field, texts] of Object.entries(failure.fieldErrors)) if (texts[0]) errors[field] = { text: texts[0] };
  return Object.keys(errors).length > 0 ? errors : null;
}

const queryOf = (context: ListsContext): ListsQuery => ({ q: context.q });

const samePick = (a: RecipientPick, b: RecipientPick) =>
  a.kind === b.kind && a.id === b.id && ('audience' in a ? a.audience : '') === ('audience' in b ? b.audience : '');

export const recipientListsMachine = setup({
  types: {
    context: {} as ListsContext,
    events: {} as ListsEvent,
    emitted: {} as Effect,
    input: {} as { q?: string } | undefined,
    children: {} as { list: 'list'; picker: 'recipientPicker' },
  },
  actors: { list: listsListMachine, createList, recipientPicker: recipientPickerMachine },
  actions: {
    /** The list crashed: its rows go with it (a new list starts empty). */
    forgetItems: assign({ items: [] }),
    ...listHostActions<ListsContext, ListsEvent, ListsQuery>(queryOf),
    /** Its rows, as the list's last snapshot had them (the same array). */
    assignItems: assign({
      items: ({ event }) => {
        assertEvent(event, 'xstate.snapshot.list');
        return event.snapshot.context.items;
      },
    }),
    assignQuery: assign(({ event }) => {
      assertEvent(event, 'lists.search');
      return { q: event.q };
    }),
    resetForm: assign({ name: '', picks: NO_PICKS, errors: NO_ERRORS }),
    assignName: assign(({ context, event }) => {
      assertEvent(event, 'lists.name');
      const { name: _gone, ...errors } = context.errors;
      return { name: event.name, errors: context.errors.name ? errors : context.errors };
    }),
    assignPicks: assign(({ context, event }) => {
      assertEvent(event, 'picker.confirmed');
      const { picks: _gone, ...errors } = context.errors;
      return { picks: event.picks, errors: context.errors.picks && event.picks.length > 0 ? errors : context.errors };
    }),
    removePick: assign(({ context, event }) => {
      assertEvent(event, 'lists.removePick');
      return { picks: context.picks.filter((pick) => !samePick(pick, event.pick)) };
    }),
    syncPicker: sendTo('picker', ({ context }) => ({ type: 'picker.sync' as const, picks: context.picks })),
    clearErrors: assign({ errors: NO_ERRORS }),
    assignCheckErrors: assign(({ context }) => ({ errors: createErrors(context.name, context.picks) })),
    assignServerErrors: assign((_, failure: ApiFailure) => ({ errors: serverErrors(failure) ?? NO_ERRORS })),
    focusFirstError: emit(({ context }) => ({
      type: 'focus' as const,
      target: context.errors.name ? LIST_NAME_FIELD_ID : LIST_PICKS_FIELD_ID,
    })),
    focusCreate: emit({ type: 'focus', target: LIST_CREATE_BUTTON_ID }),
    toastCreated: emit({ type: 'toast', kind: 'success', key: 'recipientLists.created' }),
    toastFailed: emit({ type: 'toast', kind: 'error', key: 'recipientLists.saveFailed' }),
    openCreated: emit((_, list: RecipientListSummary) => ({ type: 'navigate' as const, to: `/recipient-list/${list.id}` })),
  },
  guards: {
    isValid: ({ context }) => Object.keys(createErrors(context.name, context.picks)).length === 0,
    isFieldError: (_, failure: ApiFailure) => serverErrors(failure) !== null,
  },
}).createMachine({
  id: 'recipientLists',
  initial: 'shown',
  context: ({ input }) => ({ q: input?.q ?? '', items: [], name: '', picks: NO_PICKS, errors: NO_ERRORS }),
  states: {
    shown: {
      invoke: { ...listChild(queryOf), onError: { target: 'crashed', actions: 'forgetItems' } },
      on: {
        'lists.search': { actions: ['assignQuery', 'askQuery'] },
        'lists.loadMore': { actions: 'askMore' },
        'lists.retry': { actions: 'askReload' },
      },
      initial: 'idle',
      states: {
        idle: {
          on: { 'lists.create': { target: 'creating', actions: 'resetForm' } },
        },
        // "Nueva lista" is open: its picker lives as long as the form, so a picked selection stays.
        creating: {
          invoke: { id: 'picker', src: 'recipientPicker', input: ({ self }) => ({ initial: NO_PICKS, parent: self }) },
          initial: 'editing',
          states: {
            editing: {
              on: {
                'lists.name': { actions: 'assignName' },
                'picker.confirmed': { actions: 'assignPicks' },
                'lists.removePick': { actions: ['removePick', 'syncPicker'] },
                'lists.save': [
                  { guard: 'isValid', target: 'saving', actions: 'clearErrors' },
                  { actions: ['assignCheckErrors', 'focusFirstError'] },
                ],
                'lists.cancel': { target: '#recipientLists.shown.idle', actions: 'focusCreate' },
              },
            },
            saving: {
              tags: 'busy',
              invoke: {
                id: 'createList',
                src: 'createList',
                input: ({ context }) => ({ name: context.name.trim(), picks: context.picks }),
                onDone: {
                  target: '#recipientLists.shown.idle',
                  actions: ['toastCreated', { type: 'openCreated', params: ({ event }) => event.output }],
                },
                onError: [
                  {
                    guard: { type: 'isFieldError', params: ({ event }) => toApiFailure(event.error) },
                    target: 'editing',
                    actions: [{ type: 'assignServerErrors', params: ({ event }) => toApiFailure(event.error) }, 'focusFirstError'],
                  },
                  { target: 'editing', actions: 'toastFailed' },
                ],
              },
            },
          },
        },
      },
    },
    // The list broke (a bug, not a failed request): Reintentar opens it again on the same search.
    crashed: {
      on: { 'lists.retry': { target: 'shown' } },
    },
  },
});

export type RecipientListsSnapshot = SnapshotFrom<typeof recipientListsMachine>;

export const selectListsList = (s: RecipientListsSnapshot): ListsListActor | undefined => s.children.list;
export const selectListsPicker = (s: RecipientListsSnapshot) => s.children.picker;
export const selectListsItems = (s: RecipientListsSnapshot): RecipientListSummary[] => s.context.items;
export const selectListsQuery = (s: RecipientListsSnapshot): string => s.context.q;
export const selectIsCreating = (s: RecipientListsSnapshot): boolean => s.matches({ shown: 'creating' });
export const selectIsSaving = (s: RecipientListsSnapshot): boolean => s.hasTag('busy');
export const selectHasCrashed = (s: RecipientListsSnapshot): boolean => s.matches('crashed');
export const selectNewName = (s: RecipientListsSnapshot): string => s.context.name;
export const selectNewPicks = (s: RecipientListsSnapshot): RecipientPick[] => s.context.picks;
export const selectErrors = (s: RecipientListsSnapshot): FieldErrors => s.context.errors;
