import { useSelector } from '@xstate/react';
import { Link } from 'wouter';
import {
  FOLDER_PURGE_BUTTON_ID,
  folderMachine,
  messageHref,
  selectAllSelected,
  selectCanDelete,
  selectCanPurge,
  selectCanRestore,
  selectIsConfirmingPurge,
  selectIsMutating,
  selectIsSelected,
  selectItems,
  selectList,
  selectQuery,
  selectSelectedCount,
  type FolderListActor,
  type FolderMachine,
} from '../../../machines/messages/folder';
import { selectCanLoadMore, selectIsAppending, selectIsBusy, selectIsStale, selectPlaceholder } from '../../../machines/list/list';
import type { MessageSummary } from '../../../../shared/messages-contract';
import type { ActorRefFrom } from 'xstate';
import { settledPercent } from '../../../../shared/delivery-progress';
import type { DeliveryProgress } from '../../../../shared/reception-contract';
import { formatListDate } from '../../lib/format';
import type { MessageKey } from '../../../i18n';
import { useLocaleZone, useT } from '../../lib/i18n';
import { usePageActor } from '../../lib/page-actor';
import { useSelectors } from '../../lib/selectors';
import { cn } from '../../lib/utils';
import { ConfirmPanel } from '../../ui/confirm-panel';
import { Button } from '../../ui/button';
import { Checkbox } from '../../ui/checkbox';
import { ListFailure, ListSkeleton } from '../../ui/list-state';
import { ListBody, ListEmpty, ListPage, ListTotal } from '../../ui/list-page';
import { SearchInput } from '../../ui/search-input';
import { VirtualList } from '../../ui/virtual-list';
import { ChannelBadges } from './channel-badges';
import type { Folder } from '../../../../shared/codes';

const ROW_HEIGHT = 76;
const TITLE_KEY: Record<Folder, MessageKey> = {
  inbox: 'pages.inbox',
  sent: 'pages.sent',
  scheduled: 'pages.scheduled',
  draft: 'pages.draft',
  trash: 'folders.trash',
};

type FolderActor = ActorRefFrom<FolderMachine>;

/** The address's `?q=`: the search a folder opens with, and the one Back or a link brings. */
const queryOf = (search: string) => ({ q: new URLSearchParams(search).get('q') ?? '' });

export function FolderPage({ folder }: { folder: Folder }) {
  // Another folder is another visit: a new actor with its own list.
  const actor = usePageActor(folderMachine, {
    input: { folder },
    address: { read: queryOf, event: 'folder.address' },
  });
  return actor ? <FolderScreen actor={actor} folder={folder} /> : <FolderSkeleton />;
}

function FolderScreen({ actor, folder }: { actor: FolderActor; folder: Folder }) {
  const t = useT();
  // The hosted list: loading, failures, total and more pages are its own; gone only if it crashed.
  const { list, q } = useSelectors(actor, { list: selectList, q: selectQuery });
  return (
    <ListPage
      title={t(TITLE_KEY[folder])}
      below={
        <>
          {folder === 'inbox' && (
            <p className="text-sm text-muted-foreground">{t('pages.inboxBody', { guardians: t('terms.guardians') })}</p>
          )}
          {list && <ListTotal list={list} text={(count) => t('folders.total', { count })} />}
        </>
      }
      actions={
        <SearchInput
          aria-label={t('folders.search', { folder: t(TITLE_KEY[folder]) })}
          placeholder={t('folders.searchPlaceholder')}
          value={q}
          onSearch={(text) => actor.send({ type: 'folder.search', q: text })}
        />
      }
    >
      {list ? (
        <>
          <Toolbar actor={actor} />
          <PurgeConfirm actor={actor} />
          <Body actor={actor} list={list} folder={folder} />
        </>
      ) : (
        <Failure actor={actor} />
      )}
    </ListPage>
  );
}

function Toolbar({ actor }: { actor: FolderActor }) {
  const t = useT();
  const { count, all, canDelete, canRestore, canPurge, mutating } = useSelectors(actor, {
    count: selectSelectedCount,
    all: selectAllSelected,
    canDelete: selectCanDelete,
    canRestore: selectCanRestore,
    canPurge: selectCanPurge,
    mutating: selectIsMutating,
  });
  return (
    <div role="toolbar" aria-label={t('folders.selected', { count })} className="flex min-h-9 flex-wrap items-center gap-2">
      <label className="flex items-center gap-2 text-sm">
        <Checkbox checked={all} onCheckedChange={() => actor.send({ type: all ? 'folder.clearSelection' : 'folder.selectAll' })} />
        {t('folders.selectAll')}
      </label>
      {count > 0 && <span className="text-sm text-muted-foreground">{t('folders.selected', { count })}</span>}
      {canDelete && (
        <Button size="sm" variant="outline" disabled={mutating} onClick={() => actor.send({ type: 'folder.delete' })}>
          {t('folders.delete')}
        </Button>
      )}
      {canRestore && (
        <Button size="sm" variant="outline" disabled={mutating} onClick={() => actor.send({ type: 'folder.restore' })}>
          {t('folders.restore')}
        </Button>
      )}
      {canPurge && (
        <Button
          id={FOLDER_PURGE_BUTTON_ID}
          size="sm"
          variant="destructive"
          disabled={mutating}
          onClick={() => actor.send({ type: 'folder.purge' })}
        >
          {t('folders.purge')}
        </Button>
      )}
      {count > 0 && (
        <Button size="sm" variant="ghost" onClick={() => actor.send({ type: 'folder.clearSelection' })}>
          {t('folders.clearSelection')}
        </Button>
      )}
    </div>
  );
}

function PurgeConfirm({ actor }: { actor: FolderActor }) {
  const t = useT();
  const { open, count } = useSelectors(actor, { open: selectIsConfirmingPurge, count: selectSelectedCount });
  if (!open) return null;
  return (
    <ConfirmPanel
      title={t('folders.purgeConfirmTitle')}
      description={t('folders.purgeConfirmBody', { count })}
      confirmLabel={t('folders.purge')}
      cancelLabel={t('folders.cancel')}
      destructive
      className="rounded-lg border-destructive/40 bg-destructive/5 p-4"
      onConfirm={() => actor.send({ type: 'folder.confirm' })}
      onCancel={() => actor.send({ type: 'folder.cancel' })}
    />
  );
}

/** List failures are silent (SPEC §8): this, with Reintentar, in place of the rows or below them. */
function Failure({ actor }: { actor: FolderActor }) {
  const t = useT();
  return <ListFailure message={t('folders.failed')} retryLabel={t('folders.retry')} onRetry={() => actor.send({ type: 'folder.retry' })} />;
}

function Body({ actor, list, folder }: { actor: FolderActor; list: FolderListActor; folder: Folder }) {
  const t = useT();
  // The phase as useListPhase reads it by default, with the list's other facts in one subscription.
  const { phase, stale, busy, appending, canLoadMore } = useSelectors(list, {
    phase: selectPlaceholder,
    stale: selectIsStale,
    busy: selectIsBusy,
    appending: selectIsAppending,
    canLoadMore: selectCanLoadMore,
  });
  const { items, q } = useSelectors(actor, { items: selectItems, q: selectQuery });
  // As tall as the rows need, up to what fits on screen; the list scrolls inside past that.
  const height = Math.min(items.length * ROW_HEIGHT, Math.max(320, window.innerHeight - 260));
  return (
    <ListBody
      phase={phase}
      // The first page, or page 1 again with nothing left to show meanwhile.
      skeleton={<FolderSkeleton />}
      failure={<Failure actor={actor} />}
      empty={
        <ListEmpty live={false} large>
          {q ? t('folders.emptySearch', { q }) : t('folders.empty')}
        </ListEmpty>
      }
      stale={stale}
    >
      <div className="rounded-lg border bg-card">
        <VirtualList
          role="list"
          aria-label={t(TITLE_KEY[folder])}
          aria-busy={busy}
          items={items}
          rowHeight={ROW_HEIGHT}
          height={height}
          getKey={(m) => m.id}
          onNearEnd={canLoadMore ? () => actor.send({ type: 'folder.loadMore' }) : undefined}
          renderRow={(m) => <Row actor={actor} message={m} folder={folder} />}
        />
        {appending && <p className="border-t px-4 py-2 text-sm text-muted-foreground">{t('folders.loadingMore')}</p>}
      </div>
    </ListBody>
  );
}

function Row({ actor, message, folder }: { actor: FolderActor; message: MessageSummary; folder: Folder }) {
  const t = useT();
  const selected = useSelector(actor, selectIsSelected(message.id));
  const { locale, timezone } = useLocaleZone();
  const unread = message.kind === 'received' && message.unread;
  const href = messageHref(folder, message);
  return (
    <div
      role="listitem"
      data-unread={unread || undefined}
      className={cn('flex h-full items-center gap-3 border-b px-4 hover:bg-accent/50', selected && 'bg-accent')}
    >
      <Checkbox
        aria-label={message.title ? t('folders.select', { title: message.title }) : t('folders.selectUntitled')}
        checked={selected}
        onCheckedChange={() => actor.send({ type: 'folder.toggleSelect', id: message.id })}
      />
      <Link href={href} className="flex min-w-0 flex-1 flex-col gap-0.5 py-2 outline-none focus-visible:ring-2 focus-visible:ring-ring">
        <span className="flex items-center gap-2">
          {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: the dot's word goes into the row link's name (name from content), as the sidebar's counters do. */}
          {unread && <span aria-label={t('folders.unreadMark')} className="size-2 shrink-0 rounded-full bg-primary" />}
          <span className={cn('truncate text-sm', unread ? 'font-bold' : 'font-medium')}>{message.counterpart}</span>
          <span className="ml-auto shrink-0 text-xs text-muted-foreground">{formatListDate(message.date, locale, timezone)}</span>
        </span>
        <span className="flex min-w-0 items-center gap-2">
          <span
            data-slot="message-title"
            className={cn('truncate text-sm', unread && 'font-semibold', !message.title && 'text-muted-foreground italic')}
          >
            {message.title || t('messages.untitled')}
          </span>
          {/* Beside the title, not inside it: a long title would cut it off. */}
          {message.has_attachments && (
            <svg
              role="img"
              aria-label={t('folders.attachment')}
              viewBox="0 0 24 24"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
              strokeLinecap="round"
              className="size-3.5 shrink-0 text-muted-foreground"
            >
              <path d="m21 11-8.6 8.6a5 5 0 0 1-7-7L14 4a3.3 3.3 0 0 1 4.7 4.7l-8.6 8.6a1.7 1.7 0 0 1-2.4-2.4L15.6 7" />
            </svg>
          )}
        </span>
        <span className="flex items-center gap-2 text-xs text-muted-foreground">
          <span className="truncate">{message.snippet}</span>
          {message.progress && message.progress.state !== 'sent' && <ProgressBadge progress={message.progress} />}
          <span className="ml-auto flex shrink-0 gap-1">
            <ChannelBadges channels={message.channels} tiny />
          </span>
        </span>
      </Link>
    </div>
  );
}

function FolderSkeleton() {
  const t = useT();
  return <ListSkeleton label={t('app.loading')} />;
}

/** Sent folder: deliveries still in flight ("Enviando 40 %") or some that failed ("Con fallos"). */
function ProgressBadge({ progress }: { progress: DeliveryProgress }) {
  const t = useT();
  const sending = progress.state === 'sending';
  return (
    <span
      data-slot="progress-badge"
      className={cn(
        'shrink-0 rounded px-1.5 py-0.5 text-[10px] font-medium',
        sending ? 'bg-secondary text-secondary-foreground' : 'bg-destructive/10 text-destructive',
      )}
    >
      {sending ? t('folders.progressSending', { percent: settledPercent(progress) }) : t('folders.progressPartial')}
    </span>
  );
}
