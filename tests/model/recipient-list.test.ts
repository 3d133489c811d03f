// One recipient list (recipient-lists/recipient-list.ts): loading (404 without retry), then the owner's actions, each a
// state with its call, toast and focus: rename (checked first), share, add members through the picker,
// remove one member or the stale ones, edit a member's contact data in the editor child, delete after a
// question (a 409 names the scheduled message and keeps the list). A colleague's shared list refuses every
// owner action (`state.can` offers none) but "Usar en mensaje nuevo". The rename field's text is the
// machine's draft: what the owner typed survives every reload (refresh, share, rename of another text),
// and an untouched field follows the list's name. The editor's focus moves reach the page's host. The
// members table's search and slices (recipient-lists/member-rows.ts) are for everyone, on a list of 150 members: a search
// shows the first slice of what it finds (clearing it puts focus back in the field), "Mostrar más" adds a
// slice and puts focus on its first row.
import { assign, createActor, emit, fromCallback, setup, type AnyActorRef, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { expect } from 'vitest';
import type { RecipientPick } from '../../shared/compose-contract';
import type { UserToEdit } from '../../shared/recipient-lists-contract';
import {
  selectCanDelete,
  selectCanManage,
  selectCanRemoveStale,
  selectCanShowMore,
  selectConflict,
  selectMemberRows,
  selectStaleCount,
} from '../../src/machines/recipient-lists/recipient-list-selectors';
import { recipientListMachine, type RecipientListSnapshot } from '../../src/machines/recipient-lists/recipient-list';
import { defineModelTests, send, settle, type StepEnv } from './harness';
import { failure } from './fixtures';
import { listMember, listSummary, manyMembers, userToEdit } from '../fixtures/recipient-lists';
import { filterMembers, MEMBER_SLICE } from '../../src/machines/recipient-lists/member-rows';
import { renameError } from '../../src/machines/recipient-lists/recipient-list-rules';

const rl = (snapshot: AnyMachineSnapshot) => snapshot as unknown as RecipientListSnapshot;
const INPUT = { id: 1, defaultPrefix: '+56' };
const COURSE: RecipientPick = { kind: 'course', id: 3, audience: 'apoderados', label: '3° Básico A' };
const MEMBERS = [
  listMember({ id: 10 }),
  listMember({ id: 11, user_id: 101, name: 'Jorge Díaz', stale: 'not_enrolled', device_status: 'red' }),
];
const OWNED = { list: listSummary({ users_count: 2, stale_count: 1 }), members: MEMBERS };
const COLLEAGUES = { list: listSummary({ is_owner: false, shared: true, owner_name: 'Pedro Rojas' }), members: MEMBERS };
const BIG = { list: listSummary({ users_count: 150, stale_count: 1 }), members: manyMembers(150) };
const AFTER = {
  list: listSummary({ name: 'Apoderados 3° A 2026', users_count: 5, stale_count: 0 }),
  members: [listMember({ id: 10 }), listMember({ id: 12, user_id: 102, name: 'Rosa Vera' })],
};
const SAVED: UserToEdit = userToEdit({ fono_celular: '+56987654321', name: 'Carolina Soto' });
const SCHEDULED = failure(409, 'list.scheduled', 'Lista en uso', {
  list: ['La usa el mensaje programado «Reunión de apoderados» del 12-03-2026 18:00.'],
  message_id: ['44'],
});
const IO = ['fetchListDetail', 'updateList', 'shareList', 'addMembers', 'removeMember', 'removeStale', 'refreshDetail', 'deleteList'];

const REFUSED_FOCUS = { type: 'focus', target: 'member-phone' } as const;
let pickerHeard: AnyEventObject[] = [];
const pickerStandIn = fromCallback<AnyEventObject, unknown>(({ receive }) => {
  receive((event) => pickerHeard.push(event));
});
/** The contact editor: open until the test finishes it with the person saved (or null: cancelled). */
let editorInput: unknown = null;
const editorStandIn = setup({
  types: {
    input: {} as unknown,
    context: {} as { user: UserToEdit | null },
    events: {} as { type: 'test.finish'; user: UserToEdit | null } | { type: 'test.refuse' },
  },
}).createMachine({
  id: 'editorStandIn',
  context: ({ input }) => {
    editorInput = input;
    return { user: null };
  },
  initial: 'open',
  states: {
    open: {
      on: {
        'test.finish': { target: 'done', actions: assign({ user: ({ event }) => event.user }) },
        // A refused save: the editor moves focus to the first refused field.
        'test.refuse': { actions: emit(REFUSED_FOCUS) },
      },
    },
    done: { type: 'final' },
  },
  output: ({ context }) => ({ user: context.user }),
});

function running(env: StepEnv, id: string | null) {
  for (const other of IO) expect(env.fakes.isRunning(other), other).toBe(other === id);
}

const err = { type: 'toast', kind: 'error', key: 'error.request' };
function emits({ from, event }: StepEnv): AnyEventObject[] {
  const idle = from.matches({ ready: 'idle' });
  const owner = from.context.list?.is_owner === true;
  switch (event.type) {
    case 'detail.rename':
      return idle && owner && renameError(from.context.nameDraft) !== null ? [{ type: 'focus', target: 'recipient-list-rename' }] : [];
    case 'effect.relay':
      return from.matches({ ready: 'editingMember' }) ? [REFUSED_FOCUS] : [];
    case 'detail.use':
      return idle ? [{ type: 'navigate', to: '/new?list=1' }] : [];
    case 'members.search':
      return from.matches('ready') && event.query === '' && from.context.memberQuery !== ''
        ? [{ type: 'focus', target: 'recipient-list-member-search' }]
        : [];
    case 'members.showMore': {
      const next = from.matches('ready')
        ? filterMembers(from.context.members, from.context.memberQuery)[from.context.memberLimit]
        : undefined;
      return next ? [{ type: 'focus', target: `member-row-${next.id}` }] : [];
    }
    case 'detail.cancel':
      return from.matches({ ready: 'confirmingDelete' }) ? [{ type: 'focus', target: 'recipient-list-delete' }] : [];
    case 'xstate.done.actor.updateList':
      return [{ type: 'toast', kind: 'success', key: 'recipientLists.renamed' }];
    case 'xstate.error.actor.updateList':
      return [{ type: 'focus', target: 'recipient-list-rename' }];
    case 'xstate.done.actor.shareList':
      return [
        {
          type: 'toast',
          kind: 'success',
          key: (event.output as { shared: boolean }).shared ? 'recipientLists.sharedOn' : 'recipientLists.sharedOff',
        },
      ];
    case 'xstate.done.actor.addMembers':
      return [{ type: 'toast', kind: 'success', key: 'recipientLists.membersAdded' }];
    case 'xstate.done.actor.removeMember':
      return [{ type: 'toast', kind: 'success', key: 'recipientLists.memberRemoved' }];
    case 'xstate.done.actor.removeStale':
      return [{ type: 'toast', kind: 'success', key: 'recipientLists.staleRemoved', params: { count: event.output as number } }];
    case 'xstate.done.actor.memberEditor': {
      const user = (event.output as { user: UserToEdit | null }).user;
      return [
        ...(user ? [{ type: 'toast', kind: 'success', key: 'recipientLists.memberSaved' }] : []),
        { type: 'focus', target: `member-edit-${from.context.memberId}` },
      ];
    }
    case 'xstate.done.actor.deleteList':
      return [
        { type: 'toast', kind: 'success', key: 'recipientLists.deleted' },
        { type: 'navigate', to: '/recipient-lists' },
      ];
    case 'xstate.error.actor.deleteList':
      return (event.error as { status: number }).status === 409 ? [] : [err];
    case 'xstate.error.actor.shareList':
    case 'xstate.error.actor.addMembers':
    case 'xstate.error.actor.removeMember':
    case 'xstate.error.actor.removeStale':
    case 'xstate.error.actor.refreshDetail':
      return [err];
    default:
      return [];
  }
}

const USER_EVENTS: AnyEventObject[] = [
  { type: 'detail.retry' },
  { type: 'detail.changeName', name: 'Familias 3° A' },
  { type: 'detail.changeName', name: ' ' },
  { type: 'detail.rename' },
  { type: 'detail.share', shared: true },
  { type: 'detail.addMembers' },
  { type: 'detail.removeMember', memberId: 10 },
  { type: 'detail.removeMember', memberId: 99 },
  { type: 'detail.removeStale' },
  { type: 'detail.editMember', memberId: 10 },
  { type: 'detail.delete' },
  { type: 'detail.confirm' },
  { type: 'detail.cancel' },
  { type: 'detail.use' },
  { type: 'detail.dismissConflict' },
  { type: 'picker.confirmed', picks: [COURSE] },
  { type: 'picker.confirmed', picks: [] },
  { type: 'effect.relay', effect: REFUSED_FOCUS },
];

/** The members table's events, taken on the 150-member list (its own variant, to keep the others' graphs as they were). */
const MEMBER_EVENTS: AnyEventObject[] = [
  { type: 'members.search', query: 'JORGE' },
  { type: 'members.search', query: '' },
  { type: 'members.showMore' },
];

const internal = (detail: unknown): AnyEventObject[] => [
  { type: 'xstate.done.actor.fetchListDetail', output: detail },
  { type: 'xstate.error.actor.fetchListDetail', error: failure(404, 'not_found') },
  { type: 'xstate.error.actor.fetchListDetail', error: failure(0, 'network') },
  { type: 'xstate.done.actor.updateList', output: listSummary({ name: 'Familias 3° A', stale_count: 1 }) },
  {
    type: 'xstate.error.actor.updateList',
    error: failure(422, 'validation.failed', 'x', { name: ['Ya tienes una lista con ese nombre.'] }),
  },
  { type: 'xstate.done.actor.shareList', output: listSummary({ shared: true, stale_count: 1 }) },
  { type: 'xstate.error.actor.shareList', error: failure(500, 'server.error') },
  { type: 'xstate.done.actor.addMembers', output: listSummary({ users_count: 5 }) },
  { type: 'xstate.error.actor.addMembers', error: failure(500, 'server.error') },
  { type: 'xstate.done.actor.removeMember', output: undefined },
  { type: 'xstate.error.actor.removeMember', error: failure(500, 'server.error') },
  { type: 'xstate.done.actor.removeStale', output: 1 },
  { type: 'xstate.error.actor.removeStale', error: failure(500, 'server.error') },
  { type: 'xstate.done.actor.refreshDetail', output: AFTER },
  { type: 'xstate.error.actor.refreshDetail', error: failure(0, 'network') },
  { type: 'xstate.done.actor.memberEditor', output: { user: SAVED } },
  { type: 'xstate.done.actor.memberEditor', output: { user: null } },
  { type: 'xstate.done.actor.deleteList', output: undefined },
  { type: 'xstate.error.actor.deleteList', error: SCHEDULED },
  { type: 'xstate.error.actor.deleteList', error: failure(500, 'server.error') },
];

type Detail = {
  list: { is_owner: boolean; name: string; shared: boolean } | null;
  members: { id: number; stale: unknown }[];
  nameDraft: string;
};
/** Decision 0066: only the owner changes a list; a colleague's shared list is read and used. */
const owns = (context: Detail) => context.list?.is_owner === true;
const listed = (context: Detail, memberId: number) => context.members.some((member) => member.id === memberId);
/** A rename worth asking for: a name (at most 80 characters) other than the list's own. */
const renames = (context: Detail) => {
  const name = context.nameDraft.trim();
  return name !== '' && name.length <= 80 && name !== context.list?.name;
};

const editorOf = (env: StepEnv) => (env.actor.getSnapshot() as AnyMachineSnapshot).children.memberEditor as AnyActorRef | undefined;

defineModelTests({
  name: 'recipient-list',
  machine: recipientListMachine,
  // The header and decisions 0066–0068, 0072: loading (Reintentar after a failure; the page offers none
  // for a 404), then one owner action at a time from idle, each back to idle done or not; adding members,
  // removing the stale ones and sharing read the members again first. Removing one member needs no
  // question, deleting does. A colleague's list takes none of the owner's actions (picks included: the
  // picker only adds on the owner's list, with nothing else running).
  oracle: {
    initial: 'loading',
    targets: {
      loading: { 'xstate.done.actor.fetchListDetail': 'ready.idle', 'xstate.error.actor.fetchListDetail': 'failed' },
      failed: { 'detail.retry': 'loading' },
      'ready.idle': {
        'detail.rename': ({ context, stay }) => (owns(context) && renames(context) ? 'ready.renaming' : stay),
        // Sharing as it already is asks nothing.
        'detail.share': ({ event, context, stay }) => (owns(context) && context.list?.shared !== event.shared ? 'ready.sharing' : stay),
        // The picker's «Confirmar» adds its picks (none: nothing to add).
        'picker.confirmed': ({ event, context, stay }) => (owns(context) && event.picks.length > 0 ? 'ready.adding' : stay),
        'detail.removeMember': ({ event, context, stay }) =>
          owns(context) && listed(context, event.memberId) ? 'ready.removingMember' : stay,
        'detail.removeStale': ({ context, stay }) =>
          owns(context) && context.members.some((member) => member.stale !== null) ? 'ready.removingStale' : stay,
        'detail.editMember': ({ event, context, stay }) =>
          owns(context) && listed(context, event.memberId) ? 'ready.editingMember' : stay,
        'detail.delete': ({ context, stay }) => (owns(context) ? 'ready.confirmingDelete' : stay),
      },
      'ready.renaming': { 'xstate.done.actor.updateList': 'ready.idle', 'xstate.error.actor.updateList': 'ready.idle' },
      // Sharing answers with the list itself: nothing to read again.
      'ready.sharing': { 'xstate.done.actor.shareList': 'ready.idle', 'xstate.error.actor.shareList': 'ready.idle' },
      'ready.adding': { 'xstate.done.actor.addMembers': 'ready.refreshing', 'xstate.error.actor.addMembers': 'ready.idle' },
      'ready.removingMember': { 'xstate.done.actor.removeMember': 'ready.idle', 'xstate.error.actor.removeMember': 'ready.idle' },
      'ready.removingStale': { 'xstate.done.actor.removeStale': 'ready.refreshing', 'xstate.error.actor.removeStale': 'ready.idle' },
      'ready.refreshing': { 'xstate.done.actor.refreshDetail': 'ready.idle', 'xstate.error.actor.refreshDetail': 'ready.idle' },
      'ready.editingMember': { 'xstate.done.actor.memberEditor': 'ready.idle' },
      'ready.confirmingDelete': { 'detail.confirm': 'ready.deleting', 'detail.cancel': 'ready.idle' },
      // Deleted: to the lists (the page leaves); refused or failed: the list stays, with why.
      'ready.deleting': { 'xstate.done.actor.deleteList': 'ready.idle', 'xstate.error.actor.deleteList': 'ready.idle' },
    },
  },
  traversal: {
    input: INPUT,
    events: USER_EVENTS,
    internal: internal(OWNED),
    // While a call runs only its outcome is tried (and the picker, which reports at any time, and typing in
    // the name field while the members reload); the editor's relayed effects while it is open.
    filterEvents: (s, event) =>
      s.matches({ ready: 'idle' }) ||
      s.matches({ ready: 'confirmingDelete' }) ||
      s.matches('failed') ||
      event.type.startsWith('xstate.') ||
      event.type === 'picker.confirmed' ||
      (event.type === 'detail.changeName' && s.matches({ ready: 'refreshing' })) ||
      (event.type === 'effect.relay' && s.matches({ ready: 'editingMember' })),
    // State, which members (stale ones marked), the list's name and the rename field's draft, and what the
    // screen says (name error, conflict, 404); sharing changes only through its call, taken from idle.
    serializeState: (s) =>
      JSON.stringify([
        s.value,
        s.context.members.map((m: { id: number; stale: unknown }) => `${m.id}${m.stale ? '*' : ''}`),
        s.context.list?.name ?? null,
        s.context.nameDraft,
        s.context.nameError !== null,
        s.context.conflict !== null,
        s.context.notFound,
        s.context.memberQuery,
        s.context.memberLimit,
      ]),
    limit: 40_000,
  },
  variants: [
    { name: 'own list', traversal: {} },
    { name: "colleague's shared list", traversal: { internal: internal(COLLEAGUES).slice(0, 3) } },
    {
      name: 'list of 150 members',
      traversal: { events: [...MEMBER_EVENTS, { type: 'detail.retry' }], internal: internal(BIG).slice(0, 3) },
    },
  ],
  createActor: ({ fakes, inspect, machine }) => {
    pickerHeard = [];
    editorInput = null;
    const actors = Object.fromEntries(
      ['fetchListDetail', 'updateList', 'addMembers', 'removeMember', 'removeStale', 'deleteList'].map((id) => [id, fakes.promise()]),
    );
    return createActor(
      machine.provide({ actors: { ...actors, recipientPicker: pickerStandIn as never, memberEditor: editorStandIn as never } as never }),
      {
        input: INPUT as never,
        inspect,
      },
    );
  },
  states: {
    loading: (s, env) => {
      running(env, 'fetchListDetail');
      expect(env.fakes.inputOf('fetchListDetail')).toEqual({ id: 1 });
      expect(s.children.picker).toBeUndefined();
      // Each entry reads the list once (Reintentar reads it again); an ignored event lets the call run.
      const entered = env.event.type === 'xstate.init' || !env.from.matches('loading');
      expect(env.started, 'requests started').toEqual(entered ? ['fetchListDetail'] : []);
    },
    failed: (s, env) => {
      running(env, null);
      expect(s.context.notFound).toBe(
        (env.event as { error?: { status: number } }).error?.status === 404 || (env.from.matches('failed') && env.from.context.notFound),
      );
    },
    ready: (s, env) => {
      // The picker is there from the moment the list is shown, for "Añadir miembros".
      expect(s.children.picker).toBeDefined();
      const heard = pickerHeard.splice(0);
      const { from, event } = env;
      const expected: AnyEventObject[] = [];
      if (event.type === 'detail.addMembers' && from.matches({ ready: 'idle' }) && from.context.list?.is_owner)
        expect(heard).toEqual([{ type: 'picker.open' }]);
      else {
        if (
          (event.type === 'picker.confirmed' && (event.picks as unknown[]).length === 0 && from.matches('ready')) ||
          /actor\.addMembers$/.test(event.type)
        )
          expected.push({ type: 'picker.sync', picks: [] });
        expect(heard).toEqual(expected);
      }
      // Owner actions are offered on the owner's list only, and only while nothing runs.
      const idle = s.matches({ ready: 'idle' });
      const owner = s.context.list?.is_owner === true;
      expect(selectCanManage(rl(s))).toBe(idle && owner);
      expect(selectCanDelete(rl(s))).toBe(idle && owner);
      expect(selectCanRemoveStale(rl(s))).toBe(idle && owner && selectStaleCount(rl(s)) > 0);
      expect(s.can({ type: 'detail.use' })).toBe(idle);
      // The table: a new search starts at the first slice; "Mostrar más" adds one while there are more.
      if (event.type === 'members.search' && from.matches('ready') && event.query !== from.context.memberQuery) {
        expect([s.context.memberQuery, s.context.memberLimit]).toEqual([event.query, MEMBER_SLICE]);
      } else if (event.type === 'members.showMore' && from.matches('ready')) {
        const more = filterMembers(from.context.members, from.context.memberQuery).length > from.context.memberLimit;
        expect(s.context.memberLimit).toBe(from.context.memberLimit + (more ? MEMBER_SLICE : 0));
        expect(s.context.memberQuery).toBe(from.context.memberQuery);
      } else if (from.matches('ready')) {
        expect([s.context.memberQuery, s.context.memberLimit]).toEqual([from.context.memberQuery, from.context.memberLimit]);
      }
      const found = filterMembers(s.context.members, s.context.memberQuery).length;
      expect(selectCanShowMore(rl(s))).toBe(found > s.context.memberLimit);
      expect(selectMemberRows(rl(s)).rows.length).toBe(Math.min(found, s.context.memberLimit));
      // The rename field: what the owner types is kept, through every reload; untouched, it shows the name.
      const before = from.context as { nameDraft: string; list: { name: string } | null };
      const typed = before.list !== null && before.nameDraft.trim() !== before.list.name;
      const reloaded = /^xstate\.done\.actor\.(fetchListDetail|refreshDetail|updateList|shareList)$/.test(event.type);
      if (event.type === 'detail.changeName' && owner) {
        expect(s.context.nameDraft).toBe(event.name);
        expect(s.context.nameError).toBeNull();
      } else if (reloaded && typed && before.nameDraft.trim() !== s.context.list?.name) expect(s.context.nameDraft).toBe(before.nameDraft);
      else if (reloaded) expect(s.context.nameDraft).toBe(s.context.list?.name);
      else expect(s.context.nameDraft).toBe(before.nameDraft);
    },
    'ready.idle': (s, env) => {
      running(env, null);
      expect(editorInput === null || !s.children.memberEditor).toBe(true);
      if (env.event.type === 'xstate.error.actor.deleteList') {
        const conflict = selectConflict(rl(s));
        if ((env.event.error as { status: number }).status === 409)
          expect(conflict).toEqual({ text: 'La usa el mensaje programado «Reunión de apoderados» del 12-03-2026 18:00.', messageId: 44 });
        else expect(conflict).toBeNull();
        expect(s.context.list).toEqual(env.from.context.list);
      }
      if (env.event.type === 'xstate.done.actor.removeMember') {
        expect(s.context.members.map((m: { id: number }) => m.id)).toEqual(
          env.from.context.members.map((m: { id: number }) => m.id).filter((id: number) => id !== env.from.context.memberId),
        );
        expect(s.context.list?.users_count).toBe((env.from.context.list?.users_count ?? 0) - 1);
      }
      if (env.event.type === 'xstate.done.actor.memberEditor') {
        const user = (env.event.output as { user: UserToEdit | null }).user;
        const row = s.context.members.find((m: { user_id: number }) => m.user_id === 100);
        expect(row?.phone).toBe(
          user ? user.fono_celular : env.from.context.members.find((m: { user_id: number }) => m.user_id === 100)?.phone,
        );
      }
      if (env.event.type === 'detail.rename' && renameError(env.from.context.nameDraft) && s.context.list?.is_owner)
        expect(s.context.nameError).toBe('recipientLists.error.nameRequired');
      if (env.event.type === 'xstate.error.actor.updateList') expect(s.context.nameError).toBe('Ya tienes una lista con ese nombre.');
      expect(s.context.memberId).toBeNull();
    },
    'ready.renaming': (s, env) => {
      running(env, 'updateList');
      // The name sent is the draft, trimmed, taken when the rename started.
      expect(env.fakes.inputOf('updateList')).toEqual({ id: 1, name: 'Familias 3° A' });
      expect(s.context.list?.is_owner).toBe(true);
    },
    'ready.sharing': (_s, env) => {
      running(env, 'shareList');
      expect(env.fakes.inputOf('shareList')).toEqual({ id: 1, shared: true });
    },
    'ready.adding': (_s, env) => {
      running(env, 'addMembers');
      expect(env.fakes.inputOf('addMembers')).toEqual({ id: 1, picks: [COURSE] });
      // Only the owner adds, from idle, once: a pick confirmed meanwhile neither starts nor restarts a call.
      const entered = !env.from.matches({ ready: 'adding' });
      if (entered)
        expect(env.from.matches({ ready: 'idle' }) && env.from.context.list?.is_owner, "added from idle on the owner's list").toBe(true);
      expect(env.started, 'calls started').toEqual(entered ? ['addMembers'] : []);
    },
    'ready.removingMember': (s, env) => {
      running(env, 'removeMember');
      expect(env.fakes.inputOf('removeMember')).toEqual({ id: 1, memberId: 10 });
      expect(s.context.memberId).toBe(10);
    },
    'ready.removingStale': (_s, env) => {
      running(env, 'removeStale');
      expect(env.fakes.inputOf('removeStale')).toEqual({ id: 1 });
    },
    'ready.refreshing': (_s, env) => {
      running(env, 'refreshDetail');
      expect(env.fakes.inputOf('refreshDetail')).toEqual({ id: 1 });
    },
    'ready.editingMember': (s, env) => {
      running(env, null);
      expect(s.children.memberEditor).toBeDefined();
      expect(editorInput).toEqual({ listId: 1, memberId: 10, defaultPrefix: '+56' });
    },
    'ready.confirmingDelete': (s, env) => {
      running(env, null);
      expect(s.context.conflict).toBeNull();
    },
    'ready.deleting': (_s, env) => {
      running(env, 'deleteList');
      expect(env.fakes.inputOf('deleteList')).toEqual({ id: 1 });
    },
  },
  events: {
    ...Object.fromEntries([...USER_EVENTS, ...MEMBER_EVENTS].map((event) => [event.type, send])),
    ...Object.fromEntries(
      internal(OWNED)
        .filter((e) => e.type !== 'xstate.done.actor.memberEditor')
        .map((event) => [event.type, settle]),
    ),
    'xstate.done.actor.memberEditor': (env) =>
      editorOf(env)?.send({ type: 'test.finish', user: (env.event.output as { user: UserToEdit | null }).user }),
    'effect.relay': (env) => editorOf(env)?.send({ type: 'test.refuse' }),
  },
  emits,
});
