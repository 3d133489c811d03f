// The families' app's root: whether this device is signed in, and the sign-in by SMS code. It starts by
// reading the session the device kept (services/family/device.ts); without one, the guardian types the
// phone, asks for the code («Enviar código»), types the six digits and is signed in. The form is checked
// lightly before any paid SMS is asked for (session-rules.ts); what the server refuses (a wrong or expired
// code, too many tries) is said in its own Spanish words. «Cerrar sesión» revokes the token and forgets it;
// a screen whose call is refused with 401 sends `session.expired`, which does the same.
import { assertEvent, assign, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { Locale } from '../../../shared/contract';
import type { FamilySession } from '../../../shared/family-contract';
import { askCode, signIn, toFamilyFailure } from '../../services/family/api';
import { restoreSession } from '../../services/family/device';
import { signOut } from '../../services/family/sign-out';
import {
  cleanCode,
  cleanPhone,
  codeProblem,
  phoneProblem,
  signInFailureOf,
  type CodeProblem,
  type PhoneProblem,
  type SignInFailure,
} from './session-rules';

interface SessionContext {
  /** The locale before sign-in (the browser's); the school's afterwards. */
  preferredLocale: Locale;
  phone: string;
  code: string;
  /** Shown once the form was sent with it. */
  phoneProblem: PhoneProblem | null;
  codeProblem: CodeProblem | null;
  failure: SignInFailure | null;
  session: FamilySession | null;
}

type SessionEvent =
  | { type: 'phone.change'; phone: string }
  | { type: 'phone.edit' }
  | { type: 'code.request' }
  | { type: 'code.change'; code: string }
  | { type: 'code.submit' }
  | { type: 'code.resend' }
  | { type: 'session.signOut' }
  | { type: 'session.expired' }
  | { type: 'session.ended' };

export const familySessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    input: {} as { preferredLocale: Locale },
  },
  actors: { restoreSession, askCode, signIn, signOut },
  actions: {
    changePhone: assign(({ event }) => {
      assertEvent(event, 'phone.change');
      return { phone: event.phone, phoneProblem: null, failure: null };
    }),
    changeCode: assign(({ event }) => {
      assertEvent(event, 'code.change');
      return { code: event.code, codeProblem: null, failure: null };
    }),
    showPhoneProblem: assign(({ context }) => ({ phoneProblem: phoneProblem(context.phone) })),
    showCodeProblem: assign(({ context }) => ({ codeProblem: codeProblem(context.code) })),
    clearFailure: assign({ failure: null }),
    clearCode: assign({ code: '', codeProblem: null }),
    assignFailure: assign((_, failure: SignInFailure) => ({ failure })),
    assignSession: assign((_, session: FamilySession | null) => ({ session })),
    forget: assign({ session: null, code: '', failure: null }),
  },
  guards: {
    hasKeptSession: (_, session: FamilySession | null) => session !== null,
    isPhoneValid: ({ context }) => phoneProblem(context.phone) === null,
    isCodeComplete: ({ context }) => codeProblem(context.code) === null,
  },
}).createMachine({
  id: 'familySession',
  initial: 'restoring',
  context: ({ input }) => ({
    preferredLocale: input.preferredLocale,
    phone: '',
    code: '',
    phoneProblem: null,
    codeProblem: null,
    failure: null,
    session: null,
  }),
  states: {
    restoring: {
      tags: 'busy',
      invoke: {
        id: 'restoreSession',
        src: 'restoreSession',
        onDone: [
          {
            guard: { type: 'hasKeptSession', params: ({ event }) => event.output },
            target: 'signedIn',
            actions: { type: 'assignSession', params: ({ event }) => event.output },
          },
          { target: 'signedOut' },
        ],
        onError: { target: 'signedOut' },
      },
    },
    signedOut: {
      initial: 'phone',
      states: {
        phone: {
          on: {
            'phone.change': { actions: 'changePhone' },
            'code.request': [{ guard: 'isPhoneValid', target: 'requesting', actions: 'clearFailure' }, { actions: 'showPhoneProblem' }],
          },
        },
        requesting: {
          tags: 'busy',
          invoke: {
            id: 'askCode',
            src: 'askCode',
            input: ({ context }) => ({ phone: cleanPhone(context.phone) }),
            onDone: { target: 'code', actions: 'clearCode' },
            onError: {
              target: 'phone',
              actions: { type: 'assignFailure', params: ({ event }) => signInFailureOf(toFamilyFailure(event.error)) },
            },
          },
        },
        code: {
          on: {
            'code.change': { actions: 'changeCode' },
            'code.submit': [{ guard: 'isCodeComplete', target: 'verifying', actions: 'clearFailure' }, { actions: 'showCodeProblem' }],
            'code.resend': { target: 'requesting', actions: 'clearFailure' },
            'phone.edit': { target: 'phone', actions: ['clearCode', 'clearFailure'] },
          },
        },
        verifying: {
          tags: 'busy',
          invoke: {
            id: 'signIn',
            src: 'signIn',
            input: ({ context }) => ({ phone: cleanPhone(context.phone), code: cleanCode(context.code) }),
            onDone: {
              target: '#familySession.signedIn',
              actions: [{ type: 'assignSession', params: ({ event }) => event.output }, 'clearCode'],
            },
            // A wrong code is typed again from the start.
            onError: {
              target: 'code',
              actions: ['clearCode', { type: 'assignFailure', params: ({ event }) => signInFailureOf(toFamilyFailure(event.error)) }],
            },
          },
        },
      },
    },
    signedIn: {
      on: {
        'session.signOut': { target: 'signingOut' },
        'session.expired': { target: 'signingOut' },
        // «No es mi teléfono» (not-my-phone.ts) ended every session on the server and forgot this device's.
        'session.ended': { target: 'signedOut', actions: 'forget' },
      },
    },
    signingOut: {
      tags: 'busy',
      invoke: {
        id: 'signOut',
        src: 'signOut',
        input: ({ context }) => ({ token: context.session?.token ?? '' }),
        onDone: { target: 'signedOut', actions: 'forget' },
        // signOut forgets the device's copy whatever the server says; it cannot fail, but a crash must not sign in.
        onError: { target: 'signedOut', actions: 'forget' },
      },
    },
  },
});

export type FamilySessionActor = ActorRefFrom<typeof familySessionMachine>;
type FamilySessionSnapshot = SnapshotFrom<typeof familySessionMachine>;

/** Which screen the app shows. */
type SessionScreen = 'restoring' | 'phone' | 'code' | 'signedIn';

export function selectScreen(s: FamilySessionSnapshot): SessionScreen {
  if (s.matches('restoring')) return 'restoring';
  if (s.matches('signedIn') || s.matches('signingOut')) return 'signedIn';
  if (s.matches({ signedOut: 'code' }) || s.matches({ signedOut: 'verifying' })) return 'code';
  return 'phone';
}
export const selectIsBusy = (s: FamilySessionSnapshot): boolean => s.hasTag('busy');
export const selectPhone = (s: FamilySessionSnapshot): string => s.context.phone;
export const selectCode = (s: FamilySessionSnapshot): string => s.context.code;
export const selectPhoneProblem = (s: FamilySessionSnapshot): PhoneProblem | null => s.context.phoneProblem;
export const selectCodeProblem = (s: FamilySessionSnapshot): CodeProblem | null => s.context.codeProblem;
export const selectFailureKind = (s: FamilySessionSnapshot): SignInFailure['kind'] | null => s.context.failure?.kind ?? null;
export const selectFailureMessage = (s: FamilySessionSnapshot): string =>
  s.context.failure?.kind === 'server' ? s.context.failure.message : '';
export const selectToken = (s: FamilySessionSnapshot): string | null => s.context.session?.token ?? null;
export const selectGuardianName = (s: FamilySessionSnapshot): string => s.context.session?.guardian.name ?? '';
/** Every school of the session (one phone may be a guardian in several), the signed-in one first. */
export const selectSchoolName = (s: FamilySessionSnapshot): string =>
  s.context.session?.guardian.schools.map((school) => school.name).join(' · ') ?? '';
export const selectLocale = (s: FamilySessionSnapshot): Locale => s.context.session?.guardian.school.locale ?? s.context.preferredLocale;
