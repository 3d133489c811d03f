// Saving a draft, and leaving compose with unsaved changes (compose/compose.ts's header tells the flow):
// the states `form.savingDraft` and `form.leaving` and the transition that asks, written once and placed
// by compose/compose.ts. Their actions and guards are compose/actions.ts's.
import { and } from 'xstate';
import type { ComposeDraft } from '../../../shared/compose-contract';
import { draftSaveInput, TOAST_REQUEST_FAILED, TOAST_REVIEW } from './actions';
import { TOAST_KEYS } from './outcome-rules';

/** A draft saved: its id kept (the backup moves to its key), what it holds is now the server's, the toast. */
const DRAFT_SAVED = [
  { type: 'dropFormBackup', params: ({ event }: { event: { output: ComposeDraft } }) => event.output },
  { type: 'keepDraft', params: ({ event }: { event: { output: ComposeDraft } }) => event.output },
  'saveBackup',
  { type: 'toast', params: { kind: 'success', key: TOAST_KEYS.saved } },
  'announceCounts',
] as const;

/** A draft save that runs while the author waits to leave: once saved (nothing typed since), they go. */
const SAVED_AND_LEFT = [...DRAFT_SAVED, 'clearBackup', 'leave'] as const;

/** A navigation while the form holds something the server does not: ask first (`form.leaving`). */
export const ASK_BEFORE_LEAVING = { guard: 'hasUnsavedChanges', target: '#compose.form.leaving', actions: 'keepLeave' } as const;

/** The draft save, the same call in `savingDraft` and when saving on the way out; only the outcomes differ. */
const savingDraftInvoke = { id: 'saveDraft', src: 'saveDraft', input: draftSaveInput } as const;

// A navigation asked for meanwhile waits for the save (leaving would abort it): then it goes, or,
// when something was typed meanwhile or the save failed, the author is asked.
export const savingDraft = {
  tags: 'busy',
  entry: 'markSaving',
  invoke: {
    ...savingDraftInvoke,
    onDone: [
      { guard: and(['isLeaving', 'savedAll']), target: '#compose.left', actions: SAVED_AND_LEFT },
      { guard: 'isLeaving', target: 'leaving', actions: DRAFT_SAVED },
      { target: 'editing', actions: DRAFT_SAVED },
    ],
    onError: [
      { guard: 'isValidationFailure', target: 'editing', actions: ['serverFieldErrors', TOAST_REVIEW, 'forgetLeave'] },
      { guard: 'isLeaving', target: 'leaving', actions: ['keepFailure', TOAST_REQUEST_FAILED] },
      { target: 'editing', actions: ['keepFailure', TOAST_REQUEST_FAILED] },
    ],
  },
  on: { 'page.leave': { actions: 'keepLeave' } },
} as const;

// "¿Guardar los cambios antes de salir?": nothing leaves until the author answers. Another
// navigation asked for meanwhile (Back pressed again) replaces the one held.
export const leaving = {
  initial: 'asking',
  on: { 'page.leave': { actions: 'keepLeave' } },
  states: {
    asking: {
      on: {
        'compose.saveAndLeave': { target: 'saving' },
        // What was typed since the last save goes, backup included; a saved draft stays as saved.
        'compose.discard': { target: '#compose.left', actions: ['clearBackup', 'leave'] },
        'compose.stay': { target: '#compose.form.editing', actions: 'forgetLeave' },
      },
    },
    saving: {
      tags: 'busy',
      entry: 'markSaving',
      invoke: {
        ...savingDraftInvoke,
        onDone: { target: '#compose.left', actions: SAVED_AND_LEFT },
        onError: [
          // Refused (a title too long…): back to the form, the field marked, the navigation dropped.
          { guard: 'isValidationFailure', target: '#compose.form.editing', actions: ['serverFieldErrors', TOAST_REVIEW, 'focusFirstError', 'forgetLeave'] },
          // Not saved: asked again (discard or try again), nothing lost meanwhile.
          { target: 'asking', actions: ['keepFailure', TOAST_REQUEST_FAILED] },
        ],
      },
    },
  },
} as const;
