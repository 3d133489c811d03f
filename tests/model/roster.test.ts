// /settings/roster (roster/roster.ts): the file (refused before sending when it is not .csv/.xlsx), its upload
// with progress (the bytes sent, then the lines the server has read), the columns when the server asks for them (prefilled with its suggestion, sent again with the
// file), the preview with its people (the hosted list) and its conflicts, «Aplicar» only when every conflict has a
// choice and some row is valid (applying with the rows the server has written), «Descartar» after a question, a stale preview asking for the file again. A failed
// call keeps what was chosen: the file, the columns, the conflicts' choices.
import { createActor, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { expect } from 'vitest';
import type { RosterImport, RosterReadAnswer } from '../../shared/roster-contract';
import {
  rosterMachine,
  selectCanApply,
  selectPercent,
  selectStep,
  selectWorkDone,
  selectWorkPhase,
  selectWorkTotal,
  type RosterContext,
  type RosterSnapshot,
} from '../../src/machines/roster/roster';
import type { RosterConflict } from '../../src/services/roster/roster';
import { failure } from './fixtures';
import { defineModelTests, send, settle, type StepEnv } from './harness';
import { listExecutors, listStandIn, showing, toldList } from './list-stand-in';

const rs = (snapshot: AnyMachineSnapshot) => snapshot as unknown as RosterSnapshot;
const ctx = (snapshot: AnyMachineSnapshot) => snapshot.context as RosterContext;

const CSV = new File(['RUT alumno;Columna X\n12345678-5;x\n'], 'matricula-2027.csv', { type: 'text/csv' });
const PDF = new File(['%PDF'], 'matricula.pdf', { type: 'application/pdf' });

const IMPORT: RosterImport = {
  id: 41,
  state: 'previewed',
  file_name: 'matricula-2027.csv',
  file_hash: 'ab'.repeat(32),
  school_year: 2027,
  created_at: '2026-11-29T23:00:00Z',
  created_by: 'Ana Administradora',
  applied_at: null,
  counts: {
    students: { new: 2, changed: 1, unchanged: 0, withdrawn: 1 },
    guardians: { new: 2, changed: 1, unchanged: 0 },
    courses: { new: 1, unchanged: 1 },
    rows: { read: 4, valid: 3, refused: 1 },
    conflicts: 1,
  },
};
const NOTHING_VALID: RosterImport = {
  ...IMPORT,
  id: 42,
  counts: { ...IMPORT.counts, rows: { read: 2, valid: 0, refused: 2 }, conflicts: 0 },
};
const APPLIED: RosterImport = { ...IMPORT, state: 'applied', applied_at: '2026-11-29T23:05:00Z' };

const ASKS_COLUMNS: RosterReadAnswer = {
  status: 'mapping',
  headers: ['RUT alumno', 'Columna X'],
  suggested: ['student_run', 'ignore'],
  header_line: 2,
};
const PREVIEWED: RosterReadAnswer = { status: 'preview', import: IMPORT };
const NOTHING_TO_APPLY: RosterReadAnswer = { status: 'preview', import: NOTHING_VALID };

const PHONE: RosterConflict = {
  key: 'guardian:7:phone',
  name: 'María Pérez',
  field: 'phone',
  hermes: '+56 9 8765 4321',
  file: '+56 9 1111 2222',
};

/** The server's progress as the two calls tell it: lines read while uploading, rows written while applying. */
const READ = { phase: 'reading', done: 1000, total: 2500 } as const;
const WRITTEN = { phase: 'writing', done: 4000, total: 8000 } as const;
const workOf = (s: AnyMachineSnapshot) => [selectWorkPhase(rs(s)), selectWorkDone(rs(s)), selectWorkTotal(rs(s))];

const FILE_REFUSED = failure(422, 'validation.failed', 'Revisa el archivo', { file: ['El archivo no tiene encabezados.'] });
const OFFLINE = failure(0, 'network', 'Failed to fetch');
const STALE = failure(409, 'roster.stale', 'La matrícula cambió desde la vista previa.');
const CONFLICT_MISSING = failure(422, 'validation.failed', 'Revisa los conflictos', { conflicts: ['Falta elegir en un conflicto.'] });

const ROWS = showing('2', [
  {
    kind: 'student',
    change: 'new',
    match: 'new',
    id: null,
    name: 'Tomás Soto',
    document: null,
    course: '1° Básico A',
    lines: [3],
    changes: [],
  },
]);

/** The test's own rule for a file: only .csv and .xlsx go, and not empty. */
const accepted = (file: File) => /\.(csv|xlsx)$/i.test(file.name) && file.size > 0;
const focusStep = { type: 'focus', target: 'roster-step' };
const focusFile = { type: 'focus', target: 'roster-file' };

function emits({ from, event }: StepEnv): AnyEventObject[] {
  switch (event.type) {
    case 'roster.choose':
      return from.matches('choosing') && !accepted(event.file as File) ? [focusFile] : [];
    case 'xstate.done.actor.uploadRoster':
      return [focusStep];
    case 'xstate.error.actor.uploadRoster':
      return event.error === FILE_REFUSED ? [focusFile] : [];
    case 'xstate.done.actor.discardRoster':
      return [{ type: 'toast', kind: 'success', key: 'roster.toast.discarded' }, focusStep];
    case 'xstate.done.actor.applyRoster':
      return [{ type: 'toast', kind: 'success', key: 'roster.toast.applied' }, focusStep];
    case 'xstate.error.actor.applyRoster':
      return event.error === STALE ? [focusStep] : [];
    default:
      return [];
  }
}

/** What the preview told its list in a step: the filter as page 1 of that change, more as the next page. */
function expectedTold({ from, event }: StepEnv): AnyEventObject[] {
  if (!from.matches('preview')) return [];
  if (event.type === 'roster.filter') return [{ type: 'list.query', query: { importId: ctx(from).preview?.id, change: event.change } }];
  if (event.type === 'roster.loadMore') return [{ type: 'list.more' }];
  return [];
}

/** Everything of one import forgotten (a new start): only the history and the country stay. */
const expectForgotten = (s: AnyMachineSnapshot) => {
  const c = ctx(s);
  expect([c.file, c.mapping, c.preview, c.result, c.conflicts, c.choices]).toEqual([null, null, null, null, null, {}]);
};

defineModelTests({
  name: 'roster',
  machine: rosterMachine,
  // The header: step 1 (file, history), the upload, step 2 when asked, step 3, then applied or stale.
  oracle: {
    initial: 'choosing.loadingHistory',
    targets: {
      choosing: {
        'roster.choose': ({ event, stay }) => (accepted(event.file) ? 'uploading' : stay),
        // Only a send that failed is sent again: a refused file was dropped.
        'roster.retry': ({ context, stay }) => (context.file !== null && context.problem !== null ? 'uploading' : stay),
      },
      'choosing.loadingHistory': {
        'xstate.done.actor.fetchRosterHistory': 'choosing.shown',
        'xstate.error.actor.fetchRosterHistory': 'choosing.historyFailed',
      },
      'choosing.historyFailed': { 'history.retry': 'choosing.loadingHistory' },
      uploading: {
        'xstate.done.actor.uploadRoster': ({ event }) => (event.output.status === 'mapping' ? 'mapping' : 'preview.loadingConflicts'),
        // A refused file: step 1 again; any other failure goes back to where the file was sent from.
        'xstate.error.actor.uploadRoster': ({ event, context }) =>
          event.error === FILE_REFUSED || context.mapping === null ? 'choosing.loadingHistory' : 'mapping',
      },
      mapping: {
        'roster.submit': ({ context, stay }) => ((context.mapping ?? []).some((field) => field !== 'ignore') ? 'uploading' : stay),
        'roster.restart': 'choosing.loadingHistory',
      },
      preview: { 'xstate.error.actor.list': 'crashed' },
      'preview.loadingConflicts': {
        'xstate.done.actor.fetchRosterConflicts': 'preview.ready',
        'xstate.error.actor.fetchRosterConflicts': 'preview.conflictsFailed',
      },
      'preview.conflictsFailed': { 'roster.retry': 'preview.loadingConflicts', 'roster.discard': 'preview.confirmingDiscard' },
      'preview.ready': {
        'roster.apply': ({ context, stay }) =>
          (context.preview?.counts.rows.valid ?? 0) > 0 &&
          context.conflicts !== null &&
          context.conflicts.every((conflict) => conflict.key in context.choices)
            ? 'preview.applying'
            : stay,
        'roster.discard': 'preview.confirmingDiscard',
      },
      // Back to the preview as it was: its conflicts, or their failed load (then «Aplicar» still waits for them).
      'preview.confirmingDiscard': {
        'roster.confirm': 'preview.discarding',
        'roster.cancel': ({ context }) => (context.conflicts === null ? 'preview.conflictsFailed' : 'preview.ready'),
      },
      'preview.discarding': {
        'xstate.done.actor.discardRoster': 'choosing.loadingHistory',
        'xstate.error.actor.discardRoster': ({ context }) => (context.conflicts === null ? 'preview.conflictsFailed' : 'preview.ready'),
      },
      'preview.applying': {
        'xstate.done.actor.applyRoster': 'applied',
        'xstate.error.actor.applyRoster': ({ event }) => ((event.error as { status: number }).status === 409 ? 'stale' : 'preview.ready'),
      },
      crashed: { 'roster.retry': 'preview.loadingConflicts' },
      stale: { 'roster.restart': 'choosing.loadingHistory' },
      applied: { 'roster.restart': 'choosing.loadingHistory' },
    },
  },
  traversal: {
    input: { country: 'CL' },
    events: [
      // `name` tells the two apart where events are told apart by their JSON (a File's is `{}`).
      { type: 'roster.choose', file: CSV, name: CSV.name },
      { type: 'roster.choose', file: PDF, name: PDF.name },
      { type: 'roster.map', column: 0, field: 'ignore' },
      { type: 'roster.map', column: 1, field: 'guardian_phone' },
      { type: 'roster.submit' },
      { type: 'roster.retry' },
      { type: 'roster.restart' },
      { type: 'roster.filter', change: 'withdrawn' },
      { type: 'roster.loadMore' },
      { type: 'roster.resolve', key: PHONE.key, choice: 'file' },
      { type: 'roster.resolve', key: 'student:99:email', choice: 'keep' },
      { type: 'roster.apply' },
      { type: 'roster.discard' },
      { type: 'roster.confirm' },
      { type: 'roster.cancel' },
      { type: 'history.retry' },
      { type: 'upload.progress', loaded: 512, total: 1024 },
      { type: 'roster.progress', ...READ },
      { type: 'roster.progress', ...WRITTEN },
    ],
    internal: [
      { type: 'xstate.done.actor.fetchRosterHistory', output: [APPLIED] },
      { type: 'xstate.error.actor.fetchRosterHistory', error: OFFLINE },
      { type: 'xstate.done.actor.uploadRoster', output: ASKS_COLUMNS },
      { type: 'xstate.done.actor.uploadRoster', output: PREVIEWED },
      { type: 'xstate.done.actor.uploadRoster', output: NOTHING_TO_APPLY },
      { type: 'xstate.error.actor.uploadRoster', error: FILE_REFUSED },
      { type: 'xstate.error.actor.uploadRoster', error: OFFLINE },
      { type: 'xstate.done.actor.fetchRosterConflicts', output: [PHONE] },
      { type: 'xstate.error.actor.fetchRosterConflicts', error: OFFLINE },
      { type: 'xstate.done.actor.discardRoster', output: undefined },
      { type: 'xstate.error.actor.discardRoster', error: OFFLINE },
      { type: 'xstate.done.actor.applyRoster', output: APPLIED },
      { type: 'xstate.error.actor.applyRoster', error: STALE },
      { type: 'xstate.error.actor.applyRoster', error: CONFLICT_MISSING },
      ROWS,
      { type: 'xstate.error.actor.list', error: new Error('list: a bug') },
    ],
    // Each step is offered its own events; conflicts are the server's answer for the preview that has them.
    filterEvents: (s, event) => {
      if (event.type === 'xstate.done.actor.fetchRosterConflicts') return ctx(s).preview?.counts.conflicts !== 0;
      if (event.type.startsWith('xstate.')) return true;
      if (s.matches('choosing')) return /^(roster\.(choose|retry)|history\.retry)$/.test(event.type);
      // Each call tells its own phase: the upload the lines read, apply the rows written.
      if (event.type === 'roster.progress') {
        const phase = (event as { phase?: string }).phase;
        return s.matches('uploading') ? phase === 'reading' : s.matches({ preview: 'applying' }) && phase === 'writing';
      }
      if (s.matches('uploading')) return event.type === 'upload.progress';
      if (s.matches('mapping')) return /^roster\.(map|submit|restart)$/.test(event.type);
      if (s.matches('preview')) return /^roster\.(filter|loadMore|resolve|apply|discard|confirm|cancel|retry)$/.test(event.type);
      if (s.matches('crashed')) return event.type === 'roster.retry';
      return event.type === 'roster.restart';
    },
    // What can happen next: the step, what is kept for a retry, the columns while they matter, the preview's choices.
    serializeState: (s) => {
      const c = ctx(s);
      const columnsMatter = s.matches('choosing') || s.matches('uploading') || s.matches('mapping');
      return JSON.stringify([
        s.value,
        c.file !== null,
        c.fileError !== null,
        c.problem !== null,
        columnsMatter ? c.mapping : null,
        c.preview?.id ?? null,
        c.conflicts?.length ?? null,
        c.choices,
        c.change,
        c.items.length > 0,
        c.loaded > 0,
        c.work?.phase ?? null,
      ]);
    },
    limit: 50_000,
  },
  createActor: ({ fakes, inspect, machine }) =>
    createActor(
      machine.provide({
        actors: {
          list: listStandIn as never,
          uploadRoster: fakes.promise(),
          fetchRosterHistory: fakes.promise(),
          fetchRosterConflicts: fakes.promise(),
          applyRoster: fakes.promise(),
          discardRoster: fakes.promise(),
        },
      }),
      { input: { country: 'CL' }, inspect },
    ),
  states: {
    choosing: (s, env) => {
      expect(selectStep(rs(s))).toBe('file');
      expect(s.hasTag('busy')).toBe(false);
      const c = ctx(s);
      const before = ctx(env.from);
      if (env.event.type === 'roster.choose' && !accepted(env.event.file as File))
        expect(c.fileError).toEqual({ key: 'roster.file.refused.type' });
      if (env.event.type === 'xstate.error.actor.uploadRoster') {
        if (env.event.error === FILE_REFUSED) {
          // Said by the file field, in the server's words; the file is dropped.
          expect([c.fileError, c.file, c.problem]).toEqual([{ text: 'El archivo no tiene encabezados.' }, null, null]);
        } else {
          // Offline: said in place, the file kept for Reintentar.
          expect([c.problem, c.file]).toEqual([{ key: 'roster.error.offline' }, before.file]);
        }
      }
      if (env.event.type === 'roster.restart' || env.event.type === 'xstate.done.actor.discardRoster') expectForgotten(s);
      if (env.event.type === 'xstate.done.actor.fetchRosterHistory') expect(c.history).toEqual([APPLIED]);
    },
    'choosing.loadingHistory': (_s, env) => {
      expect(env.fakes.isRunning('fetchRosterHistory')).toBe(true);
    },
    'choosing.shown': (s) => {
      expect(ctx(s).history).toEqual([APPLIED]);
    },
    'choosing.historyFailed': (s, env) => {
      expect(ctx(s).history).toEqual([]);
      expect(env.fakes.isRunning('fetchRosterHistory')).toBe(false);
    },
    uploading: (s, env) => {
      expect(s.hasTag('busy')).toBe(true);
      const c = ctx(s);
      const before = ctx(env.from);
      expect([c.problem, c.fileError]).toEqual([null, null]);
      // The file as chosen, with the columns as assigned (none before the server asks).
      const sent = env.fakes.inputOf('uploadRoster') as { file: File; mapping: unknown; onProgress: unknown; onServerProgress: unknown };
      expect(sent.file).toBe(env.event.type === 'roster.choose' ? env.event.file : before.file);
      expect(sent.mapping).toEqual(env.event.type === 'roster.choose' ? null : before.mapping);
      expect(typeof sent.onProgress).toBe('function');
      expect(typeof sent.onServerProgress).toBe('function');
      if (env.event.type === 'upload.progress') expect(selectPercent(rs(s))).toBe(50);
      else if (env.event.type === 'roster.progress') expect(selectPercent(rs(s))).toBe(selectPercent(rs(env.from)));
      else expect(selectPercent(rs(s))).toBe(0);
      // The lines read as the server last told them; nothing told yet on a new send.
      if (env.event.type === 'roster.progress') expect(workOf(s)).toEqual(['reading', 1000, 2500]);
      else if (env.event.type === 'upload.progress') expect(workOf(s)).toEqual(workOf(env.from));
      else expect(workOf(s)).toEqual([null, 0, 0]);
      expect(selectStep(rs(s))).toBe(c.mapping === null ? 'file' : 'mapping');
    },
    mapping: (s, env) => {
      expect(selectStep(rs(s))).toBe('mapping');
      const c = ctx(s);
      const before = ctx(env.from);
      expect(c.headers).toEqual(ASKS_COLUMNS.headers);
      if (env.event.type === 'xstate.done.actor.uploadRoster') {
        // Asked again for the same headers: what was assigned stays; else the server's suggestion.
        expect(c.mapping).toEqual(before.mapping ?? ['student_run', 'ignore']);
        expect(c.headerLine).toBe(2);
      }
      if (env.event.type === 'roster.map') {
        const expected = [...(before.mapping ?? [])];
        expected[env.event.column as number] = env.event.field as never;
        expect(c.mapping).toEqual(expected);
      }
      if (env.event.type === 'xstate.error.actor.uploadRoster') {
        expect(c.mapping).toEqual(before.mapping);
        expect(c.problem).toEqual({ key: 'roster.error.offline' });
      }
      expect(s.can({ type: 'roster.submit' })).toBe((c.mapping ?? []).some((field) => field !== 'ignore'));
    },
    preview: (s, env) => {
      expect(selectStep(rs(s))).toBe('preview');
      expect(toldList(env)).toEqual(expectedTold(env));
      const list = s.children.list as { getSnapshot: () => AnyMachineSnapshot } | undefined;
      expect(list, 'hosted list').toBeDefined();
      if (!env.from.matches('preview'))
        // The people of this import, every change, from page 1.
        expect(list?.getSnapshot().context.input).toEqual({ query: { importId: ctx(s).preview?.id, change: ctx(s).change } });
      if (env.event.type === 'xstate.done.actor.uploadRoster') {
        const answer = env.event.output as Extract<RosterReadAnswer, { status: 'preview' }>;
        expect(ctx(s).preview).toEqual(answer.import);
        expect([ctx(s).change, ctx(s).choices, ctx(s).conflicts]).toEqual([null, {}, null]);
      }
      if (env.event.type === 'roster.filter') expect(ctx(s).change).toBe('withdrawn');
    },
    'preview.loadingConflicts': (s, env) => {
      const preview = ctx(s).preview as RosterImport;
      expect(env.fakes.inputOf('fetchRosterConflicts')).toEqual({ importId: preview.id, expected: preview.counts.conflicts });
      expect(selectCanApply(rs(s))).toBe(false);
    },
    'preview.ready': (s, env) => {
      const c = ctx(s);
      const before = ctx(env.from);
      if (env.event.type === 'xstate.done.actor.fetchRosterConflicts') expect(c.conflicts).toEqual([PHONE]);
      if (env.event.type === 'roster.resolve')
        expect(c.choices).toEqual(
          env.event.key === PHONE.key && (c.conflicts ?? []).length > 0 ? { ...before.choices, [PHONE.key]: 'file' } : before.choices,
        );
      // Nothing chosen is lost on a failed apply, and the server's words are said.
      if (env.event.type === 'xstate.error.actor.applyRoster') {
        expect(c.choices).toEqual(before.choices);
        expect(c.problem).toEqual({ text: 'Falta elegir en un conflicto.' });
      }
      if (env.event.type === 'xstate.error.actor.discardRoster') expect(c.problem).toEqual({ key: 'roster.error.offline' });
      expect(c.conflicts, 'known').not.toBeNull();
      // «Aplicar» waits for every conflict's choice and for some valid row.
      expect(selectCanApply(rs(s))).toBe(
        (c.preview?.counts.rows.valid ?? 0) > 0 && c.conflicts !== null && c.conflicts.every((conflict) => c.choices[conflict.key]),
      );
    },
    'preview.conflictsFailed': (s, env) => {
      if (env.event.type === 'xstate.error.actor.fetchRosterConflicts' || env.event.type === 'xstate.error.actor.discardRoster')
        expect(ctx(s).problem).toEqual({ key: 'roster.error.offline' });
      // A failed load forgets none already known (the list's crash reloads them).
      if (env.event.type === 'xstate.error.actor.fetchRosterConflicts') expect(ctx(s).conflicts).toEqual(ctx(env.from).conflicts);
      expect(selectCanApply(rs(s))).toBe(false);
    },
    'preview.confirmingDiscard': (s) => {
      expect(selectCanApply(rs(s))).toBe(false);
    },
    'preview.discarding': (s, env) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(env.fakes.inputOf('discardRoster')).toEqual({ importId: ctx(s).preview?.id });
    },
    'preview.applying': (s, env) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(env.fakes.inputOf('applyRoster')).toEqual({
        importId: IMPORT.id,
        conflicts: { [PHONE.key]: 'file' },
        onServerProgress: expect.any(Function),
      });
      // The rows written as the server last told them; none told as apply starts (not the upload's lines).
      if (env.event.type === 'roster.progress') expect(workOf(s)).toEqual(['writing', 4000, 8000]);
      else if (env.from.matches({ preview: 'applying' })) expect(workOf(s)).toEqual(workOf(env.from));
      else expect(workOf(s)).toEqual([null, 0, 0]);
    },
    crashed: (s) => {
      expect(s.children.list).toBeUndefined();
      expect(ctx(s).items).toEqual([]);
      expect(selectStep(rs(s))).toBe('preview');
      // The preview and the choices stay for Reintentar.
      expect(ctx(s).preview).not.toBeNull();
    },
    stale: (s) => {
      expect(selectStep(rs(s))).toBe('stale');
    },
    applied: (s) => {
      expect(selectStep(rs(s))).toBe('applied');
      expect(ctx(s).result).toEqual(APPLIED);
    },
  },
  events: {
    'roster.choose': send,
    'roster.map': send,
    'roster.submit': send,
    'roster.retry': send,
    'roster.restart': send,
    'roster.filter': send,
    'roster.loadMore': send,
    'roster.resolve': send,
    'roster.apply': send,
    'roster.discard': send,
    'roster.confirm': send,
    'roster.cancel': send,
    'history.retry': send,
    'upload.progress': send,
    'roster.progress': send,
    ...listExecutors,
    'xstate.done.actor.fetchRosterHistory': settle,
    'xstate.error.actor.fetchRosterHistory': settle,
    'xstate.done.actor.uploadRoster': settle,
    'xstate.error.actor.uploadRoster': settle,
    'xstate.done.actor.fetchRosterConflicts': settle,
    'xstate.error.actor.fetchRosterConflicts': settle,
    'xstate.done.actor.discardRoster': settle,
    'xstate.error.actor.discardRoster': settle,
    'xstate.done.actor.applyRoster': settle,
    'xstate.error.actor.applyRoster': settle,
  },
  emits,
});
