// Reception services against a stubbed global fetch: the page query, the retry, and the progress poller
// (cadence, backoff after failures, stop on cleanup).
import { settledReasonOf } from '../../shared/delivery-progress';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, createMachine, toPromise, type AnyActorLogic, type EventObject } from 'xstate';
import { toApiFailure } from '../../src/services/http/client';
import { MAX_POLL_WAIT_MS } from '../../src/services/http/poll';
import { loadReception, retryFailed, watchProgress } from '../../src/services/reception/reception';
import { PROGRESS_POLL_MS } from '../../shared/reception-contract';
import { json, installFakeFetch } from '../fixtures/fake-fetch';
import { messageDetail } from '../fixtures/messages';
import { deliveryProgress, receptionPage, receptionRow } from '../fixtures/reception';

const PROGRESS = deliveryProgress({ queued: 1, received: 1 });
const PAGE = receptionPage([receptionRow(1, 'pending')], PROGRESS, { current: 2, last: 2, total: 51 });
// The poller reads `reception`; the row's `progress` stays empty so reading the wrong field would show.
const DETAIL = messageDetail({ id: 7, folder: 'sent', reception: PROGRESS });

const fake = installFakeFetch();
const run = <T extends AnyActorLogic>(logic: T, input?: unknown) => toPromise(createActor(logic, { input } as never).start());

afterEach(() => {
  vi.useRealTimers();
});

describe('reception services', () => {
  it('loadReception asks for the channel, status, search and page, and checks the body', async () => {
    fake.answer = () => json(200, PAGE);
    await expect(run(loadReception, { id: 7, channel: 'sms', status: 'failed', q: 'núñez', page: 2 })).resolves.toEqual(PAGE);
    const url = new URL(fake.requests[0]?.url ?? '', 'http://x');
    expect(url.pathname).toBe('/api/messages/7/reception');
    expect(Object.fromEntries(url.searchParams)).toEqual({ channel: 'sms', status: 'failed', q: 'núñez', page: '2', per_page: '50' });
  });

  it('loadReception leaves out "all" and an empty search; a body off the contract is a failure', async () => {
    fake.answer = () => json(200, { ...PAGE, meta: { ...PAGE.meta, counts: undefined } });
    const failure = toApiFailure(
      await run(loadReception, { id: 7, channel: 'all', status: 'all', q: '', page: 1 }).catch((error: unknown) => error),
    );
    expect(failure.code).toBe('response.invalid');
    expect(fake.requests[0]?.url).toBe('/api/messages/7/reception?page=1&per_page=50');
  });

  it('retryFailed posts the list (channel, status, search) and returns how many recipients were resent', async () => {
    const result = { resent: 3, progress: PROGRESS, channels: [{ channel: 'sms', progress: PROGRESS }], retryable: 0 };
    fake.answer = () => json(200, { data: result });
    const scope = { channel: 'sms', status: 'not_received', q: 'núñez' };
    await expect(run(retryFailed, { id: 7, scope })).resolves.toEqual(result);
    expect(fake.requests).toEqual([{ method: 'POST', url: '/api/messages/7/reception/retry', body: scope }]);
  });

  it('retryFailed passes a quota refusal on with its problem codes', async () => {
    fake.answer = () =>
      json(409, { code: 'compose.quota', message: 'Cupo mensual de SMS excedido', errors: { quota: ['sms.quota_exceeded'] } });
    const scope = { channel: 'all', status: 'all', q: '' };
    const failure = toApiFailure(await run(retryFailed, { id: 7, scope }).catch((error: unknown) => error));
    expect(failure).toMatchObject({ status: 409, code: 'compose.quota', fieldErrors: { quota: ['sms.quota_exceeded'] } });
  });

  it('watchProgress polls every PROGRESS_POLL_MS, backs off after failures and stops with its parent', async () => {
    vi.useFakeTimers();
    const received: EventObject[] = [];
    const parent = createActor(
      createMachine({
        invoke: { id: 'watch', src: watchProgress, input: { id: 7 } },
        on: { '*': { actions: ({ event }) => received.push(event) } },
      }),
    ).start();
    let down = false;
    fake.answer = () => (down ? json(503, { message: 'Mantención' }) : json(200, { data: DETAIL }));

    await vi.advanceTimersByTimeAsync(PROGRESS_POLL_MS - 1);
    expect(fake.requests).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(fake.requests.map((r) => r.url)).toEqual(['/api/messages/7']);
    expect(received).toEqual([{ type: 'delivery.progress', progress: PROGRESS }]);

    down = true;
    await vi.advanceTimersByTimeAsync(PROGRESS_POLL_MS);
    expect(fake.requests).toHaveLength(2);
    // After a failure the next poll waits twice as long, and nothing is reported.
    await vi.advanceTimersByTimeAsync(PROGRESS_POLL_MS * 2 - 1);
    expect(fake.requests).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(fake.requests).toHaveLength(3);
    expect(received).toHaveLength(1);
    expect(MAX_POLL_WAIT_MS).toBeGreaterThan(PROGRESS_POLL_MS);

    down = false;
    await vi.advanceTimersByTimeAsync(PROGRESS_POLL_MS * 4);
    expect(fake.requests).toHaveLength(4);
    expect(received).toHaveLength(2);

    parent.stop();
    await vi.advanceTimersByTimeAsync(MAX_POLL_WAIT_MS * 2);
    expect(fake.requests).toHaveLength(4);
  });
});

describe('settledReasonOf (shared/delivery-progress.ts)', () => {
  it('names an error only once the delivery has settled', () => {
    expect(settledReasonOf({ status: 'failed', error: 'invalid_number' })).toBe('invalid_number');
    expect(settledReasonOf({ status: 'not_received', error: 'no_receipt' })).toBe('no_receipt');
    // Queued again after a temporary error, or handed over and waiting: the old error explains nothing yet.
    expect(settledReasonOf({ status: 'queued', error: 'unreachable' })).toBeNull();
    expect(settledReasonOf({ status: 'sent', error: 'unreachable' })).toBeNull();
    expect(settledReasonOf({ status: 'received', error: null })).toBeNull();
  });
});
