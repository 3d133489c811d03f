// What the reception view reads of the reception status (reception/status.ts): primitives for `useSelector`.
import type {
  ChannelProgress,
  DeliveryProgress,
  ReceptionChannel,
  ReceptionFilter,
  ReceptionRow,
} from '../../../shared/reception-contract';
import type { ReceptionMeta, ReceptionStatusSnapshot } from './status';
import { isPartialScope } from './rules';

const NO_ROWS: ReceptionRow[] = [];

export const selectRows = (s: ReceptionStatusSnapshot): ReceptionRow[] => (s.context.rows.length === 0 ? NO_ROWS : s.context.rows);
export const selectFilter = (s: ReceptionStatusSnapshot): ReceptionFilter => s.context.filter;
export const selectChannel = (s: ReceptionStatusSnapshot): ReceptionChannel => s.context.channel;
const NO_CHANNELS: ChannelProgress[] = [];
/** The channels the message used, each with its summary. */
export const selectChannels = (s: ReceptionStatusSnapshot): ChannelProgress[] => s.context.meta?.channels ?? NO_CHANNELS;
/** The rows on screen are a part of the message (a channel, a filter or a search): a retry sends only theirs. */
export const selectIsPartial = (s: ReceptionStatusSnapshot): boolean => s.context.shown !== null && isPartialScope(s.context.shown);
/** The channel of the rows on screen (`all` before the first page). */
export const selectShownChannel = (s: ReceptionStatusSnapshot): ReceptionChannel => s.context.shown?.channel ?? 'all';
export const selectQuery = (s: ReceptionStatusSnapshot): string => s.context.q;
export const selectMeta = (s: ReceptionStatusSnapshot): ReceptionMeta | null => s.context.meta;
export const selectProgress = (s: ReceptionStatusSnapshot): DeliveryProgress | null => s.context.meta?.progress ?? null;
export const selectCurrentPage = (s: ReceptionStatusSnapshot): number => s.context.meta?.current_page ?? 1;
export const selectLastPage = (s: ReceptionStatusSnapshot): number => s.context.meta?.last_page ?? 1;
/** The page "Anterior" / "Siguiente" go to from the one shown, or null at either end. */
export const selectPreviousPage = (s: ReceptionStatusSnapshot): number | null =>
  selectCurrentPage(s) > 1 ? selectCurrentPage(s) - 1 : null;
export const selectNextPage = (s: ReceptionStatusSnapshot): number | null =>
  selectCurrentPage(s) < selectLastPage(s) ? selectCurrentPage(s) + 1 : null;
export const selectResent = (s: ReceptionStatusSnapshot): number | null => s.context.resent;
/** First load running (skeleton). */
export const selectIsLoading = (s: ReceptionStatusSnapshot): boolean => s.matches('loading');
/** First load failed (error state with Reintentar), for a reason a reload may fix. */
export const selectIsFailed = (s: ReceptionStatusSnapshot): boolean => s.matches('failed') && s.context.error?.status !== 404;
/** Not the user's message, or gone: no reload will change that (the 404 page). */
export const selectIsNotFound = (s: ReceptionStatusSnapshot): boolean => s.matches('failed') && s.context.error?.status === 404;
/** A reload runs behind the rows on screen. */
export const selectIsRefreshing = (s: ReceptionStatusSnapshot): boolean => s.matches('filtering') || s.matches('retried');
export const selectIsRetrying = (s: ReceptionStatusSnapshot): boolean => s.matches('retrying');
/** A later reload failed: the rows may be stale. */
export const selectIsStale = (s: ReceptionStatusSnapshot): boolean => s.context.errorOf === 'load' && s.context.meta !== null;
/** Deliveries "Reintentar fallidos" sends again: those of the list on screen. */
export const selectRetryable = (s: ReceptionStatusSnapshot): number => s.context.meta?.retryable ?? 0;
export const selectCanRetry = (s: ReceptionStatusSnapshot): boolean => s.can({ type: 'reception.retry' });
