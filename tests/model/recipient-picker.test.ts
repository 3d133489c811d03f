import {
  assign,
  createActor,
  initialTransition,
  setup,
  transition,
  type AnyActorRef,
  type AnyEventObject,
  type AnyMachineSnapshot,
  type StateValue,
} from 'xstate';
import { expect } from 'vitest';
import { recipientPickerMachine, type RecipientPickerSnapshot } from '../../src/machines/compose/recipient-picker';
import {
  selectAudience,
  selectCanBrowse,
  selectCargoId,
  selectEmptyPickKeys,
  selectHasFailed,
  selectIsLoading,
  selectIsOpen,
  selectIsPicked,
  selectIsReady,
  selectLists,
  selectPeopleCount,
  selectPeopleExact,
  selectPickCount,
  selectPicks,
  selectPreview,
  selectQuery,
  selectTab,
  selectTotal,
} from '../../src/machines/compose/recipient-picker-selectors';
import type { RecipientGroups, RecipientPick } from '../../shared/compose-contract';
import type { RecipientList } from '../../shared/recipient-lists-contract';
import { buildRecipientIndex, pickKey, search, type PickerTab } from '../../shared/recipient-index';
import { defineModelTests, send, settle, type StepEnv } from './harness';
import { PLANNING_PARENT, recordingParent } from './doubles';
import { failure } from './fixtures';
import { thirdGrade } from '../fixtures/recipients';

const pk = (snapshot: AnyMachineSnapshot) => snapshot as unknown as RecipientPickerSnapshot;

/** Staff 900 is Marta Muñoz: the staff search for "munoz" finds her alone. */
const RECIPIENTS = thirdGrade();
/** Its levels and courses alone (`GET /recipients/courses`). */
const GROUPS: RecipientGroups = {
  levels: RECIPIENTS.levels,
  courses: RECIPIENTS.courses.map(({ id, nombre, grupo_type, level_id }) => ({ id, nombre, grupo_type, level_id })),
};

const LIST_1: RecipientList = { id: 1, name: 'Centro de Padres Muñoz', users_count: 12 };
const LIST_2: RecipientList = { id: 2, name: 'Directiva', users_count: 5 };
const SERVER_DOWN = failure(500, 'server.error');

/**
 * Stands in for the saved lists' list (machines/list/list.ts, its own model test covers paging and failures):
 * the test hands it the rows a page would bring, and the picker indexes what its snapshot holds.
 */
const listsStandIn = setup({
  types: { context: {} as { items: RecipientList[] }, events: {} as { type: 'test.rows'; items: RecipientList[] } },
}).createMachine({
  id: 'listsStandIn',
  context: () => ({ items: [] }),
  on: { 'test.rows': { actions: assign({ items: ({ event }) => event.items }) } },
});

/** The stand-in's snapshot holding `items`, as the picker's `xstate.snapshot.lists` carries it. */
function listsHolding(items: RecipientList[]) {
  const [initial] = initialTransition(listsStandIn);
  return transition(listsStandIn, initial, { type: 'test.rows', items })[0];
}

// Picks and the people each reaches in RECIPIENTS (disjoint, so counts add up).
const P_GUARDIAN: RecipientPick = { kind: 'guardian', id: 501, label: 'Ana Rojas Soto' };
const P_COURSE: RecipientPick = { kind: 'course', id: 11, audience: 'titulares' };
const P_STAFF: RecipientPick = { kind: 'staff', id: 900 };
const PEOPLE: Record<string, number> = { [pickKey(P_GUARDIAN)]: 1, [pickKey(P_COURSE)]: 0, [pickKey(P_STAFF)]: 1 };
const LABELS: Record<string, string> = {
  [pickKey(P_GUARDIAN)]: 'Ana Rojas Soto',
  [pickKey(P_COURSE)]: '3° Básico B',
  [pickKey(P_STAFF)]: 'Marta Muñoz',
};

/**
 * What compose reports of an estimate: 7 people for Ana and Marta (the index approximates 2), picked in the
 * other order; it counts for that selection only (the picker starts with Ana alone).
 */
const ESTIMATED = { type: 'picker.estimated', picks: [P_STAFF, P_GUARDIAN], people: 7 } as const;
/** The last estimate reported on the path being run (the oracle's own memory of it). */
let lastEstimate: { picks: RecipientPick[]; people: number } | null = null;
const sameSelection = (a: RecipientPick[], b: RecipientPick[]) =>
  JSON.stringify(a.map(pickKey).sort()) === JSON.stringify(b.map(pickKey).sort());

/** Totals checked by hand for the unfiltered searches (each student comes with a row for their family). */
const TOTALS: Record<string, number> = {
  'students|': 10,
  'students|munoz': 3,
  'staff|': 4,
  'staff|munoz': 1,
};

/** The chips compose shows on the path being run: the start, then each confirmed or synced selection. */
let chips: RecipientPick[] = [P_GUARDIAN];

/** The recipients region of a state value is ready (either lists substate). */
const recipientsReady = (value: StateValue) =>
  typeof value === 'object' && typeof value.recipients === 'object' && 'ready' in value.recipients;

/** What the picker told compose, per step. */
const reports: AnyEventObject[] = [];

/** The oracle for what compose hears: the confirmed picks, with their chip labels. */
function expectedReports({ from, event }: StepEnv): AnyEventObject[] {
  if (event.type === 'picker.confirm' && from.matches({ dialog: 'open' }) && from.matches({ recipients: 'ready' })) {
    return [
      {
        type: 'picker.confirmed',
        picks: (from.context.picks as RecipientPick[]).map((pick) => ({ ...pick, label: LABELS[pickKey(pick)] })),
      },
    ];
  }
  return [];
}

const IO_IDS = ['loadRecipients', 'loadGroups'];
function expectRunning(env: StepEnv, ids: readonly string[]) {
  for (const other of IO_IDS) expect(env.fakes.isRunning(other), `${other} running`).toBe(ids.includes(other));
}

function expectSelection(snapshot: AnyMachineSnapshot, env: StepEnv) {
  const s = pk(snapshot);
  const picks = selectPicks(s);
  expect(selectPickCount(s)).toBe(picks.length);
  // The estimate's figure for the very selection it counted (in any order), the index's approximation otherwise.
  const estimated = lastEstimate !== null && picks.length > 0 && sameSelection(lastEstimate.picks, picks);
  // The levels and courses alone count nobody: the approximation needs the people.
  const approximated = snapshot.context.recipients ? picks.reduce((sum, pick) => sum + (PEOPLE[pickKey(pick)] ?? 0), 0) : 0;
  expect(selectPeopleCount(s)).toBe(estimated ? lastEstimate?.people : approximated);
  expect(selectPeopleExact(s)).toBe(estimated);
  for (const pick of [P_GUARDIAN, P_COURSE, P_STAFF]) expect(selectIsPicked(s, pick)).toBe(picks.some((p) => pickKey(p) === pickKey(pick)));
  // Picks made in the dialog carry their chip label.
  for (const pick of picks) if (snapshot.context.index) expect(pick.label).toBe(LABELS[pickKey(pick)]);
  // Selection events only act in the open dialog once the recipients are there (cancel needs only the
  // open dialog, open the closed one, sync nothing); otherwise they change nothing.
  const open = env.from.matches({ dialog: 'open' });
  const ready = env.from.matches({ recipients: 'ready' });
  const acts: Record<string, boolean> = {
    'picker.cancel': open,
    'picker.open': !open,
    'picker.sync': true,
    'picker.estimated': true,
  };
  const acted = acts[env.event.type] ?? (open && ready);
  if (!acted && env.event.type.startsWith('picker.')) expect(picks).toEqual(env.from.context.picks);
  switch (acted ? env.event.type : 'ignored') {
    case 'picker.cancel':
      expect(picks).toEqual(env.from.context.initial);
      break;
    case 'picker.clear':
      expect(picks).toEqual([]);
      break;
    case 'picker.confirm':
      expect(snapshot.context.initial).toEqual(picks);
      break;
    case 'picker.open':
      // The dialog opens on the chips' selection, which a cancel returns to.
      expect(picks).toEqual(env.from.context.picks);
      expect(snapshot.context.initial).toEqual(picks);
      break;
    case 'picker.sync':
      expect(picks).toEqual([P_GUARDIAN]);
      expect(snapshot.context.initial).toEqual([P_GUARDIAN]);
      break;
    case 'picker.toggle': {
      const pick = env.event.pick as RecipientPick;
      const before = env.from.context.picks as RecipientPick[];
      const was = before.some((p) => pickKey(p) === pickKey(pick));
      expect(selectIsPicked(s, pick)).toBe(!was);
      expect(picks.length).toBe(before.length + (was ? -1 : 1));
      break;
    }
    default:
      break;
  }
  // An empty course is flagged while picked.
  expect(selectEmptyPickKeys(s)).toBe(
    snapshot.context.recipients && picks.some((p) => pickKey(p) === pickKey(P_COURSE)) ? pickKey(P_COURSE) : '',
  );
}

/** While the people load: the levels and courses searched by the same rule, once they are there; else nothing. */
function expectGroupsPreview(snapshot: AnyMachineSnapshot) {
  const s = pk(snapshot);
  expect(selectCanBrowse(s)).toBe(snapshot.context.index !== null);
  if (snapshot.context.index === null) {
    expect(selectPreview(s)).toEqual([]);
    return;
  }
  const filters = { audience: selectAudience(s), cargoId: selectCargoId(s) };
  const expected = search(
    buildRecipientIndex({
      ...GROUPS,
      courses: RECIPIENTS.courses.map((c) => ({ ...c, estudiantes: [], apoderados: [] })),
      appointments: [],
    }),
    selectTab(s),
    selectQuery(s),
    filters,
  );
  expect(selectTotal(s)).toBe(expected.total);
  expect(selectPreview(s).map((item) => item.key)).toEqual(expected.preview.map((item) => item.key));
  // By hand: the students tab lists the level and its two courses (no people yet), the staff tab nobody.
  if (selectQuery(s) === '' && filters.audience === null) expect(selectTotal(s)).toBe(selectTab(s) === 'students' ? 3 : 0);
  expect(selectPreview(s).every((item) => ['level', 'course', 'elective'].includes(item.kind))).toBe(true);
  // The saved lists wait for the people.
  expect(selectTab(s)).not.toBe('lists');
}

function expectPreview(snapshot: AnyMachineSnapshot) {
  const s = pk(snapshot);
  const tab = selectTab(s) as PickerTab;
  const filters = { audience: selectAudience(s), cargoId: selectCargoId(s) };
  const lists = snapshot.context.lists as RecipientList[];
  const expected = search(buildRecipientIndex(RECIPIENTS, lists), tab, selectQuery(s), filters);
  expect(selectTotal(s)).toBe(expected.total);
  expect(selectPreview(s).map((item) => item.key)).toEqual(expected.preview.map((item) => item.key));
  const hand = TOTALS[`${tab}|${selectQuery(s)}`];
  const unfiltered = tab === 'students' ? filters.audience === null : tab === 'staff' ? filters.cargoId === null : true;
  if (hand !== undefined && unfiltered) expect(selectTotal(s)).toBe(hand);
  if (tab === 'lists')
    expect(selectTotal(s)).toBe(lists.filter((list) => selectQuery(s) === '' || list.name.toLowerCase().includes('muñoz')).length);
  if (tab === 'staff' && filters.cargoId === 8) expect(selectPreview(s).every((item) => item.cargoId === 8)).toBe(true);
  if (tab === 'students' && filters.audience === 'titulares')
    expect(selectPreview(s).some((item) => item.kind === 'guardian' && item.roleId === 2)).toBe(false);
  // Device status travels with guardian rows.
  for (const item of selectPreview(s)) expect(item.deviceStatus !== null).toBe(item.kind === 'guardian');
}

defineModelTests({
  name: 'recipient-picker',
  machine: recipientPickerMachine,
  // The header, SPEC §2 and §5: two regions, the dialog and the recipients it shows. Each entry names the
  // region it moves; nothing else (search, tabs, picks, estimates) moves a region.
  oracle: {
    initial: { dialog: 'closed', recipients: { loading: 'groups' } },
    targets: {
      'dialog.closed': { 'picker.open': 'dialog.open' },
      'dialog.open': {
        // Escape, an outside click and "Cancelar" close it as it opened.
        'picker.cancel': 'dialog.closed',
        // Confirming needs the recipients (the chips' labels); until then the dialog stays.
        'picker.confirm': ({ stay }) => (recipientsReady(stay) ? 'dialog.closed' : stay),
      },
      'recipients.loading': {
        'xstate.done.actor.loadRecipients': 'recipients.ready.listsIdle',
        'xstate.error.actor.loadRecipients': 'recipients.failed',
      },
      // The levels and courses come first (or fail silently); then only the people are awaited.
      'recipients.loading.groups': {
        'xstate.done.actor.loadGroups': 'recipients.loading.people',
        'xstate.error.actor.loadGroups': 'recipients.loading.people',
      },
      'recipients.failed': { 'picker.retry': 'recipients.loading.groups' },
      // The saved lists are fetched the first time their tab opens, then stay.
      'recipients.ready.listsIdle': { 'picker.tab': ({ event, stay }) => (event.tab === 'lists' ? 'recipients.ready.listsShown' : stay) },
    },
  },
  traversal: {
    input: { initial: [P_GUARDIAN], parent: PLANNING_PARENT },
    events: [
      { type: 'picker.open' },
      { type: 'picker.sync', picks: [P_GUARDIAN] },
      ESTIMATED,
      { type: 'picker.retry' },
      { type: 'picker.tab', tab: 'students' },
      { type: 'picker.tab', tab: 'staff' },
      { type: 'picker.tab', tab: 'lists' },
      { type: 'picker.search', query: 'munoz' },
      { type: 'picker.search', query: '' },
      { type: 'picker.filter', audience: 'titulares' },
      { type: 'picker.filter', cargoId: 8 },
      { type: 'picker.toggle', pick: P_COURSE },
      { type: 'picker.toggle', pick: P_STAFF },
      { type: 'picker.clear' },
      { type: 'picker.confirm' },
      { type: 'picker.cancel' },
    ],
    internal: [
      { type: 'xstate.done.actor.loadRecipients', output: RECIPIENTS },
      { type: 'xstate.error.actor.loadRecipients', error: SERVER_DOWN },
      { type: 'xstate.done.actor.loadGroups', output: GROUPS },
      { type: 'xstate.error.actor.loadGroups', error: SERVER_DOWN },
      // The saved lists' pages: the first, then the second appended.
      { type: 'xstate.snapshot.lists', snapshot: listsHolding([LIST_1]) },
      { type: 'xstate.snapshot.lists', snapshot: listsHolding([LIST_1, LIST_2]) },
    ],
    // Query and filters change no transition: one vertex per state, tab, selection size and lists loaded.
    serializeState: (snapshot) =>
      JSON.stringify([
        snapshot.value,
        snapshot.context.tab,
        snapshot.context.picks.length > 0,
        JSON.stringify(snapshot.context.picks) === JSON.stringify(snapshot.context.initial),
        // How many saved lists are loaded only matters on the lists tab.
        snapshot.context.tab === 'lists' ? snapshot.context.lists.length : snapshot.context.lists.length > 0,
        // Whether an estimate is known, and whether it counted the selection shown.
        snapshot.context.estimated !== null,
        snapshot.context.exact,
      ]),
    limit: 20_000,
  },
  createActor: ({ fakes, inspect, machine }) => {
    reports.length = 0;
    lastEstimate = null;
    chips = [P_GUARDIAN];
    return createActor(
      machine.provide({
        actors: { fetchRecipients: fakes.promise(), fetchRecipientGroups: fakes.promise(), lists: listsStandIn as never },
      }),
      {
        input: { initial: [P_GUARDIAN], parent: recordingParent(reports) },
        inspect,
      },
    );
  },
  contextOf: (context) => {
    // The index is derived from `recipients` and `lists`, compared through the preview instead.
    const { index: _index, parent: _parent, ...rest } = context as Record<string, unknown>;
    return JSON.parse(JSON.stringify(rest));
  },
  states: {
    dialog: (_, env) => {
      const heard = reports.splice(0);
      expect(heard, 'reports to compose').toEqual(expectedReports(env));
      for (const report of heard) chips = report.picks as RecipientPick[];
    },
    'dialog.closed': (snapshot) => {
      expect(selectIsOpen(pk(snapshot))).toBe(false);
      // Closed, the selection is the chips' (a cancel restored it, a confirm reported it).
      expect(snapshot.context.picks).toEqual(snapshot.context.initial);
      // The chips as compose knows them: the start, then what it last heard confirmed or synced itself.
      expect(selectPicks(pk(snapshot)).map(pickKey), 'the chips').toEqual(chips.map(pickKey));
    },
    'dialog.open': (snapshot, env) => {
      expect(selectIsOpen(pk(snapshot))).toBe(true);
      if (env.from.matches({ dialog: 'closed' })) expect(snapshot.context.initial).toEqual(snapshot.context.picks);
    },
    recipients: () => undefined,
    'recipients.loading': (snapshot, env) => {
      expect(selectIsLoading(pk(snapshot))).toBe(true);
      // Reintentar asks again; nothing else does.
      // Reintentar asks again for both; nothing else does.
      if (env.event.type !== 'xstate.init')
        expect([...env.started].sort()).toEqual(env.from.matches({ recipients: 'failed' }) ? ['loadGroups', 'loadRecipients'] : []);
      expectGroupsPreview(snapshot);
      expectSelection(snapshot, env);
    },
    'recipients.loading.groups': (snapshot, env) => {
      expect(snapshot.context.index).toBeNull();
      expectRunning(env, ['loadRecipients', 'loadGroups']);
    },
    'recipients.loading.people': (snapshot, env) => {
      // Answered: the levels and courses are shown; failed: nothing until the people arrive.
      expect(snapshot.context.index !== null).toBe(env.event.type !== 'xstate.error.actor.loadGroups' || env.from.context.index !== null);
      expectRunning(env, ['loadRecipients']);
    },
    'recipients.failed': (snapshot, env) => {
      expect(selectHasFailed(pk(snapshot))).toBe(true);
      // The levels and courses shown meanwhile go with the failure.
      expect(snapshot.context.index).toBeNull();
      expect(selectPreview(pk(snapshot))).toEqual([]);
      expectRunning(env, []);
      expectSelection(snapshot, env);
    },
    'recipients.ready': (snapshot, env) => {
      expect(selectIsReady(pk(snapshot))).toBe(true);
      expect(snapshot.context.index).not.toBeNull();
      expectPreview(snapshot);
      expectSelection(snapshot, env);
    },
    'recipients.ready.listsIdle': (snapshot, env) => {
      expect(snapshot.context.lists).toEqual([]);
      expect(selectTab(pk(snapshot))).not.toBe('lists');
      expectRunning(env, []);
    },
    'recipients.ready.listsShown': (snapshot, env) => {
      expectRunning(env, []);
      // The view pages and retries the saved lists through their own actor; the picker indexes their rows.
      const lists = selectLists(pk(env.actor.getSnapshot() as AnyMachineSnapshot)) as AnyActorRef | null;
      expect(lists).not.toBeNull();
      const rows = (lists!.getSnapshot() as AnyMachineSnapshot).context.items as RecipientList[];
      expect(snapshot.context.lists).toEqual(rows);
      if (env.event.type === 'xstate.snapshot.lists') expect(rows).toEqual((env.event.snapshot as AnyMachineSnapshot).context.items);
    },
  },
  events: {
    'picker.open': send,
    'picker.sync': (env) => {
      chips = env.event.picks as RecipientPick[];
      send(env);
    },
    'picker.estimated': (env) => {
      lastEstimate = { picks: env.event.picks as RecipientPick[], people: env.event.people as number };
      send(env);
    },
    'picker.retry': send,
    'picker.tab': send,
    'picker.search': send,
    'picker.filter': send,
    'picker.toggle': send,
    'picker.clear': send,
    'picker.confirm': send,
    'picker.cancel': send,
    'xstate.done.actor.loadRecipients': settle,
    'xstate.error.actor.loadRecipients': settle,
    'xstate.done.actor.loadGroups': settle,
    'xstate.error.actor.loadGroups': settle,
    // A page of saved lists arrives: the lists' actor holds the rows, the picker sees its snapshot.
    'xstate.snapshot.lists': (env) => {
      const lists = selectLists(pk(env.actor.getSnapshot() as AnyMachineSnapshot)) as AnyActorRef;
      lists.send({ type: 'test.rows', items: (env.event.snapshot as AnyMachineSnapshot).context.items });
    },
  },
  // The picker emits nothing: what compose needs, it reports (see `expectedReports`).
  emits: () => [],
});
