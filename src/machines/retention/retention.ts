// /settings/retention: how long the school keeps each kind of data, and what the next sweep removes and when.
// Loads the periods with the preview, edits them as text (what the administrator types, checked by the
// server), saves them whole with one `PUT /retention`, whose answer brings the new preview. A 422's Spanish
// field errors land on their fields; any other failure keeps everything typed and says so.
import { assign, emit, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { RETENTION_KINDS, type RetentionKind, type RetentionPeriods, type RetentionSettings } from '../../../shared/retention-contract';
import { toApiFailure } from '../../services/http/client';
import { fetchRetention, saveRetention } from '../../services/retention/retention';
import type { Effect } from '../app/effects';

export type RetentionForm = Record<RetentionKind, string>;

export interface RetentionContext {
  /** The settings and preview as the server last answered. */
  saved: RetentionSettings | null;
  form: RetentionForm;
  /** The server's Spanish errors by kind (a 422), until that field is edited. */
  errors: Partial<Record<RetentionKind, string>>;
  /** The last save failed for another reason than the fields. */
  failed: boolean;
}

export type RetentionEvent =
  | { type: 'retention.edit'; kind: RetentionKind; value: string }
  | { type: 'retention.save' }
  | { type: 'retention.retry' };

const EMPTY_FORM = Object.fromEntries(RETENTION_KINDS.map((k) => [k, ''])) as RetentionForm;

const formOf = (saved: RetentionSettings): RetentionForm =>
  Object.fromEntries(RETENTION_KINDS.map((k) => [k, String(saved.periodos[k])])) as RetentionForm;

/** What a save sends: each field as a number when it is one (the server says what is wrong with it otherwise). */
export const periodsOf = (form: RetentionForm): RetentionPeriods =>
  Object.fromEntries(RETENTION_KINDS.map((k) => [k, form[k].trim() === '' ? Number.NaN : Number(form[k].trim())])) as RetentionPeriods;

/** The first message per kind of a 422 (`periodos.mensajes` → mensajes); other failures: none. */
function fieldErrorsOf(error: unknown): RetentionContext['errors'] | null {
  const failure = toApiFailure(error);
  if (failure.status !== 422) return null;
  const errors: RetentionContext['errors'] = {};
  for (const [field, messages] of Object.entries(failure.fieldErrors)) {
    const kind = RETENTION_KINDS.find((k) => field === `periodos.${k}`);
    if (kind) errors[kind] = messages[0] ?? '';
  }
  return errors;
}

export const retentionMachine = setup({
  types: {
    context: {} as RetentionContext,
    events: {} as RetentionEvent,
    emitted: {} as Effect,
  },
  actors: { fetchRetention, saveRetention },
  actions: {
    toastSaved: emit({ type: 'toast', kind: 'success', key: 'retention.toast.saved' }),
  },
}).createMachine({
  id: 'retention',
  context: { saved: null, form: EMPTY_FORM, errors: {}, failed: false },
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'fetchRetention',
        src: 'fetchRetention',
        onDone: { target: 'editing', actions: assign(({ event }) => ({ saved: event.output, form: formOf(event.output), errors: {} })) },
        onError: { target: 'loadFailed' },
      },
    },
    loadFailed: {
      on: { 'retention.retry': { target: 'loading' } },
    },
    editing: {
      on: {
        'retention.edit': {
          actions: assign(({ context, event }) => ({
            form: { ...context.form, [event.kind]: event.value },
            errors: { ...context.errors, [event.kind]: undefined },
          })),
        },
        'retention.save': { target: 'saving' },
      },
    },
    saving: {
      tags: ['busy'],
      entry: assign({ failed: false }),
      invoke: {
        id: 'saveRetention',
        src: 'saveRetention',
        input: ({ context }) => periodsOf(context.form),
        onDone: {
          target: 'editing',
          actions: [assign(({ event }) => ({ saved: event.output, form: formOf(event.output), errors: {} })), 'toastSaved'],
        },
        onError: {
          target: 'editing',
          actions: assign(({ event }) => {
            const errors = fieldErrorsOf(event.error);
            return { errors: errors ?? {}, failed: errors === null };
          }),
        },
      },
    },
  },
});

export type RetentionActor = ActorRefFrom<typeof retentionMachine>;
export type RetentionSnapshot = SnapshotFrom<typeof retentionMachine>;

export const selectLoading = (s: RetentionSnapshot): boolean => s.matches('loading');
export const selectLoadFailed = (s: RetentionSnapshot): boolean => s.matches('loadFailed');
export const selectSaving = (s: RetentionSnapshot): boolean => s.matches('saving');
export const selectFailed = (s: RetentionSnapshot): boolean => s.context.failed;
/** When the next sweep runs (ISO; empty before the first answer). */
export const selectNextDate = (s: RetentionSnapshot): string => s.context.saved?.proxima.fecha ?? '';
/** Whether the next sweep removes nothing at all. */
export const selectNothingNext = (s: RetentionSnapshot): boolean =>
  RETENTION_KINDS.every((k) => (s.context.saved?.proxima.tipos[k].cantidad ?? 0) === 0);
export const selectValue =
  (kind: RetentionKind) =>
  (s: RetentionSnapshot): string =>
    s.context.form[kind];
export const selectError =
  (kind: RetentionKind) =>
  (s: RetentionSnapshot): string | null =>
    s.context.errors[kind] ?? null;
export const selectRemovedCount =
  (kind: RetentionKind) =>
  (s: RetentionSnapshot): number =>
    s.context.saved?.proxima.tipos[kind].cantidad ?? 0;
export const selectRemovedBefore =
  (kind: RetentionKind) =>
  (s: RetentionSnapshot): string =>
    s.context.saved?.proxima.tipos[kind].anteriores_a ?? '';
