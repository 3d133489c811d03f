// The reception status of one sent message (SPEC §2, §4): who got it on which channel, filtered
// by status (the recipient's, or one channel's: "who did not get the SMS"), searched and paged,
// with "Reintentar fallidos" of the list shown. The channel and the filter live in the address
// (`?channel=sms&status=not_received`): the page starts from it, and every change replaces it, so Back to
// this screen shows the same list. The first load has its own `loading` and
// `failed`; afterwards every reload (filter, search, page, the live refresh, the reload after a retry)
// keeps the rows on screen while the next page loads, and the latest request wins (a new one restarts
// the invoke, which aborts the old request). List failures after the first load are silent (SPEC §8):
// the rows stay, `error` says they may be stale, and the view offers `reception.reload`. The address and the
// filter rules are reception/rules.ts's, what the view reads reception/selectors.ts's.
import { assertEvent, assign, emit, setup, type SnapshotFrom } from 'xstate';
import { toApiFailure, type ApiFailure } from '../../services/http/client';
import { loadReception, retryFailed } from '../../services/reception/reception';
import {
  PROGRESS_POLL_MS,
  READ_FOLLOW_POLL_MS,
  type ReceptionChannel,
  type ReceptionFilter,
  type ReceptionPage,
  type ReceptionRow,
  type ReceptionScope,
  type RetryResult,
} from '../../../shared/reception-contract';
import type { NavigateEvent, ToastEvent } from '../app/effects';
import { isOtherPageOf, isPastLastPage, quotaKeyOf, receptionPath, scopeOf, type ReceptionInput } from './rules';

export type ReceptionMeta = ReceptionPage['meta'];

interface ReceptionContext {
  id: number;
  /** Whose state the filter reads: the recipient's (`all`) or one channel's delivery. */
  channel: ReceptionChannel;
  filter: ReceptionFilter;
  /** The search box's text, as typed. */
  q: string;
  /** The page asked for (the one shown once it arrives). */
  page: number;
  rows: ReceptionRow[];
  /** Counts per filter, progress and paging of the last page that arrived; null before the first. */
  meta: ReceptionMeta | null;
  /** The channel, filter and search of the rows on screen: what "Reintentar fallidos" sends again. */
  shown: ReceptionScope | null;
  /** The last failed call, until the next one succeeds. */
  error: ApiFailure | null;
  /** Which call `error` came from: a failed reload leaves stale rows, a failed retry does not. */
  errorOf: 'load' | 'retry' | null;
  /** Recipients the last "Reintentar fallidos" queued again; null before one succeeded. */
  resent: number | null;
}

type ReceptionEvent =
  | { type: 'reception.channel'; channel: ReceptionChannel }
  | { type: 'reception.filter'; status: ReceptionFilter }
  | { type: 'reception.search'; q: string }
  | { type: 'reception.page'; page: number }
  | { type: 'reception.retry' }
  | { type: 'reception.reload' };

type ReceptionEmitted = ToastEvent | NavigateEvent;

/** The list-changing events: same in `loaded`, `filtering` (restarts the load) and `retried`. */
const listEvents = {
  'reception.channel': { guard: 'isOtherChannel', target: 'filtering', reenter: true, actions: ['assignChannel', 'showInAddress'] },
  'reception.filter': { guard: 'isOtherFilter', target: 'filtering', reenter: true, actions: ['assignFilter', 'showInAddress'] },
  'reception.search': { guard: 'isOtherQuery', target: 'filtering', reenter: true, actions: 'assignQuery' },
  'reception.page': { guard: 'isOtherPage', target: 'filtering', reenter: true, actions: 'assignPage' },
} as const;

/**
 * "Reintentar fallidos" stays available while a reload runs behind the rows (the live refresh,
 * the reload after a retry): a button that turns disabled under a keyboard user's focus loses it. Leaving
 * the state cancels the load; `retried` reloads afterwards anyway.
 */
const retryEvent = { guard: 'hasRetryable', target: 'retrying', actions: 'clearResent' } as const;

const receptionSetup = setup({
  types: {
    input: {} as ReceptionInput,
    context: {} as ReceptionContext,
    events: {} as ReceptionEvent,
    emitted: {} as ReceptionEmitted,
  },
  actors: { loadReception, retryFailed },
  actions: {
    assignChannel: assign(({ event }) => {
      assertEvent(event, 'reception.channel');
      return { channel: event.channel, page: 1 };
    }),
    /** The address follows the list (replaced, so Back leaves the screen rather than undoing a chip). */
    showInAddress: emit(({ context }) => ({
      type: 'navigate' as const,
      to: receptionPath(context.id, context.channel, context.filter),
      replace: true,
    })),
    assignFilter: assign(({ event }) => {
      assertEvent(event, 'reception.filter');
      return { filter: event.status, page: 1 };
    }),
    assignQuery: assign(({ event }) => {
      assertEvent(event, 'reception.search');
      return { q: event.q, page: 1 };
    }),
    assignPage: assign(({ event }) => {
      assertEvent(event, 'reception.page');
      return { page: event.page };
    }),
    assignLastPage: assign((_, page: ReceptionPage) => ({ page: page.meta.last_page })),
    assignRows: assign(({ context }, page: ReceptionPage) => ({
      rows: page.data,
      meta: page.meta,
      // The load that answered asked for the context's (a change restarts it).
      shown: scopeOf(context),
      page: page.meta.current_page,
      error: null,
      errorOf: null,
    })),
    assignError: assign((_, params: { error: ApiFailure; of: 'load' | 'retry' }) => ({ error: params.error, errorOf: params.of })),
    clearResent: assign({ resent: null }),
    /** The retry's own progress shows at once; the rows and their counts follow with the reload. */
    assignResent: assign(({ context }, result: RetryResult) => ({
      resent: result.resent,
      error: null,
      errorOf: null,
      meta: context.meta ? { ...context.meta, progress: result.progress, channels: result.channels, retryable: result.retryable } : null,
    })),
    /** SPEC §4: "reenviado a N destinatarios" (singular for one). */
    toastResent: emit((_, result: RetryResult) => ({
      type: 'toast' as const,
      kind: 'success' as const,
      key: 'reception.resent',
      params: { count: result.resent },
    })),
    toastRetryFailed: emit((_, failure: ApiFailure) => ({
      type: 'toast' as const,
      kind: 'error' as const,
      key: failure.code === 'compose.quota' ? quotaKeyOf(failure) : 'error.request',
    })),
  },
  guards: {
    isOtherChannel: ({ context, event }) => {
      assertEvent(event, 'reception.channel');
      return event.channel !== context.channel;
    },
    isOtherFilter: ({ context, event }) => {
      assertEvent(event, 'reception.filter');
      return event.status !== context.filter;
    },
    isOtherQuery: ({ context, event }) => {
      assertEvent(event, 'reception.search');
      return event.q !== context.q;
    },
    /** A page that exists (by the last page that arrived) and is not the one asked for. */
    isOtherPage: ({ context, event }) => {
      assertEvent(event, 'reception.page');
      return isOtherPageOf(event.page, context.page, context.meta?.last_page ?? 1);
    },
    isPastLastPage: (_, page: ReceptionPage) => isPastLastPage(page),
    /** The list on screen has deliveries a retry would send again. */
    hasRetryable: ({ context }) => (context.meta?.retryable ?? 0) > 0,
    /**
     * The statuses on screen will change: deliveries are still in flight, or some WhatsApp or app delivery
     * received lately may still turn «Leído» (the server counts them, within its window).
     */
    isLive: ({ context }) => context.meta?.progress.state === 'sending' || (context.meta?.awaiting_reads ?? 0) > 0,
  },
  delays: {
    // Receipts take seconds while sending; a read may take an hour, so that wait asks far less often.
    refresh: ({ context }) => (context.meta?.progress.state === 'sending' ? PROGRESS_POLL_MS : READ_FOLLOW_POLL_MS),
  },
});

/**
 * One load of the current filter, search and page (every state that loads is one). The server echoes a page
 * past the last one (the list shrank under the live refresh, e.g. "Pendientes" emptying): that answer is not
 * shown, the last page is asked for instead (`again` re-enters the loading step), else the pager would hide
 * with no way back. A load that failed: the first one to `failed`, a later one back to the rows on screen
 * (`loaded`), now stale.
 */
const loadingPage = (again: 'loading' | 'filtering', failed: 'failed' | 'loaded') =>
  receptionSetup.createStateConfig({
    invoke: {
      id: 'loadReception',
      src: 'loadReception',
      input: ({ context }) => ({ id: context.id, channel: context.channel, status: context.filter, q: context.q, page: context.page }),
      onDone: [
        {
          guard: { type: 'isPastLastPage', params: ({ event }) => event.output },
          target: again,
          reenter: true,
          actions: { type: 'assignLastPage', params: ({ event }) => event.output },
        },
        { target: 'loaded', actions: { type: 'assignRows', params: ({ event }) => event.output } },
      ],
      onError: {
        target: failed,
        actions: { type: 'assignError', params: ({ event }) => ({ error: toApiFailure(event.error), of: 'load' }) },
      },
    },
  });

export const receptionStatusMachine = receptionSetup.createMachine({
  id: 'receptionStatus',
  initial: 'loading',
  context: ({ input }) => ({
    id: input.id,
    channel: input.channel ?? 'all',
    filter: input.status ?? 'all',
    q: '',
    page: 1,
    rows: [],
    meta: null,
    shown: null,
    error: null,
    errorOf: null,
    resent: null,
  }),
  states: {
    loading: loadingPage('loading', 'failed'),
    failed: {
      on: { 'reception.reload': { target: 'loading' } },
    },
    loaded: {
      // Live statuses: while anything is in flight, or a recent receipt may still be read, the page reloads
      // itself (rows stay visible).
      after: { refresh: { guard: 'isLive', target: 'filtering' } },
      on: {
        ...listEvents,
        'reception.reload': { target: 'filtering' },
        'reception.retry': retryEvent,
      },
    },
    filtering: {
      ...loadingPage('filtering', 'loaded'),
      on: { ...listEvents, 'reception.retry': retryEvent },
    },
    // The search box and the chips stay usable: what they ask for is kept, and the reload after the retry
    // (or after its failure) shows it. Paging waits: the pager belongs to the rows on screen.
    retrying: {
      on: {
        'reception.channel': { guard: 'isOtherChannel', actions: ['assignChannel', 'showInAddress'] },
        'reception.filter': { guard: 'isOtherFilter', actions: ['assignFilter', 'showInAddress'] },
        'reception.search': { guard: 'isOtherQuery', actions: 'assignQuery' },
      },
      invoke: {
        id: 'retryFailed',
        src: 'retryFailed',
        // The list the user pressed it for: a chip picked meanwhile does not widen it.
        input: ({ context }) => ({ id: context.id, scope: context.shown ?? scopeOf(context) }),
        onDone: {
          target: 'retried',
          actions: [
            { type: 'assignResent', params: ({ event }) => event.output },
            { type: 'toastResent', params: ({ event }) => event.output },
          ],
        },
        // Reloads too: a filter or search typed meanwhile must not sit over the rows of the old one.
        onError: {
          target: 'filtering',
          actions: [
            { type: 'assignError', params: ({ event }) => ({ error: toApiFailure(event.error), of: 'retry' }) },
            { type: 'toastRetryFailed', params: ({ event }) => toApiFailure(event.error) },
          ],
        },
      },
    },
    // Resent: the current page reloads so the retried rows show as pending again.
    retried: {
      ...loadingPage('filtering', 'loaded'),
      on: { ...listEvents, 'reception.retry': retryEvent },
    },
  },
});

export type ReceptionStatusMachine = typeof receptionStatusMachine;
export type ReceptionStatusSnapshot = SnapshotFrom<ReceptionStatusMachine>;
