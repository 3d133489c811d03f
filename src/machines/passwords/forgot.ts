// /forgot-password (decision 0167): the address, checked here as the server will, then one call that asks for
// a reset link. The answer never says whether the address has an account, so the screen says the same for
// every address: "if it is yours, we sent a link". Too many asks, no network or a server error keep what was
// typed and say so; "Enviar otro" goes back to the form.
import { assertEvent, assign, emit, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { askResetLink } from '../../services/passwords/passwords';
import { toApiFailure, type ApiFailure } from '../../services/http/client';
import type { Effect } from '../app/effects';
import { emailProblem, failureOf, type EmailProblem, type Failure } from './rules';

export const FORGOT_EMAIL_ID = 'forgot-email';

interface ForgotContext {
  email: string;
  /** Shown once the form was sent with it. */
  problem: EmailProblem | null;
  failure: Failure | null;
}

type ForgotEvent = { type: 'forgot.change'; email: string } | { type: 'forgot.submit' } | { type: 'forgot.again' };

export const forgotPasswordMachine = setup({
  types: {
    context: {} as ForgotContext,
    events: {} as ForgotEvent,
    emitted: {} as Effect,
  },
  actors: { askResetLink },
  actions: {
    change: assign(({ event }) => {
      assertEvent(event, 'forgot.change');
      return { email: event.email, problem: null, failure: null };
    }),
    showProblem: assign(({ context }) => ({ problem: emailProblem(context.email) })),
    clearFailure: assign({ failure: null }),
    assignFailure: assign((_, failure: ApiFailure) => ({ failure: failureOf(failure) })),
    focusEmail: emit({ type: 'focus', target: FORGOT_EMAIL_ID }),
  },
  guards: {
    isEmailValid: ({ context }) => emailProblem(context.email) === null,
  },
}).createMachine({
  id: 'forgotPassword',
  initial: 'editing',
  context: { email: '', problem: null, failure: null },
  states: {
    editing: {
      on: {
        'forgot.change': { actions: 'change' },
        'forgot.submit': [
          { guard: 'isEmailValid', target: 'sending', actions: 'clearFailure' },
          { actions: ['showProblem', 'focusEmail'] },
        ],
      },
    },
    sending: {
      tags: 'busy',
      invoke: {
        id: 'askResetLink',
        src: 'askResetLink',
        input: ({ context }) => ({ email: context.email.trim().toLowerCase() }),
        onDone: { target: 'sent' },
        onError: {
          target: 'editing',
          actions: [{ type: 'assignFailure', params: ({ event }) => toApiFailure(event.error) }, 'focusEmail'],
        },
      },
    },
    sent: {
      on: { 'forgot.again': { target: 'editing', actions: 'focusEmail' } },
    },
  },
});

export type ForgotPasswordActor = ActorRefFrom<typeof forgotPasswordMachine>;
type ForgotPasswordSnapshot = SnapshotFrom<typeof forgotPasswordMachine>;

export const selectEmail = (s: ForgotPasswordSnapshot): string => s.context.email;
export const selectEmailProblem = (s: ForgotPasswordSnapshot): EmailProblem | null => s.context.problem;
export const selectForgotFailure = (s: ForgotPasswordSnapshot): Failure | null => s.context.failure;
export const selectIsSending = (s: ForgotPasswordSnapshot): boolean => s.hasTag('busy');
export const selectIsSent = (s: ForgotPasswordSnapshot): boolean => s.matches('sent');
