// /settings/roster (administrators): the school's enrolment file brought in, in three steps.
// 1. `choosing`: the file (.csv or .xlsx) and, beside it, the templates and the import history (loaded as the
//    step opens; a failed load says so with its own Reintentar).
// 2. `uploading` (busy, with the bytes sent, then the lines the server has read) answers either `mapping`, when
//    some header was not recognised: a field per column, prefilled with what the server suggested, sent again
//    with the file; or the preview.
// 3. `preview`: the counts, the people page by page filtered by change (the list pattern, the child `list`),
//    and the conflicts (hand-corrected fields the file would change), each waiting for keep or file; «Aplicar»
//    is taken only when every conflict has its choice and some row is valid. «Descartar» asks first.
// Applying (busy, with the rows the server has written) ends in `applied` (what was written) or, when the roster
// changed since the preview (409 `roster.stale` / `roster.state`), in `stale`: the file must be sent again. A
// refused file (422 `errors.file`) is said by the file field and the file is dropped; any other failure keeps
// everything chosen (the file, the columns, the conflicts' choices) and says what happened, with Reintentar
// where trying again can help.
import { assertEvent, assign, emit, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type {
  ChangeKind,
  ColumnMapping,
  PreviewPerson,
  RosterField,
  RosterImport,
  RosterProgress,
  RosterReadAnswer,
} from '../../../shared/roster-contract';
import type { MessageKey } from '../../i18n';
import { serverMessage, toApiFailure, type ApiFailure } from '../../services/http/client';
import {
  applyRoster,
  discardRoster,
  fetchPeoplePage,
  fetchRosterConflicts,
  fetchRosterHistory,
  uploadRoster,
  type PeopleQuery,
  type RosterConflict,
} from '../../services/roster/roster';
import type { Effect } from '../app/effects';
import { fileRefusal } from './roster-rules';
import { listChild, listHostActions, listOf } from '../list/list';

const peopleListMachine = listOf<PreviewPerson, PeopleQuery>(
  fetchPeoplePage,
  (person) => `${person.kind}:${person.id ?? person.lines.join(',')}:${person.name}`,
);
export type PeopleListActor = ActorRefFrom<typeof peopleListMachine>;
type PeopleListSnapshot = SnapshotFrom<typeof peopleListMachine>;

/** What went wrong, said in place: a text key, or the server's Spanish words. */
export type RosterProblem = { key: MessageKey } | { text: string };

export type ConflictChoice = 'keep' | 'file';

export interface RosterContext {
  /** The school's country: its template is offered first. */
  country: 'CL' | 'MX';
  /** The file chosen, kept until it is done with (a failed send is sent again as it was). */
  file: File | null;
  loaded: number;
  total: number;
  /** The server's own progress (lines read, rows written) on the call under way; null until it tells one. */
  work: RosterProgress | null;
  /** Why the file itself was refused (before sending, or the server's 422 `errors.file`), said by the file field. */
  fileError: RosterProblem | null;
  /** A failed call, said in place; cleared by the next attempt. */
  problem: RosterProblem | null;
  headers: string[];
  /** The header's line in the file (a title row may sit above it). */
  headerLine: number;
  /** The columns as assigned on step 2; null until the server asks. */
  mapping: ColumnMapping | null;
  preview: RosterImport | null;
  /** The people shown: one kind of change, or all (null). */
  change: ChangeKind | null;
  /** The list's rows (the list's own array). */
  items: PreviewPerson[];
  /** Null until they are known: «Aplicar» waits for them. */
  conflicts: RosterConflict[] | null;
  choices: Record<string, ConflictChoice>;
  /** The import as applied. */
  result: RosterImport | null;
  history: RosterImport[];
}

export type RosterEvent =
  | { type: 'roster.choose'; file: File }
  | { type: 'roster.map'; column: number; field: RosterField }
  | { type: 'roster.submit' }
  | { type: 'roster.retry' }
  | { type: 'roster.restart' }
  | { type: 'roster.filter'; change: ChangeKind | null }
  | { type: 'roster.loadMore' }
  | { type: 'roster.resolve'; key: string; choice: ConflictChoice }
  | { type: 'roster.apply' }
  | { type: 'roster.discard' }
  | { type: 'roster.confirm' }
  | { type: 'roster.cancel' }
  | { type: 'history.retry' }
  /** From the running upload (its `onProgress`). */
  | { type: 'upload.progress'; loaded: number; total: number }
  /** From the running upload or apply: what the server has done of its work (its `onServerProgress`). */
  | ({ type: 'roster.progress' } & RosterProgress)
  | { type: 'xstate.snapshot.list'; snapshot: PeopleListSnapshot };

export interface RosterInput {
  country: 'CL' | 'MX';
}

/** Where the focus goes as a step opens: its heading. */
export const ROSTER_STEP_ID = 'roster-step';
/** The file field, where a refused file is said. */
export const ROSTER_FILE_ID = 'roster-file';

const EMPTY_IMPORT = {
  file: null,
  loaded: 0,
  total: 0,
  work: null,
  fileError: null,
  problem: null,
  headers: [],
  headerLine: 0,
  mapping: null,
  preview: null,
  change: null,
  items: [],
  conflicts: null,
  choices: {},
  result: null,
} satisfies Omit<RosterContext, 'country' | 'history'>;

const peopleQueryOf = (context: RosterContext): PeopleQuery => ({ importId: context.preview?.id ?? 0, change: context.change });

/** A failure as said in place: the server's words when it wrote some, offline, or that it failed. */
function problemOf(failure: ApiFailure): RosterProblem {
  const text = failure.fieldErrors.mapping?.[0] ?? failure.fieldErrors.conflicts?.[0] ?? serverMessage(failure);
  if (text) return { text };
  return { key: failure.status === 0 ? 'roster.error.offline' : 'roster.error.failed' };
}

const fileErrorOf = (failure: ApiFailure): RosterProblem | null => {
  const text = failure.status === 422 ? failure.fieldErrors.file?.[0] : undefined;
  return text ? { text } : null;
};

/** The columns to show on step 2: what the administrator already assigned to these same headers, else the server's suggestion. */
function mappingFor(context: RosterContext, answer: Extract<RosterReadAnswer, { status: 'mapping' }>): ColumnMapping {
  const same = context.mapping !== null && context.headers.join('\n') === answer.headers.join('\n');
  return same && context.mapping ? context.mapping : answer.suggested;
}

export const rosterMachine = setup({
  types: {
    context: {} as RosterContext,
    events: {} as RosterEvent,
    emitted: {} as Effect,
    input: {} as RosterInput,
    children: {} as { list: 'list' },
  },
  actors: {
    list: peopleListMachine,
    uploadRoster,
    fetchRosterHistory,
    fetchRosterConflicts,
    applyRoster,
    discardRoster,
  },
  actions: {
    ...listHostActions<RosterContext, RosterEvent, PeopleQuery>(peopleQueryOf),
    assignItems: assign({
      items: ({ event }) => {
        assertEvent(event, 'xstate.snapshot.list');
        return event.snapshot.context.items;
      },
    }),
    forgetImport: assign(EMPTY_IMPORT),
    forgetItems: assign({ items: [] }),
    refuseFile: assign(({ event }) => {
      assertEvent(event, 'roster.choose');
      return { ...EMPTY_IMPORT, fileError: { key: `roster.file.refused.${fileRefusal(event.file) ?? 'type'}` as const } };
    }),
    takeFile: assign(({ event }) => {
      assertEvent(event, 'roster.choose');
      return { ...EMPTY_IMPORT, file: event.file, total: event.file.size };
    }),
    startSending: assign(({ context }) => ({ loaded: 0, total: context.file?.size ?? 0, work: null, problem: null, fileError: null })),
    progress: assign(({ event }) => {
      assertEvent(event, 'upload.progress');
      return { loaded: event.loaded, total: event.total };
    }),
    workProgress: assign(({ event }) => {
      assertEvent(event, 'roster.progress');
      return { work: { phase: event.phase, done: event.done, total: event.total } };
    }),
    forgetWork: assign({ work: null }),
    assignMapping: assign(({ context }, answer: RosterReadAnswer) =>
      answer.status === 'mapping' ? { headers: answer.headers, headerLine: answer.header_line, mapping: mappingFor(context, answer) } : {},
    ),
    assignPreview: assign((_, answer: RosterReadAnswer) =>
      answer.status === 'preview' ? { preview: answer.import, change: null, items: [], conflicts: null, choices: {} } : {},
    ),
    mapColumn: assign(({ context, event }) => {
      assertEvent(event, 'roster.map');
      const mapping = (context.mapping ?? []).map((field, column) => (column === event.column ? event.field : field));
      return { mapping };
    }),
    /** The file itself was refused: said by its field, and dropped (sending it again would not help). */
    assignFileError: assign((_, failure: ApiFailure) => ({ ...EMPTY_IMPORT, fileError: fileErrorOf(failure) })),
    assignProblem: assign((_, failure: ApiFailure) => ({ problem: problemOf(failure) })),
    clearProblem: assign({ problem: null }),
    assignHistory: assign((_, history: RosterImport[]) => ({ history })),
    assignConflicts: assign((_, conflicts: RosterConflict[]) => ({ conflicts })),
    assignFilter: assign(({ event }) => {
      assertEvent(event, 'roster.filter');
      return { change: event.change };
    }),
    resolve: assign(({ context, event }) => {
      assertEvent(event, 'roster.resolve');
      return { choices: { ...context.choices, [event.key]: event.choice }, problem: null };
    }),
    assignResult: assign((_, result: RosterImport) => ({ result, problem: null })),
    focusStep: emit({ type: 'focus', target: ROSTER_STEP_ID }),
    focusFile: emit({ type: 'focus', target: ROSTER_FILE_ID }),
    toastApplied: emit({ type: 'toast', kind: 'success', key: 'roster.toast.applied' }),
    toastDiscarded: emit({ type: 'toast', kind: 'success', key: 'roster.toast.discarded' }),
  },
  guards: {
    isAcceptedFile: ({ event }) => {
      assertEvent(event, 'roster.choose');
      return fileRefusal(event.file) === null;
    },
    isMappingAnswer: (_, answer: RosterReadAnswer) => answer.status === 'mapping',
    isFileRefused: (_, failure: ApiFailure) => fileErrorOf(failure) !== null,
    isStale: (_, failure: ApiFailure) => failure.status === 409,
    hasMapping: ({ context }) => context.mapping !== null,
    hasFailedSend: ({ context }) => context.file !== null && context.problem !== null,
    hasMappedColumn: ({ context }) => (context.mapping ?? []).some((field) => field !== 'ignore'),
    isConflict: ({ context, event }) => {
      assertEvent(event, 'roster.resolve');
      return (context.conflicts ?? []).some((conflict) => conflict.key === event.key);
    },
    hasConflictsKnown: ({ context }) => context.conflicts !== null,
    canApply: ({ context }) =>
      (context.preview?.counts.rows.valid ?? 0) > 0 &&
      context.conflicts !== null &&
      context.conflicts.every((conflict) => context.choices[conflict.key] !== undefined),
  },
}).createMachine({
  id: 'roster',
  initial: 'choosing',
  context: ({ input }) => ({ country: input.country, history: [], ...EMPTY_IMPORT }),
  states: {
    // Step 1. The history loads beside the file field; choosing a file does not wait for it.
    choosing: {
      initial: 'loadingHistory',
      on: {
        'roster.choose': [{ guard: 'isAcceptedFile', target: 'uploading', actions: 'takeFile' }, { actions: ['refuseFile', 'focusFile'] }],
        // A send that failed (not a refused file): the same file again.
        'roster.retry': { guard: 'hasFailedSend', target: 'uploading' },
      },
      states: {
        loadingHistory: {
          invoke: {
            id: 'fetchRosterHistory',
            src: 'fetchRosterHistory',
            onDone: { target: 'shown', actions: { type: 'assignHistory', params: ({ event }) => event.output } },
            onError: { target: 'historyFailed' },
          },
        },
        shown: {},
        historyFailed: {
          on: { 'history.retry': { target: 'loadingHistory' } },
        },
      },
    },
    uploading: {
      tags: 'busy',
      entry: 'startSending',
      invoke: {
        id: 'uploadRoster',
        src: 'uploadRoster',
        input: ({ context, self }) => ({
          // Only entered with a file (roster.choose, or a retry that has one).
          file: context.file ?? new File([], ''),
          mapping: context.mapping,
          onProgress: (loaded: number, total: number) => self.send({ type: 'upload.progress', loaded, total }),
          onServerProgress: (progress: RosterProgress) => self.send({ type: 'roster.progress', ...progress }),
        }),
        onDone: [
          {
            guard: { type: 'isMappingAnswer', params: ({ event }) => event.output },
            target: 'mapping',
            actions: [{ type: 'assignMapping', params: ({ event }) => event.output }, 'focusStep'],
          },
          { target: 'preview', actions: [{ type: 'assignPreview', params: ({ event }) => event.output }, 'focusStep'] },
        ],
        onError: [
          {
            guard: { type: 'isFileRefused', params: ({ event }) => toApiFailure(event.error) },
            target: 'choosing',
            actions: [{ type: 'assignFileError', params: ({ event }) => toApiFailure(event.error) }, 'focusFile'],
          },
          // Sent with the columns assigned: back to them, as they were.
          {
            guard: 'hasMapping',
            target: 'mapping',
            actions: { type: 'assignProblem', params: ({ event }) => toApiFailure(event.error) },
          },
          { target: 'choosing', actions: { type: 'assignProblem', params: ({ event }) => toApiFailure(event.error) } },
        ],
      },
      on: { 'upload.progress': { actions: 'progress' }, 'roster.progress': { actions: 'workProgress' } },
    },
    // Step 2. A field per column; «Continuar» sends the file again with them.
    mapping: {
      on: {
        'roster.map': { actions: 'mapColumn' },
        'roster.submit': { guard: 'hasMappedColumn', target: 'uploading' },
        'roster.restart': { target: 'choosing', actions: 'forgetImport' },
      },
    },
    // Step 3. Nothing is written until «Aplicar».
    preview: {
      invoke: {
        ...listChild(peopleQueryOf),
        // The list broke (a bug, not a failed request): the preview stays on the server, Reintentar opens it again.
        onError: { target: 'crashed', actions: 'forgetItems' },
      },
      on: {
        'roster.filter': { actions: ['assignFilter', 'askQuery'] },
        'roster.loadMore': { actions: 'askMore' },
      },
      initial: 'loadingConflicts',
      states: {
        loadingConflicts: {
          invoke: {
            id: 'fetchRosterConflicts',
            src: 'fetchRosterConflicts',
            input: ({ context }) => ({ importId: context.preview?.id ?? 0, expected: context.preview?.counts.conflicts ?? 0 }),
            onDone: { target: 'ready', actions: { type: 'assignConflicts', params: ({ event }) => event.output } },
            onError: { target: 'conflictsFailed', actions: { type: 'assignProblem', params: ({ event }) => toApiFailure(event.error) } },
          },
        },
        conflictsFailed: {
          on: {
            'roster.retry': { target: 'loadingConflicts', actions: 'clearProblem' },
            'roster.discard': { target: 'confirmingDiscard', actions: 'clearProblem' },
          },
        },
        ready: {
          on: {
            'roster.resolve': { guard: 'isConflict', actions: 'resolve' },
            'roster.apply': { guard: 'canApply', target: 'applying' },
            'roster.discard': { target: 'confirmingDiscard', actions: 'clearProblem' },
          },
        },
        // «¿Descartar esta importación?»: nothing was written; the file would have to be sent again.
        confirmingDiscard: {
          on: {
            'roster.confirm': { target: 'discarding' },
            // Back to the preview as it was: the conflicts, or their failed load.
            'roster.cancel': [{ guard: 'hasConflictsKnown', target: 'ready' }, { target: 'conflictsFailed' }],
          },
        },
        discarding: {
          tags: 'busy',
          invoke: {
            id: 'discardRoster',
            src: 'discardRoster',
            input: ({ context }) => ({ importId: context.preview?.id ?? 0 }),
            onDone: { target: '#roster.choosing', actions: ['forgetImport', 'toastDiscarded', 'focusStep'] },
            onError: [
              {
                guard: 'hasConflictsKnown',
                target: 'ready',
                actions: { type: 'assignProblem', params: ({ event }) => toApiFailure(event.error) },
              },
              { target: 'conflictsFailed', actions: { type: 'assignProblem', params: ({ event }) => toApiFailure(event.error) } },
            ],
          },
        },
        applying: {
          tags: 'busy',
          entry: ['clearProblem', 'forgetWork'],
          on: { 'roster.progress': { actions: 'workProgress' } },
          invoke: {
            id: 'applyRoster',
            src: 'applyRoster',
            input: ({ context, self }) => ({
              importId: context.preview?.id ?? 0,
              conflicts: context.choices,
              onServerProgress: (progress: RosterProgress) => self.send({ type: 'roster.progress', ...progress }),
            }),
            onDone: {
              target: '#roster.applied',
              actions: [{ type: 'assignResult', params: ({ event }) => event.output }, 'toastApplied', 'focusStep'],
            },
            onError: [
              // The school's roster changed since this preview (or it was applied or discarded meanwhile).
              {
                guard: { type: 'isStale', params: ({ event }) => toApiFailure(event.error) },
                target: '#roster.stale',
                actions: 'focusStep',
              },
              { target: 'ready', actions: { type: 'assignProblem', params: ({ event }) => toApiFailure(event.error) } },
            ],
          },
        },
      },
    },
    crashed: {
      on: { 'roster.retry': { target: 'preview' } },
    },
    stale: {
      on: { 'roster.restart': { target: 'choosing', actions: 'forgetImport' } },
    },
    applied: {
      on: { 'roster.restart': { target: 'choosing', actions: 'forgetImport' } },
    },
  },
});

export type RosterActor = ActorRefFrom<typeof rosterMachine>;
export type RosterSnapshot = SnapshotFrom<typeof rosterMachine>;

/** The step the screen shows. */
export type RosterStep = 'file' | 'mapping' | 'preview' | 'applied' | 'stale';

// Selectors: primitives, or references the context keeps.
export const selectStep = (s: RosterSnapshot): RosterStep => {
  if (s.matches('mapping')) return 'mapping';
  if (s.matches('preview') || s.matches('crashed')) return 'preview';
  if (s.matches('applied')) return 'applied';
  if (s.matches('stale')) return 'stale';
  // Uploading shows the step the file was sent from (its progress there).
  return s.matches('uploading') && s.context.mapping !== null ? 'mapping' : 'file';
};
export const selectIsUploading = (s: RosterSnapshot): boolean => s.matches('uploading');
export const selectIsBusy = (s: RosterSnapshot): boolean => s.hasTag('busy');
export const selectIsApplying = (s: RosterSnapshot): boolean => s.matches({ preview: 'applying' });
/** 0–100 of the file's bytes sent. */
export const selectPercent = (s: RosterSnapshot): number =>
  s.context.total > 0 ? Math.min(100, Math.floor((s.context.loaded / s.context.total) * 100)) : 0;
/** What the server tells of its work under way: its phase (null before it tells any), rows done and in all. */
export const selectWorkPhase = (s: RosterSnapshot): RosterProgress['phase'] | null => s.context.work?.phase ?? null;
export const selectWorkDone = (s: RosterSnapshot): number => s.context.work?.done ?? 0;
export const selectWorkTotal = (s: RosterSnapshot): number => s.context.work?.total ?? 0;
export const selectFileName = (s: RosterSnapshot): string | null => s.context.file?.name ?? null;
export const selectFileError = (s: RosterSnapshot): RosterProblem | null => s.context.fileError;
export const selectProblem = (s: RosterSnapshot): RosterProblem | null => s.context.problem;
export const selectCountry = (s: RosterSnapshot): 'CL' | 'MX' => s.context.country;
export const selectHistory = (s: RosterSnapshot): RosterImport[] => s.context.history;
export const selectHistoryLoading = (s: RosterSnapshot): boolean => s.matches({ choosing: 'loadingHistory' });
export const selectHistoryFailed = (s: RosterSnapshot): boolean => s.matches({ choosing: 'historyFailed' });
export const selectHeaders = (s: RosterSnapshot): string[] => s.context.headers;
export const selectHeaderLine = (s: RosterSnapshot): number => s.context.headerLine;
export const selectMapping = (s: RosterSnapshot): ColumnMapping | null => s.context.mapping;
export const selectPreview = (s: RosterSnapshot): RosterImport | null => s.context.preview;
export const selectResult = (s: RosterSnapshot): RosterImport | null => s.context.result;
export const selectChange = (s: RosterSnapshot): ChangeKind | null => s.context.change;
export const selectPeopleList = (s: RosterSnapshot): PeopleListActor | undefined => s.children.list;
export const selectPeople = (s: RosterSnapshot): PreviewPerson[] => s.context.items;
const NO_CONFLICTS: RosterConflict[] = [];
export const selectConflicts = (s: RosterSnapshot): RosterConflict[] => s.context.conflicts ?? NO_CONFLICTS;
export const selectChoices = (s: RosterSnapshot): Record<string, ConflictChoice> => s.context.choices;
export const selectConflictsLoading = (s: RosterSnapshot): boolean => s.matches({ preview: 'loadingConflicts' });
export const selectConflictsFailed = (s: RosterSnapshot): boolean => s.matches({ preview: 'conflictsFailed' });
export const selectHasCrashed = (s: RosterSnapshot): boolean => s.matches('crashed');
export const selectIsConfirmingDiscard = (s: RosterSnapshot): boolean =>
  s.matches({ preview: 'confirmingDiscard' }) || s.matches({ preview: 'discarding' });
export const selectCanApply = (s: RosterSnapshot): boolean => s.can({ type: 'roster.apply' });
export const selectCanSubmit = (s: RosterSnapshot): boolean => s.can({ type: 'roster.submit' });
export const selectCanRetryUpload = (s: RosterSnapshot): boolean => s.can({ type: 'roster.retry' }) && s.matches('choosing');
