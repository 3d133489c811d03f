// The recipient picker dialog (SPEC §2, §5): tabs students / staff / recipient lists, a role filter, a
// search that ignores case and accents, a preview of at most 20 rows per tab with the total count, and
// the selection. `GET /recipients` is indexed once per load (shared/recipient-index.ts); every
// keystroke is a search over that index, fast enough to need no debounce (see bench/recipient-search.ts).
// A large school's directory takes seconds on a phone's network (bench (y)), so the levels and courses
// alone (`GET /recipients/courses`, a few kB) are asked for beside it and indexed first: meanwhile the
// dialog searches and shows them, and picking waits for the people (counts, labels, empty courses).
// Saved recipient lists load the first time their tab opens, in a `lists` child (the list pattern,
// machines/list/list.ts) whose pages the picker indexes as they arrive; the view pages and retries it directly.
//
// Compose spawns it (child `picker`) once the form is shown, starting from the picks compose restored, so
// the recipients load before the dialog opens and the chips can flag empty courses. Two regions: whether
// the dialog is open (`dialog`), and the recipients it shows (`recipients`). The dialog opens on the
// selection of the chips; `picker.cancel` returns to it, `picker.confirm` reports the picks (chip labels
// filled) to compose through the `parent` of its input. Compose keeps the selection in step when a chip is
// removed (`picker.sync`), and tells the picker how many people the server's estimate counted for the
// chips (`picker.estimated`): for that selection the picker shows the estimate's figure, not its own
// approximation, so the dialog, the chips and the confirmation say the same number.
import { and, assertEvent, assign, not, sendTo, setup, stateIn, type ActorRefFrom, type AnyActorRef, type SnapshotFrom } from 'xstate';
import { fetchRecipientGroups, fetchRecipientListPage, fetchRecipients } from '../../services/compose/compose';
import { MAX_PICKS, type Audience, type RecipientGroups, type RecipientPick, type Recipients } from '../../../shared/compose-contract';
import type { RecipientList } from '../../../shared/recipient-lists-contract';
import {
  buildRecipientIndex,
  countPeople,
  labelOf,
  NO_FILTERS,
  pickKey,
  search,
  withLists,
  type IndexItem,
  type PickerTab,
  type RecipientIndex,
  type SearchFilters,
} from '../../../shared/recipient-index';
import { listOf, type ListSnapshot } from '../list/list';

export { isFamilyPick, pickKey, pickOf, type IndexItem, type PickerTab } from '../../../shared/recipient-index';

export interface PickerInput {
  initial: RecipientPick[];
  /** Who hears `picker.confirmed` (compose); passed in, so transitions can be computed without a parent. */
  parent: AnyActorRef;
}

export interface PickerContext {
  parent: AnyActorRef;
  recipients: Recipients | null;
  /**
   * Built once per `GET /recipients` answer, extended as list pages arrive; before that answer, the levels
   * and courses alone (without people) while they are there.
   */
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
  /** Distinct people the picks reach: the server's estimate for the selection it counted, else the index's approximation. */
  people: number;
  /** `people` is the server's estimate (true) or the index's approximation (false). */
  exact: boolean;
  /** The last estimate compose reported: the selection it counted (`selectionKey`) and its people. */
  estimated: { key: string; people: number } | null;
  /** The saved lists loaded so far (the `lists` child's rows). */
  lists: RecipientList[];
}

export type PickerEvent =
  | { type: 'picker.open' }
  /** From compose: the chips changed outside the dialog (a chip removed). */
  | { type: 'picker.sync'; picks: RecipientPick[] }
  /** From compose: the server's estimate counted `people` for the selection `picks`. */
  | { type: 'picker.estimated'; picks: RecipientPick[]; people: number }
  | { type: 'picker.retry' }
  | { type: 'picker.tab'; tab: PickerTab }
  | { type: 'picker.search'; query: string }
  | { type: 'picker.filter'; audience: Audience | null }
  | { type: 'picker.filter'; cargoId: number | null }
  | { type: 'picker.toggle'; pick: RecipientPick }
  | { type: 'picker.clear' }
  | { type: 'xstate.snapshot.lists'; snapshot: RecipientListsSnapshot }
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

/** A selection's identity, whatever the order it was made in. */
const selectionKey = (picks: readonly RecipientPick[]) => picks.map(pickKey).sort().join('|');

/** The people `picks` reach: the estimate's figure when it counted this very selection, else the index's. */
function counted(
  context: Pick<PickerContext, 'recipients' | 'index' | 'estimated'>,
  picks: readonly RecipientPick[],
): Pick<PickerContext, 'people' | 'exact'> {
  if (context.estimated && context.estimated.key === selectionKey(picks)) return { people: context.estimated.people, exact: true };
  // The levels and courses alone count nobody: until the people arrive there is no approximation.
  return { people: context.recipients && context.index ? countPeople(context.index, picks) : 0, exact: false };
}

/** The levels and courses as a directory without people, for the index. */
const withoutPeople = (groups: RecipientGroups): Recipients => ({
  levels: groups.levels,
  courses: groups.courses.map((group) => ({ ...group, estudiantes: [], apoderados: [] })),
  appointments: [],
});

/** The saved lists tab: the list pattern over `GET /recipient-lists`, unfiltered (the search is the picker's). */
const recipientListsMachine = listOf<RecipientList, null>(fetchRecipientListPage, (list) => list.id);
export type RecipientListsActor = ActorRefFrom<typeof recipientListsMachine>;
type RecipientListsSnapshot = ListSnapshot<RecipientList, null>;

export const recipientPickerMachine = setup({
  types: {
    context: {} as PickerContext,
    events: {} as PickerEvent,
    input: {} as PickerInput,
    children: {} as { lists: 'lists' },
  },
  actors: { fetchRecipients, fetchRecipientGroups, lists: recipientListsMachine },
  actions: {
    /** On `xstate.done.actor.loadRecipients`. */
    indexRecipients: assign(({ context }, recipients: Recipients) => {
      const index = buildRecipientIndex(recipients, context.lists);
      const next = { ...context, recipients, index };
      return { recipients, index, ...counted(next, context.picks), ...refreshed(next) };
    }),
    /** On `xstate.done.actor.loadGroups`: the levels and courses, searched and shown until the people arrive. */
    indexGroups: assign(({ context }, groups: RecipientGroups) => {
      const index = buildRecipientIndex(withoutPeople(groups), context.lists);
      return { index, ...refreshed({ ...context, index }) };
    }),
    /** The directory did not come: the levels and courses shown meanwhile go with it. */
    forgetGroups: assign({ index: null, preview: [], total: 0 }),
    /** The `lists` child's rows changed (a page arrived): indexed, so the search and the counts see them. */
    indexLists: assign(({ context, event }) => {
      assertEvent(event, 'xstate.snapshot.lists');
      const lists = event.snapshot.context.items;
      const index = context.index ? withLists(context.index, lists) : null;
      return { lists, index, ...counted({ ...context, index }, context.picks), ...refreshed({ ...context, lists, index }) };
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
      const filters =
        'audience' in event ? { ...context.filters, audience: event.audience } : { ...context.filters, cargoId: event.cargoId };
      return { filters, ...refreshed({ ...context, filters }) };
    }),
    togglePick: assign(({ context, event }) => {
      assertEvent(event, 'picker.toggle');
      const picked = context.picks.some((pick) => samePick(pick, event.pick));
      const labelled = context.index ? { ...event.pick, label: labelOf(context.index, event.pick) || event.pick.label } : event.pick;
      const picks = picked ? context.picks.filter((pick) => !samePick(pick, event.pick)) : [...context.picks, labelled];
      return { picks, ...counted(context, picks) };
    }),
    clearPicks: assign({ picks: [], people: 0, exact: false }),
    syncPicks: assign(({ context, event }) => {
      assertEvent(event, 'picker.sync');
      return { picks: event.picks, initial: event.picks, ...counted(context, event.picks) };
    }),
    keepEstimated: assign(({ context, event }) => {
      assertEvent(event, 'picker.estimated');
      const estimated = { key: selectionKey(event.picks), people: event.people };
      return { estimated, ...counted({ ...context, estimated }, context.picks) };
    }),
    /** The selection the dialog opens with, or just confirmed, is where the next cancel returns to. */
    keepPicks: assign(({ context }) => ({ initial: context.picks })),
    restorePicks: assign(({ context }) => ({ picks: context.initial, ...counted(context, context.initial) })),
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
    hasNewLists: ({ context, event }) => {
      assertEvent(event, 'xstate.snapshot.lists');
      return event.snapshot.context.items !== context.lists;
    },
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
    exact: false,
    estimated: null,
    lists: [],
  }),
  on: {
    'picker.sync': { actions: 'syncPicks' },
    'picker.estimated': { actions: 'keepEstimated' },
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
          initial: 'groups',
          invoke: {
            id: 'loadRecipients',
            src: 'fetchRecipients',
            onDone: { target: 'ready', actions: { type: 'indexRecipients', params: ({ event }) => event.output } },
            onError: { target: 'failed', actions: 'forgetGroups' },
          },
          // The saved lists tab waits for the people (its lists load once the directory is ready).
          on: {
            'picker.tab': { guard: not('isListsTab'), actions: 'setTab' },
            'picker.search': { actions: 'setQuery' },
            'picker.filter': { actions: 'setFilter' },
          },
          states: {
            // The levels and courses are asked for beside the whole directory.
            groups: {
              invoke: {
                id: 'loadGroups',
                src: 'fetchRecipientGroups',
                onDone: { target: 'people', actions: { type: 'indexGroups', params: ({ event }) => event.output } },
                // Silent: the whole directory brings them too.
                onError: { target: 'people' },
              },
            },
            // Shown (or failed to come): only the people are awaited.
            people: {},
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
                'picker.tab': [{ guard: 'isListsTab', target: 'listsShown', actions: 'setTab' }, { actions: 'setTab' }],
              },
            },
            // Loaded, paged and retried by the child (its failures are silent, on its own states).
            listsShown: {
              invoke: {
                id: 'lists',
                src: 'lists',
                input: { query: null },
                onSnapshot: { guard: 'hasNewLists', actions: 'indexLists' },
              },
            },
          },
        },
      },
    },
  },
});

export type RecipientPickerSnapshot = SnapshotFrom<typeof recipientPickerMachine>;
export type PickerActor = ActorRefFrom<typeof recipientPickerMachine>;
