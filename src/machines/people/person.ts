// One student's or guardian's record (/settings/people/:kind/:id, the school's leadership): the contact form
// of the list member editor (people/contact-form.ts: the same fields, the same checks before sending, the
// server's 422 under each field with everything typed kept), and what the record adds. A student's guardians:
// «Agregar apoderado» (a dialog: a new guardian, or one of the school's found by document, as titular or
// suplente on a role still free) and «Quitar» after a question; «Marcar como retirado» / «Volver a matricular»
// after a question saying what it means. A guardian's students are links to their records (the view's).
// Effects (toasts, focus) are emitted, never performed.
import { assertEvent, assign, emit, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { GuardianRoleId, NewGuardianInput, PeopleKind, PersonRecord } from '../../../shared/people-contract';
import type { MessageKey } from '../../i18n';
import { serverMessage, toApiFailure, type ApiFailure } from '../../services/http/client';
import { addGuardian, enrolStudent, fetchPerson, removeGuardian, savePerson, withdrawStudent } from '../../services/people/people';
import type { Effect } from '../app/effects';
import { serverErrors, type FieldErrors } from '../recipient-lists/recipient-lists';
import {
  CONTACT_FIELD_ORDER,
  contactChangesOf,
  contactErrors,
  contactFormOf,
  contactServerErrors,
  emptyContactForm,
  firstRefusedField,
  type ContactField,
  type ContactForm,
  type PhonePrefix,
} from './contact-form';
import { canAddGuardian, canEnrol, canWithdraw, freeRoles, hasGuardian, relationshipProblem } from './people-rules';

export interface GuardianForm extends ContactForm {
  /** '1' titular, '2' suplente, '' none picked. */
  rol_adulto_id: '' | '1' | '2';
  relationship: string;
}
export type GuardianField = keyof GuardianForm;

/** A refusal said in a question: a text key or the server's Spanish text. */
export type PersonProblem = { key: MessageKey } | { text: string };

export interface PersonInput {
  kind: PeopleKind;
  id: number;
  /** The school's country prefix, for a person with no phone yet. */
  defaultPrefix: PhonePrefix;
}

export interface PersonContext extends PersonInput {
  record: PersonRecord | null;
  notFound: boolean;
  form: ContactForm;
  errors: FieldErrors;
  /** The save failed for another reason than a field (network, server): said above the button. */
  failed: boolean;
  guardian: GuardianForm;
  guardianErrors: FieldErrors;
  guardianFailed: boolean;
  /** The guardian «Quitar» asks about. */
  guardianId: number | null;
  problem: PersonProblem | null;
}

export type PersonEvent =
  | { type: 'person.change'; field: ContactField; value: string }
  | { type: 'person.save' }
  | { type: 'person.retry' }
  | { type: 'person.withdraw' }
  | { type: 'person.enrol' }
  | { type: 'person.confirm' }
  | { type: 'person.cancel' }
  | { type: 'guardian.open' }
  | { type: 'guardian.change'; field: GuardianField; value: string }
  | { type: 'guardian.save' }
  | { type: 'guardian.cancel' }
  | { type: 'guardian.remove'; id: number };

export const personFieldId = (field: ContactField | 'form') => `person-${field}`;
export const guardianFieldId = (field: GuardianField | 'form') => `guardian-${field}`;
export const ADD_GUARDIAN_BUTTON_ID = 'person-add-guardian';
export const STANDING_BUTTON_ID = 'person-standing';
/** The guardians' heading: where the focus goes once one is added or removed (the add button may be gone). */
export const GUARDIANS_HEADING_ID = 'person-guardians';
export const guardianRowId = (id: number) => `person-guardian-${id}`;

const GUARDIAN_FIELD_ORDER: readonly GuardianField[] = ['rol_adulto_id', 'relationship', ...CONTACT_FIELD_ORDER];
const GUARDIAN_EXTRA_FIELDS = ['rol_adulto_id', 'relationship'] as const;

/** A blank guardian: the school's prefix and document, the first role the student has free. */
function newGuardianForm(record: PersonRecord | null, prefix: PhonePrefix): GuardianForm {
  const free = record ? freeRoles(record) : [];
  return { ...emptyContactForm('apoderado', prefix), rol_adulto_id: free[0] ? (String(free[0]) as '1' | '2') : '', relationship: '' };
}

/** What «Agregar» sends: the contact's fields as a save sends them, the role and the relationship. */
export function newGuardianOf(form: GuardianForm): NewGuardianInput {
  const contact = contactChangesOf(form);
  return {
    ...contact,
    // The type alone says nothing of a new person: without a number, no document is sent.
    tipo_documento_id: contact.dni ? (contact.tipo_documento_id ?? null) : null,
    nombres: contact.nombres ?? '',
    apellido_paterno: contact.apellido_paterno ?? '',
    rol_adulto_id: (form.rol_adulto_id === '2' ? 2 : 1) as GuardianRoleId,
    relationship: form.relationship.trim(),
  };
}

/** The record's own checks (shared/person-rules.ts, as the member editor's). */
export const personErrors = (context: Pick<PersonContext, 'record' | 'form' | 'defaultPrefix'>): FieldErrors =>
  context.record
    ? contactErrors(
        context.record.kind,
        context.form,
        { dni: context.record.dni, tipo_documento_id: context.record.tipo_documento_id },
        context.defaultPrefix,
      )
    : {};

/** A new guardian's checks: the contact's (a new person: no stored document), a free role, a relationship. */
export function guardianErrors(context: Pick<PersonContext, 'record' | 'guardian' | 'defaultPrefix'>): FieldErrors {
  const errors = contactErrors('apoderado', context.guardian, { dni: null, tipo_documento_id: null }, context.defaultPrefix);
  const role = context.guardian.rol_adulto_id;
  const free = context.record ? freeRoles(context.record) : [];
  if (role === '') errors.rol_adulto_id = { key: 'people.error.roleRequired' };
  else if (!free.includes(Number(role) as GuardianRoleId)) errors.rol_adulto_id = { key: 'people.error.roleTaken' };
  const relationship = relationshipProblem(context.guardian.relationship);
  if (relationship) errors.relationship = { key: `people.error.${relationship}` };
  return errors;
}

const problemOf = (failure: ApiFailure): PersonProblem => {
  const text = serverMessage(failure);
  return text ? { text } : { key: 'people.error.failed' };
};

const recordGuard =
  (allows: (record: PersonRecord) => boolean) =>
  ({ context }: { context: PersonContext }) =>
    context.record !== null && allows(context.record);

export const personMachine = setup({
  types: {
    input: {} as PersonInput,
    context: {} as PersonContext,
    events: {} as PersonEvent,
    emitted: {} as Effect,
  },
  actors: { fetchPerson, savePerson, addGuardian, removeGuardian, withdrawStudent, enrolStudent },
  actions: {
    /** The record as loaded or saved: the form shows it again. */
    assignLoaded: assign(({ context }, record: PersonRecord) => ({
      record,
      form: contactFormOf(record, context.defaultPrefix),
      errors: {},
      failed: false,
    })),
    /** A fresher record after another change (a guardian, the standing): the form keeps what is typed. */
    assignRecord: assign((_, record: PersonRecord) => ({ record, problem: null, guardianId: null })),
    assignNotFound: assign((_, failure: ApiFailure) => ({ notFound: failure.status === 404 })),
    change: assign(({ context, event }) => {
      assertEvent(event, 'person.change');
      const { [event.field]: _gone, form: _form, ...errors } = context.errors;
      return { form: { ...context.form, [event.field]: event.value }, errors, failed: false };
    }),
    assignCheckedErrors: assign(({ context }) => ({ errors: personErrors(context), failed: false })),
    assignErrors: assign((_, failure: ApiFailure) => ({ errors: contactServerErrors(failure), failed: false })),
    markFailed: assign({ failed: true, errors: {} }),
    clearFailure: assign({ failed: false }),
    /** Keyboard focus on the first refused field, else on the form's own alert. */
    focusFirstError: emit(({ context }) => ({
      type: 'focus' as const,
      target: personFieldId(firstRefusedField(context.errors) ?? 'form'),
    })),
    openGuardian: assign(({ context }) => ({
      guardian: newGuardianForm(context.record, context.defaultPrefix),
      guardianErrors: {},
      guardianFailed: false,
    })),
    changeGuardian: assign(({ context, event }) => {
      assertEvent(event, 'guardian.change');
      const { [event.field]: _gone, form: _form, ...errors } = context.guardianErrors;
      return { guardian: { ...context.guardian, [event.field]: event.value }, guardianErrors: errors, guardianFailed: false };
    }),
    assignGuardianCheckedErrors: assign(({ context }) => ({ guardianErrors: guardianErrors(context), guardianFailed: false })),
    assignGuardianErrors: assign((_, failure: ApiFailure) => ({
      guardianErrors: contactServerErrors(failure, GUARDIAN_EXTRA_FIELDS),
      guardianFailed: false,
    })),
    markGuardianFailed: assign({ guardianFailed: true, guardianErrors: {} }),
    focusFirstGuardianError: emit(({ context }) => ({
      type: 'focus' as const,
      target: guardianFieldId(firstRefusedField<GuardianField>(context.guardianErrors, GUARDIAN_FIELD_ORDER) ?? 'form'),
    })),
    assignGuardianId: assign(({ event }) => {
      assertEvent(event, 'guardian.remove');
      return { guardianId: event.id, problem: null };
    }),
    assignProblem: assign((_, problem: PersonProblem) => ({ problem })),
    clearQuestion: assign({ guardianId: null, problem: null }),
    toast: emit((_, params: { key: MessageKey; name: string }) => ({
      type: 'toast' as const,
      kind: 'success' as const,
      key: params.key,
      params: { name: params.name },
    })),
    focusAddGuardian: emit({ type: 'focus', target: ADD_GUARDIAN_BUTTON_ID }),
    focusGuardians: emit({ type: 'focus', target: GUARDIANS_HEADING_ID }),
    focusStanding: emit({ type: 'focus', target: STANDING_BUTTON_ID }),
    focusGuardianRow: emit(({ context }) => ({
      type: 'focus' as const,
      target: context.guardianId !== null ? guardianRowId(context.guardianId) : ADD_GUARDIAN_BUTTON_ID,
    })),
  },
  guards: {
    isFieldError: (_, failure: ApiFailure) => serverErrors(failure) !== null,
    isValid: ({ context }) => Object.keys(personErrors(context)).length === 0,
    isGuardianValid: ({ context }) => Object.keys(guardianErrors(context)).length === 0,
    canAddGuardian: recordGuard(canAddGuardian),
    canWithdraw: recordGuard(canWithdraw),
    canEnrol: recordGuard(canEnrol),
    hasGuardian: ({ context, event }) => {
      assertEvent(event, 'guardian.remove');
      return context.record !== null && hasGuardian(context.record, event.id);
    },
  },
}).createMachine({
  id: 'person',
  initial: 'loading',
  context: ({ input }) => ({
    ...input,
    record: null,
    notFound: false,
    form: emptyContactForm(input.kind, input.defaultPrefix),
    errors: {},
    failed: false,
    guardian: newGuardianForm(null, input.defaultPrefix),
    guardianErrors: {},
    guardianFailed: false,
    guardianId: null,
    problem: null,
  }),
  states: {
    loading: {
      tags: 'busy',
      invoke: {
        id: 'fetchPerson',
        src: 'fetchPerson',
        input: ({ context }) => ({ kind: context.kind, id: context.id }),
        onDone: { target: 'ready', actions: { type: 'assignLoaded', params: ({ event }) => event.output } },
        onError: { target: 'failed', actions: { type: 'assignNotFound', params: ({ event }) => toApiFailure(event.error) } },
      },
    },
    // Not read (the network, the server) or not there (another school's, a wrong address): Reintentar for the first.
    failed: {
      on: { 'person.retry': { target: 'loading' } },
    },
    ready: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'person.change': { actions: 'change' },
            // Checked here first: what the shared rules refuse never leaves the browser.
            'person.save': [
              { guard: 'isValid', target: 'saving', actions: 'clearFailure' },
              { actions: ['assignCheckedErrors', 'focusFirstError'] },
            ],
            'guardian.open': { guard: 'canAddGuardian', target: 'adding', actions: 'openGuardian' },
            'guardian.remove': { guard: 'hasGuardian', target: 'confirmingRemove', actions: 'assignGuardianId' },
            'person.withdraw': { guard: 'canWithdraw', target: 'confirmingWithdraw', actions: 'clearQuestion' },
            'person.enrol': { guard: 'canEnrol', target: 'confirmingEnrol', actions: 'clearQuestion' },
          },
        },
        saving: {
          tags: 'busy',
          invoke: {
            id: 'savePerson',
            src: 'savePerson',
            input: ({ context }) => ({ kind: context.kind, id: context.id, changes: contactChangesOf(context.form) }),
            onDone: {
              target: 'idle',
              actions: [
                { type: 'assignLoaded', params: ({ event }) => event.output },
                { type: 'toast', params: ({ event }) => ({ key: 'people.toast.saved', name: event.output.name }) },
              ],
            },
            onError: [
              {
                guard: { type: 'isFieldError', params: ({ event }) => toApiFailure(event.error) },
                target: 'idle',
                actions: [{ type: 'assignErrors', params: ({ event }) => toApiFailure(event.error) }, 'focusFirstError'],
              },
              { target: 'idle', actions: 'markFailed' },
            ],
          },
        },
        // «Agregar apoderado»: the dialog's form lives in the context, so a refusal keeps everything typed.
        adding: {
          initial: 'open',
          states: {
            open: {
              on: {
                'guardian.change': { actions: 'changeGuardian' },
                'guardian.save': [
                  { guard: 'isGuardianValid', target: 'sending' },
                  { actions: ['assignGuardianCheckedErrors', 'focusFirstGuardianError'] },
                ],
                'guardian.cancel': { target: '#person.ready.idle', actions: 'focusAddGuardian' },
              },
            },
            sending: {
              tags: 'busy',
              invoke: {
                id: 'addGuardian',
                src: 'addGuardian',
                input: ({ context }) => ({ studentId: context.id, guardian: newGuardianOf(context.guardian) }),
                onDone: {
                  target: '#person.ready.idle',
                  actions: [
                    { type: 'assignRecord', params: ({ event }) => event.output },
                    {
                      type: 'toast',
                      params: ({ context }) => ({ key: 'people.toast.guardianAdded', name: newGuardianOf(context.guardian).nombres }),
                    },
                    'focusGuardians',
                  ],
                },
                onError: [
                  {
                    guard: { type: 'isFieldError', params: ({ event }) => toApiFailure(event.error) },
                    target: 'open',
                    actions: [
                      { type: 'assignGuardianErrors', params: ({ event }) => toApiFailure(event.error) },
                      'focusFirstGuardianError',
                    ],
                  },
                  { target: 'open', actions: 'markGuardianFailed' },
                ],
              },
            },
          },
        },
        // «¿Quitar a … como apoderado?»: only the link goes; the guardian stays for their other children.
        confirmingRemove: {
          on: {
            'person.confirm': { target: 'removing' },
            'person.cancel': { target: 'idle', actions: ['focusGuardianRow', 'clearQuestion'] },
          },
        },
        removing: {
          tags: 'busy',
          invoke: {
            id: 'removeGuardian',
            src: 'removeGuardian',
            input: ({ context }) => ({ studentId: context.id, guardianId: context.guardianId ?? 0 }),
            onDone: {
              target: 'idle',
              actions: [
                {
                  type: 'toast',
                  params: ({ context }) => ({
                    key: 'people.toast.guardianRemoved',
                    name: context.record?.guardians.find((g) => g.id === context.guardianId)?.name ?? '',
                  }),
                },
                { type: 'assignRecord', params: ({ event }) => event.output },
                'focusGuardians',
              ],
            },
            onError: {
              target: 'confirmingRemove',
              actions: { type: 'assignProblem', params: ({ event }) => problemOf(toApiFailure(event.error)) },
            },
          },
        },
        // «¿Marcar como retirado?»: no more messages reach the student's family through them; the next import may list them as a conflict.
        confirmingWithdraw: {
          on: {
            'person.confirm': { target: 'withdrawing' },
            'person.cancel': { target: 'idle', actions: ['focusStanding', 'clearQuestion'] },
          },
        },
        withdrawing: {
          tags: 'busy',
          invoke: {
            id: 'withdrawStudent',
            src: 'withdrawStudent',
            input: ({ context }) => ({ studentId: context.id }),
            onDone: {
              target: 'idle',
              actions: [
                { type: 'assignRecord', params: ({ event }) => event.output },
                { type: 'toast', params: ({ event }) => ({ key: 'people.toast.withdrawn', name: event.output.name }) },
                'focusStanding',
              ],
            },
            onError: {
              target: 'confirmingWithdraw',
              actions: { type: 'assignProblem', params: ({ event }) => problemOf(toApiFailure(event.error)) },
            },
          },
        },
        confirmingEnrol: {
          on: {
            'person.confirm': { target: 'enrolling' },
            'person.cancel': { target: 'idle', actions: ['focusStanding', 'clearQuestion'] },
          },
        },
        enrolling: {
          tags: 'busy',
          invoke: {
            id: 'enrolStudent',
            src: 'enrolStudent',
            input: ({ context }) => ({ studentId: context.id }),
            onDone: {
              target: 'idle',
              actions: [
                { type: 'assignRecord', params: ({ event }) => event.output },
                { type: 'toast', params: ({ event }) => ({ key: 'people.toast.enrolled', name: event.output.name }) },
                'focusStanding',
              ],
            },
            onError: {
              target: 'confirmingEnrol',
              actions: { type: 'assignProblem', params: ({ event }) => problemOf(toApiFailure(event.error)) },
            },
          },
        },
      },
    },
  },
});

export type PersonActor = ActorRefFrom<typeof personMachine>;
export type PersonSnapshot = SnapshotFrom<typeof personMachine>;

// Selectors: primitives, or references the context keeps.
export const selectRecord = (s: PersonSnapshot): PersonRecord | null => s.context.record;
export const selectPersonLoading = (s: PersonSnapshot): boolean => s.matches('loading');
export const selectPersonLoadFailed = (s: PersonSnapshot): boolean => s.matches('failed') && !s.context.notFound;
export const selectPersonNotFound = (s: PersonSnapshot): boolean => s.matches('failed') && s.context.notFound;
export const selectName = (s: PersonSnapshot): string => s.context.record?.name ?? '';
export const selectForm = (s: PersonSnapshot): ContactForm => s.context.form;
export const selectErrors = (s: PersonSnapshot): FieldErrors => s.context.errors;
export const selectSaving = (s: PersonSnapshot): boolean => s.matches({ ready: 'saving' });
export const selectSaveFailed = (s: PersonSnapshot): boolean => s.context.failed;
export const selectSchoolPrefix = (s: PersonSnapshot): PhonePrefix => s.context.defaultPrefix;
export const selectIsAdding = (s: PersonSnapshot): boolean => s.matches({ ready: 'adding' });
export const selectIsSendingGuardian = (s: PersonSnapshot): boolean => s.matches({ ready: { adding: 'sending' } });
export const selectGuardianForm = (s: PersonSnapshot): GuardianForm => s.context.guardian;
export const selectGuardianErrors = (s: PersonSnapshot): FieldErrors => s.context.guardianErrors;
export const selectGuardianFailed = (s: PersonSnapshot): boolean => s.context.guardianFailed;
export const selectQuestion = (s: PersonSnapshot): 'remove' | 'withdraw' | 'enrol' | null =>
  s.matches({ ready: 'confirmingRemove' }) || s.matches({ ready: 'removing' })
    ? 'remove'
    : s.matches({ ready: 'confirmingWithdraw' }) || s.matches({ ready: 'withdrawing' })
      ? 'withdraw'
      : s.matches({ ready: 'confirmingEnrol' }) || s.matches({ ready: 'enrolling' })
        ? 'enrol'
        : null;
export const selectQuestionGuardianName = (s: PersonSnapshot): string =>
  s.context.record?.guardians.find((g) => g.id === s.context.guardianId)?.name ?? '';
export const selectProblem = (s: PersonSnapshot): PersonProblem | null => s.context.problem;
export const selectBusy = (s: PersonSnapshot): boolean => s.hasTag('busy');
export const selectCanAddGuardian = (s: PersonSnapshot): boolean => s.can({ type: 'guardian.open' });
export const selectCanWithdraw = (s: PersonSnapshot): boolean => s.can({ type: 'person.withdraw' });
export const selectCanEnrol = (s: PersonSnapshot): boolean => s.can({ type: 'person.enrol' });
