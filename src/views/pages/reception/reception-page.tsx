// The reception status of one sent message (SPEC §2, §4): progress per channel, filters by
// status (the recipient's, or one channel's), search, per-recipient and per-channel statuses,
// paging and "Reintentar fallidos" of the list shown. One actor per page visit, opened with the channel and
// filter of the address (`?channel=sms&status=not_received`), which the machine keeps up to date.
import type { ReactNode } from 'react';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { Link } from 'wouter';
import { receptionStatusMachine, type ReceptionStatusMachine } from '../../../machines/reception/status';
import { receptionInputOf } from '../../../machines/reception/rules';
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
  selectIsRetrying,
  selectIsStale,
  selectLastPage,
  selectMeta,
  selectNextPage,
  selectPreviousPage,
  selectProgress,
  selectQuery,
  selectRetryable,
  selectShownChannel,
} from '../../../machines/reception/selectors';
import { figureOf, retryNoteOf, settledPercent } from '../../../../shared/delivery-progress';
import {
  RECEPTION_FILTERS,
  RECIPIENT_STATUSES,
  type ChannelProgress,
  type ReceptionChannel,
  type ReceptionFilter,
} from '../../../../shared/reception-contract';
import { useT } from '../../lib/i18n';
import { usePageActor } from '../../lib/page-actor';
import { useSelectors } from '../../lib/selectors';
import { ProgressText } from '../../lib/progress-text';
import { cn } from '../../lib/utils';
import { Button } from '../../ui/button';
import { LoadFailure } from '../../ui/list-state';
import { ListBody } from '../../ui/list-page';
import { Progress } from '../../ui/progress';
import { SearchInput } from '../../ui/search-input';
import { DeviceLegend } from '../../lib/device-status';
import { ErrorPage } from '../app/error-page';
import { Rows, STATUS_STYLE } from './reception-rows';

type ReceptionActor = ActorRefFrom<ReceptionStatusMachine>;

/** Counts of the summary, in the order a reader follows a delivery. */
const SUMMARY_STATES = ['queued', 'sent', 'received', 'read', 'not_received', 'error', 'failed'] as const;

/** A channel's summary figures: the filters' states, so "SMS · No recibido: 3" is "No recibidos (3)" under SMS. */
const FIGURE_STYLE: Record<(typeof RECIPIENT_STATUSES)[number], string> = {
  pending: STATUS_STYLE.queued,
  received: STATUS_STYLE.received,
  read: STATUS_STYLE.read,
  not_received: STATUS_STYLE.not_received,
  error: STATUS_STYLE.error,
  failed: STATUS_STYLE.failed,
};

export function ReceptionPage({ id }: { id: number }) {
  // The channel and the filter the visit opens with; later changes are the machine's own (replaced).
  const actor = usePageActor(receptionStatusMachine, {
    input: { id },
    address: {
      read: (search: string) => {
        const { channel, status } = receptionInputOf(id, search);
        return { channel, status };
      },
    },
  });
  return actor ? <ReceptionScreen actor={actor} id={id} /> : <ReceptionSkeleton />;
}

function ReceptionScreen({ actor, id }: { actor: ReceptionActor; id: number }) {
  const t = useT();
  const notFound = useSelector(actor, selectIsNotFound);
  const messageHref = `/sent/message/${id}`;

  // Not the user's message, or gone: no reload changes that.
  if (notFound) return <ErrorPage code={404} />;
  return (
    <section aria-labelledby="reception-title" className="mx-auto flex max-w-6xl flex-col gap-4">
      <Link href={messageHref} className="text-sm text-primary hover:underline">
        ← {t('reception.back')}
      </Link>
      <h1 id="reception-title" className="text-2xl font-bold">
        {t('reception.title')}
      </h1>
      <Content actor={actor} />
    </section>
  );
}

function Content({ actor }: { actor: ReceptionActor }) {
  const t = useT();
  const { loading, failed } = useSelectors(actor, { loading: selectIsLoading, failed: selectIsFailed });
  return (
    <ListBody
      phase={failed ? 'failed' : loading ? 'loading' : 'rows'}
      skeleton={<ReceptionSkeleton />}
      failure={
        <LoadFailure message={t('reception.loadFailed')}>
          <Button onClick={() => actor.send({ type: 'reception.reload' })}>{t('reception.reload')}</Button>
        </LoadFailure>
      }
    >
      <Summary actor={actor} />
      <ChannelPicker actor={actor} />
      <RetryBar actor={actor} />
      <div className="flex flex-wrap items-end justify-between gap-3">
        <FilterChips actor={actor} />
        <SearchBox actor={actor} />
      </div>
      <Stale actor={actor} />
      <DeviceLegend />
      <Rows actor={actor} />
      <Pager actor={actor} />
    </ListBody>
  );
}

function ReceptionSkeleton() {
  const t = useT();
  return (
    <div role="status" aria-label={t('app.loading')} className="flex flex-col gap-3">
      <div className="h-24 animate-pulse rounded-lg bg-muted" />
      <div className="h-9 animate-pulse rounded-md bg-muted" />
      {Array.from({ length: 5 }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholder rows, all alike: nothing but their place to key them by.
        <div key={i} className="h-14 animate-pulse rounded-md bg-muted" />
      ))}
    </div>
  );
}

function Summary({ actor }: { actor: ReceptionActor }) {
  const t = useT();
  const progress = useSelector(actor, selectProgress);
  if (!progress) return null;
  return (
    <section aria-labelledby="reception-summary" className="flex flex-col gap-3 rounded-lg border bg-card p-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="reception-summary" className="text-sm font-semibold">
          {t('reception.summary')}
        </h2>
        <ProgressText progress={progress} className="font-medium" />
      </div>
      <Progress value={settledPercent(progress)} aria-label={t('reception.progressBar')} />
      {/* What "Enviado con fallos" means for this message: who got it on no channel. */}
      {progress.state !== 'sending' && progress.unreached > 0 && (
        <p data-slot="unreached" className="text-sm text-destructive">
          {t('reception.unreached', { count: progress.unreached })}
        </p>
      )}
      <ByChannel actor={actor} />
    </section>
  );
}

/**
 * The summary per channel the message used, in the filters' words; a message recorded before the delivery
 * engine (no deliveries) shows its recipients' states as one line, as before.
 */
function ByChannel({ actor }: { actor: ReceptionActor }) {
  const t = useT();
  const { channels, shown, progress } = useSelectors(actor, {
    channels: selectChannels,
    shown: selectShownChannel,
    progress: selectProgress,
  });
  if (channels.length === 0) {
    if (!progress) return null;
    return (
      <ul className="flex flex-wrap gap-2 text-xs">
        {SUMMARY_STATES.map((state) => (
          <li key={state} className={cn('rounded-md border px-2 py-1', STATUS_STYLE[state])}>
            {t(`reception.deliveryStatus.${state}`)}: <strong>{progress[state]}</strong>
          </li>
        ))}
      </ul>
    );
  }
  return (
    <ul aria-label={t('reception.byChannel')} className="flex flex-col gap-2">
      {channels.map((entry) => (
        <ChannelLine key={entry.channel} entry={entry} current={entry.channel === shown} />
      ))}
    </ul>
  );
}

function ChannelLine({ entry, current }: { entry: ChannelProgress; current: boolean }) {
  const t = useT();
  const name = t(`messages.channel.${entry.channel}`);
  return (
    <li
      data-channel={entry.channel}
      aria-current={current || undefined}
      className={cn(
        'flex flex-col gap-1 rounded-md border px-3 py-2 sm:flex-row sm:items-center sm:gap-3',
        current ? 'border-primary' : 'border-transparent bg-muted/40',
      )}
    >
      <span className="shrink-0 text-sm">
        <span className="font-semibold">{name}</span>{' '}
        <span className="text-muted-foreground">· {t('reception.channelTotal', { count: entry.progress.total })}</span>
      </span>
      {/* Only the states it has: a channel's line stays one line on a phone. */}
      <ul aria-label={name} className="flex flex-wrap gap-1.5 text-xs">
        {RECIPIENT_STATUSES.filter((state) => figureOf(entry.progress, state) > 0).map((state) => (
          <li key={state} data-state={state} className={cn('rounded-md border px-2 py-0.5', FIGURE_STYLE[state])}>
            {t(`reception.recipientStatus.${state}`)}: <strong className="tabular-nums">{figureOf(entry.progress, state)}</strong>
          </li>
        ))}
      </ul>
    </li>
  );
}

/** Whose state the filters read: every channel (the recipient's best) or one channel's delivery. */
function ChannelPicker({ actor }: { actor: ReceptionActor }) {
  const t = useT();
  const { channels, channel } = useSelectors(actor, { channels: selectChannels, channel: selectChannel });
  // One channel is the message itself: nothing to choose (unless the address named another).
  if (channels.length < 2 && channel === 'all') return null;
  const options: ReceptionChannel[] = ['all', ...channels.map((entry) => entry.channel)];
  if (!options.includes(channel)) options.push(channel);
  return (
    <div role="group" aria-label={t('reception.channelFilter')} className="flex flex-wrap items-center gap-2">
      <span aria-hidden className="text-sm font-medium">
        {t('reception.channelFilter')}:
      </span>
      {options.map((option) => (
        <Choice
          key={option}
          shape="min-h-9 rounded-md"
          pressed={channel === option}
          onPress={() => actor.send({ type: 'reception.channel', channel: option })}
        >
          {option === 'all' ? t('reception.channelAll') : t(`messages.channel.${option}`)}
        </Choice>
      ))}
    </div>
  );
}

function RetryBar({ actor }: { actor: ReceptionActor }) {
  const t = useT();
  const { retryable, canRetry, retrying, partial, shown, progress } = useSelectors(actor, {
    retryable: selectRetryable,
    canRetry: selectCanRetry,
    retrying: selectIsRetrying,
    partial: selectIsPartial,
    shown: selectShownChannel,
    progress: selectProgress,
  });
  // On the whole message, why the offer and the message's state do not simply agree (shared rules).
  const note = progress && !partial && shown === 'all' ? retryNoteOf(progress) : null;
  const hint =
    note === 'noAddressOnly' && progress
      ? t('reception.retryNoAddress', { count: progress.no_address })
      : retryable === 0
        ? t(partial ? 'reception.retryNoneList' : 'reception.retryNone')
        : shown !== 'all'
          ? t('reception.retryHintChannel', { count: retryable, channel: t(`messages.channel.${shown}`) })
          : t(partial ? 'reception.retryHintList' : 'reception.retryHint', { count: retryable });
  return (
    <div className="flex flex-wrap items-center gap-3">
      <Button
        aria-describedby="retry-hint"
        aria-busy={retrying || undefined}
        // While it runs it stays focusable (the machine ignores a second press): a keyboard user keeps focus.
        aria-disabled={retrying || undefined}
        disabled={!canRetry && !retrying}
        onClick={() => actor.send({ type: 'reception.retry' })}
      >
        {retrying ? t('reception.retrying') : t('reception.retry')}
      </Button>
      <p id="retry-hint" className="text-sm text-muted-foreground">
        {hint}
        {note === 'reachedElsewhere' && <span className="block">{t('reception.retryReachedElsewhere')}</span>}
      </p>
    </div>
  );
}

function FilterChips({ actor }: { actor: ReceptionActor }) {
  const t = useT();
  const { filter, meta, shown, channels } = useSelectors(actor, {
    filter: selectFilter,
    meta: selectMeta,
    shown: selectShownChannel,
    channels: selectChannels,
  });
  // What the counts are of: said when the message used more than one channel (else both read the same).
  const hint =
    shown !== 'all'
      ? t('reception.filtersHintChannel', { channel: t(`messages.channel.${shown}`) })
      : channels.length > 1
        ? t('reception.filtersHintAll')
        : null;
  return (
    <div className="flex flex-col gap-1">
      <FilterChipList actor={actor} filter={filter} counts={meta?.counts ?? null} described={hint !== null} />
      {hint && (
        <p id="filters-hint" className="text-xs text-muted-foreground">
          {hint}
        </p>
      )}
    </div>
  );
}

function FilterChipList({
  actor,
  filter,
  counts,
  described,
}: {
  actor: ReceptionActor;
  filter: ReceptionFilter;
  counts: Record<ReceptionFilter, number> | null;
  described: boolean;
}) {
  const t = useT();
  return (
    <div
      role="group"
      aria-label={t('reception.filters')}
      aria-describedby={described ? 'filters-hint' : undefined}
      className="flex flex-wrap gap-2"
    >
      {RECEPTION_FILTERS.map((status) => (
        <Choice
          key={status}
          shape="rounded-full"
          pressed={filter === status}
          onPress={() => actor.send({ type: 'reception.filter', status })}
        >
          {t(`reception.filter.${status}`)} <span className="tabular-nums opacity-80">({counts?.[status] ?? 0})</span>
        </Choice>
      ))}
    </div>
  );
}

/** One option of the channel picker or the status filters: pressed while it is the one the list shows. */
function Choice({ shape, pressed, onPress, children }: { shape: string; pressed: boolean; onPress: () => void; children: ReactNode }) {
  return (
    <button
      type="button"
      aria-pressed={pressed}
      onClick={onPress}
      className={cn(
        shape,
        'border px-3 py-1 text-sm outline-none focus-visible:ring-2 focus-visible:ring-ring',
        pressed ? 'border-primary bg-primary text-primary-foreground' : 'bg-card hover:bg-accent',
      )}
    >
      {children}
    </button>
  );
}

function SearchBox({ actor }: { actor: ReceptionActor }) {
  const t = useT();
  const q = useSelector(actor, selectQuery);
  return (
    <SearchInput
      className="w-full sm:w-72"
      aria-label={t('reception.search')}
      placeholder={t('reception.searchPlaceholder')}
      value={q}
      onSearch={(text) => actor.send({ type: 'reception.search', q: text })}
    />
  );
}

function Stale({ actor }: { actor: ReceptionActor }) {
  const t = useT();
  const stale = useSelector(actor, selectIsStale);
  if (!stale) return null;
  return (
    <div role="alert" className="flex flex-wrap items-center gap-3 rounded-md border border-warning/60 bg-warning/15 px-3 py-2 text-sm">
      <span>{t('reception.stale')}</span>
      <Button size="sm" variant="outline" onClick={() => actor.send({ type: 'reception.reload' })}>
        {t('reception.reload')}
      </Button>
    </div>
  );
}

function Pager({ actor }: { actor: ReceptionActor }) {
  const t = useT();
  const { page, last, previous, next } = useSelectors(actor, {
    page: selectCurrentPage,
    last: selectLastPage,
    previous: selectPreviousPage,
    next: selectNextPage,
  });
  if (last <= 1) return null;
  return (
    <nav aria-label={t('reception.pagination')} className="flex items-center justify-center gap-3">
      <PageButton actor={actor} page={previous}>
        {t('reception.prev')}
      </PageButton>
      <span className="text-sm tabular-nums" aria-live="polite">
        {t('reception.page', { page, last })}
      </span>
      <PageButton actor={actor} page={next}>
        {t('reception.next')}
      </PageButton>
    </nav>
  );
}

/** «Anterior» or «Siguiente»: goes to `page`, disabled when there is none that way (null). */
function PageButton({ actor, page, children }: { actor: ReceptionActor; page: number | null; children: ReactNode }) {
  return (
    <Button
      variant="outline"
      size="sm"
      disabled={page === null}
      onClick={() => page !== null && actor.send({ type: 'reception.page', page })}
    >
      {children}
    </Button>
  );
}
