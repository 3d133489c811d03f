// «Cambiar contraseña» from the account menu (decision 0168): a dialog with the current password, the new one
// and its confirmation. The new one meets the shared rule (its reason shown while typing once the rule's chunk
// has arrived, the server's answer counting); a wrong current password is the server's to say (it counts
// against the login limit). Changed, the user's other sessions have ended and this one stays: the dialog
// closes and a toast says so. It cannot be closed while the change is under way.
import { assertEvent, assign, emit, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { PasswordOwner } from '../../../shared/password-rules';
import { changePassword, loadPasswordRule, type PasswordRule } from '../../services/passwords/passwords';
import { toApiFailure, type ApiFailure } from '../../services/http/client';
import type { Effect } from '../app/effects';
import { failureOf, refusalOf, type Failure } from './rules';

export const CHANGE_CURRENT_ID = 'change-current-password';
export const CHANGE_PASSWORD_ID = 'change-new-password';
export const CHANGE_CONFIRMATION_ID = 'change-confirmation';

export type ChangeField = 'current' | 'password' | 'confirmation';

interface ChangeContext {
  owner: PasswordOwner;
  current: string;
  password: string;
  confirmation: string;
  rule: PasswordRule | null;
  submitted: boolean;
  /** The server's reasons, per field. */
  currentRefusal: string | null;
  passwordRefusal: string | null;
  failure: Failure | null;
}

type ChangeEvent =
  | { type: 'password.open'; owner: PasswordOwner }
  | { type: 'password.close' }
  | { type: 'password.change'; field: ChangeField; value: string }
  | { type: 'password.submit' };

const EMPTY_FORM = {
  current: '',
  password: '',
  confirmation: '',
  submitted: false,
  currentRefusal: null,
  passwordRefusal: null,
  failure: null,
} as const;

/** The rule's reason for the new password as typed, when the rule has arrived and something is typed. */
export function changeRuleReason(context: Pick<ChangeContext, 'rule' | 'password' | 'owner'>): string | null {
  return context.rule && context.password !== '' ? context.rule.reasonFor(context.password, context.owner) : null;
}

export const changePasswordMachine = setup({
  types: {
    context: {} as ChangeContext,
    events: {} as ChangeEvent,
    emitted: {} as Effect,
  },
  actors: { changePassword, loadPasswordRule },
  actions: {
    open: assign(({ event }) => {
      assertEvent(event, 'password.open');
      return { ...EMPTY_FORM, owner: event.owner };
    }),
    clearForm: assign(EMPTY_FORM),
    assignRule: assign((_, params: { rule: PasswordRule }) => ({ rule: params.rule })),
    change: assign(({ event }) => {
      assertEvent(event, 'password.change');
      if (event.field === 'current') return { current: event.value, currentRefusal: null, failure: null };
      if (event.field === 'password') return { password: event.value, passwordRefusal: null, failure: null };
      return { confirmation: event.value, failure: null };
    }),
    markSubmitted: assign({ submitted: true, failure: null }),
    assignRefusals: assign((_, failure: ApiFailure) => ({
      currentRefusal: refusalOf(failure, 'current_password'),
      passwordRefusal: refusalOf(failure, 'password'),
    })),
    // Each answer replaces what the previous one said of the fields.
    assignFailure: assign((_, failure: ApiFailure) => ({ failure: failureOf(failure), currentRefusal: null, passwordRefusal: null })),
    focusCurrent: emit({ type: 'focus', target: CHANGE_CURRENT_ID }),
    focusPassword: emit({ type: 'focus', target: CHANGE_PASSWORD_ID }),
    focusConfirmation: emit({ type: 'focus', target: CHANGE_CONFIRMATION_ID }),
    toastChanged: emit({ type: 'toast', kind: 'success', key: 'passwords.change.done' }),
  },
  guards: {
    isCurrentMissing: ({ context }) => context.current === '',
    isPasswordInvalid: ({ context }) => context.password === '' || changeRuleReason(context) !== null,
    isConfirmationWrong: ({ context }) => context.password !== context.confirmation,
    isCurrentRefused: (_, failure: ApiFailure) => refusalOf(failure, 'current_password') !== null,
    isPasswordRefused: (_, failure: ApiFailure) => refusalOf(failure, 'password') !== null,
  },
}).createMachine({
  id: 'changePassword',
  initial: 'closed',
  context: { owner: {}, rule: null, ...EMPTY_FORM },
  states: {
    closed: {
      on: { 'password.open': { target: 'open', actions: 'open' } },
    },
    // The rule's chunk arriving (at once after the first time; if it never does, only the server checks) beside the form.
    open: {
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
                'password.change': { actions: 'change' },
                'password.submit': [
                  { guard: 'isCurrentMissing', actions: ['markSubmitted', 'focusCurrent'] },
                  { guard: 'isPasswordInvalid', actions: ['markSubmitted', 'focusPassword'] },
                  { guard: 'isConfirmationWrong', actions: ['markSubmitted', 'focusConfirmation'] },
                  { target: 'saving', actions: 'markSubmitted' },
                ],
                'password.close': { target: '#changePassword.closed', actions: 'clearForm' },
              },
            },
            saving: {
              tags: 'busy',
              invoke: {
                id: 'changePassword',
                src: 'changePassword',
                input: ({ context }) => ({ current: context.current, password: context.password }),
                onDone: { target: '#changePassword.closed', actions: ['clearForm', 'toastChanged'] },
                onError: [
                  {
                    guard: { type: 'isCurrentRefused', params: ({ event }) => toApiFailure(event.error) },
                    target: 'editing',
                    actions: [{ type: 'assignRefusals', params: ({ event }) => toApiFailure(event.error) }, 'focusCurrent'],
                  },
                  {
                    guard: { type: 'isPasswordRefused', params: ({ event }) => toApiFailure(event.error) },
                    target: 'editing',
                    actions: [{ type: 'assignRefusals', params: ({ event }) => toApiFailure(event.error) }, 'focusPassword'],
                  },
                  { target: 'editing', actions: { type: 'assignFailure', params: ({ event }) => toApiFailure(event.error) } },
                ],
              },
            },
          },
        },
      },
    },
  },
});

export type ChangePasswordActor = ActorRefFrom<typeof changePasswordMachine>;
type ChangePasswordSnapshot = SnapshotFrom<typeof changePasswordMachine>;

export const selectIsOpen = (s: ChangePasswordSnapshot): boolean => s.matches('open');
export const selectIsChanging = (s: ChangePasswordSnapshot): boolean => s.hasTag('busy');
export const selectCurrent = (s: ChangePasswordSnapshot): string => s.context.current;
export const selectNewPassword = (s: ChangePasswordSnapshot): string => s.context.password;
export const selectNewConfirmation = (s: ChangePasswordSnapshot): string => s.context.confirmation;
export const selectCurrentMissing = (s: ChangePasswordSnapshot): boolean => s.context.submitted && s.context.current === '';
export const selectCurrentRefusal = (s: ChangePasswordSnapshot): string | null => s.context.currentRefusal;
export const selectNewPasswordReason = (s: ChangePasswordSnapshot): string | null =>
  s.context.passwordRefusal ?? changeRuleReason(s.context);
export const selectNewPasswordMissing = (s: ChangePasswordSnapshot): boolean => s.context.submitted && s.context.password === '';
export const selectChangeConfirmationWrong = (s: ChangePasswordSnapshot): boolean =>
  (s.context.confirmation !== '' || s.context.submitted) && s.context.password !== '' && s.context.password !== s.context.confirmation;
export const selectChangeFailure = (s: ChangePasswordSnapshot): Failure | null => s.context.failure;
