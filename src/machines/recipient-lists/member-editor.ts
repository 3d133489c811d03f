// The "Editar datos de contacto" dialog of a list member (SPEC §3 "User to edit"): loads the
// person's record, edits names, e-mail, mobile (country prefix + number) and document, and saves it. The
// server checks every field (RUT check digit for Chile, CURP for Mexico, phone, e-mail) and answers 422
// with a Spanish text per field: shown beside the field, with everything typed kept, and keyboard focus on
// the first refused field (a `focus` effect, relayed by the list page's machine). It ends with the saved
// person as its output (null when closed without saving); the list page updates the member's row. Only the
// school's leadership changes a person's record (the server says so in `can_edit`); anyone else reads it
// and is told whom to ask: typing and Guardar are refused, so `state.can` offers neither; instead they write
// what is wrong and «Solicitar corrección» sends it to the leadership as a message (`requested` says so).
import { and, assertEvent, assign, enqueueActions, not, setup, type SnapshotFrom } from 'xstate';
import type { UserToEdit, UserToEditInput } from '../../../shared/recipient-lists-contract';
import { fetchMemberUser, requestCorrection, saveMemberUser } from '../../services/recipient-lists/recipient-lists';
import type { FocusEvent } from '../app/effects';
import { toApiFailure, type ApiFailure } from '../../services/http/client';
import {
  contactChangesOf,
  contactErrors,
  contactFormOf,
  contactServerErrors,
  emptyContactForm,
  firstRefusedField,
  type ContactField,
  type ContactForm,
  type PhonePrefix,
} from '../people/contact-form';
import { serverErrors, type FieldErrors } from './recipient-lists';

// The form is the people's contact form (people/contact-form.ts): one place for its fields and checks.
export { firstRefusedField, prefixesFor, splitPhone, type PhonePrefix } from '../people/contact-form';
export type MemberForm = ContactForm;
export type MemberField = ContactField;

export const formOf = (user: UserToEdit, fallback: PhonePrefix): MemberForm => contactFormOf({ ...user, kind: user.user_type }, fallback);

export const changesOf = (form: MemberForm): UserToEditInput => contactChangesOf(form);

export const memberFieldId = (field: MemberField | 'form') => `member-${field}`;

export interface MemberEditorInput {
  listId: number;
  memberId: number;
  /** The school's country prefix, for a person with no phone yet. */
  defaultPrefix: PhonePrefix;
}

export interface MemberEditorContext extends MemberEditorInput {
  user: UserToEdit | null;
  form: MemberForm;
  errors: FieldErrors;
  /** The save failed for another reason than a field (network, server): said above the buttons. */
  failed: boolean;
  /** The person as the server saved them (the dialog's output). */
  saved: UserToEdit | null;
  /** What a reader who may not change the record asks the leadership to correct. */
  note: string;
}

export type MemberEditorEvent =
  | { type: 'editor.change'; field: MemberField; value: string }
  | { type: 'editor.save' }
  | { type: 'editor.retry' }
  | { type: 'editor.note'; value: string }
  | { type: 'editor.request' }
  | { type: 'editor.cancel' };

/** Server errors keyed by the form's fields. */
const formErrors = (failure: ApiFailure): FieldErrors => contactServerErrors(failure);

/**
 * The same checks the server makes (shared/person-rules.ts), before sending: names, e-mail, the phone's
 * shape and prefix, RUT or CURP check digit. The server still decides whether a number is a real mobile.
 */
export function checkedErrors(context: Pick<MemberEditorContext, 'user' | 'form' | 'defaultPrefix'>): FieldErrors {
  const user = context.user;
  if (!user) return {};
  return contactErrors(user.user_type, context.form, { dni: user.dni, tipo_documento_id: user.tipo_documento_id }, context.defaultPrefix);
}

export const memberEditorMachine = setup({
  types: {
    input: {} as MemberEditorInput,
    context: {} as MemberEditorContext,
    events: {} as MemberEditorEvent,
    output: {} as { user: UserToEdit | null },
    emitted: {} as FocusEvent,
  },
  actors: { fetchMemberUser, saveMemberUser, requestCorrection },
  actions: {
    assignUser: assign(({ context }, user: UserToEdit) => ({ user, form: formOf(user, context.defaultPrefix) })),
    assignSaved: assign((_, user: UserToEdit) => ({ user, saved: user })),
    change: assign(({ context, event }) => {
      assertEvent(event, 'editor.change');
      const { [event.field]: _gone, form: _form, ...errors } = context.errors;
      return { form: { ...context.form, [event.field]: event.value }, errors, failed: false };
    }),
    assignErrors: assign((_, failure: ApiFailure) => ({ errors: formErrors(failure), failed: false })),
    markFailed: assign({ failed: true, errors: {} }),
    assignCheckedErrors: assign(({ context }) => ({ errors: checkedErrors(context), failed: false })),
    clearFailure: assign({ failed: false }),
    changeNote: assign(({ event }) => {
      assertEvent(event, 'editor.note');
      return { note: event.value, errors: {}, failed: false };
    }),
    /** Keyboard focus on the first refused field (none when the failure names no field: the alert says it). */
    focusFirstError: enqueueActions(({ context, enqueue }) => {
      const field = firstRefusedField(context.errors);
      if (field) enqueue.emit({ type: 'focus', target: memberFieldId(field) });
    }),
  },
  guards: {
    isFieldError: (_, failure: ApiFailure) => serverErrors(failure) !== null,
    isValid: ({ context }) => Object.keys(checkedErrors(context)).length === 0,
    canEdit: ({ context }) => context.user?.can_edit === true,
    hasNote: ({ context }) => context.note.trim() !== '',
  },
}).createMachine({
  id: 'memberEditor',
  initial: 'loading',
  context: ({ input }) => ({
    ...input,
    user: null,
    form: { ...emptyContactForm('apoderado', input.defaultPrefix), tipo_documento_id: '' },
    errors: {},
    failed: false,
    saved: null,
    note: '',
  }),
  states: {
    loading: {
      tags: 'busy',
      invoke: {
        id: 'fetchMemberUser',
        src: 'fetchMemberUser',
        input: ({ context }) => ({ listId: context.listId, memberId: context.memberId }),
        onDone: { target: 'editing', actions: { type: 'assignUser', params: ({ event }) => event.output } },
        onError: { target: 'failed' },
      },
      on: { 'editor.cancel': { target: 'closed' } },
    },
    // The record could not be read: say so, offer Reintentar.
    failed: {
      on: { 'editor.retry': { target: 'loading' }, 'editor.cancel': { target: 'closed' } },
    },
    editing: {
      on: {
        'editor.change': { guard: 'canEdit', actions: 'change' },
        // Checked here first: what the shared rules refuse never leaves the browser.
        'editor.save': [
          { guard: and(['canEdit', 'isValid']), target: 'saving', actions: 'clearFailure' },
          { guard: 'canEdit', actions: ['assignCheckedErrors', 'focusFirstError'] },
        ],
        // Read only: what is wrong, written for the leadership, sent once there is something to send.
        'editor.note': { guard: not('canEdit'), actions: 'changeNote' },
        'editor.request': { guard: and([not('canEdit'), 'hasNote']), target: 'requesting', actions: 'clearFailure' },
        'editor.cancel': { target: 'closed' },
      },
    },
    requesting: {
      tags: 'busy',
      invoke: {
        id: 'requestCorrection',
        src: 'requestCorrection',
        input: ({ context }) => ({ listId: context.listId, memberId: context.memberId, note: context.note }),
        onDone: { target: 'requested' },
        onError: [
          {
            guard: { type: 'isFieldError', params: ({ event }) => toApiFailure(event.error) },
            target: 'editing',
            actions: { type: 'assignErrors', params: ({ event }) => toApiFailure(event.error) },
          },
          { target: 'editing', actions: 'markFailed' },
        ],
      },
    },
    // Sent: the dialog says so until it is closed.
    requested: {
      on: { 'editor.cancel': { target: 'closed' } },
    },
    saving: {
      tags: 'busy',
      invoke: {
        id: 'saveMemberUser',
        src: 'saveMemberUser',
        input: ({ context }) => ({ listId: context.listId, memberId: context.memberId, changes: changesOf(context.form) }),
        onDone: { target: 'saved', actions: { type: 'assignSaved', params: ({ event }) => event.output } },
        onError: [
          {
            guard: { type: 'isFieldError', params: ({ event }) => toApiFailure(event.error) },
            target: 'editing',
            actions: [{ type: 'assignErrors', params: ({ event }) => toApiFailure(event.error) }, 'focusFirstError'],
          },
          { target: 'editing', actions: 'markFailed' },
        ],
      },
    },
    saved: { type: 'final' },
    closed: { type: 'final' },
  },
  output: ({ context }) => ({ user: context.saved }),
});

export type MemberEditorSnapshot = SnapshotFrom<typeof memberEditorMachine>;

export const selectEditorLoading = (s: MemberEditorSnapshot): boolean => s.matches('loading');
export const selectEditorLoadFailed = (s: MemberEditorSnapshot): boolean => s.matches('failed');
export const selectEditorSaving = (s: MemberEditorSnapshot): boolean => s.matches('saving');
export const selectEditorFailed = (s: MemberEditorSnapshot): boolean => s.context.failed;
export const selectEditorForm = (s: MemberEditorSnapshot): MemberForm => s.context.form;
export const selectEditorErrors = (s: MemberEditorSnapshot): FieldErrors => s.context.errors;
export const selectEditorName = (s: MemberEditorSnapshot): string => s.context.user?.name ?? '';
/** The record is shown to someone who may not change it (Guardar refused while editing). */
export const selectEditorReadOnly = (s: MemberEditorSnapshot): boolean =>
  s.context.user !== null && !s.can({ type: 'editor.save' }) && !s.matches('saving') && !s.matches('loading');
export const selectEditorRequesting = (s: MemberEditorSnapshot): boolean => s.matches('requesting');
export const selectEditorRequested = (s: MemberEditorSnapshot): boolean => s.matches('requested');
export const selectEditorNote = (s: MemberEditorSnapshot): string => s.context.note;
export const selectEditorCanRequest = (s: MemberEditorSnapshot): boolean => s.can({ type: 'editor.request' });
export const selectEditorSchoolPrefix = (s: MemberEditorSnapshot): PhonePrefix => s.context.defaultPrefix;
