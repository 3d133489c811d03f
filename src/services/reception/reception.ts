// Reception status calls (reception-contract.ts `RECEPTION_API`) as actor logic, plus the poller that
// follows one sent message's delivery progress while the reading view is open.
import { fromCallback, type EventObject } from 'xstate';
import { fromCall, parseBody, httpIn } from '../http/client';
import { MAX_POLL_WAIT_MS, pollEvery } from '../http/poll';
import { MESSAGES_API } from '../../../shared/messages-contract';
import { MessageDetailBodyStruct } from '../../../shared/messages-structs';
import {
  PROGRESS_POLL_MS,
  RECEPTION_API,
  type DeliveryProgress,
  type ReceptionPage,
  type ReceptionScope,
  type RetryRequest,
  type RetryResult,
} from '../../../shared/reception-contract';
import { ReceptionPageBodyStruct, RetryResultBodyStruct } from '../../../shared/reception-structs';

/** Rows per page of the reception table. */
const RECEPTION_PAGE_SIZE = 50;

export interface ReceptionQuery extends ReceptionScope {
  id: number;
  page: number;
}

export const loadReception = fromCall<ReceptionPage, ReceptionQuery>(async ({ input, signal, http }) => {
  const path = RECEPTION_API.page(input.id);
  const query = {
    channel: input.channel === 'all' ? undefined : input.channel,
    status: input.status === 'all' ? undefined : input.status,
    q: input.q === '' ? undefined : input.q,
    page: input.page,
    per_page: RECEPTION_PAGE_SIZE,
  };
  return parseBody(await http.request(path, { query, signal }), ReceptionPageBodyStruct, path);
});

/** "Reintentar fallidos" of a list: only its channel's deliveries of the recipients it shows. */
export const retryFailed = fromCall<RetryResult, { id: number; scope: ReceptionScope }>(async ({ input, signal, http }) => {
  const path = RECEPTION_API.retry(input.id);
  const { channel, status, q } = input.scope;
  const body = { channel, status, q } satisfies RetryRequest;
  return parseBody(await http.request(path, { method: 'POST', body, signal }), RetryResultBodyStruct, path).data;
});

export type ProgressEvent = { type: 'delivery.progress'; progress: DeliveryProgress };

/**
 * Polls `GET /messages/:id` every PROGRESS_POLL_MS and reports `delivery.progress` each time. Silent
 * (no loading bar, no toast): it is background work the user did not ask for. A failed poll doubles the
 * wait (up to MAX_POLL_WAIT_MS) instead of giving up, so a server that comes back is picked up again
 * without hammering one that is down; the view keeps the last progress meanwhile. Stopping the actor (the
 * parent left the state) aborts the request in flight and clears the timer.
 */
export const watchProgress = fromCallback<EventObject, { id: number }, ProgressEvent>(({ input, sendBack, system }) => {
  const path = MESSAGES_API.one(input.id);
  const http = httpIn(system);
  return pollEvery(
    async (signal) => {
      const body = await http.request(path, { signal, silent: true });
      const progress = parseBody(body, MessageDetailBodyStruct, path).data.reception;
      if (progress && !signal.aborted) sendBack({ type: 'delivery.progress', progress });
      return true;
    },
    PROGRESS_POLL_MS,
    MAX_POLL_WAIT_MS,
  );
});
