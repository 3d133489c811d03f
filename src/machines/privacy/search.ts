// /privacy (the school's administrators): find the person a data request names. Typing waits for a pause,
// then asks the server; a search too short to name anyone clears the results without asking. A new
// keystroke aborts the request under way; a failure keeps the last results, said to be out of date, with
// Reintentar.
import { assertEvent, assign, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { PrivacyMatch } from '../../../shared/privacy-contract';
import { searchPrivacyPeople } from '../../services/privacy/privacy';
import { isSearchable } from './privacy-rules';

export interface PrivacySearchContext {
  q: string;
  /** The last answer, for `answeredQ`; null before the first. */
  matches: PrivacyMatch[] | null;
  answeredQ: string;
}

export type PrivacySearchEvent = { type: 'privacy.search'; q: string } | { type: 'privacy.retry' };

export const PRIVACY_DEBOUNCE_MS = 300;

export const privacySearchMachine = setup({
  types: {
    input: {} as Record<string, never>,
    context: {} as PrivacySearchContext,
    events: {} as PrivacySearchEvent,
  },
  actors: { searchPrivacyPeople },
  delays: { debounce: PRIVACY_DEBOUNCE_MS },
  actions: {
    assignQ: assign(({ event }) => {
      assertEvent(event, 'privacy.search');
      return { q: event.q };
    }),
    assignMatches: assign(({ context }, matches: PrivacyMatch[]) => ({ matches, answeredQ: context.q })),
    clearMatches: assign({ matches: null, answeredQ: '' }),
  },
  guards: {
    isSearchable: ({ event }) => {
      assertEvent(event, 'privacy.search');
      return isSearchable(event.q);
    },
  },
}).createMachine({
  id: 'privacySearch',
  initial: 'idle',
  context: { q: '', matches: null, answeredQ: '' },
  on: {
    'privacy.search': [
      { guard: 'isSearchable', target: '.typing', actions: 'assignQ' },
      { target: '.idle', actions: ['assignQ', 'clearMatches'] },
    ],
  },
  states: {
    idle: {},
    typing: {
      after: { debounce: { target: 'searching' } },
    },
    searching: {
      tags: 'busy',
      invoke: {
        id: 'searchPrivacyPeople',
        src: 'searchPrivacyPeople',
        input: ({ context }) => ({ q: context.q }),
        onDone: { target: 'shown', actions: { type: 'assignMatches', params: ({ event }) => event.output } },
        onError: { target: 'failed' },
      },
    },
    shown: {},
    failed: {
      on: { 'privacy.retry': { target: 'searching' } },
    },
  },
});

export type PrivacySearchActor = ActorRefFrom<typeof privacySearchMachine>;
export type PrivacySearchSnapshot = SnapshotFrom<typeof privacySearchMachine>;

export const selectSearchQ = (s: PrivacySearchSnapshot): string => s.context.q;
export const selectMatches = (s: PrivacySearchSnapshot): PrivacyMatch[] | null => s.context.matches;
export const selectAnsweredQ = (s: PrivacySearchSnapshot): string => s.context.answeredQ;
export const selectSearching = (s: PrivacySearchSnapshot): boolean => s.hasTag('busy') || s.matches('typing');
export const selectSearchFailed = (s: PrivacySearchSnapshot): boolean => s.matches('failed');
