// /templates (SPEC §2, §3 "Template", §8): the three repositories as tabs ("Mis plantillas", the product's,
// "Socioemocional"), a search, and the own templates' editor (create, edit), delete after a question, and
// "Copiar a Mis plantillas" for the read-only ones. Loading, search and silent failures are the list
// pattern's (list/list.ts), hosted as the child `list`; the page keeps what only templates have. Results are
// toasts (SPEC §8's texts) and focus moves, emitted. Nothing typed is lost: a save that fails keeps the
// editor open with what was typed (a 422's field messages on their fields), and closing an editor with
// unsaved changes (Cancelar, Escape, a click outside) asks «¿Descartar los cambios?» first.
import { assertEvent, assign, emit, sendTo, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { copyTemplate, deleteTemplate, fetchTemplateListPage, saveTemplate, type TemplateQuery } from '../../services/templates/templates';
import { toApiFailure, type ApiFailure } from '../../services/http/client';
import type { Template, TemplateRepositoryCode } from '../../../shared/templates-contract';
import type { FocusEvent, ToastEvent } from '../app/effects';
import { listOf, listChild, listHostActions } from '../list/list';
import {
  changesTemplateField,
  deleteButtonId,
  EMPTY_DRAFT,
  editButtonId,
  firstChangedTemplateField,
  firstInvalidTemplateField,
  hasUnsavedTemplateChanges,
  KEEP_EDITING_BUTTON_ID,
  hasTemplateErrors,
  isTemplateValidationFailure,
  NEW_TEMPLATE_BUTTON_ID,
  serverTemplateErrors,
  TEMPLATE_FIELD_IDS,
  templateErrors,
  templateInputOf,
  type TemplateDraft,
  type TemplateErrors,
  type TemplateField,
} from './rules';

/** The rows of one repository with the search text, keyed by id. */
export const templateListMachine = listOf<Template, TemplateQuery>(fetchTemplateListPage, (template) => template.id);
export type TemplateListActor = ActorRefFrom<typeof templateListMachine>;
type TemplateListSnapshot = SnapshotFrom<typeof templateListMachine>;

export interface TemplatesInput {
  repository?: TemplateRepositoryCode;
}

export interface TemplatesContext {
  repository: TemplateRepositoryCode;
  /** The search box's text, as typed. */
  q: string;
  /** The list's rows as its last snapshot had them (the same array). */
  items: Template[];
  /** The editor's fields (EMPTY_DRAFT while it is closed). */
  draft: TemplateDraft;
  /** What the editor opened with (empty, or the own template as listed), to tell unsaved changes. */
  original: TemplateDraft;
  errors: TemplateErrors;
  /** The template being deleted or copied. */
  target: Template | null;
}

export type TemplatesEvent =
  | { type: 'templates.search'; q: string }
  | { type: 'templates.repository'; repository: TemplateRepositoryCode }
  | { type: 'templates.retry' }
  | { type: 'templates.create' }
  | { type: 'templates.edit'; id: number }
  | { type: 'templates.change'; field: TemplateField; value: string }
  | { type: 'templates.save' }
  | { type: 'templates.close' }
  | { type: 'templates.discard' }
  | { type: 'templates.keepEditing' }
  | { type: 'templates.delete'; id: number }
  | { type: 'templates.copy'; id: number }
  | { type: 'templates.confirm' }
  | { type: 'templates.cancel' }
  | { type: 'xstate.snapshot.list'; snapshot: TemplateListSnapshot };

export type TemplatesEmitted = ToastEvent | FocusEvent;

const NO_ERRORS: TemplateErrors = {};
const NO_ROWS: Template[] = [];

const listedOf = (context: TemplatesContext, event: TemplatesEvent): Template | undefined => {
  assertEvent(event, ['templates.edit', 'templates.delete', 'templates.copy']);
  return context.items.find((item) => item.id === event.id);
};

/** What the list shows: the repository (tab or filter; null: all) and the search text. */
export const templateQueryOf = (context: TemplateQuery): TemplateQuery => ({ repository: context.repository, q: context.q });

/** Where focus goes back when the editor closes: the button that opened it. */
const editorOpener = (draft: TemplateDraft): string => (draft.id === null ? NEW_TEMPLATE_BUTTON_ID : editButtonId(draft.id));

export const templatesMachine = setup({
  types: {
    input: {} as TemplatesInput,
    context: {} as TemplatesContext,
    events: {} as TemplatesEvent,
    emitted: {} as TemplatesEmitted,
    children: {} as { list: 'list' },
  },
  actors: { list: templateListMachine, saveTemplate, deleteTemplate, copyTemplate },
  actions: {
    ...listHostActions<TemplatesContext, TemplatesEvent, TemplateQuery>(templateQueryOf),
    /** Its rows, as the list's last snapshot had them (the same array). */
    assignItems: assign({
      items: ({ event }) => {
        assertEvent(event, 'xstate.snapshot.list');
        return event.snapshot.context.items;
      },
    }),
    forgetItems: assign({ items: NO_ROWS }),
    assignSearch: assign(({ event }) => {
      assertEvent(event, 'templates.search');
      return { q: event.q };
    }),
    assignRepository: assign(({ event }) => {
      assertEvent(event, 'templates.repository');
      return { repository: event.repository };
    }),
    /** SPEC §3: a new template starts with empty fields. */
    openNew: assign({ draft: EMPTY_DRAFT, original: EMPTY_DRAFT, errors: NO_ERRORS }),
    openEdit: assign(({ context, event }) => {
      // `isOwnListed` let the event through: the template is listed.
      const template = listedOf(context, event);
      const draft = template ? { id: template.id, name: template.name, content: template.content } : EMPTY_DRAFT;
      return { draft, original: draft, errors: NO_ERRORS };
    }),
    change: assign(({ context, event }) => {
      assertEvent(event, 'templates.change');
      const { [event.field]: _fixed, ...errors } = context.errors;
      return { draft: { ...context.draft, [event.field]: event.value }, errors };
    }),
    showErrors: assign({ errors: ({ context }) => templateErrors(context.draft) }),
    closeEditor: assign({ draft: EMPTY_DRAFT, original: EMPTY_DRAFT, errors: NO_ERRORS }),
    focusOpener: emit(({ context }) => ({ type: 'focus' as const, target: editorOpener(context.draft) })),
    focusKeepEditing: emit({ type: 'focus', target: KEEP_EDITING_BUTTON_ID }),
    focusChangedField: emit(({ context }) => ({
      type: 'focus' as const,
      target: TEMPLATE_FIELD_IDS[firstChangedTemplateField(context.original, context.draft)],
    })),
    focusFirstError: emit(({ context }) => ({
      type: 'focus' as const,
      target: TEMPLATE_FIELD_IDS[firstInvalidTemplateField(context.errors) ?? 'name'],
    })),
    toastReview: emit({ type: 'toast', kind: 'error', key: 'templates.errors.review' }),
    serverErrors: assign((_, failure: ApiFailure) => ({ errors: serverTemplateErrors(failure) })),
    /** SPEC §8: "template created" / "template updated". */
    toastSaved: emit(({ context }) => ({
      type: 'toast' as const,
      kind: 'success' as const,
      key: context.draft.id === null ? ('templates.toast.created' as const) : ('templates.toast.updated' as const),
    })),
    /** SPEC §8: "template creation, update or deletion failed" (copying creates one). */
    toastFailed: emit({ type: 'toast', kind: 'error', key: 'templates.toast.failed' }),
    toastDeleted: emit({ type: 'toast', kind: 'success', key: 'templates.toast.deleted' }),
    toastCopied: emit({ type: 'toast', kind: 'success', key: 'templates.toast.copied' }),
    /** A saved template: its row fresher where it is; a new one comes with page 1 again (newest first). */
    showSaved: sendTo('list', ({ context }, saved: Template) =>
      context.draft.id === null ? { type: 'list.reload' as const } : { type: 'list.update' as const, items: [saved] },
    ),
    assignTarget: assign({ target: ({ context, event }) => listedOf(context, event) ?? null }),
    clearTarget: assign({ target: null }),
    removeTarget: sendTo('list', ({ context }) => ({ type: 'list.remove' as const, keys: context.target ? [context.target.id] : [] })),
    focusDelete: emit(({ context }) => ({ type: 'focus' as const, target: deleteButtonId(context.target?.id ?? 0) })),
  },
  guards: {
    isOwnListed: ({ context, event }) => listedOf(context, event)?.editable === true,
    /** Any listed template can be copied to Mis plantillas (the own ones too, but the screen offers it for the others). */
    isReadOnlyListed: ({ context, event }) => listedOf(context, event)?.editable === false,
    isOtherRepository: ({ context, event }) => {
      assertEvent(event, 'templates.repository');
      return event.repository !== context.repository;
    },
    isDraftValid: ({ context }) => !hasTemplateErrors(templateErrors(context.draft)),
    hasUnsavedChanges: ({ context }) => hasUnsavedTemplateChanges(context.original, context.draft),
    /** A change that changes something (see changesTemplateField). */
    isNewValue: ({ context, event }) => {
      assertEvent(event, 'templates.change');
      return changesTemplateField(context.draft, event);
    },
    isValidationFailure: (_, failure: ApiFailure) => isTemplateValidationFailure(failure),
  },
}).createMachine({
  id: 'templates',
  initial: 'shown',
  context: ({ input }) => ({
    repository: input.repository ?? 'mis-plantillas',
    q: '',
    items: NO_ROWS,
    draft: EMPTY_DRAFT,
    original: EMPTY_DRAFT,
    errors: NO_ERRORS,
    target: null,
  }),
  states: {
    shown: {
      // A bug in the list, not a failed request (those are its own silent states), is `crashed`.
      invoke: { ...listChild(templateQueryOf), onError: { target: 'crashed', actions: 'forgetItems' } },
      // The search and the tabs stay usable whatever else is open.
      on: {
        'templates.search': { actions: ['assignSearch', 'askQuery'] },
        'templates.repository': { guard: 'isOtherRepository', actions: ['assignRepository', 'askQuery'] },
        'templates.retry': { actions: 'askReload' },
      },
      initial: 'idle',
      states: {
        idle: {
          on: {
            'templates.create': { target: 'editing', actions: 'openNew' },
            'templates.edit': { guard: 'isOwnListed', target: 'editing', actions: 'openEdit' },
            'templates.delete': { guard: 'isOwnListed', target: 'confirmingDelete', actions: 'assignTarget' },
            'templates.copy': { guard: 'isReadOnlyListed', target: 'copying', actions: 'assignTarget' },
          },
        },
        // The editor: a new template (empty) or an own one. Closing it untouched closes at once; with
        // unsaved changes it asks first, focus on the safe answer.
        editing: {
          on: {
            'templates.change': { actions: 'change' },
            'templates.save': [{ guard: 'isDraftValid', target: 'saving' }, { actions: ['showErrors', 'toastReview', 'focusFirstError'] }],
            'templates.close': [
              { guard: 'hasUnsavedChanges', target: 'confirmingDiscard', actions: 'focusKeepEditing' },
              { target: 'idle', actions: ['focusOpener', 'closeEditor'] },
            ],
          },
        },
        // «¿Descartar los cambios?», asked in the editor, which keeps everything typed. "Seguir editando"
        // (Escape too) goes back to the field that holds the changes; typing meanwhile answers it too (not
        // a field repeating its value as it loses the focus to the question).
        confirmingDiscard: {
          on: {
            'templates.discard': { target: 'idle', actions: ['focusOpener', 'closeEditor'] },
            'templates.keepEditing': { target: 'editing', actions: 'focusChangedField' },
            'templates.change': { guard: 'isNewValue', target: 'editing', actions: 'change' },
          },
        },
        saving: {
          tags: 'busy',
          invoke: {
            id: 'saveTemplate',
            src: 'saveTemplate',
            input: ({ context }) => ({ id: context.draft.id, template: templateInputOf(context.draft) }),
            onDone: {
              target: 'idle',
              actions: ['toastSaved', { type: 'showSaved', params: ({ event }) => event.output }, 'focusOpener', 'closeEditor'],
            },
            // Refused or failed: the editor stays with everything typed; a 422 marks its fields.
            onError: [
              {
                guard: { type: 'isValidationFailure', params: ({ event }) => toApiFailure(event.error) },
                target: 'editing',
                actions: [{ type: 'serverErrors', params: ({ event }) => toApiFailure(event.error) }, 'toastFailed', 'focusFirstError'],
              },
              { target: 'editing', actions: 'toastFailed' },
            ],
          },
        },
        confirmingDelete: {
          on: {
            'templates.confirm': { target: 'deleting' },
            // Keyboard focus goes back to the row's Eliminar, not lost with the question.
            'templates.cancel': { target: 'idle', actions: ['focusDelete', 'clearTarget'] },
          },
        },
        deleting: {
          tags: 'busy',
          invoke: {
            id: 'deleteTemplate',
            src: 'deleteTemplate',
            input: ({ context }) => ({ id: context.target?.id ?? 0 }),
            onDone: { target: 'idle', actions: ['toastDeleted', 'removeTarget', 'clearTarget'] },
            onError: { target: 'idle', actions: ['toastFailed', 'focusDelete', 'clearTarget'] },
          },
        },
        copying: {
          tags: 'busy',
          invoke: {
            id: 'copyTemplate',
            src: 'copyTemplate',
            input: ({ context }) => ({ id: context.target?.id ?? 0 }),
            onDone: { target: 'idle', actions: ['toastCopied', 'clearTarget'] },
            onError: { target: 'idle', actions: ['toastFailed', 'clearTarget'] },
          },
        },
      },
    },
    // The list crashed: nothing to show but the failure; Reintentar opens a new list on the same query.
    crashed: {
      on: { 'templates.retry': { target: 'shown' } },
    },
  },
});

export type TemplatesSnapshot = SnapshotFrom<typeof templatesMachine>;
export type TemplatesActor = ActorRefFrom<typeof templatesMachine>;

// Selectors: primitives, or references that keep their identity until their value changes.
export const selectList = (s: TemplatesSnapshot): TemplateListActor | undefined => s.children.list;
export const selectItems = (s: TemplatesSnapshot): Template[] => s.context.items;
export const selectRepository = (s: TemplatesSnapshot): TemplateRepositoryCode => s.context.repository;
export const selectQuery = (s: TemplatesSnapshot): string => s.context.q;
export const selectEditorOpen = (s: TemplatesSnapshot): boolean =>
  s.matches({ shown: 'editing' }) || s.matches({ shown: 'confirmingDiscard' }) || s.matches({ shown: 'saving' });
export const selectConfirmingDiscard = (s: TemplatesSnapshot): boolean => s.matches({ shown: 'confirmingDiscard' });
/** The own template's name as the editor opened it (the discard question names it). */
export const selectOriginalName = (s: TemplatesSnapshot): string => s.context.original.name;
export const selectIsSaving = (s: TemplatesSnapshot): boolean => s.matches({ shown: 'saving' });
export const selectIsNew = (s: TemplatesSnapshot): boolean => s.context.draft.id === null;
export const selectDraftName = (s: TemplatesSnapshot): string => s.context.draft.name;
export const selectDraftContent = (s: TemplatesSnapshot): string => s.context.draft.content;
export const selectFieldError = (field: TemplateField) => (s: TemplatesSnapshot) => s.context.errors[field];
export const selectConfirmingDelete = (s: TemplatesSnapshot): boolean => s.matches({ shown: 'confirmingDelete' });
export const selectTargetName = (s: TemplatesSnapshot): string => s.context.target?.name ?? '';
/** The template an action runs on (a row's buttons wait while it runs). */
export const selectBusyId = (s: TemplatesSnapshot): number | null => (s.hasTag('busy') ? (s.context.target?.id ?? null) : null);
export const selectCanAct = (s: TemplatesSnapshot): boolean => s.matches({ shown: 'idle' });
