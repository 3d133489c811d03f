// The recipient picker dialog (SPEC §2, §5): tabs students / staff / recipient lists, a role filter, a
// search that ignores case and accents, a preview of at most 20 rows per tab with the total count, and
// the selection. `GET /recipients` is indexed once per load (services/recipient-index.ts); every
// keystroke is a search over that index, fast enough to need no debounce (see bench/recipient-search.ts).
// Recipient lists load lazily, page by page, the first time their tab opens.
//
// Compose spawns it (child `picker`) once the form is shown, starting from the picks compose restored, so
// the recipients load before the dialog opens and the chips can flag empty courses. Two regions: whether
// the dialog is open (`dialog`), and the recipients it shows (`recipients`). The dialog opens on the
// selection of the chips; `picker.cancel` returns to it, `picker.confirm` reports the picks (chip labels
// filled) to compose through the `parent` of its input. Compose keeps the selection in step when a chip is
// removed (`picker.sync`).
import { and, assertEvent, assign, sendTo, setup, stateIn, type ActorRefFrom, type AnyActorRef, type SnapshotFrom } from 'xstate';
import { fetchRecipientLists, fetchRecipients } from '../services/compose';
import {
  MAX_PICKS,
  type Audience,
  type NumberedPage,
  type RecipientAppointment,
  type RecipientList,
  type RecipientPick,
  type Recipients,
} from '../../shared/compose-contract';
import {
  buildRecipientIndex,
  countPeople,
  emptyGroups,
  labelOf,
  NO_FILTERS,
  pickKey,
  search,
  withLists,
  type IndexItem,
  type PickerTab,
  type RecipientIndex,
  type SearchFilters,
} from '../services/recipient-index';

export { pickKey, pickOf, PREVIEW_LIMIT, type IndexItem, type PickerTab } from '../services/recipient-index';

export interface PickerInput {
  initial: RecipientPick[];
  /** Who hears `picker.confirmed` (compose); passed in, so transitions can be computed without a parent. */
  parent: AnyActorRef;
}

export interface PickerContext {
  parent: AnyActorRef;
  recipients: Recipients | null;
  /** Built once per `GET /recipients` answer, extended as list pages arrive. */
  index: RecipientIndex | null;
  tab: PickerTab;
  query: string;
  filters: SearchFilters;
  /** At most PREVIEW_LIMIT rows of the current tab matching query and filters; `total` counts them all. */
  preview: IndexItem[];
  total: number;
  picks: RecipientPick[];
  /** The selection the dialog opened with: `picker.cancel` restores it. */
  initial: RecipientPick[];
  /** Approximate distinct people the picks reach (the server's estimate is authoritative). */
  people: number;
  lists: RecipientList[];
  /** Last list page loaded (0 before the first) and the last page there is (null until known). */
  listsPage: number;
  listsLastPage: number | null;
}

export type PickerEvent =
  | { type: 'picker.open' }
  /** From compose: the chips changed outside the dialog (a chip removed). */
  | { type: 'picker.sync'; picks: RecipientPick[] }
  | { type: 'picker.retry' }
  | { type: 'picker.tab'; tab: PickerTab }
  | { type: 'picker.search'; query: string }
  | { type: 'picker.filter'; audience: Audience | null }
  | { type: 'picker.filter'; cargoId: number | null }
  | { type: 'picker.toggle'; pick: RecipientPick }
  | { type: 'picker.clear' }
  | { type: 'picker.moreLists' }
  | { type: 'picker.confirm' }
  | { type: 'picker.cancel' };

/** What the picker tells compose. */
export interface PickerReport {
  type: 'picker.confirmed';
  picks: RecipientPick[];
}

/** The current tab's preview and total for the context as it is now. */
function refreshed(context: PickerContext): Pick<PickerContext, 'preview' | 'total'> {
  if (!context.index) return { preview: [], total: 0 };
  return search(context.index, context.tab, context.query, context.filters);
}

const samePick = (a: RecipientPick, b: RecipientPick) => pickKey(a) === pickKey(b);

export const recipientPickerMachine = setup({
  types: {
    context: {} as PickerContext,
    events: {} as PickerEvent,
    input: {} as PickerInput,
  },
  actors: { fetchRecipients, fetchRecipientLists },
  actions: {
    /** On `xstate.done.actor.loadRecipients`. */
    indexRecipients: assign(({ context }, recipients: Recipients) => {
      const index = buildRecipientIndex(recipients, context.lists);
      const next = { ...context, recipients, index };
      return { recipients, index, people: countPeople(index, context.picks), ...refreshed(next) };
    }),
    /** On `xstate.done.actor.loadLists`: appended after the pages already shown. */
    appendLists: assign(({ context }, page: NumberedPage<RecipientList>) => {
      const lists = [...context.lists, ...page.data.filter((list) => !context.lists.some((known) => known.id === list.id))];
      const index = context.index ? withLists(context.index, lists) : null;
      const next = { ...context, lists, index };
      return {
        lists,
        index,
        listsPage: page.meta.current_page,
        listsLastPage: page.meta.last_page,
        people: index ? countPeople(index, context.picks) : context.people,
        ...refreshed(next),
      };
    }),
    setTab: assign(({ context, event }) => {
      assertEvent(event, 'picker.tab');
      return { tab: event.tab, ...refreshed({ ...context, tab: event.tab }) };
    }),
    setQuery: assign(({ context, event }) => {
      assertEvent(event, 'picker.search');
      return { query: event.query, ...refreshed({ ...context, query: event.query }) };
    }),
    setFilter: assign(({ context, event }) => {
      assertEvent(event, 'picker.filter');
      const filters = 'audience' in event ? { ...context.filters, audience: event.audience } : { ...context.filters, cargoId: event.cargoId };
      return { filters, ...refreshed({ ...context, filters }) };
    }),
    togglePick: assign(({ context, event }) => {
      assertEvent(event, 'picker.toggle');
      const picked = context.picks.some((pick) => samePick(pick, event.pick));
      const labelled = context.index ? { ...event.pick, label: labelOf(context.index, event.pick) || event.pick.label } : event.pick;
      const picks = picked ? context.picks.filter((pick) => !samePick(pick, event.pick)) : [...context.picks, labelled];
      return { picks, people: context.index ? countPeople(context.index, picks) : 0 };
    }),
    clearPicks: assign({ picks: [], people: 0 }),
    syncPicks: assign(({ context, event }) => {
      assertEvent(event, 'picker.sync');
      return { picks: event.picks, initial: event.picks, people: context.index ? countPeople(context.index, event.picks) : 0 };
    }),
    /** The selection the dialog opens with, or just confirmed, is where the next cancel returns to. */
    keepPicks: assign(({ context }) => ({ initial: context.picks })),
    restorePicks: assign(({ context }) => ({
      picks: context.initial,
      people: context.index ? countPeople(context.index, context.initial) : 0,
    })),
    reportConfirmed: sendTo(
      ({ context }) => context.parent,
      ({ context }): PickerReport => ({
        type: 'picker.confirmed',
        picks: context.picks.map((pick) => (context.index ? { ...pick, label: labelOf(context.index, pick) || pick.label } : pick)),
      }),
    ),
  },
  guards: {
    /** Picking needs the recipients (labels, counts); before, the dialog shows them loading. */
    isReady: stateIn('#recipientPicker.recipients.ready'),
    isListsTab: ({ event }) => {
      assertEvent(event, 'picker.tab');
      return event.tab === 'lists';
    },
    hasMoreLists: ({ context }) => context.listsLastPage !== null && context.listsPage < context.listsLastPage,
    /** Removing is always possible; adding stops at the contract's MAX_PICKS. */
    canToggle: ({ context, event }) => {
      assertEvent(event, 'picker.toggle');
      return context.picks.length < MAX_PICKS || context.picks.some((pick) => samePick(pick, event.pick));
    },
  },
}).createMachine({
  id: 'recipientPicker',
  type: 'parallel',
  context: ({ input }) => ({
    parent: input.parent,
    recipients: null,
    index: null,
    tab: 'students',
    query: '',
    filters: NO_FILTERS,
    preview: [],
    total: 0,
    picks: input.initial,
    initial: input.initial,
    people: 0,
    lists: [],
    listsPage: 0,
    listsLastPage: null,
  }),
  on: {
    'picker.sync': { actions: 'syncPicks' },
  },
  states: {
    dialog: {
      initial: 'closed',
      states: {
        closed: {
          on: { 'picker.open': { target: 'open', actions: 'keepPicks' } },
        },
        // The selection changes only here. Escape, an outside click and "Cancelar" all cancel.
        open: {
          on: {
            'picker.toggle': { guard: and(['isReady', 'canToggle']), actions: 'togglePick' },
            'picker.clear': { guard: 'isReady', actions: 'clearPicks' },
            'picker.cancel': { target: 'closed', actions: 'restorePicks' },
            'picker.confirm': { guard: 'isReady', target: 'closed', actions: ['keepPicks', 'reportConfirmed'] },
          },
        },
      },
    },
    recipients: {
      initial: 'loading',
      states: {
        loading: {
          invoke: {
            id: 'loadRecipients',
            src: 'fetchRecipients',
            onDone: { target: 'ready', actions: { type: 'indexRecipients', params: ({ event }) => event.output } },
            onError: { target: 'failed' },
          },
        },
        // List failures are silent (SPEC §8): the dialog shows the failed state and a retry.
        failed: {
          on: { 'picker.retry': { target: 'loading' } },
        },
        ready: {
          initial: 'listsIdle',
          on: {
            'picker.tab': { actions: 'setTab' },
            'picker.search': { actions: 'setQuery' },
            'picker.filter': { actions: 'setFilter' },
          },
          states: {
            // Lists are fetched the first time their tab opens, not before.
            listsIdle: {
              on: {
                'picker.tab': [{ guard: 'isListsTab', target: 'listsLoading', actions: 'setTab' }, { actions: 'setTab' }],
              },
            },
            listsLoading: {
              invoke: {
                id: 'loadLists',
                src: 'fetchRecipientLists',
                input: ({ context }) => ({ page: context.listsPage + 1 }),
                onDone: { target: 'listsLoaded', actions: { type: 'appendLists', params: ({ event }) => event.output } },
                onError: { target: 'listsFailed' },
              },
            },
            listsLoaded: {
              on: {
                'picker.moreLists': { guard: 'hasMoreLists', target: 'listsLoading' },
              },
            },
            listsFailed: {
              on: {
                'picker.retry': { target: 'listsLoading' },
              },
            },
          },
        },
      },
    },
  },
});

export type RecipientPickerMachine = typeof recipientPickerMachine;
export type RecipientPickerSnapshot = SnapshotFrom<typeof recipientPickerMachine>;
export type PickerActor = ActorRefFrom<typeof recipientPickerMachine>;

// --- selectors (one primitive each, or a reference that only changes when its value does) -------------

/** The dialog is open (the page's `Dialog` follows this). */
export const selectIsOpen = (snapshot: RecipientPickerSnapshot): boolean => snapshot.matches({ dialog: 'open' });
export const selectIsLoading = (snapshot: RecipientPickerSnapshot): boolean => snapshot.matches({ recipients: 'loading' });
export const selectHasFailed = (snapshot: RecipientPickerSnapshot): boolean => snapshot.matches({ recipients: 'failed' });
export const selectIsReady = (snapshot: RecipientPickerSnapshot): boolean => snapshot.matches({ recipients: 'ready' });
export const selectTab = (snapshot: RecipientPickerSnapshot): PickerTab => snapshot.context.tab;
export const selectQuery = (snapshot: RecipientPickerSnapshot): string => snapshot.context.query;
export const selectAudience = (snapshot: RecipientPickerSnapshot): Audience | null => snapshot.context.filters.audience;
export const selectCargoId = (snapshot: RecipientPickerSnapshot): number | null => snapshot.context.filters.cargoId;
/** Rows of the current tab (≤ 20); the same array until the tab, query, filter or data change. */
export const selectPreview = (snapshot: RecipientPickerSnapshot): IndexItem[] => snapshot.context.preview;
export const selectTotal = (snapshot: RecipientPickerSnapshot): number => snapshot.context.total;
export const selectPicks = (snapshot: RecipientPickerSnapshot): RecipientPick[] => snapshot.context.picks;
export const selectPickCount = (snapshot: RecipientPickerSnapshot): number => snapshot.context.picks.length;
export const selectPeopleCount = (snapshot: RecipientPickerSnapshot): number => snapshot.context.people;
/** Cargo filter options (staff tab). */
export const selectAppointments = (snapshot: RecipientPickerSnapshot): RecipientAppointment[] =>
  snapshot.context.recipients?.appointments ?? NO_APPOINTMENTS;
const NO_APPOINTMENTS: RecipientAppointment[] = [];
export const selectIsLoadingLists = (snapshot: RecipientPickerSnapshot): boolean => snapshot.matches({ recipients: { ready: 'listsLoading' } });
export const selectListsFailed = (snapshot: RecipientPickerSnapshot): boolean => snapshot.matches({ recipients: { ready: 'listsFailed' } });
export const selectHasMoreLists = (snapshot: RecipientPickerSnapshot): boolean =>
  snapshot.matches({ recipients: { ready: 'listsLoaded' } }) && snapshot.context.listsLastPage !== null && snapshot.context.listsPage < snapshot.context.listsLastPage;
/** Whether `pick` is selected: `useSelector(ref, (s) => selectIsPicked(s, pick))`. */
export const selectIsPicked = (snapshot: RecipientPickerSnapshot, pick: RecipientPick): boolean => {
  const key = pickKey(pick);
  return snapshot.context.picks.some((picked) => pickKey(picked) === key);
};
/** Picked courses/levels/electives with no students (flagged), as `kind:id` keys joined by commas. */
export const selectEmptyPickKeys = (snapshot: RecipientPickerSnapshot): string =>
  snapshot.context.index ? emptyGroups(snapshot.context.index, snapshot.context.picks).map(pickKey).join(',') : '';
