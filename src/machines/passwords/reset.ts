// /reset-password/:token (decision 0167): the link is checked first (who it is for, or why it no longer works:
// unknown, expired, used); then the new password and its confirmation, with the rule's reason shown while
// typing once the rule's chunk has arrived (it loads beside the form; until then the server's check is the
// only one). The server's answer counts: its reason lands on the field. Done, every session of the user has
// ended and nobody is signed in: the page goes to /login, which says the password changed.
import { assertEvent, assign, emit, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { ResetOwner } from '../../../shared/passwords-contract';
import { checkResetLink, loadPasswordRule, resetPassword, type PasswordRule } from '../../services/passwords/passwords';
import { toApiFailure, type ApiFailure } from '../../services/http/client';
import type { Effect } from '../app/effects';
import { failureOf, linkProblemOf, refusalOf, type Failure, type LinkProblem } from './rules';

export const RESET_PASSWORD_ID = 'reset-password';
export const RESET_CONFIRMATION_ID = 'reset-confirmation';

export type NewPasswordField = 'password' | 'confirmation';

interface ResetContext {
  token: string;
  owner: ResetOwner | null;
  password: string;
  confirmation: string;
  /** The shared rule, once its chunk has arrived. */
  rule: PasswordRule | null;
  /** The form was sent: empty fields say so. */
  submitted: boolean;
  /** The server's reason for the password (its rule's answer is the one that counts). */
  refusal: string | null;
  /** Why the link does not work. */
  problem: LinkProblem | null;
  failure: Failure | null;
}

type ResetEvent = { type: 'reset.change'; field: NewPasswordField; value: string } | { type: 'reset.submit' } | { type: 'reset.retry' };

/** The rule's reason for the password as typed, when the rule has arrived and something is typed. */
export function ruleReason(context: Pick<ResetContext, 'rule' | 'password' | 'owner'>): string | null {
  return context.rule && context.password !== '' ? context.rule.reasonFor(context.password, context.owner ?? {}) : null;
}

export const isConfirmed = (context: Pick<ResetContext, 'password' | 'confirmation'>): boolean => context.password === context.confirmation;

export const resetPasswordMachine = setup({
  types: {
    context: {} as ResetContext,
    events: {} as ResetEvent,
    emitted: {} as Effect,
    input: {} as { token: string },
  },
  actors: { checkResetLink, loadPasswordRule, resetPassword },
  actions: {
    assignOwner: assign((_, owner: ResetOwner) => ({ owner, failure: null })),
    assignRule: assign((_, params: { rule: PasswordRule }) => ({ rule: params.rule })),
    assignProblem: assign((_, failure: ApiFailure) => ({ problem: linkProblemOf(failure) })),
    // Each answer replaces what the previous one said of the password.
    assignFailure: assign((_, failure: ApiFailure) => ({ failure: failureOf(failure), refusal: null })),
    assignRefusal: assign((_, failure: ApiFailure) => ({ refusal: refusalOf(failure, 'password'), failure: null })),
    change: assign(({ event }) => {
      assertEvent(event, 'reset.change');
      return event.field === 'password'
        ? { password: event.value, refusal: null, failure: null }
        : { confirmation: event.value, failure: null };
    }),
    markSubmitted: assign({ submitted: true, failure: null }),
    focusPassword: emit({ type: 'focus', target: RESET_PASSWORD_ID }),
    focusConfirmation: emit({ type: 'focus', target: RESET_CONFIRMATION_ID }),
    toastDone: emit({ type: 'toast', kind: 'success', key: 'passwords.reset.done' }),
    goToLogin: emit({ type: 'navigate', to: '/login', replace: true }),
  },
  guards: {
    isLinkUnusable: (_, failure: ApiFailure) => linkProblemOf(failure) !== null,
    isPasswordRefused: (_, failure: ApiFailure) => refusalOf(failure, 'password') !== null,
    isPasswordInvalid: ({ context }) => context.password === '' || ruleReason(context) !== null,
    isConfirmationWrong: ({ context }) => !isConfirmed(context),
  },
}).createMachine({
  id: 'resetPassword',
  initial: 'checking',
  context: ({ input }) => ({
    token: input.token,
    owner: null,
    password: '',
    confirmation: '',
    rule: null,
    submitted: false,
    refusal: null,
    problem: null,
    failure: null,
  }),
  states: {
    checking: {
      tags: 'busy',
      invoke: {
        id: 'checkResetLink',
        src: 'checkResetLink',
        input: ({ context }) => ({ token: context.token }),
        onDone: { target: 'ready', actions: { type: 'assignOwner', params: ({ event }) => event.output } },
        onError: [
          {
            guard: { type: 'isLinkUnusable', params: ({ event }) => toApiFailure(event.error) },
            target: 'unusable',
            actions: { type: 'assignProblem', params: ({ event }) => toApiFailure(event.error) },
          },
          { target: 'checkFailed', actions: { type: 'assignFailure', params: ({ event }) => toApiFailure(event.error) } },
        ],
      },
    },
    // Not checked (offline, server): said, with Reintentar.
    checkFailed: { on: { 'reset.retry': { target: 'checking' } } },
    // Unknown, expired or used: the page says which and offers a new link.
    unusable: {},
    // Two things at once: the rule's chunk arriving (until then, and if it never does, only the server checks)
    // and the form.
    ready: {
      type: 'parallel',
      states: {
        rule: {
          initial: 'loading',
          states: {
            loading: {
              invoke: {
                id: 'loadPasswordRule',
                src: 'loadPasswordRule',
                onDone: { target: 'loaded', actions: { type: 'assignRule', params: ({ event }) => ({ rule: event.output }) } },
                onError: { target: 'unavailable' },
              },
            },
            loaded: {},
            unavailable: {},
          },
        },
        form: {
          initial: 'editing',
          states: {
            editing: {
              on: {
                'reset.change': { actions: 'change' },
                'reset.submit': [
                  { guard: 'isPasswordInvalid', actions: ['markSubmitted', 'focusPassword'] },
                  { guard: 'isConfirmationWrong', actions: ['markSubmitted', 'focusConfirmation'] },
                  { target: 'saving', actions: 'markSubmitted' },
                ],
              },
            },
            saving: {
              tags: 'busy',
              invoke: {
                id: 'resetPassword',
                src: 'resetPassword',
                input: ({ context }) => ({ token: context.token, password: context.password }),
                onDone: { target: '#resetPassword.done' },
                onError: [
                  {
                    guard: { type: 'isPasswordRefused', params: ({ event }) => toApiFailure(event.error) },
                    target: 'editing',
                    actions: [{ type: 'assignRefusal', params: ({ event }) => toApiFailure(event.error) }, 'focusPassword'],
                  },
                  // The link died meanwhile (used from another tab, or its hour ran out).
                  {
                    guard: { type: 'isLinkUnusable', params: ({ event }) => toApiFailure(event.error) },
                    target: '#resetPassword.unusable',
                    actions: { type: 'assignProblem', params: ({ event }) => toApiFailure(event.error) },
                  },
                  { target: 'editing', actions: { type: 'assignFailure', params: ({ event }) => toApiFailure(event.error) } },
                ],
              },
            },
          },
        },
      },
    },
    done: { type: 'final', entry: ['toastDone', 'goToLogin'] },
  },
});

export type ResetPasswordActor = ActorRefFrom<typeof resetPasswordMachine>;
type ResetPasswordSnapshot = SnapshotFrom<typeof resetPasswordMachine>;

export const selectIsChecking = (s: ResetPasswordSnapshot): boolean => s.matches('checking');
export const selectCheckFailed = (s: ResetPasswordSnapshot): boolean => s.matches('checkFailed');
export const selectLinkProblem = (s: ResetPasswordSnapshot): LinkProblem | null => (s.matches('unusable') ? s.context.problem : null);
export const selectIsReady = (s: ResetPasswordSnapshot): boolean => s.matches('ready');
export const selectIsSaving = (s: ResetPasswordSnapshot): boolean => s.matches({ ready: { form: 'saving' } });
export const selectOwnerEmail = (s: ResetPasswordSnapshot): string => s.context.owner?.email ?? '';
export const selectPassword = (s: ResetPasswordSnapshot): string => s.context.password;
export const selectConfirmation = (s: ResetPasswordSnapshot): string => s.context.confirmation;
/** The password's Spanish reason: the server's, else the rule's while typing. */
export const selectPasswordReason = (s: ResetPasswordSnapshot): string | null => s.context.refusal ?? ruleReason(s.context);
/** Sent with no password. */
export const selectPasswordMissing = (s: ResetPasswordSnapshot): boolean => s.context.submitted && s.context.password === '';
/** The confirmation differs, once something is typed in it (or the form was sent). */
export const selectConfirmationWrong = (s: ResetPasswordSnapshot): boolean =>
  (s.context.confirmation !== '' || s.context.submitted) && s.context.password !== '' && !isConfirmed(s.context);
export const selectResetFailure = (s: ResetPasswordSnapshot): Failure | null => s.context.failure;
