// /invitation/:token: the page an invited colleague opens from their e-mail. It greets them with the school
// and name the link is for, and takes a new password twice; the shared password rule (shared/password-rules.ts,
// loaded on its own as the page opens: its dictionaries never come with the first download) says its Spanish
// reason while they type, and the server checks it again. A link that ran out, was used or was revoked
// (410) or never existed (404) gets a page saying what happened and what to do. Accepted, the server has set
// the session's cookies as `POST /login` does: the app starts again on the inbox (`navigate` with `reload`),
// and its start-up check signs them in (the session machine, in the first download, needs nothing new).
import { assertEvent, assign, emit, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { InvitationInfo } from '../../../shared/staff-contract';
import type { MessageKey } from '../../i18n';
import { toApiFailure, type ApiFailure } from '../../services/http/client';
import { acceptInvitation, fetchInvitation, loadPasswordRule, type PasswordCheck } from '../../services/staff/invitation';
import { memoPerOwner } from '../app/memo';
import type { Effect } from '../app/effects';

export interface InvitationContext {
  token: string;
  info: InvitationInfo | null;
  /** The password rule, once its chunk has arrived (until then only the server checks). */
  check: PasswordCheck | null;
  /** The rule's chunk is still on its way (once it came, or failed to, the server alone decides without it). */
  ruleLoading: boolean;
  password: string;
  confirm: string;
  /** A send was tried: empty and unmatched fields are said from then on. */
  tried: boolean;
  /** The server's refusal of the password (its rule's reason), or of the call. */
  refusal: { text: string } | { key: MessageKey } | null;
}

export type InvitationEvent =
  | { type: 'invitation.password'; value: string }
  | { type: 'invitation.confirm'; value: string }
  | { type: 'invitation.submit' }
  | { type: 'invitation.retry' };

export const INVITATION_PASSWORD_ID = 'invitation-password';
export const INVITATION_CONFIRM_ID = 'invitation-confirm';

/** Why a link no longer works (410), by the server's code; null for another failure. */
function goneOf(failure: ApiFailure): 'expired' | 'used' | 'revoked' | 'notFound' | null {
  if (failure.status === 404) return 'notFound';
  if (failure.status !== 410) return null;
  if (failure.code === 'invitation.expired') return 'expired';
  if (failure.code === 'invitation.used') return 'used';
  return 'revoked';
}

/** The rule's reason for the password typed, remembered per visit (zxcvbn takes milliseconds a keystroke). */
const ruleReason = memoPerOwner((_owner: object, check: PasswordCheck | null, password: string, info: InvitationInfo | null) =>
  check && password !== '' ? check(password, { name: info?.name, email: info?.email, school: info?.school }) : null,
);

/** The password's problem as the page says it: the rule's reason, or that it is missing once a send was tried. */
export function passwordProblemOf(context: InvitationContext): { text: string } | { key: MessageKey } | null {
  if (context.refusal && 'text' in context.refusal) return context.refusal;
  if (context.password === '') return context.tried ? { key: 'invitation.required' } : null;
  const reason = ruleReason(context, context.check, context.password, context.info);
  return reason ? { text: reason } : null;
}

/** The confirmation differs: said once it is as long as the password, or once a send was tried. */
export const confirmMismatch = (context: Pick<InvitationContext, 'password' | 'confirm' | 'tried'>): boolean =>
  context.confirm !== context.password && (context.tried || context.confirm.length >= context.password.length) && context.password !== '';

export const invitationMachine = setup({
  types: {
    context: {} as InvitationContext,
    events: {} as InvitationEvent,
    emitted: {} as Effect,
    input: {} as { token: string },
  },
  actors: { fetchInvitation, acceptInvitation, loadPasswordRule },
  actions: {
    assignInfo: assign((_, info: InvitationInfo) => ({ info })),
    assignCheck: assign((_, rule: { reasonFor: PasswordCheck }) => ({ check: rule.reasonFor, ruleLoading: false })),
    markRuleMissing: assign({ ruleLoading: false }),
    assignPassword: assign(({ event }) => {
      assertEvent(event, 'invitation.password');
      return { password: event.value, refusal: null };
    }),
    assignConfirm: assign(({ event }) => {
      assertEvent(event, 'invitation.confirm');
      return { confirm: event.value, refusal: null };
    }),
    markTried: assign({ tried: true }),
    assignRefusal: assign((_, failure: ApiFailure) => {
      const text = failure.fieldErrors.password?.[0];
      return { refusal: text ? { text } : { key: 'invitation.submitFailed' as const } };
    }),
    focusPassword: emit({ type: 'focus', target: INVITATION_PASSWORD_ID }),
    focusFirstProblem: emit(({ context }) => ({
      type: 'focus' as const,
      target: passwordProblemOf(context) || context.password === '' ? INVITATION_PASSWORD_ID : INVITATION_CONFIRM_ID,
    })),
    enter: emit({ type: 'navigate', to: '/inbox', reload: true }),
  },
  guards: {
    isReady: ({ context }) =>
      context.password !== '' && context.password === context.confirm && (context.check === null || passwordProblemOf(context) === null),
    isGone: (_, failure: ApiFailure) => goneOf(failure) !== null,
    isExpired: (_, failure: ApiFailure) => goneOf(failure) === 'expired',
    isUsed: (_, failure: ApiFailure) => goneOf(failure) === 'used',
    isRevoked: (_, failure: ApiFailure) => goneOf(failure) === 'revoked',
    isPasswordRefused: (_, failure: ApiFailure) => failure.status === 422,
  },
}).createMachine({
  id: 'invitation',
  initial: 'loading',
  context: ({ input }) => ({
    token: input.token,
    info: null,
    check: null,
    ruleLoading: true,
    password: '',
    confirm: '',
    tried: false,
    refusal: null,
  }),
  // The rule loads beside everything else; without it the server's answer is the rule.
  invoke: {
    id: 'loadPasswordRule',
    src: 'loadPasswordRule',
    onDone: { actions: { type: 'assignCheck', params: ({ event }) => event.output } },
    onError: { actions: 'markRuleMissing' },
  },
  states: {
    loading: {
      tags: 'busy',
      invoke: {
        id: 'fetchInvitation',
        src: 'fetchInvitation',
        input: ({ context }) => ({ token: context.token }),
        onDone: { target: 'editing', actions: { type: 'assignInfo', params: ({ event }) => event.output } },
        onError: [
          { guard: { type: 'isExpired', params: ({ event }) => toApiFailure(event.error) }, target: 'expired' },
          { guard: { type: 'isUsed', params: ({ event }) => toApiFailure(event.error) }, target: 'used' },
          { guard: { type: 'isRevoked', params: ({ event }) => toApiFailure(event.error) }, target: 'revoked' },
          { guard: { type: 'isGone', params: ({ event }) => toApiFailure(event.error) }, target: 'notFound' },
          { target: 'failed' },
        ],
      },
    },
    // Not read (network, server): said, with Reintentar.
    failed: { on: { 'invitation.retry': { target: 'loading' } } },
    expired: {},
    used: {},
    revoked: {},
    notFound: {},
    editing: {
      on: {
        'invitation.password': { actions: 'assignPassword' },
        'invitation.confirm': { actions: 'assignConfirm' },
        'invitation.submit': [{ guard: 'isReady', target: 'submitting' }, { actions: ['markTried', 'focusFirstProblem'] }],
      },
    },
    submitting: {
      tags: 'busy',
      invoke: {
        id: 'acceptInvitation',
        src: 'acceptInvitation',
        input: ({ context }) => ({ token: context.token, password: context.password }),
        onDone: { target: 'accepted', actions: 'enter' },
        onError: [
          // The link stopped working meanwhile (used in another tab, revoked): that page instead.
          { guard: { type: 'isExpired', params: ({ event }) => toApiFailure(event.error) }, target: 'expired' },
          { guard: { type: 'isUsed', params: ({ event }) => toApiFailure(event.error) }, target: 'used' },
          { guard: { type: 'isRevoked', params: ({ event }) => toApiFailure(event.error) }, target: 'revoked' },
          { guard: { type: 'isGone', params: ({ event }) => toApiFailure(event.error) }, target: 'notFound' },
          // The rule's reason (422), or another failure: everything typed stays.
          {
            target: 'editing',
            actions: [{ type: 'assignRefusal', params: ({ event }) => toApiFailure(event.error) }, 'markTried', 'focusPassword'],
          },
        ],
      },
    },
    // Signed in: the app starts again on the inbox.
    accepted: { type: 'final' },
  },
});

export type InvitationActor = ActorRefFrom<typeof invitationMachine>;
export type InvitationSnapshot = SnapshotFrom<typeof invitationMachine>;

export const selectPhase = (s: InvitationSnapshot): 'loading' | 'failed' | 'expired' | 'used' | 'revoked' | 'notFound' | 'form' =>
  s.matches('editing') || s.matches('submitting') || s.matches('accepted')
    ? 'form'
    : s.matches('loading')
      ? 'loading'
      : s.matches('failed')
        ? 'failed'
        : s.matches('expired')
          ? 'expired'
          : s.matches('used')
            ? 'used'
            : s.matches('revoked')
              ? 'revoked'
              : 'notFound';
export const selectInfo = (s: InvitationSnapshot): InvitationInfo | null => s.context.info;
export const selectPassword = (s: InvitationSnapshot): string => s.context.password;
export const selectConfirm = (s: InvitationSnapshot): string => s.context.confirm;
export const selectIsSubmitting = (s: InvitationSnapshot): boolean => !s.matches('editing') && s.hasTag('busy');
export const selectIsAccepted = (s: InvitationSnapshot): boolean => s.matches('accepted');
/** The password's problem (a reason's text, or a key) as a string the view shows; null when none. */
export const selectPasswordProblemText = (s: InvitationSnapshot): string | null => {
  const problem = passwordProblemOf(s.context);
  return problem && 'text' in problem ? problem.text : null;
};
export const selectPasswordProblemKey = (s: InvitationSnapshot): MessageKey | null => {
  const problem = passwordProblemOf(s.context);
  return problem && 'key' in problem ? problem.key : null;
};
/** A failure that is not the password's (network, server), said beside the button. */
export const selectRefusalKey = (s: InvitationSnapshot): MessageKey | null => {
  const refusal = s.context.refusal;
  return refusal && 'key' in refusal ? refusal.key : null;
};
export const selectConfirmMismatch = (s: InvitationSnapshot): boolean => confirmMismatch(s.context);
/** The rule has passed the password typed (it has loaded, and says nothing against it). */
export const selectPasswordOk = (s: InvitationSnapshot): boolean =>
  s.context.check !== null && s.context.password !== '' && passwordProblemOf(s.context) === null;
