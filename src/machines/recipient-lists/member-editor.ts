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
import { DOCUMENT_TYPES, type DocumentTypeId, type UserToEdit, type UserToEditInput } from '../../../shared/recipient-lists-contract';
import { checkPersonEdit, PHONE_PREFIXES as SHARED_PREFIXES, phonePrefixesFor } from '../../../shared/person-rules';
import { fetchMemberUser, requestCorrection, saveMemberUser } from '../../services/recipient-lists/recipient-lists';
import type { FocusEvent } from '../app/effects';
import { toApiFailure, type ApiFailure } from '../../services/http/client';
import { serverErrors, type FieldErrors } from './recipient-lists';

/** SPEC §3 prefixes as the prefix picker offers them (shared/person-rules.ts); the longest match wins when splitting. */
const PHONE_PREFIXES = SHARED_PREFIXES.map((entry) => entry.prefix);
export type PhonePrefix = (typeof SHARED_PREFIXES)[number]['prefix'];

/** The prefixes as the picker lists them: the school's own first. */
export const prefixesFor = (schoolPrefix: PhonePrefix): PhonePrefix[] => phonePrefixesFor(schoolPrefix).map((entry) => entry.prefix);

export interface MemberForm {
  nombres: string;
  apellido_paterno: string;
  apellido_materno: string;
  email: string;
  prefix: PhonePrefix;
  phone: string;
  /** '' (none) or a DOCUMENT_TYPES id as text (the select's value). */
  tipo_documento_id: string;
  dni: string;
}

export type MemberField = keyof MemberForm;

/** A stored E.164 number as the prefix and the national part the form shows. */
export function splitPhone(e164: string | null, fallback: PhonePrefix): { prefix: PhonePrefix; phone: string } {
  if (!e164) return { prefix: fallback, phone: '' };
  const prefix = [...PHONE_PREFIXES].sort((a, b) => b.length - a.length).find((p) => e164.startsWith(p));
  return prefix ? { prefix, phone: e164.slice(prefix.length) } : { prefix: fallback, phone: e164 };
}

/** The document of the school's country (by its prefix): offered for a guardian or student with none. */
const SCHOOL_DOCUMENT: Partial<Record<PhonePrefix, DocumentTypeId>> = { '+56': DOCUMENT_TYPES.rut, '+52': DOCUMENT_TYPES.curp };

/** The select's value: the stored type, else the school's document (not for staff, who have none). */
function documentTypeOf(user: UserToEdit, fallback: PhonePrefix): string {
  if (user.tipo_documento_id !== null) return String(user.tipo_documento_id);
  const schools = SCHOOL_DOCUMENT[fallback];
  return user.user_type === 'funcionario' || user.dni || schools === undefined ? '' : String(schools);
}

export function formOf(user: UserToEdit, fallback: PhonePrefix): MemberForm {
  return {
    nombres: user.nombres,
    apellido_paterno: user.apellido_paterno,
    apellido_materno: user.apellido_materno,
    email: user.email ?? '',
    ...splitPhone(user.fono_celular, fallback),
    tipo_documento_id: documentTypeOf(user, fallback),
    dni: user.dni ?? '',
  };
}

/**
 * What the PATCH sends: every field, blanks as null; the phone as prefix plus digits typed, or whole when it
 * was typed with its own "+" prefix (pasted from elsewhere), so it is never prefixed twice.
 */
export function changesOf(form: MemberForm): UserToEditInput {
  const phone = form.phone.replace(/[\s\-().]/g, '');
  const documentType = form.tipo_documento_id === '' ? null : (Number(form.tipo_documento_id) as DocumentTypeId);
  return {
    nombres: form.nombres.trim(),
    apellido_paterno: form.apellido_paterno.trim(),
    apellido_materno: form.apellido_materno.trim(),
    email: form.email.trim() || null,
    fono_celular: phone === '' ? null : phone.startsWith('+') ? phone : `${form.prefix}${phone}`,
    tipo_documento_id: documentType,
    dni: form.dni.trim() || null,
  };
}

/** The form field a server error names (the phone's error is shown under the number). */
const fieldOfError = (key: string): MemberField | 'form' =>
  key === 'fono_celular'
    ? 'phone'
    : ((['nombres', 'apellido_paterno', 'apellido_materno', 'email', 'dni', 'tipo_documento_id'] as const).find((f) => f === key) ??
      'form');

export const memberFieldId = (field: MemberField | 'form') => `member-${field}`;

/** The fields top to bottom as the dialog shows them: a refused save puts focus on the first with an error. */
const FIELD_ORDER: readonly MemberField[] = [
  'nombres',
  'apellido_paterno',
  'apellido_materno',
  'email',
  'phone',
  'tipo_documento_id',
  'dni',
];
export const firstRefusedField = (errors: FieldErrors): MemberField | null =>
  FIELD_ORDER.find((field) => errors[field] !== undefined) ?? null;

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

const EMPTY_FORM: MemberForm = {
  nombres: '',
  apellido_paterno: '',
  apellido_materno: '',
  email: '',
  prefix: '+56',
  phone: '',
  tipo_documento_id: '',
  dni: '',
};

/** Server errors keyed by the form's fields. */
function formErrors(failure: ApiFailure): FieldErrors {
  const errors: FieldErrors = {};
  for (const [key, value] of Object.entries(serverErrors(failure) ?? {})) errors[fieldOfError(key)] = value;
  return errors;
}

/**
 * The same checks the server makes (shared/person-rules.ts), before sending: names, e-mail, the phone's
 * shape and prefix, RUT or CURP check digit. The server still decides whether a number is a real mobile.
 */
export function checkedErrors(context: Pick<MemberEditorContext, 'user' | 'form' | 'defaultPrefix'>): FieldErrors {
  const user = context.user;
  if (!user) return {};
  const { errors } = checkPersonEdit(
    user.user_type,
    changesOf(context.form),
    { dni: user.dni, tipo_documento_id: user.tipo_documento_id },
    context.defaultPrefix,
  );
  const out: FieldErrors = {};
  for (const [key, texts] of Object.entries(errors)) if (texts[0] && !out[fieldOfError(key)]) out[fieldOfError(key)] = { text: texts[0] };
  return out;
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
    form: { ...EMPTY_FORM, prefix: input.defaultPrefix },
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
export { DOCUMENT_TYPES };
