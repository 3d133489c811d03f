// Compose's template picker: the dialog (its list told the search and the repository), choosing a template
// (applied at once on an empty form, after «¿Reemplazar el título y el contenido?» over typed text),
// `/new?template=ID` (the same question, and the address cleared once used), and what compose gets
// (`template.apply`, exactly, and only then). The list itself has its own model test; a stand-in shows the
// rows a path gives it.
import { createActor, type AnyActorRef, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { expect } from 'vitest';
import {
  selectAsksReplace,
  selectChosenName,
  selectPickerFetching,
  selectPickerItems,
  selectPickerList,
  selectPickerOpen,
  templatePickerMachine,
  type TemplatePickerSnapshot,
} from '../../src/machines/compose/template-picker';
import type { Template } from '../../shared/templates-contract';
import { defineModelTests, send, settle, type StepEnv } from './harness';
import { listStandIn, PLANNING_PARENT, recordingParent, showingRows } from './doubles';
import { failure } from './fixtures';
import { productTemplate, template } from '../fixtures/templates';

const pk = (snapshot: AnyMachineSnapshot) => snapshot as unknown as TemplatePickerSnapshot;

const showing = (rows: string, items: Template[]) => showingRows(rows, items);

const CITATION = productTemplate(11, { name: 'Citación', content: 'Se cita al apoderado de {estudiante}.' });
const OWN = template({ id: 1, name: 'Reunión', content: 'Reunión el jueves.' });
const ROWS = showing('11,1', [CITATION, OWN]);
const NONE = showing('none', []);

/** What compose received from the picker on this path. */
const reports: AnyEventObject[] = [];
const listOf = (env: StepEnv) => selectPickerList(pk(env.actor.getSnapshot() as AnyMachineSnapshot)) as AnyActorRef | undefined;
const applyOf = (t: Template) => ({ type: 'template.apply', title: t.name, content: t.content });

/** The oracle of what compose gets: the chosen template, once, when it is applied. */
function expectedReports({ from, event }: StepEnv): AnyEventObject[] {
  const replaces = from.context.replaces as boolean;
  if (event.type === 'templates.choose' && from.matches('open') && !replaces) {
    const chosen = (from.context.items as Template[]).find((item) => item.id === event.id);
    return chosen ? [applyOf(chosen)] : [];
  }
  if (event.type === 'templates.confirm' && from.matches('confirming')) return [applyOf(from.context.chosen as Template)];
  if (event.type === 'xstate.done.actor.fetchTemplate' && event.output && !replaces) return [applyOf(event.output as Template)];
  return [];
}

/** What it tells its list: the search and the repository, and Reintentar. */
function toldList({ from, event }: StepEnv): AnyEventObject[] {
  if (!from.matches('open')) return [];
  switch (event.type) {
    case 'templates.search':
      return [{ type: 'list.query', query: { repository: from.context.repository, q: event.q } }];
    case 'templates.repository':
      return [{ type: 'list.query', query: { repository: event.repository, q: from.context.q } }];
    case 'templates.retry':
      return [{ type: 'list.reload' }];
    default:
      return [];
  }
}

/** What compose last asked of the closed picker (an open or a use), per actor: recorded as it is sent. */
const asked = new WeakMap<object, AnyEventObject>();
const sendCommand = (env: StepEnv) => {
  if ((env.actor.getSnapshot() as AnyMachineSnapshot).matches('closed')) asked.set(env.actor, env.event);
  send(env);
};

const CLEAR_ADDRESS = { type: 'navigate', to: '/new', replace: true };
const FOCUS_CONTENT = { type: 'focus', target: 'compose-content' };
const FOCUS_BUTTON = { type: 'focus', target: 'compose-use-template' };

function emits({ from, event }: StepEnv): AnyEventObject[] {
  const replaces = from.context.replaces as boolean;
  switch (event.type) {
    case 'templates.choose':
      if (!from.matches('open') || !(from.context.items as Template[]).some((item) => item.id === event.id)) return [];
      // Applied: the caret goes to the content; asked: nothing yet.
      return replaces ? [] : [FOCUS_CONTENT];
    case 'templates.close':
      return from.matches('open') ? [FOCUS_BUTTON] : [];
    case 'templates.confirm':
      return from.matches('confirming') ? [FOCUS_CONTENT] : [];
    case 'templates.cancel':
      return from.matches('confirming') ? [FOCUS_BUTTON] : [];
    case 'xstate.done.actor.fetchTemplate':
      if (event.output === null) return [{ type: 'toast', kind: 'error', key: 'templates.toast.notFound' }, CLEAR_ADDRESS];
      return replaces ? [CLEAR_ADDRESS] : [FOCUS_CONTENT, CLEAR_ADDRESS];
    case 'xstate.error.actor.fetchTemplate':
      return [{ type: 'toast', kind: 'error', key: 'error.request' }, CLEAR_ADDRESS];
    case 'xstate.error.actor.list':
      return [{ type: 'toast', kind: 'error', key: 'error.request' }, FOCUS_BUTTON];
    default:
      return [];
  }
}

const EVENTS: AnyEventObject[] = [
  { type: 'templates.open', replaces: false },
  { type: 'templates.open', replaces: true },
  { type: 'templates.use', id: 11, replaces: false },
  { type: 'templates.use', id: 11, replaces: true },
  { type: 'templates.search', q: 'cita' },
  { type: 'templates.repository', repository: 'hermes' },
  { type: 'templates.repository', repository: null },
  { type: 'templates.retry' },
  { type: 'templates.choose', id: 11 },
  // Not listed (a stale click): nothing happens.
  { type: 'templates.choose', id: 99 },
  { type: 'templates.close' },
  { type: 'templates.confirm' },
  { type: 'templates.cancel' },
];

const INTERNAL: AnyEventObject[] = [
  NONE,
  ROWS,
  { type: 'xstate.done.actor.fetchTemplate', output: CITATION },
  { type: 'xstate.done.actor.fetchTemplate', output: null },
  { type: 'xstate.error.actor.fetchTemplate', error: failure(500, 'server.error') },
  { type: 'xstate.error.actor.list', error: new Error('list: a bug') },
];

/** Bounded: the search and the filter once each, from the list with its rows and no search yet. */
function offered(snapshot: AnyMachineSnapshot, event: AnyEventObject): boolean {
  const fresh = snapshot.context.q === '' && snapshot.context.repository === null;
  if (event.type === 'templates.search' || event.type === 'templates.repository') return fresh;
  if (event.type === 'xstate.snapshot.list') return fresh;
  return true;
}

defineModelTests({
  name: 'template-picker',
  machine: templatePickerMachine,
  // The header and the decision on using a template: nothing typed is replaced without a yes; the start's
  // template is fetched, then asked about or applied the same way.
  oracle: {
    initial: 'closed',
    targets: {
      closed: { 'templates.open': 'open', 'templates.use': 'fetching' },
      open: {
        // A listed template: asked about over typed text, else applied and the dialog closed; a template
        // no longer listed (a stale click) does nothing.
        'templates.choose': ({ event, context, stay }) =>
          context.items.some((item) => item.id === event.id) ? (context.replaces ? 'confirming' : 'closed') : stay,
        'templates.close': 'closed',
        // The list broke: the dialog closes with the request error (search, filter and retry keep it open).
        'xstate.error.actor.list': 'closed',
      },
      fetching: {
        // Gone meanwhile: nothing to apply; found: the same question over typed text.
        'xstate.done.actor.fetchTemplate': ({ event, context }) => (event.output !== null && context.replaces ? 'confirming' : 'closed'),
        'xstate.error.actor.fetchTemplate': 'closed',
      },
      // Reemplazar applies, Mantener mi texto keeps: either way the question is answered.
      confirming: { 'templates.confirm': 'closed', 'templates.cancel': 'closed' },
    },
  },
  traversal: {
    events: EVENTS,
    internal: INTERNAL,
    filterEvents: offered,
    input: { parent: PLANNING_PARENT },
    serializeState: (s) =>
      JSON.stringify([
        s.value,
        s.context.repository,
        s.context.q,
        (s.context.items as Template[]).map((i) => i.id),
        s.context.replaces,
        s.context.chosen?.id ?? null,
      ]),
    limit: 5_000,
  },
  createActor: ({ fakes, inspect, machine }) => {
    reports.length = 0;
    return createActor(machine.provide({ actors: { list: listStandIn as never, fetchTemplate: fakes.promise() } }), {
      input: { parent: recordingParent(reports) },
      inspect,
    });
  },
  contextOf: (context) => {
    const { parent: _parent, ...rest } = context as Record<string, unknown>;
    return JSON.parse(JSON.stringify(rest)) as unknown;
  },
  states: {
    closed: (snapshot, env) => {
      expect(reports.splice(0), 'what compose gets').toEqual(expectedReports(env));
      expect(selectPickerOpen(pk(snapshot))).toBe(false);
      expect(selectAsksReplace(pk(snapshot))).toBe(false);
      expect(selectPickerList(pk(snapshot))).toBeUndefined();
      expect(env.fakes.isRunning('fetchTemplate')).toBe(false);
      expect(snapshot.context.chosen).toBeNull();
    },
    open: (snapshot, env) => {
      expect(reports.splice(0)).toEqual([]);
      expect(selectPickerOpen(pk(snapshot))).toBe(true);
      const list = selectPickerList(pk(snapshot));
      expect(list, 'hosted list').toBeDefined();
      expect(selectPickerItems(pk(snapshot))).toBe((list!.getSnapshot() as AnyMachineSnapshot).context.items);
      const told = env.delivered.filter((d) => d.to === 'list' && !/^(test|xstate)\./.test(d.event.type)).map((d) => d.event);
      expect(told).toEqual(toldList(env));
      // Opened anew: every template, no search, whatever the last visit searched.
      if (env.event.type === 'templates.open' && env.from.matches('closed')) {
        expect((list!.getSnapshot() as AnyMachineSnapshot).context.input).toEqual({ query: { repository: null, q: '' } });
        expect(snapshot.context.replaces).toBe(env.event.replaces);
      }
    },
    fetching: (snapshot, env) => {
      expect(reports.splice(0)).toEqual([]);
      expect(selectPickerFetching(pk(snapshot))).toBe(true);
      expect(env.fakes.inputOf('fetchTemplate')).toEqual({ id: 11 });
      if (env.event.type === 'templates.use' && env.from.matches('closed'))
        expect(env.started, 'the template is asked for').toEqual(['fetchTemplate']);
    },
    confirming: (snapshot, env) => {
      // Asked before anything is replaced: compose has got nothing.
      expect(reports.splice(0)).toEqual([]);
      expect(selectAsksReplace(pk(snapshot))).toBe(true);
      expect(snapshot.context.replaces).toBe(true);
      // Only over text: compose said so when it opened the picker or passed the start's template.
      expect(asked.get(env.actor)?.replaces, 'compose said the form has text').toBe(true);
      expect(selectChosenName(pk(snapshot))).toBe(CITATION.name);
      expect(selectPickerList(pk(snapshot))).toBeUndefined();
      expect(env.fakes.isRunning('fetchTemplate')).toBe(false);
    },
  },
  events: {
    'templates.open': sendCommand,
    'templates.use': sendCommand,
    'templates.search': send,
    'templates.repository': send,
    'templates.retry': send,
    'templates.choose': send,
    'templates.close': send,
    'templates.confirm': send,
    'templates.cancel': send,
    'xstate.snapshot.list': (env) =>
      listOf(env)?.send({ type: 'test.show', items: (env.event.snapshot as AnyMachineSnapshot).context.items }),
    'xstate.error.actor.list': (env) => listOf(env)?.send({ type: 'test.crash' }),
    'xstate.done.actor.fetchTemplate': settle,
    'xstate.error.actor.fetchTemplate': settle,
  },
  emits,
});
