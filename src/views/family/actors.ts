// The families' app's one app-lifetime actor, created once at module level (never inside a component).
import { createActor } from 'xstate';
import { browserLocale } from '../../i18n/family';
import { familySessionMachine } from '../../machines/family/session';

export const familySession = createActor(familySessionMachine, {
  input: { preferredLocale: browserLocale(typeof navigator === 'undefined' ? [] : navigator.languages) },
});
