// The reception status's pure rules (reception/status.ts runs them): the screen's address (`?channel=sms&status=not_received`)
// read into the machine's input and written back from its context, which list a filter, search or page asks
// for, and what a retry refused for balance says.
import {
  RECEPTION_CHANNELS,
  RECEPTION_FILTERS,
  type ReceptionChannel,
  type ReceptionFilter,
  type ReceptionPage,
  type ReceptionScope,
} from '../../../shared/reception-contract';
import type { ApiFailure } from '../../services/http/client';
import type { MessageKey } from '../../i18n';

export interface ReceptionInput {
  id: number;
  /** From the address; `all` when absent. */
  channel?: ReceptionChannel;
  status?: ReceptionFilter;
}

/** The screen's address for a channel and a filter (`all` ones are left out). */
export function receptionPath(id: number, channel: ReceptionChannel, status: ReceptionFilter): string {
  const params = new URLSearchParams();
  if (channel !== 'all') params.set('channel', channel);
  if (status !== 'all') params.set('status', status);
  const search = params.toString();
  return `/sent/message/${id}/reception${search ? `?${search}` : ''}`;
}

/** The machine's input from the address's query string; unknown values are ignored (everyone, every channel). */
export function receptionInputOf(id: number, search: string): Required<ReceptionInput> {
  const params = new URLSearchParams(search);
  const channel = params.get('channel');
  const status = params.get('status');
  return {
    id,
    channel: (RECEPTION_CHANNELS as readonly (string | null)[]).includes(channel) ? (channel as ReceptionChannel) : 'all',
    status: (RECEPTION_FILTERS as readonly (string | null)[]).includes(status) ? (status as ReceptionFilter) : 'all',
  };
}

/** The channel, filter and search a list is asked for (the context's: `filter` is the scope's `status`). */
export const scopeOf = (list: { channel: ReceptionChannel; filter: ReceptionFilter; q: string }): ReceptionScope => ({
  channel: list.channel,
  status: list.filter,
  q: list.q,
});

/** A scope that is a part of the message (a channel, a filter or a search): a retry sends only its rows. */
export const isPartialScope = (scope: ReceptionScope): boolean =>
  scope.channel !== 'all' || scope.status !== 'all' || scope.q.trim() !== '';

/** A page that exists (by the last page that arrived, `last`) and is not the one asked for (`current`). */
export const isOtherPageOf = (page: number, current: number, last: number): boolean =>
  Number.isInteger(page) && page >= 1 && page <= last && page !== current;

/** An answer for a page past the last one (an empty list still has page 1). */
export const isPastLastPage = (page: ReceptionPage): boolean => page.meta.last_page >= 1 && page.meta.current_page > page.meta.last_page;

/** SPEC §8 quota texts (the keys compose shows for the same problem codes of a 409 `compose.quota`). */
const QUOTA_KEYS: Readonly<Record<string, MessageKey>> = {
  'sms.quota_exceeded': 'compose.errors.smsQuotaExceeded',
  'sms.insufficient': 'compose.errors.smsInsufficient',
  'email.insufficient': 'compose.errors.emailInsufficient',
  'whatsapp.insufficient': 'compose.errors.whatsappInsufficient',
};

/** A retry refused for balance: the first known problem's text, the SMS quota text otherwise. */
export function quotaKeyOf(failure: ApiFailure): MessageKey {
  const problem = (failure.fieldErrors.quota ?? []).find((code) => code in QUOTA_KEYS);
  return problem ? (QUOTA_KEYS[problem] as MessageKey) : 'compose.errors.smsQuotaExceeded';
}
