// /templates around its hosted list: the repository tabs and the search it tells the list, the editor (a
// new template starts empty; a refused or failed save keeps everything typed, a 422 marks its fields;
// closing it with unsaved changes asks «¿Descartar los cambios?» first, an untouched one closes at once),
// delete after a question, copy of read-only templates, with SPEC §8's toasts and the focus moves. The
// list itself has its own model test (list.test.ts); a stand-in shows the rows a path gives it.
import { createActor, type AnyActorRef, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { expect } from 'vitest';
import {
  selectBusyId,
  selectCanAct,
  selectConfirmingDelete,
  selectConfirmingDiscard,
  selectDraftContent,
  selectDraftName,
  selectEditorOpen,
  selectIsNew,
  selectIsSaving,
  selectItems,
  selectList,
  templatesMachine,
  type TemplatesSnapshot,
} from '../../src/machines/templates/templates';
import { EMPTY_DRAFT, templateErrors } from '../../src/machines/templates/rules';
import type { Template } from '../../shared/templates-contract';
import { defineModelTests, send, settle, type StepEnv } from './harness';
import { listStandIn, showingRows } from './doubles';
import { failure } from './fixtures';
import { productTemplate, template } from '../fixtures/templates';

const tpl = (snapshot: AnyMachineSnapshot) => snapshot as unknown as TemplatesSnapshot;

const showing = (rows: string, items: Template[]) => showingRows(rows, items);

const OWN_1 = template({ id: 1, name: 'Reunión', content: 'Reunión el jueves, {estudiante}.' });
const OWN_2 = template({ id: 2 });
const LIB_11 = productTemplate(11);
const NONE = showing('none', []);
const MINE = showing('1,2', [OWN_1, OWN_2]);
const LIBRARY = showing('11', [LIB_11]);

const SAVED = template({ id: 1, name: 'Reunión de curso', content: 'Hola' });
const SERVER_DOWN = failure(500, 'server.error');
const REFUSED = failure(422, 'validation.failed', 'Los datos no son válidos.', { name: ['Ya tienes una plantilla con ese nombre.'] });

const listOf = (env: StepEnv) => selectList(tpl(env.actor.getSnapshot() as AnyMachineSnapshot)) as AnyActorRef | undefined;
const IO_IDS = ['saveTemplate', 'deleteTemplate', 'copyTemplate'];
function expectRunning(env: StepEnv, id: string | null) {
  for (const other of IO_IDS) expect(env.fakes.isRunning(other), `${other} running`).toBe(other === id);
}
const itemsOf = (s: AnyMachineSnapshot): Template[] => s.context.items;
const listed = (s: AnyMachineSnapshot, id: unknown) => itemsOf(s).find((item) => item.id === id);
const opener = (draft: { id: number | null }) => (draft.id === null ? 'template-new' : `template-edit-${draft.id}`);
/** The question's safe answer, where focus goes when it opens. */
const KEEP_EDITING = 'template-keep-editing';
const errorOf = (env: StepEnv) => env.event.error as { status: number; fieldErrors: Record<string, string[]> };

/** The oracle of what the page tells its list in this step. */
function toldList({ from, event }: StepEnv): AnyEventObject[] {
  if (!from.matches('shown')) return [];
  switch (event.type) {
    case 'templates.search':
      return [{ type: 'list.query', query: { repository: from.context.repository, q: event.q } }];
    case 'templates.repository':
      return event.repository === from.context.repository
        ? []
        : [{ type: 'list.query', query: { repository: event.repository, q: from.context.q } }];
    case 'templates.retry':
      return [{ type: 'list.reload' }];
    // A new template comes with page 1 again; an edited one is updated where it is.
    case 'xstate.done.actor.saveTemplate':
      return from.context.draft.id === null ? [{ type: 'list.reload' }] : [{ type: 'list.update', items: [event.output] }];
    case 'xstate.done.actor.deleteTemplate':
      return [{ type: 'list.remove', keys: [from.context.target.id] }];
    default:
      return [];
  }
}

function emits(env: StepEnv): AnyEventObject[] {
  const { from, event } = env;
  const draft = from.context.draft as typeof EMPTY_DRAFT;
  switch (event.type) {
    case 'templates.save':
      if (!from.matches({ shown: 'editing' })) return [];
      {
        const errors = templateErrors(draft);
        if (Object.keys(errors).length === 0) return [];
        return [
          { type: 'toast', kind: 'error', key: 'templates.errors.review' },
          { type: 'focus', target: errors.name ? 'template-name' : 'template-content' },
        ];
      }
    // Closing an untouched editor goes back to its opener; with unsaved changes it asks first, focus on
    // "Seguir editando" (the safe answer). Asked, "Descartar" closes; "Seguir editando" goes back to the
    // first field that differs from where the editor started.
    case 'templates.close':
      if (!from.matches({ shown: 'editing' })) return [];
      return [{ type: 'focus', target: unsaved(from) ? KEEP_EDITING : opener(draft) }];
    case 'templates.discard':
      return from.matches({ shown: 'confirmingDiscard' }) ? [{ type: 'focus', target: opener(draft) }] : [];
    case 'templates.keepEditing':
      if (!from.matches({ shown: 'confirmingDiscard' })) return [];
      return [{ type: 'focus', target: draft.name.trim() !== originOf(from).name ? 'template-name' : 'template-content' }];
    case 'xstate.done.actor.saveTemplate':
      return [
        { type: 'toast', kind: 'success', key: draft.id === null ? 'templates.toast.created' : 'templates.toast.updated' },
        { type: 'focus', target: opener(draft) },
      ];
    case 'xstate.error.actor.saveTemplate': {
      // SPEC §8's one failure text; a 422 also marks its field and takes the focus there.
      const failed = { type: 'toast', kind: 'error', key: 'templates.toast.failed' };
      const error = errorOf(env);
      if (error.status !== 422) return [failed];
      return [failed, { type: 'focus', target: error.fieldErrors.name ? 'template-name' : 'template-content' }];
    }
    case 'templates.cancel':
      return from.matches({ shown: 'confirmingDelete' }) ? [{ type: 'focus', target: `template-delete-${from.context.target.id}` }] : [];
    case 'xstate.done.actor.deleteTemplate':
      return [{ type: 'toast', kind: 'success', key: 'templates.toast.deleted' }];
    case 'xstate.error.actor.deleteTemplate':
      return [
        { type: 'toast', kind: 'error', key: 'templates.toast.failed' },
        { type: 'focus', target: `template-delete-${from.context.target.id}` },
      ];
    case 'xstate.done.actor.copyTemplate':
      return [{ type: 'toast', kind: 'success', key: 'templates.toast.copied' }];
    case 'xstate.error.actor.copyTemplate':
      return [{ type: 'toast', kind: 'error', key: 'templates.toast.failed' }];
    default:
      return [];
  }
}

const EVENTS: AnyEventObject[] = [
  { type: 'templates.search', q: 'reunion' },
  { type: 'templates.repository', repository: 'hermes' },
  { type: 'templates.repository', repository: 'mis-plantillas' },
  { type: 'templates.retry' },
  { type: 'templates.create' },
  { type: 'templates.edit', id: 1 },
  // A read-only (product) template, and one not listed: no editor.
  { type: 'templates.edit', id: 11 },
  { type: 'templates.edit', id: 99 },
  { type: 'templates.change', field: 'name', value: '  Reunión de curso ' },
  { type: 'templates.change', field: 'content', value: 'Hola {estudiante}' },
  { type: 'templates.change', field: 'name', value: '' },
  // Blanks only: a new template with nothing but blanks is still untouched.
  { type: 'templates.change', field: 'name', value: '   ' },
  { type: 'templates.save' },
  { type: 'templates.close' },
  { type: 'templates.discard' },
  { type: 'templates.keepEditing' },
  { type: 'templates.delete', id: 1 },
  { type: 'templates.delete', id: 11 },
  { type: 'templates.copy', id: 11 },
  { type: 'templates.copy', id: 1 },
  { type: 'templates.confirm' },
  { type: 'templates.cancel' },
];

const INTERNAL: AnyEventObject[] = [
  { type: 'xstate.done.actor.saveTemplate', output: SAVED },
  { type: 'xstate.error.actor.saveTemplate', error: REFUSED },
  { type: 'xstate.error.actor.saveTemplate', error: SERVER_DOWN },
  { type: 'xstate.done.actor.deleteTemplate', output: undefined },
  { type: 'xstate.error.actor.deleteTemplate', error: SERVER_DOWN },
  { type: 'xstate.done.actor.copyTemplate', output: template({ id: 12, name: 'Citación 11' }) },
  { type: 'xstate.error.actor.copyTemplate', error: SERVER_DOWN },
  { type: 'xstate.error.actor.list', error: new Error('list: a bug') },
];

/** Where the editor started: empty, or the own template as listed when it was opened (rows change only in idle). */
function originOf(snapshot: AnyMachineSnapshot): typeof EMPTY_DRAFT {
  const { draft } = snapshot.context as { draft: typeof EMPTY_DRAFT };
  if (draft.id === null) return EMPTY_DRAFT;
  const own = listed(snapshot, draft.id) as Template;
  return { id: own.id, name: own.name, content: own.content };
}

/** Fields of the editor that differ from where it started (empty, or the own template opened). */
function changed(snapshot: AnyMachineSnapshot): number {
  const { draft } = snapshot.context as { draft: typeof EMPTY_DRAFT };
  const origin = originOf(snapshot);
  return (['name', 'content'] as const).filter((field) => draft[field] !== origin[field]).length;
}

/**
 * The oracle of "closing would lose something": a new template with a field that is not blank; an own
 * template whose name (as it would be saved, trimmed) or content differs from what it opened with.
 */
function unsaved(snapshot: AnyMachineSnapshot): boolean {
  const { draft } = snapshot.context as { draft: typeof EMPTY_DRAFT };
  if (draft.id === null) return draft.name.trim() !== '' || draft.content.trim() !== '';
  const origin = originOf(snapshot);
  return draft.name.trim() !== origin.name || draft.content !== origin.content;
}

/** The step's context read as a snapshot, for the helpers above (they read only its context). */
const withContext = (context: unknown) => ({ context }) as unknown as AnyMachineSnapshot;
/** Decision 0064 in short: a save needs a name and a text that are not blank. */
const saveable = (draft: { name: string; content: string }) => draft.name.trim() !== '' && draft.content.trim() !== '';
/** A row on screen, and whether it is the user's own (editable) or a library's (read-only). */
const rowIs = (context: { items: Template[] }, id: number, editable: boolean) =>
  context.items.some((item) => item.id === id && item.editable === editable);

/**
 * The paths are bounded by what is offered where: the rows, the search and the tabs change only in idle
 * (the search and the tabs with no rows yet and no search, rows with no search); the row actions and the
 * editor are tried over rows with no search, the list breaking from idle; each field is edited at most once from where the editor started.
 */
function offered(snapshot: AnyMachineSnapshot, event: AnyEventObject): boolean {
  const idle = snapshot.matches({ shown: 'idle' });
  const q = snapshot.context.q as string;
  switch (event.type) {
    case 'xstate.snapshot.list':
      return idle && q === '';
    case 'templates.search':
      return idle && q === '' && itemsOf(snapshot).length > 0;
    case 'templates.repository':
      return idle && q === '' && itemsOf(snapshot).length === 0;
    case 'templates.create':
    case 'templates.edit':
    case 'templates.delete':
    case 'templates.copy':
      return q === '' && itemsOf(snapshot).length > 0;
    // The list breaking (a bug) is tried where nothing else is under way.
    case 'xstate.error.actor.list':
      return idle;
    // Typing goes on while the question is asked too (it answers "Seguir editando").
    case 'templates.change': {
      if (!snapshot.matches({ shown: 'editing' }) && !snapshot.matches({ shown: 'confirmingDiscard' })) return false;
      const { draft } = snapshot.context as { draft: typeof EMPTY_DRAFT };
      const field = event.field as 'name' | 'content';
      const origin = draft.id === null ? EMPTY_DRAFT : (listed(snapshot, draft.id) ?? EMPTY_DRAFT);
      return draft[field] === origin[field] && changed(snapshot) < 2;
    }
    default:
      return true;
  }
}

defineModelTests({
  name: 'templates',
  machine: templatesMachine,
  // The header and decision 0064: one thing at a time over the rows. The editor opens for a new or an own
  // template; Guardar asks only with a name and a text, a failure returns to the editor; closing asks first
  // when something typed would be lost, and typing answers «Seguir editando». Delete asks first; only a
  // library's template is copied. A crashed list is a failure until Reintentar starts a new one.
  oracle: {
    initial: 'shown.idle',
    targets: {
      shown: { 'xstate.error.actor.list': 'crashed' },
      crashed: { 'templates.retry': 'shown.idle' },
      'shown.idle': {
        'templates.create': 'shown.editing',
        'templates.edit': ({ event, context, stay }) => (rowIs(context, event.id, true) ? 'shown.editing' : stay),
        'templates.delete': ({ event, context, stay }) => (rowIs(context, event.id, true) ? 'shown.confirmingDelete' : stay),
        'templates.copy': ({ event, context, stay }) => (rowIs(context, event.id, false) ? 'shown.copying' : stay),
      },
      'shown.editing': {
        'templates.save': ({ context, stay }) => (saveable(context.draft) ? 'shown.saving' : stay),
        'templates.close': ({ context }) => (unsaved(withContext(context)) ? 'shown.confirmingDiscard' : 'shown.idle'),
      },
      'shown.saving': { 'xstate.done.actor.saveTemplate': 'shown.idle', 'xstate.error.actor.saveTemplate': 'shown.editing' },
      'shown.confirmingDiscard': {
        'templates.discard': 'shown.idle',
        'templates.keepEditing': 'shown.editing',
        'templates.change': ({ event, context, stay }) => (event.value !== context.draft[event.field] ? 'shown.editing' : stay),
      },
      'shown.confirmingDelete': { 'templates.confirm': 'shown.deleting', 'templates.cancel': 'shown.idle' },
      'shown.deleting': { 'xstate.done.actor.deleteTemplate': 'shown.idle', 'xstate.error.actor.deleteTemplate': 'shown.idle' },
      'shown.copying': { 'xstate.done.actor.copyTemplate': 'shown.idle', 'xstate.error.actor.copyTemplate': 'shown.idle' },
    },
  },
  traversal: {
    events: EVENTS,
    internal: [...INTERNAL, NONE, MINE],
    filterEvents: offered,
    // One vertex per state, tab, search, rows and which editor fields are empty (not their text).
    serializeState: (snapshot) => {
      const { draft } = snapshot.context as { draft: typeof EMPTY_DRAFT };
      return JSON.stringify([
        snapshot.value,
        snapshot.context.repository,
        snapshot.context.q,
        itemsOf(snapshot).map((i) => i.id),
        draft.id,
        changed(snapshot),
        draft.name.trim() === '',
        draft.content === '',
      ]);
    },
    limit: 2_000,
  },
  variants: [
    { name: 'mis-plantillas', traversal: { internal: [...INTERNAL, NONE, MINE], input: {} } },
    { name: 'hermes', traversal: { internal: [...INTERNAL, NONE, LIBRARY], input: { repository: 'hermes' } } },
  ],
  createActor: ({ fakes, path, inspect, machine }) =>
    createActor(
      machine.provide({
        actors: {
          list: listStandIn as never,
          saveTemplate: fakes.promise(),
          deleteTemplate: fakes.promise(),
          copyTemplate: fakes.promise(),
        },
      }),
      { input: path.input as object, inspect },
    ),
  states: {
    shown: (snapshot, env) => {
      const told = env.delivered.filter((d) => d.to === 'list' && !/^(test|xstate)\./.test(d.event.type)).map((d) => d.event);
      expect(told).toEqual(toldList(env));
      const list = selectList(tpl(snapshot));
      expect(list, 'hosted list').toBeDefined();
      expect(selectItems(tpl(snapshot))).toBe((list!.getSnapshot() as AnyMachineSnapshot).context.items);
      // A list (re)started asks for the repository with the search as typed.
      if (env.event.type === 'xstate.init' || env.from.matches('crashed')) {
        expect((list!.getSnapshot() as AnyMachineSnapshot).context.input).toEqual({
          query: { repository: snapshot.context.repository, q: snapshot.context.q },
        });
      }
    },
    'shown.idle': (snapshot, env) => {
      expect(selectEditorOpen(tpl(snapshot))).toBe(false);
      expect(selectCanAct(tpl(snapshot))).toBe(true);
      expect(snapshot.context.draft).toEqual(EMPTY_DRAFT);
      expect(snapshot.context.original).toEqual(EMPTY_DRAFT);
      expect(snapshot.context.errors).toEqual({});
      expect(selectConfirmingDiscard(tpl(snapshot))).toBe(false);
      // Nothing typed is lost: the editor closes at once only when untouched, else only by "Descartar".
      if (env.from.matches({ shown: 'editing' }) && env.event.type === 'templates.close')
        expect(unsaved(env.from), 'closed with unsaved changes').toBe(false);
      if (env.from.matches({ shown: 'confirmingDiscard' })) expect(env.event.type).toBe('templates.discard');
      expect(snapshot.context.target).toBeNull();
      expect(selectBusyId(tpl(snapshot))).toBeNull();
      expectRunning(env, null);
      // Only own templates open the editor or the delete question; only read-only ones are copied.
      if (env.from.matches({ shown: 'idle' }) && (env.event.type === 'templates.edit' || env.event.type === 'templates.delete'))
        expect(listed(env.from, env.event.id)?.editable).not.toBe(true);
      if (env.event.type === 'templates.copy' && env.from.matches({ shown: 'idle' }))
        expect(listed(env.from, env.event.id)?.editable).not.toBe(false);
    },
    'shown.editing': (snapshot, env) => {
      expect(selectEditorOpen(tpl(snapshot))).toBe(true);
      expect(selectIsSaving(tpl(snapshot))).toBe(false);
      expect(selectCanAct(tpl(snapshot))).toBe(false);
      expect(selectConfirmingDiscard(tpl(snapshot))).toBe(false);
      expectRunning(env, null);
      const draft = snapshot.context.draft;
      // What the editor opened with is kept, whatever is typed since.
      expect(snapshot.context.original).toEqual(originOf(snapshot));
      // "Seguir editando": everything typed is still there.
      if (env.from.matches({ shown: 'confirmingDiscard' }) && env.event.type === 'templates.keepEditing')
        expect(draft).toEqual(env.from.context.draft);
      // Typing while asked answers "Seguir editando" with what was typed.
      if (env.from.matches({ shown: 'confirmingDiscard' }) && env.event.type === 'templates.change')
        expect(env.event.value).not.toBe(env.from.context.draft[env.event.field as 'name' | 'content']);
      // SPEC §3: "A template selected by the user starts empty": a new template has empty fields.
      const opened = env.from.matches({ shown: 'idle' });
      if (opened && env.event.type === 'templates.create') {
        expect(selectIsNew(tpl(snapshot))).toBe(true);
        expect([selectDraftName(tpl(snapshot)), selectDraftContent(tpl(snapshot))]).toEqual(['', '']);
      }
      if (opened && env.event.type === 'templates.edit') {
        const own = listed(env.from, env.event.id) as Template;
        expect(draft).toEqual({ id: own.id, name: own.name, content: own.content });
      }
      if (env.event.type === 'templates.change') expect(draft[env.event.field as 'name' | 'content']).toBe(env.event.value);
      // Nothing typed is lost: a refused or failed save comes back with the fields as they were sent.
      if (env.event.type.startsWith('xstate.error.actor.saveTemplate')) {
        expect(draft).toEqual(env.from.context.draft);
        const error = errorOf(env);
        expect(snapshot.context.errors).toEqual(
          error.status === 422 ? { name: { key: 'templates.errors.server', params: { message: error.fieldErrors.name?.[0] } } } : {},
        );
      }
      if (env.event.type === 'templates.save') expect(snapshot.context.errors).toEqual(templateErrors(draft));
      if (env.event.type === 'templates.save') expect(saveable(draft), 'Guardar stayed on a draft it cannot send').toBe(false);
    },
    'shown.saving': (snapshot, env) => {
      expect(selectIsSaving(tpl(snapshot))).toBe(true);
      const draft = snapshot.context.draft;
      expect(templateErrors(draft)).toEqual({});
      expect(saveable(draft), 'only a name and a text are sent').toBe(true);
      expect(env.fakes.inputOf('saveTemplate')).toEqual({ id: draft.id, template: { name: draft.name.trim(), content: draft.content } });
      expectRunning(env, 'saveTemplate');
    },
    // «¿Descartar los cambios?», asked in the editor, which stays open with everything typed.
    'shown.confirmingDiscard': (snapshot, env) => {
      expect(selectConfirmingDiscard(tpl(snapshot))).toBe(true);
      expect(selectEditorOpen(tpl(snapshot))).toBe(true);
      expect(selectIsSaving(tpl(snapshot))).toBe(false);
      expect(selectCanAct(tpl(snapshot))).toBe(false);
      expect(unsaved(snapshot), 'asked with nothing to lose').toBe(true);
      expect(snapshot.context.original).toEqual(originOf(snapshot));
      // Only closing an editor with unsaved changes asks; the question itself changes nothing.
      if (!env.from.matches({ shown: 'confirmingDiscard' }))
        expect(env.from.matches({ shown: 'editing' }) && env.event.type === 'templates.close').toBe(true);
      expect(snapshot.context.draft).toEqual(env.from.context.draft);
      // A field reporting the value it has (as it loses the focus to the question) does not answer it.
      if (env.event.type === 'templates.change')
        expect(env.event.value).toBe(env.from.context.draft[env.event.field as 'name' | 'content']);
      expectRunning(env, null);
    },
    'shown.confirmingDelete': (snapshot, env) => {
      expect(selectConfirmingDelete(tpl(snapshot))).toBe(true);
      expect(snapshot.context.target?.editable).toBe(true);
      expectRunning(env, null);
    },
    'shown.deleting': (snapshot, env) => {
      // Only after the question.
      if (!env.from.matches({ shown: 'deleting' })) expect(env.from.matches({ shown: 'confirmingDelete' })).toBe(true);
      expect(env.fakes.inputOf('deleteTemplate')).toEqual({ id: snapshot.context.target.id });
      expect(selectBusyId(tpl(snapshot))).toBe(snapshot.context.target.id);
      expectRunning(env, 'deleteTemplate');
    },
    'shown.copying': (snapshot, env) => {
      expect(snapshot.context.target?.editable).toBe(false);
      expect(env.fakes.inputOf('copyTemplate')).toEqual({ id: snapshot.context.target.id });
      expectRunning(env, 'copyTemplate');
    },
    crashed: (snapshot, env) => {
      expect(selectList(tpl(snapshot))).toBeUndefined();
      expect(selectItems(tpl(snapshot))).toEqual([]);
      expectRunning(env, null);
      expect(snapshot.can({ type: 'templates.retry' })).toBe(true);
    },
  },
  events: {
    'templates.search': send,
    'templates.repository': send,
    'templates.retry': send,
    'templates.create': send,
    'templates.edit': send,
    'templates.change': send,
    'templates.save': send,
    'templates.close': send,
    'templates.discard': send,
    'templates.keepEditing': send,
    'templates.delete': send,
    'templates.copy': send,
    'templates.confirm': send,
    'templates.cancel': send,
    'xstate.snapshot.list': (env) =>
      listOf(env)?.send({ type: 'test.show', items: (env.event.snapshot as AnyMachineSnapshot).context.items }),
    'xstate.error.actor.list': (env) => listOf(env)?.send({ type: 'test.crash' }),
    'xstate.done.actor.saveTemplate': settle,
    'xstate.error.actor.saveTemplate': settle,
    'xstate.done.actor.deleteTemplate': settle,
    'xstate.error.actor.deleteTemplate': settle,
    'xstate.done.actor.copyTemplate': settle,
    'xstate.error.actor.copyTemplate': settle,
  },
  emits,
});
