// «Invitar personal» (the staff screen's child `invite`, staff/staff.ts): one person (name, e-mail, role) or many,
// pasted as lines or read from a CSV file into the same text (invite-rules.ts parses it), previewed row by row
// with each row's problems before anything is sent. Sending asks only when every row is right; the answer says
// per person whether they were invited, were already members, or were refused and why. A failed call keeps
// everything typed. Closing tells the parent (`invite.closed`) how many were invited.
import { assertEvent, assign, emit, sendTo, setup, type ActorRefFrom, type AnyActorRef, type SnapshotFrom } from 'xstate';
import type { RoleCode } from '../../../shared/codes';
import type { InviteOutcome } from '../../../shared/staff-contract';
import type { MessageKey } from '../../i18n';
import { serverMessage, toApiFailure, type ApiFailure } from '../../services/http/client';
import { readTextFile } from '../../services/staff/files';
import { inviteStaff } from '../../services/staff/staff';
import { memoPerOwner } from '../app/memo';
import type { Effect } from '../app/effects';
import {
  isSendable,
  parseInvite,
  peopleOf,
  personProblems,
  roleOf,
  type InviteProblem,
  type InviteRow,
  type ParsedInvite,
} from './invite-rules';

export type InviteMode = 'one' | 'many';

export interface InviteInput {
  /** Who hears `invite.closed` (the staff screen); passed in, so transitions can be computed without one. */
  parent: AnyActorRef;
}

export interface InviteContext {
  parent: AnyActorRef;
  mode: InviteMode;
  name: string;
  email: string;
  role: RoleCode;
  /** Pasted lines, or a chosen CSV file's text (which the user may then correct). */
  text: string;
  fileName: string | null;
  /** A send was tried: the problems are shown from then on. */
  checked: boolean;
  /** The rows sent, and what became of each (in the answer's order, by `index`). */
  sent: InviteRow[];
  outcomes: InviteOutcome[] | null;
  /** The call failed: what to say (the server's words, or a text key). */
  failure: { text: string } | { key: MessageKey } | null;
  /** Everyone invited since the dialog opened (the parent reloads its list when some were). */
  invited: number;
}

export type InviteEvent =
  | { type: 'invite.mode'; mode: InviteMode }
  | { type: 'invite.name'; value: string }
  | { type: 'invite.email'; value: string }
  | { type: 'invite.role'; role: RoleCode }
  | { type: 'invite.text'; text: string }
  | { type: 'invite.file'; file: File }
  | { type: 'invite.send' }
  | { type: 'invite.again' }
  | { type: 'invite.close' };

export const INVITE_NAME_ID = 'invite-name';
export const INVITE_TEXT_ID = 'invite-text';
export const INVITE_RESULT_ID = 'invite-result';

/** The one person of the form as a preview row. */
export function oneRow(context: Pick<InviteContext, 'name' | 'email' | 'role'>): InviteRow {
  const person = { name: context.name, email: context.email, roleText: context.role, role: roleOf(context.role) };
  return { line: 1, ...person, problems: personProblems(person) };
}

/** The text's rows, remembered per dialog (its parent is its own for its whole life). */
export const parsedOf = memoPerOwner((_owner: object, text: string): ParsedInvite => parseInvite(text));

/** What a send would carry as the form stands. */
export function rowsOf(context: InviteContext): ParsedInvite {
  return context.mode === 'one' ? { rows: [oneRow(context)], tooMany: false } : parsedOf(context.parent, context.text);
}

function failureOf(failure: ApiFailure): InviteContext['failure'] {
  const text = failure.fieldErrors.people?.[0] ?? serverMessage(failure);
  return text ? { text } : { key: 'invite.failed' };
}

export const inviteMachine = setup({
  types: {
    context: {} as InviteContext,
    events: {} as InviteEvent,
    emitted: {} as Effect,
    input: {} as InviteInput,
  },
  actors: { inviteStaff, readTextFile },
  actions: {
    assignMode: assign(({ event }) => {
      assertEvent(event, 'invite.mode');
      return { mode: event.mode, checked: false, failure: null };
    }),
    assignName: assign(({ event }) => {
      assertEvent(event, 'invite.name');
      return { name: event.value, failure: null };
    }),
    assignEmail: assign(({ event }) => {
      assertEvent(event, 'invite.email');
      return { email: event.value, failure: null };
    }),
    assignRole: assign(({ event }) => {
      assertEvent(event, 'invite.role');
      return { role: event.role, failure: null };
    }),
    assignText: assign(({ event }) => {
      assertEvent(event, 'invite.text');
      return { text: event.text, failure: null };
    }),
    assignFile: assign(({ event }) => {
      assertEvent(event, 'invite.file');
      return { fileName: event.file.name, failure: null };
    }),
    assignFileText: assign((_, text: string) => ({ text, checked: false })),
    assignUnreadable: assign({ fileName: null, failure: { key: 'invite.fileUnreadable' } }),
    markChecked: assign({ checked: true }),
    assignSent: assign(({ context }) => ({ sent: rowsOf(context).rows, failure: null })),
    assignOutcomes: assign(({ context }, outcomes: InviteOutcome[]) => ({
      outcomes,
      invited: context.invited + outcomes.filter((outcome) => outcome.outcome === 'invited').length,
    })),
    assignFailure: assign((_, failure: ApiFailure) => ({ failure: failureOf(failure) })),
    reset: assign({ name: '', email: '', text: '', fileName: null, checked: false, sent: [], outcomes: null, failure: null }),
    focusFirst: emit(({ context }) => ({ type: 'focus' as const, target: context.mode === 'one' ? INVITE_NAME_ID : INVITE_TEXT_ID })),
    focusResult: emit({ type: 'focus', target: INVITE_RESULT_ID }),
    tellClosed: sendTo(
      ({ context }) => context.parent,
      ({ context }) => ({ type: 'invite.closed' as const, invited: context.invited }),
    ),
  },
  guards: {
    isSendable: ({ context }) => isSendable(rowsOf(context)),
  },
}).createMachine({
  id: 'invite',
  initial: 'editing',
  context: ({ input }) => ({
    parent: input.parent,
    mode: 'one',
    name: '',
    email: '',
    role: 'docente',
    text: '',
    fileName: null,
    checked: false,
    sent: [],
    outcomes: null,
    failure: null,
    invited: 0,
  }),
  on: { 'invite.close': { actions: 'tellClosed' } },
  states: {
    editing: {
      on: {
        'invite.mode': { actions: 'assignMode' },
        'invite.name': { actions: 'assignName' },
        'invite.email': { actions: 'assignEmail' },
        'invite.role': { actions: 'assignRole' },
        'invite.text': { actions: 'assignText' },
        'invite.file': { target: 'reading', actions: 'assignFile' },
        'invite.send': [
          { guard: 'isSendable', target: 'sending', actions: 'assignSent' },
          // Something to correct: every problem shown, the focus on the first field.
          { actions: ['markChecked', 'focusFirst'] },
        ],
      },
    },
    // The chosen file, read into the text (which then shows its rows).
    reading: {
      tags: 'busy',
      invoke: {
        id: 'readTextFile',
        src: 'readTextFile',
        input: ({ event }) => {
          assertEvent(event, 'invite.file');
          return { file: event.file };
        },
        onDone: { target: 'editing', actions: { type: 'assignFileText', params: ({ event }) => event.output } },
        onError: { target: 'editing', actions: 'assignUnreadable' },
      },
    },
    sending: {
      tags: 'busy',
      invoke: {
        id: 'inviteStaff',
        src: 'inviteStaff',
        input: ({ context }) => ({ people: peopleOf(context.sent) }),
        onDone: { target: 'done', actions: [{ type: 'assignOutcomes', params: ({ event }) => event.output }, 'focusResult'] },
        // Nothing typed is lost: the form as it was, and why it was not sent.
        onError: {
          target: 'editing',
          actions: [{ type: 'assignFailure', params: ({ event }) => toApiFailure(event.error) }, 'focusFirst'],
        },
      },
    },
    // Each person's outcome; «Invitar a otros» starts a new form, Cerrar closes.
    done: {
      on: { 'invite.again': { target: 'editing', actions: ['reset', 'focusFirst'] } },
    },
  },
});

export type InviteActor = ActorRefFrom<typeof inviteMachine>;
export type InviteSnapshot = SnapshotFrom<typeof inviteMachine>;

export const selectMode = (s: InviteSnapshot): InviteMode => s.context.mode;
export const selectName = (s: InviteSnapshot): string => s.context.name;
export const selectEmail = (s: InviteSnapshot): string => s.context.email;
export const selectRole = (s: InviteSnapshot): RoleCode => s.context.role;
export const selectText = (s: InviteSnapshot): string => s.context.text;
export const selectFileName = (s: InviteSnapshot): string | null => s.context.fileName;
export const selectChecked = (s: InviteSnapshot): boolean => s.context.checked;
export const selectIsReading = (s: InviteSnapshot): boolean => s.matches('reading');
export const selectIsSending = (s: InviteSnapshot): boolean => s.matches('sending');
export const selectIsDone = (s: InviteSnapshot): boolean => s.matches('done');
export const selectFailure = (s: InviteSnapshot): InviteContext['failure'] => s.context.failure;
export const selectOutcomes = (s: InviteSnapshot): InviteOutcome[] | null => s.context.outcomes;
export const selectSent = (s: InviteSnapshot): InviteRow[] => s.context.sent;
/** The pasted text's rows (the same object while the text is unchanged). */
export const selectParsed = (s: InviteSnapshot): ParsedInvite => parsedOf(s.context.parent, s.context.text);
/** The one person's problem with their name, or with their e-mail, shown once a send was tried (a pasted row's rule). */
const oneProblem = (s: InviteSnapshot, field: 'name' | 'email'): InviteProblem | null =>
  s.context.checked ? (oneRow(s.context).problems.find((problem) => problem.startsWith(field)) ?? null) : null;
export const selectNameProblem = (s: InviteSnapshot): InviteProblem | null => oneProblem(s, 'name');
export const selectEmailProblem = (s: InviteSnapshot): InviteProblem | null => oneProblem(s, 'email');
/** How many a send would invite as the form stands (one, or the text's rows). */
export const selectSendCount = (s: InviteSnapshot): number => (s.context.mode === 'one' ? 1 : selectParsed(s).rows.length);
