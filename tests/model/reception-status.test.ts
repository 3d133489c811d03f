import { createActor, fromPromise, type AnyMachineSnapshot, type AnyEventObject } from 'xstate';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { receptionStatusMachine, type ReceptionStatusSnapshot } from '../../src/machines/reception/status';
import { receptionInputOf, receptionPath, type ReceptionInput } from '../../src/machines/reception/rules';
import type { ReceptionQuery } from '../../src/services/reception/reception';
import {
  selectCanRetry,
  selectChannel,
  selectChannels,
  selectCurrentPage,
  selectFilter,
  selectIsFailed,
  selectIsLoading,
  selectIsNotFound,
  selectIsPartial,
  selectIsRefreshing,
  selectIsRetrying,
  selectIsStale,
  selectLastPage,
  selectNextPage,
  selectPreviousPage,
  selectProgress,
  selectQuery,
  selectResent,
  selectRetryable,
  selectRows,
  selectShownChannel,
} from '../../src/machines/reception/selectors';
import {
  PROGRESS_POLL_MS,
  type ChannelProgress,
  type DeliveryProgress,
  type ReceptionChannel,
  type ReceptionFilter,
  type ReceptionPage,
  type RetryResult,
} from '../../shared/reception-contract';
import { defineModelTests, elapse, send, settle, type OracleEnv, type StepEnv } from './harness';
import { failure } from './fixtures';
import { channelDelivery, countsOf, deliveryProgress, receptionPage, receptionRow } from '../fixtures/reception';

const rs = (snapshot: AnyMachineSnapshot) => snapshot as unknown as ReceptionStatusSnapshot;

const ID = 7;

/** Two received and one read; two more queued while sending; `retryable` failed ones (the retry resends them). */
const progress = (state: DeliveryProgress['state'], retryable: number): DeliveryProgress =>
  deliveryProgress({ queued: state === 'sending' ? 2 : 0, received: 2, read: 1, failed: retryable, state });

/** Page 1 of 2 while deliveries are in flight (two failed can be retried). */
const SENDING_P1 = receptionPage([receptionRow(1, 'pending'), receptionRow(2, 'failed')], progress('sending', 2), { last: 2 });
/** Page 2 of 2, everything settled, one failure left. */
const PARTIAL_P2 = receptionPage([receptionRow(3, 'failed')], progress('partially_failed', 1), { current: 2, last: 2 });
/** One page, all delivered: nothing to retry, nothing to refresh. */
const DONE_P1 = receptionPage([], progress('sent', 0));
/**
 * The server echoes a page past the last one (the list shrank under the live refresh): page 3 asked,
 * two pages left. The machine asks for page 2 instead of showing an empty page with no pager.
 */
const PAST_P3 = receptionPage([], progress('sent', 0), { current: 3, last: 2 });
/** A last page of 0 is not "past" (nothing to go back to): shown as it came. */
const NO_PAGES = receptionPage([], progress('sent', 0), { last: 0 });
/**
 * Who missed the SMS: e-mail + SMS, every e-mail arrived, three SMS did not. By person (the best of their channels)
 * nobody missed it; the SMS list's chips are the SMS summary, and its retry sends those three again.
 */
const EMAIL_ALL = deliveryProgress({ received: 5 });
const SMS_LOST = deliveryProgress({ received: 2, not_received: 3 });
const BY_CHANNEL: ChannelProgress[] = [
  { channel: 'e-mail', progress: EMAIL_ALL },
  { channel: 'sms', progress: SMS_LOST },
];
const lostSms = (id: number) =>
  receptionRow(id, 'received', {
    channels: [channelDelivery('e-mail', 'received'), channelDelivery('sms', 'not_received', { error: 'undelivered' })],
  });
const SMS_LIST = receptionPage([lostSms(4), lostSms(5), lostSms(6)], deliveryProgress({ received: 7, not_received: 3 }), {
  channels: BY_CHANNEL,
  counts: countsOf(SMS_LOST),
  retryable: 3,
});
/**
 * Every delivery settled, two WhatsApp or app ones received lately and not read yet: the screen keeps asking,
 * gently, for their «Leído».
 */
const READING_P1 = receptionPage([receptionRow(8, 'received')], progress('sent', 0), { awaitingReads: 2 });
const OUTPUTS = [SENDING_P1, PARTIAL_P2, DONE_P1, PAST_P3, NO_PAGES, READING_P1];
/** The page follows its statuses: something in flight, or a recent receipt that may still be read. */
const isLiveMeta = (meta: ReceptionPage['meta'] | null) => meta?.progress.state === 'sending' || (meta?.awaiting_reads ?? 0) > 0;
const isPast = (output: ReceptionPage) => output.meta.last_page >= 1 && output.meta.current_page > output.meta.last_page;

const RESENT_ONE: RetryResult = { resent: 1, progress: progress('sending', 0), channels: [], retryable: 0 };
const RESENT_TWO: RetryResult = { resent: 2, progress: progress('sending', 0), channels: [], retryable: 0 };
/** One delivery still failed and retryable while the resent ones are in flight. */
const RESENT_SOME: RetryResult = { resent: 1, progress: progress('sending', 1), channels: [], retryable: 1 };
/** The SMS list's three resent: the SMS summary shows them queued at once. */
const RESENT_SMS: RetryResult = {
  resent: 3,
  progress: deliveryProgress({ received: 7, queued: 3 }),
  channels: [BY_CHANNEL[0]!, { channel: 'sms', progress: deliveryProgress({ received: 2, queued: 3 }) }],
  retryable: 0,
};
const QUOTA = failure(409, 'compose.quota', 'Cupo mensual de SMS excedido', { quota: ['sms.quota_exceeded'] });
const DOWN = failure(500, 'server.error');
const GONE = failure(404, 'not_found', 'No encontrado');

const EVENTS: AnyEventObject[] = [
  { type: 'reception.filter', status: 'failed' },
  { type: 'reception.filter', status: 'all' },
  { type: 'reception.search', q: 'ana' },
  { type: 'reception.page', page: 2 },
  { type: 'reception.page', page: 9 },
  { type: 'reception.retry' },
  { type: 'reception.reload' },
];

/**
 * Whether a list event asks for another list, in the test's words: another channel, filter or search, or a
 * page that exists by the last page that arrived (one before any) and is not the one asked for.
 */
function asksAnotherList(event: AnyEventObject, context: ReceptionStatusSnapshot['context']): boolean {
  switch (event.type) {
    case 'reception.channel':
      return event.channel !== context.channel;
    case 'reception.filter':
      return event.status !== context.filter;
    case 'reception.search':
      return event.q !== context.q;
    case 'reception.page': {
      const page = event.page as number;
      return Number.isInteger(page) && page >= 1 && page <= (context.meta?.last_page ?? 1) && page !== context.page;
    }
    default:
      return false;
  }
}
/** "Reintentar fallidos" has something to send: the list on screen has retryable deliveries. */
const hasRetryable = (context: ReceptionStatusSnapshot['context']) => (context.meta?.retryable ?? 0) > 0;

type Ctx = ReceptionStatusSnapshot['context'];
type Here = OracleEnv<AnyEventObject, Ctx>;
/** Over the rows on screen, a list event reloads behind them (a reload under way starts again). */
const reloadsFor = ({ event, context, stay }: Here) => (asksAnotherList(event, context) ? 'filtering' : stay);
const retriesIfAny = ({ context, stay }: Here) => (hasRetryable(context) ? 'retrying' : stay);
/** A page answered past the last one is not shown: the last page is asked for again, in the same step. */
const answerBehindRows = ({ event }: { event: { output: ReceptionPage } }) => (isPast(event.output) ? 'filtering' : 'loaded');
const OVER_ROWS = {
  'reception.channel': reloadsFor,
  'reception.filter': reloadsFor,
  'reception.search': reloadsFor,
  'reception.page': reloadsFor,
  'reception.retry': retriesIfAny,
} as const;

const outcomeOf = (event: AnyEventObject) => /^xstate\.(done|error)\.actor\.(.+)$/.exec(event.type);
/** A load answered with a page past the last one. */
const pastAnswer = (event: AnyEventObject) =>
  event.type === 'xstate.done.actor.loadReception' ? isPast(event.output as ReceptionPage) : false;
const metaTag = (snapshot: AnyMachineSnapshot) => {
  const meta = (snapshot.context as ReceptionStatusSnapshot['context']).meta;
  return meta ? `${meta.current_page}/${meta.last_page}/${meta.progress.state}/${meta.progress.retryable}/${meta.awaiting_reads}` : null;
};

/** The screen's address for a channel and a filter, written out (the oracle of the `navigate` effect). */
function addressOf(channel: ReceptionChannel, status: ReceptionFilter): string {
  const query = [channel !== 'all' && `channel=${channel}`, status !== 'all' && `status=${status}`].filter(Boolean).join('&');
  return `/sent/message/${ID}/reception${query ? `?${query}` : ''}`;
}

/**
 * Only `id` runs (or nothing); a load asks for exactly the channel, filter, search and page in context; a
 * retry for the list on screen (the one its count was of), whatever was picked since.
 */
function expectRunning(snapshot: AnyMachineSnapshot, env: StepEnv, id: 'loadReception' | 'retryFailed' | null) {
  expect(env.fakes.isRunning('loadReception'), 'loadReception running').toBe(id === 'loadReception');
  expect(env.fakes.isRunning('retryFailed'), 'retryFailed running').toBe(id === 'retryFailed');
  const { context } = rs(snapshot);
  if (id === 'loadReception') {
    expect(env.fakes.inputOf(id)).toEqual({ id: ID, channel: context.channel, status: context.filter, q: context.q, page: context.page });
  }
  if (id === 'retryFailed') {
    expect(context.shown).not.toBeNull();
    expect(env.fakes.inputOf(id)).toEqual({ id: ID, scope: context.shown });
  }
}

/**
 * What a list event asked for is in context (page 1 again after a filter or a search); the same filter,
 * the same search or a page that does not exist (by the last page that arrived) changes nothing.
 */
function expectAsked(snapshot: AnyMachineSnapshot, env: StepEnv) {
  const { event } = env;
  const before = env.from.context as ReceptionStatusSnapshot['context'];
  const last = before.meta?.last_page ?? 1;
  const taken =
    (event.type === 'reception.channel' && event.channel !== before.channel) ||
    (event.type === 'reception.filter' && event.status !== before.filter) ||
    (event.type === 'reception.search' && event.q !== before.q) ||
    (event.type === 'reception.page' && (event.page as number) <= last && event.page !== before.page);
  if (event.type.startsWith('reception.') && !taken) {
    expect(snapshot.context).toEqual(before);
    return;
  }
  if (event.type === 'reception.channel') {
    // The state filter stays: "No recibidos" of every channel becomes "No recibidos" of the SMS.
    expect(selectChannel(rs(snapshot))).toBe(event.channel);
    expect(selectFilter(rs(snapshot))).toBe(before.filter);
    expect(snapshot.context.page).toBe(1);
  }
  if (event.type === 'reception.filter') {
    expect(selectFilter(rs(snapshot))).toBe(event.status);
    expect(selectChannel(rs(snapshot))).toBe(before.channel);
    expect(snapshot.context.page).toBe(1);
  }
  if (event.type === 'reception.search') {
    expect(selectQuery(rs(snapshot))).toBe(event.q);
    expect(snapshot.context.page).toBe(1);
  }
  if (event.type === 'reception.page') expect(snapshot.context.page).toBe(event.page);
}

/** While a reload runs, the rows, counts and progress of the last page stay on screen. */
function expectRowsKept(snapshot: AnyMachineSnapshot, env: StepEnv) {
  if (outcomeOf(env.event)?.[1] === 'done' && !pastAnswer(env.event)) return;
  expect(selectRows(rs(snapshot))).toEqual(env.from.context.rows);
}

/** The list a page's answer is of: what the load asked for. */
const expectShown = (snapshot: AnyMachineSnapshot) => {
  const { context } = rs(snapshot);
  expect(context.shown).toEqual({ channel: context.channel, status: context.filter, q: context.q });
  expect(selectShownChannel(rs(snapshot))).toBe(context.channel);
  expect(selectIsPartial(rs(snapshot))).toBe(context.channel !== 'all' || context.filter !== 'all' || context.q !== '');
};

/** Opened from `?channel=sms&status=not_received` (Back to the list of who missed the SMS). */
const FROM_ADDRESS: ReceptionInput = receptionInputOf(ID, '?channel=sms&status=not_received');

/**
 * Who missed the SMS, as a teacher finds them: pick SMS, then "No recibidos" (or come Back to that address), retry
 * those, pick every channel again. Its own events and answers, so the product with the paging and
 * failure cases above stays small: a retry here runs for the list on screen and names it.
 */
const CHANNEL_TRAVERSAL = {
  events: [
    { type: 'reception.channel', channel: 'sms' },
    { type: 'reception.channel', channel: 'all' },
    { type: 'reception.filter', status: 'not_received' },
    { type: 'reception.search', q: 'ana' },
    { type: 'reception.retry' },
  ],
  internal: [
    { type: 'xstate.done.actor.loadReception', output: SMS_LIST },
    { type: 'xstate.error.actor.loadReception', error: DOWN },
    { type: 'xstate.done.actor.retryFailed', output: RESENT_SMS },
    { type: 'xstate.error.actor.retryFailed', error: DOWN },
    { type: 'xstate.after.refresh.receptionStatus.loaded' },
  ],
  serializeState: (snapshot: AnyMachineSnapshot) => {
    const { context } = rs(snapshot);
    return JSON.stringify([
      snapshot.value,
      metaTag(snapshot),
      context.channel,
      context.filter,
      context.q !== '',
      context.shown,
      snapshot.matches('failed') ? context.error?.status : null,
    ]);
  },
  limit: 3000,
};

defineModelTests({
  name: 'reception-status',
  machine: receptionStatusMachine,
  // The header, SPEC §2, §4 and §8, decision 0058: the first load has its own skeleton and failure (Reintentar);
  // afterwards every reload (a channel, filter, search or page asked, Actualizar, the live refresh while
  // deliveries are in flight, the reload after a retry) runs behind the rows on screen and falls back to
  // them silently. "Reintentar fallidos" resends the list on screen when it has something to resend; the
  // chips and the search stay usable meanwhile (the reload after it shows them), the pager waits.
  oracle: {
    initial: 'loading',
    targets: {
      loading: {
        'xstate.done.actor.loadReception': ({ event }) => (isPast(event.output) ? 'loading' : 'loaded'),
        'xstate.error.actor.loadReception': 'failed',
      },
      failed: { 'reception.reload': 'loading' },
      loaded: {
        ...OVER_ROWS,
        'reception.reload': 'filtering',
        'xstate.after.refresh.receptionStatus.loaded': ({ context, stay }) => (isLiveMeta(context.meta) ? 'filtering' : stay),
      },
      filtering: {
        ...OVER_ROWS,
        'xstate.done.actor.loadReception': answerBehindRows,
        'xstate.error.actor.loadReception': 'loaded',
      },
      retrying: { 'xstate.done.actor.retryFailed': 'retried', 'xstate.error.actor.retryFailed': 'filtering' },
      retried: {
        ...OVER_ROWS,
        'xstate.done.actor.loadReception': answerBehindRows,
        'xstate.error.actor.loadReception': 'loaded',
      },
    },
  },
  variants: [
    { name: 'every channel', traversal: {} },
    { name: 'who missed the SMS', traversal: CHANNEL_TRAVERSAL },
    { name: 'from ?channel=sms&status=not_received', traversal: { ...CHANNEL_TRAVERSAL, input: FROM_ADDRESS } },
  ],
  traversal: {
    input: { id: ID },
    events: EVENTS,
    internal: [
      ...OUTPUTS.map((output) => ({ type: 'xstate.done.actor.loadReception', output })),
      { type: 'xstate.error.actor.loadReception', error: DOWN },
      { type: 'xstate.error.actor.loadReception', error: GONE },
      { type: 'xstate.done.actor.retryFailed', output: RESENT_ONE },
      { type: 'xstate.done.actor.retryFailed', output: RESENT_TWO },
      { type: 'xstate.done.actor.retryFailed', output: RESENT_SOME },
      { type: 'xstate.done.actor.retryFailed', output: RESENT_SMS },
      { type: 'xstate.error.actor.retryFailed', error: QUOTA },
      { type: 'xstate.error.actor.retryFailed', error: DOWN },
      { type: 'xstate.after.refresh.receptionStatus.loaded' },
    ],
    serializeState: (snapshot) =>
      JSON.stringify([
        snapshot.value,
        metaTag(snapshot),
        snapshot.context.channel,
        snapshot.context.filter,
        snapshot.context.q !== '',
        snapshot.context.shown?.channel ?? null,
        snapshot.matches('failed') ? snapshot.context.error?.status : null,
      ]),
    limit: 2000,
  },
  createActor: ({ fakes, path, machine }) =>
    createActor(machine.provide({ actors: { loadReception: fakes.promise(), retryFailed: fakes.promise() } }), {
      input: path.input as ReceptionInput,
    }),
  states: {
    loading: (snapshot, env) => {
      expect(selectIsLoading(rs(snapshot))).toBe(true);
      expect(selectRows(rs(snapshot))).toEqual([]);
      expect(snapshot.context.meta).toBeNull();
      expect(snapshot.context.id).toBe(ID);
      expectRunning(snapshot, env, 'loadReception');
      // A reload from `failed` asks for the same page as the first time; an answer past the last page
      // asks for the last page instead.
      const past = pastAnswer(env.event);
      expect(env.event.type === 'xstate.done.actor.loadReception').toBe(past);
      const page = past ? (env.event.output as ReceptionPage).meta.last_page : (env.from?.context.page ?? 1);
      // The channel and the filter of the address it was opened with.
      const input = env.to.context as ReceptionStatusSnapshot['context'];
      const opened = input.channel === 'all' ? { channel: 'all', filter: 'all' } : { channel: 'sms', filter: 'not_received' };
      expect(snapshot.context).toMatchObject({ ...opened, q: '', page, meta: null, shown: null });
      // Reintentar, or a page past the last, asks once (again); nothing else starts a load meanwhile.
      if (env.event.type !== 'xstate.init')
        expect(env.started, 'loads started').toEqual(env.from.matches('loading') && !past ? [] : ['loadReception']);
    },
    failed: (snapshot, env) => {
      // A 404 (not the user's message, or gone) is the not-found page, not a failure a reload fixes.
      const status = (env.event.error as { status: number } | undefined)?.status ?? env.from.context.error?.status;
      expect([404, 500]).toContain(status);
      expect(selectIsFailed(rs(snapshot))).toBe(status === 500);
      expect(selectIsNotFound(rs(snapshot))).toBe(status === 404);
      expect(snapshot.context.error).toMatchObject(
        status === 404 ? { status: 404, code: 'not_found' } : { status: 500, code: 'server.error' },
      );
      expect(snapshot.context.errorOf).toBe('load');
      expect(selectIsStale(rs(snapshot))).toBe(false);
      expect(selectCanRetry(rs(snapshot))).toBe(false);
      expectRunning(snapshot, env, null);
    },
    loaded: (snapshot, env) => {
      expectRunning(snapshot, env, null);
      expect(selectIsRefreshing(rs(snapshot))).toBe(false);
      const outcome = outcomeOf(env.event);
      expect(selectIsNotFound(rs(snapshot))).toBe(false);
      if (outcome?.[1] === 'done' && outcome[2] === 'loadReception') {
        const output = env.event.output as ReceptionPage;
        // Never shown: a page past the last one.
        expect(isPast(output)).toBe(false);
        expect(selectRows(rs(snapshot))).toEqual(output.data);
        expect(selectProgress(rs(snapshot))).toEqual(output.meta.progress);
        expect(selectCurrentPage(rs(snapshot))).toBe(output.meta.current_page);
        expect(selectLastPage(rs(snapshot))).toBe(output.meta.last_page);
        // The pages "Anterior" and "Siguiente" go to, none at either end.
        const { current_page: current, last_page: last } = output.meta;
        expect([selectPreviousPage(rs(snapshot)), selectNextPage(rs(snapshot))]).toEqual([
          current > 1 ? current - 1 : null,
          current < last ? current + 1 : null,
        ]);
        expect(snapshot.context.meta?.counts).toEqual(output.meta.counts);
        expect(selectChannels(rs(snapshot))).toEqual(output.meta.channels);
        expect(snapshot.context.error).toBeNull();
        expect(selectIsStale(rs(snapshot))).toBe(false);
        expectShown(snapshot);
      }
      if (outcome?.[1] === 'error') {
        // A reload failed: the rows stay, the failure is kept and says the rows may be stale.
        expect(outcome[2]).toBe('loadReception');
        expect(selectRows(rs(snapshot))).toEqual(env.from.context.rows);
        expect(snapshot.context.errorOf).toBe('load');
        expect(selectIsStale(rs(snapshot))).toBe(true);
        expect(snapshot.context.error?.code).toBe((env.event.error as { code: string }).code);
      }
      // The retry is the list's: its count is the page's, not the whole message's.
      expect(selectRetryable(rs(snapshot))).toBe(snapshot.context.meta?.retryable ?? 0);
      expect(selectCanRetry(rs(snapshot))).toBe(selectRetryable(rs(snapshot)) > 0);
      // A refresh timer that finds nothing in flight and no read awaited does nothing.
      if (env.event.type.startsWith('xstate.after.refresh')) {
        expect(selectProgress(rs(snapshot))?.state).not.toBe('sending');
        expect(snapshot.context.meta?.awaiting_reads ?? 0).toBe(0);
      }
      // Refused list events (same filter, same search, a page that does not exist) change nothing.
      if (env.event.type.startsWith('reception.')) expect(snapshot.context).toEqual(env.from.context);
      expect(PROGRESS_POLL_MS).toBe(2000);
    },
    filtering: (snapshot, env) => {
      expect(selectIsRefreshing(rs(snapshot))).toBe(true);
      expectRunning(snapshot, env, 'loadReception');
      expectRowsKept(snapshot, env);
      expectAsked(snapshot, env);
      // Each list asked for is one load, the latest winning (a load under way starts again).
      const asks = !env.from.matches('filtering') || pastAnswer(env.event) || asksAnotherList(env.event, env.from.context as Ctx);
      expect(env.started, 'loads started').toEqual(asks ? ['loadReception'] : []);
      // The live refresh only runs while something is in flight or a recent receipt may still be read.
      if (env.event.type.startsWith('xstate.after.refresh')) {
        const meta = env.from.context.meta as ReceptionPage['meta'];
        expect(meta.progress.state === 'sending' || meta.awaiting_reads > 0).toBe(true);
      }
      // An answer past the last page: the last page is asked for, nothing of that answer is shown.
      if (pastAnswer(env.event)) {
        expect(snapshot.context.page).toBe((env.event.output as ReceptionPage).meta.last_page);
        expect(snapshot.context.meta).toEqual(env.from.context.meta);
      }
      // A failed retry reloads (a filter or search typed meanwhile shows); its failure is kept until then.
      if (outcomeOf(env.event)?.[0] === 'xstate.error.actor.retryFailed') {
        expect(snapshot.context.errorOf).toBe('retry');
        expect(snapshot.context.error?.code).toBe((env.event.error as { code: string }).code);
        expect(selectIsStale(rs(snapshot))).toBe(false);
      }
      // The live refresh does not take "Reintentar fallidos" away (a keyboard user would lose focus).
      expect(selectCanRetry(rs(snapshot))).toBe(selectRetryable(rs(snapshot)) > 0);
    },
    retrying: (snapshot, env) => {
      expect(selectIsRetrying(rs(snapshot))).toBe(true);
      expectRunning(snapshot, env, 'retryFailed');
      expect(selectRetryable(rs(snapshot))).toBeGreaterThan(0);
      expect(env.started, 'retries started').toEqual(env.from.matches('retrying') ? [] : ['retryFailed']);
      expect(selectResent(rs(snapshot))).toBeNull();
      expect(selectRows(rs(snapshot))).toEqual(env.from.context.rows);
      // Typing in the search box or picking a chip is kept (the reload after the retry shows it); nothing
      // else starts while the retry runs.
      if (env.event.type === 'reception.page') expect(snapshot.context).toEqual(env.from.context);
      if (['reception.channel', 'reception.filter', 'reception.search'].includes(env.event.type)) expectAsked(snapshot, env);
      const { context } = rs(snapshot);
      for (const event of EVENTS) {
        const kept =
          (event.type === 'reception.channel' && event.channel !== context.channel) ||
          (event.type === 'reception.filter' && event.status !== context.filter) ||
          (event.type === 'reception.search' && event.q !== context.q);
        expect((env.actor.getSnapshot() as AnyMachineSnapshot).can(event), event.type).toBe(kept);
      }
    },
    retried: (snapshot, env) => {
      expect(selectIsRefreshing(rs(snapshot))).toBe(true);
      expectRunning(snapshot, env, 'loadReception');
      expect(env.started, 'loads started').toEqual(env.from.matches('retrying') ? ['loadReception'] : []);
      if (outcomeOf(env.event)?.[2] === 'retryFailed') {
        const output = env.event.output as RetryResult;
        expect(selectResent(rs(snapshot))).toBe(output.resent);
        // The summary, per channel too, and what is left to retry show at once; the rows follow.
        expect(selectProgress(rs(snapshot))).toEqual(output.progress);
        expect(selectChannels(rs(snapshot))).toEqual(output.channels);
        expect(selectRetryable(rs(snapshot))).toBe(output.retryable);
        expect(snapshot.context.error).toBeNull();
      }
      expectRowsKept(snapshot, env);
      if (env.event.type.startsWith('reception.')) expect(snapshot.context).toEqual(env.from.context);
      expect(selectCanRetry(rs(snapshot))).toBe(selectRetryable(rs(snapshot)) > 0);
    },
  },
  events: {
    'reception.channel': send,
    'reception.filter': send,
    'reception.search': send,
    'reception.page': send,
    'reception.retry': send,
    'reception.reload': send,
    'xstate.done.actor.loadReception': settle,
    'xstate.error.actor.loadReception': settle,
    'xstate.done.actor.retryFailed': settle,
    'xstate.error.actor.retryFailed': settle,
    'xstate.after.refresh.receptionStatus.loaded': elapse,
  },
  // The retry speaks: "Reenviado a N destinatarios", or why it could not be resent. A channel or a filter
  // taken (not while the first load runs or failed) replaces the address. Loads are silent.
  emits: ({ event, from }): AnyEventObject[] => {
    const before = from.context as ReceptionStatusSnapshot['context'];
    const listed = !['loading', 'failed'].includes(from.value as string);
    if (listed && event.type === 'reception.channel' && event.channel !== before.channel) {
      return [{ type: 'navigate', to: addressOf(event.channel as ReceptionChannel, before.filter), replace: true }];
    }
    if (listed && event.type === 'reception.filter' && event.status !== before.filter) {
      return [{ type: 'navigate', to: addressOf(before.channel, event.status as ReceptionFilter), replace: true }];
    }
    if (event.type === 'xstate.done.actor.retryFailed') {
      const { resent } = event.output as RetryResult;
      return [{ type: 'toast', kind: 'success', key: 'reception.resent', params: { count: resent } }];
    }
    if (event.type === 'xstate.error.actor.retryFailed') {
      const quota = (event.error as { code: string }).code === 'compose.quota';
      return [{ type: 'toast', kind: 'error', key: quota ? 'compose.errors.smsQuotaExceeded' : 'error.request' }];
    }
    return [];
  },
});

/**
 * The pace of the live refresh, in real (fake) time: every 2 s while sending, every 30 s while only reads are
 * awaited, never once everything settled and no read is awaited (decision 0256).
 */
describe('reception live refresh pace', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** The screen answered by `pages` in turn (the last one again afterwards); returns the loads asked. */
  function openWith(pages: ReceptionPage[]) {
    vi.useFakeTimers();
    let loads = 0;
    const loadReception = fromPromise<ReceptionPage, ReceptionQuery>(async () => pages[Math.min(loads++, pages.length - 1)]!);
    const actor = createActor(receptionStatusMachine.provide({ actors: { loadReception } }), { input: { id: ID } });
    actor.start();
    return { actor, loads: () => loads };
  }

  it('asks every 2 s while sending', async () => {
    const { actor, loads } = openWith([SENDING_P1]);
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().value).toBe('loaded');
    await vi.advanceTimersByTimeAsync(1999);
    expect(loads()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(loads()).toBe(2);
    actor.stop();
  });

  it('keeps asking every 30 s while a received WhatsApp or app delivery may still be read, and stops when none is', async () => {
    const { actor, loads } = openWith([READING_P1, READING_P1, DONE_P1]);
    await vi.advanceTimersByTimeAsync(0);
    expect(selectRows(actor.getSnapshot())).toEqual(READING_P1.data);
    await vi.advanceTimersByTimeAsync(29_999);
    expect(loads()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(loads()).toBe(2);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(loads()).toBe(3);
    // The third answer has nothing left to follow: an hour later, still three loads.
    await vi.advanceTimersByTimeAsync(60 * 60_000);
    expect(loads()).toBe(3);
    expect(actor.getSnapshot().value).toBe('loaded');
    actor.stop();
  });

  it('does not ask again once everything settled and no read is awaited', async () => {
    const { actor, loads } = openWith([DONE_P1]);
    await vi.advanceTimersByTimeAsync(60 * 60_000);
    expect(loads()).toBe(1);
    actor.stop();
  });
});

describe('reception address', () => {
  it('opens the list the address names, and ignores what it does not know', () => {
    expect(FROM_ADDRESS).toEqual({ id: ID, channel: 'sms', status: 'not_received' });
    expect(receptionInputOf(ID, '')).toEqual({ id: ID, channel: 'all', status: 'all' });
    expect(receptionInputOf(ID, '?channel=fax&status=perdido')).toEqual({ id: ID, channel: 'all', status: 'all' });
    expect(receptionInputOf(ID, 'channel=e-mail')).toEqual({ id: ID, channel: 'e-mail', status: 'all' });
  });

  it('writes the list back as the address the screen opens with', () => {
    expect(receptionPath(ID, 'sms', 'not_received')).toBe(addressOf('sms', 'not_received'));
    expect(receptionPath(ID, 'all', 'failed')).toBe(addressOf('all', 'failed'));
    expect(receptionPath(ID, 'all', 'all')).toBe(`/sent/message/${ID}/reception`);
    const path = receptionPath(ID, 'whatsapp', 'pending');
    expect(receptionInputOf(ID, path.slice(path.indexOf('?')))).toEqual({ id: ID, channel: 'whatsapp', status: 'pending' });
  });
});
