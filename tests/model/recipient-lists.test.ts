// /recipient-lists (recipient-lists/recipient-lists.ts) around its hosted list and, while "Nueva lista" is open, the compose
// picker: search, more and retry told to the list; the form keeps the name typed and the picks confirmed;
// saving checks name and picks first (focus to the first refused field), then creates the list and opens
// it; a 422 puts the server's texts on the fields and keeps everything; another failure says so.
import { createActor, fromCallback, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { expect } from 'vitest';
import type { RecipientPick } from '../../shared/compose-contract';
import {
  createErrors,
  recipientListsMachine,
  selectIsCreating,
  selectListsItems,
  type RecipientListsSnapshot,
} from '../../src/machines/recipient-lists/recipient-lists';
import { defineModelTests, send, settle, type StepEnv } from './harness';
import { failure } from './fixtures';
import { listExecutors, listStandIn, showing, toldList } from './list-stand-in';
import { listSummary } from '../fixtures/recipient-lists';

const ls = (snapshot: AnyMachineSnapshot) => snapshot as unknown as RecipientListsSnapshot;
const COURSE: RecipientPick = { kind: 'course', id: 3, audience: 'apoderados', label: '3° Básico A' };
const NONE = showing('none', []);
const ROWS = showing('1,2', [listSummary({ id: 1 }), listSummary({ id: 2, is_owner: false, shared: true, owner_name: 'Pedro' })]);
const CREATED = listSummary({ id: 7, name: 'Familias 3° A' });
const NAME_TAKEN = failure(422, 'validation.failed', 'Revisa los campos', { name: ['Ya tienes una lista con ese nombre.'] });

/** What the picker stand-in heard (picker.sync after a chip is removed). */
let pickerHeard: AnyEventObject[] = [];
let pickerInput: unknown = null;
const pickerStandIn = fromCallback<AnyEventObject, unknown>(({ input, receive }) => {
  pickerInput = input;
  receive((event) => pickerHeard.push(event));
  return () => {
    pickerInput = null;
  };
});

/** The form asks the server only with a name (trimmed, at most 80 characters) and someone to send to (decision 0072). */
const sendable = ({ name, picks }: { name: string; picks: readonly RecipientPick[] }) =>
  name.trim() !== '' && name.trim().length <= 80 && picks.length > 0;
const sameChip = (a: RecipientPick, b: RecipientPick) => JSON.stringify(a) === JSON.stringify(b);

function expectedTold({ from, event }: StepEnv): AnyEventObject[] {
  if (!from.matches('shown')) return [];
  if (event.type === 'lists.search') return [{ type: 'list.query', query: { q: event.q } }];
  if (event.type === 'lists.loadMore') return [{ type: 'list.more' }];
  if (event.type === 'lists.retry') return [{ type: 'list.reload' }];
  return [];
}

function emits({ from, to, event }: StepEnv): AnyEventObject[] {
  const editing = from.matches({ shown: { creating: 'editing' } });
  if (event.type === 'lists.save' && editing) {
    const errors = createErrors(from.context.name, from.context.picks);
    if (Object.keys(errors).length === 0) return [];
    return [{ type: 'focus', target: errors.name ? 'recipient-list-name' : 'recipient-list-picks' }];
  }
  if (event.type === 'lists.cancel' && editing)
    return [{ type: 'focus', target: 'recipients-lists-create'.replace('recipients', 'recipient') }];
  if (event.type === 'xstate.done.actor.createList')
    return [
      { type: 'toast', kind: 'success', key: 'recipientLists.created' },
      { type: 'navigate', to: `/recipient-list/${(event.output as { id: number }).id}` },
    ];
  if (event.type === 'xstate.error.actor.createList') {
    const status = (event.error as { status: number }).status;
    return status === 422
      ? [{ type: 'focus', target: to.context.errors.name ? 'recipient-list-name' : 'recipient-list-picks' }]
      : [{ type: 'toast', kind: 'error', key: 'recipientLists.saveFailed' }];
  }
  return [];
}

defineModelTests({
  name: 'recipient-lists',
  machine: recipientListsMachine,
  // The header and decision 0072: «Nueva lista» opens the form beside the rows; saving checks before it
  // asks, a saved list is opened (the form closes), a refusal returns to the form with everything kept.
  oracle: {
    initial: 'shown.idle',
    targets: {
      // A crashed list is a failure in place of the screen, form and all, until Reintentar.
      shown: { 'xstate.error.actor.list': 'crashed' },
      crashed: { 'lists.retry': 'shown.idle' },
      'shown.idle': { 'lists.create': 'shown.creating.editing' },
      'shown.creating.editing': {
        'lists.save': ({ context, stay }) => (sendable(context) ? 'shown.creating.saving' : stay),
        'lists.cancel': 'shown.idle',
      },
      'shown.creating.saving': { 'xstate.done.actor.createList': 'shown.idle', 'xstate.error.actor.createList': 'shown.creating.editing' },
    },
  },
  traversal: {
    input: {},
    events: [
      { type: 'lists.search', q: 'básico' },
      { type: 'lists.loadMore' },
      { type: 'lists.retry' },
      { type: 'lists.create' },
      { type: 'lists.name', name: 'Familias 3° A' },
      { type: 'picker.confirmed', picks: [COURSE] },
      { type: 'lists.removePick', pick: COURSE },
      { type: 'lists.save' },
      { type: 'lists.cancel' },
    ],
    internal: [
      NONE,
      ROWS,
      { type: 'xstate.done.actor.createList', output: CREATED },
      { type: 'xstate.error.actor.createList', error: NAME_TAKEN },
      { type: 'xstate.error.actor.createList', error: failure(500, 'server.error') },
      { type: 'xstate.error.actor.list', error: new Error('list: a bug') },
    ],
    // The list's own events are tried outside the form (inside it they do the same, through `shown`).
    filterEvents: (s, event) =>
      !s.matches({ shown: 'creating' }) || !/^(lists\.(search|loadMore|retry)|xstate\.snapshot\.list)$/.test(event.type),
    // Rows, search, form and errors: the vertex.
    serializeState: (s) =>
      JSON.stringify([s.value, s.context.q, s.context.items.length, s.context.name, s.context.picks.length, s.context.errors]),
    limit: 20_000,
  },
  createActor: ({ fakes, inspect, machine }) => {
    pickerHeard = [];
    pickerInput = null;
    return createActor(
      machine.provide({ actors: { list: listStandIn as never, createList: fakes.promise(), recipientPicker: pickerStandIn as never } }),
      {
        input: {},
        inspect,
      },
    );
  },
  states: {
    shown: (s, env) => {
      expect(toldList(env)).toEqual(expectedTold(env));
      const list = s.children.list as { getSnapshot: () => AnyMachineSnapshot } | undefined;
      expect(list, 'hosted list').toBeDefined();
      expect(selectListsItems(ls(s))).toBe(list?.getSnapshot().context.items);
      if (env.event.type === 'xstate.init' || env.from.matches('crashed'))
        expect(list?.getSnapshot().context.input).toEqual({ query: { q: s.context.q } });
    },
    'shown.idle': (s, env) => {
      expect(selectIsCreating(ls(s))).toBe(false);
      expect(pickerInput, 'picker stopped with the form').toBeNull();
      expect(env.fakes.isRunning('createList')).toBe(false);
      expect(s.can({ type: 'lists.create' })).toBe(true);
    },
    'shown.creating': (s, env) => {
      expect(selectIsCreating(ls(s))).toBe(true);
      // The picker runs with the form, started empty, reporting here.
      expect(pickerInput).toMatchObject({ initial: [] });
      // "Nueva lista" opens empty; it then keeps what was typed and picked.
      if (env.event.type === 'lists.create' && env.from.matches({ shown: 'idle' }))
        expect([s.context.name, s.context.picks, s.context.errors]).toEqual(['', [], {}]);
      // Removing a chip tells the picker, so its dialog opens on the chips.
      const synced = pickerHeard.splice(0);
      expect(synced).toEqual(
        env.event.type === 'lists.removePick' && env.from.matches({ shown: { creating: 'editing' } })
          ? [{ type: 'picker.sync', picks: s.context.picks }]
          : [],
      );
      // The form as the user filled it: the name typed last, the picks confirmed last less the chips removed.
      if (env.from.matches({ shown: { creating: 'editing' } })) {
        const { name, picks } = env.from.context as { name: string; picks: RecipientPick[] };
        const event = env.event as AnyEventObject;
        if (event.type === 'lists.name') expect(s.context.name).toBe(event.name);
        else expect(s.context.name).toBe(name);
        if (event.type === 'picker.confirmed') expect(s.context.picks).toEqual(event.picks);
        else if (event.type === 'lists.removePick')
          expect(s.context.picks).toEqual(picks.filter((pick) => !sameChip(pick, event.pick as RecipientPick)));
        else expect(s.context.picks).toEqual(picks);
      }
    },
    'shown.creating.editing': (s, env) => {
      expect(env.fakes.isRunning('createList')).toBe(false);
      if (env.event.type === 'lists.save') expect(s.context.errors).toEqual(createErrors(s.context.name, s.context.picks));
      if (env.event.type === 'xstate.error.actor.createList') {
        // Nothing typed or picked is lost.
        expect([s.context.name, s.context.picks]).toEqual([env.from.context.name, env.from.context.picks]);
        const status = (env.event.error as { status: number }).status;
        expect(s.context.errors).toEqual(status === 422 ? { name: { text: 'Ya tienes una lista con ese nombre.' } } : {});
      }
    },
    'shown.creating.saving': (s, env) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(env.fakes.inputOf('createList')).toEqual({ name: s.context.name.trim(), picks: s.context.picks });
      expect(Object.keys(createErrors(s.context.name, s.context.picks))).toEqual([]);
      expect(sendable(s.context), 'only a sendable form is saved').toBe(true);
    },
    crashed: (s) => {
      expect(s.children.list).toBeUndefined();
      expect(selectListsItems(ls(s))).toEqual([]);
      expect(s.can({ type: 'lists.retry' })).toBe(true);
    },
  },
  events: {
    'lists.search': send,
    'lists.loadMore': send,
    'lists.retry': send,
    'lists.create': send,
    'lists.name': send,
    'lists.removePick': send,
    'lists.save': send,
    'lists.cancel': send,
    'picker.confirmed': send,
    ...listExecutors,
    'xstate.done.actor.createList': settle,
    'xstate.error.actor.createList': settle,
  },
  emits,
});
