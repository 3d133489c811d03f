import type { ComponentProps } from 'react';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { Link } from 'wouter';
import {
  selectDelivery,
  selectIsBusy,
  selectIsConfirmingCancel,
  selectIsConfirmingPurge,
  selectKind,
  selectOffersCancelSchedule,
  selectOffersDelete,
  selectOffersPurge,
  selectOffersRestore,
  selectProgress,
} from '../../../machines/messages/lifecycle-selectors';
import { CANCEL_SCHEDULE_BUTTON_ID, PURGE_BUTTON_ID } from '../../../machines/messages/lifecycle-rules';
import {
  messageReaderMachine,
  selectCanEdit,
  selectCanReply,
  selectIsReaderFailed,
  selectIsReaderNotFound,
  selectLifecycle,
  selectMessage,
  type LifecycleActor,
} from '../../../machines/messages/reader';
import type { Folder } from '../../../../shared/codes';
import type { MessageDetail } from '../../../../shared/messages-contract';
import { attachmentHref } from '../../../services/messages/messages';
import { settledPercent, triedOf } from '../../../../shared/delivery-progress';
import { formatBytes, formatLongDate } from '../../lib/format';
import type { MessageKey } from '../../../i18n';
import { useLocale, useT } from '../../lib/i18n';
import { usePageActor } from '../../lib/page-actor';
import { useSelectors } from '../../lib/selectors';
import { ProgressText } from '../../lib/progress-text';
import { ConfirmPanel } from '../../ui/confirm-panel';
import { Button, buttonVariants } from '../../ui/button';
import { LoadFailure } from '../../ui/list-state';
import { Progress } from '../../ui/progress';
import { cn } from '../../lib/utils';
import { ErrorPage } from '../app/error-page';
import { GuardianOfLine } from './guardian-of';
import { ThreadSection } from './thread-section';
import { ConversationsSection, outsideConversations } from './conversations-section';
import { ChannelBadges } from './channel-badges';
import { ArrivedByLine } from './arrived-by';

type ReaderActor = ActorRefFrom<typeof messageReaderMachine>;

const FOLDER_TITLE: Record<Folder, MessageKey> = {
  inbox: 'pages.inbox',
  sent: 'pages.sent',
  scheduled: 'pages.scheduled',
  draft: 'pages.draft',
  trash: 'folders.trash',
};

export function MessagePage({ folder, id }: { folder: Folder; id: number }) {
  const reader = usePageActor(messageReaderMachine, { input: { id, folder } });
  return (
    <article aria-labelledby="message-title" className="mx-auto flex max-w-3xl flex-col gap-4">
      <BackLink folder={folder} />
      {reader ? <Reading reader={reader} /> : <MessageSkeleton />}
    </article>
  );
}

function BackLink({ folder }: { folder: Folder }) {
  const t = useT();
  return (
    <Link href={`/${folder}`} className="text-sm text-primary hover:underline">
      ← {t('messages.back', { folder: t(FOLDER_TITLE[folder]) })}
    </Link>
  );
}

function MessageSkeleton() {
  const t = useT();
  return <div role="status" aria-label={t('app.loading')} className="h-64 animate-pulse rounded-lg bg-muted" />;
}

function Reading({ reader }: { reader: ReaderActor }) {
  const t = useT();
  const { message, lifecycle, failed, notFound } = useSelectors(reader, {
    message: selectMessage,
    lifecycle: selectLifecycle,
    failed: selectIsReaderFailed,
    notFound: selectIsReaderNotFound,
  });
  if (notFound) return <ErrorPage code={404} />;
  if (failed) {
    return (
      <LoadFailure message={t('messages.readFailed')}>
        <Button onClick={() => reader.send({ type: 'reader.retry' })}>{t('folders.retry')}</Button>
      </LoadFailure>
    );
  }
  if (!message || !lifecycle) return <MessageSkeleton />;
  return <MessageView reader={reader} lifecycle={lifecycle} message={message} />;
}

function MessageView({ reader, lifecycle, message }: { reader: ReaderActor; lifecycle: LifecycleActor; message: MessageDetail }) {
  const t = useT();
  const locale = useLocale();
  const kind = useSelector(lifecycle, selectKind);
  const sent = new Date(message.date);
  const when = formatLongDate(message.scheduled_at ?? message.date, locale, message.timezone);

  return (
    <div className="flex flex-col gap-4 rounded-lg border bg-card p-6">
      <header className="flex flex-col gap-2">
        <h1 id="message-title" className="text-2xl font-bold">
          {message.title || t('messages.untitled')}
        </h1>
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
          <dt className="text-muted-foreground">{t('messages.from')}</dt>
          <dd className="flex flex-col">
            <span>{message.sender.name}</span>
            <GuardianOfLine of={message.sender_of} />
            <ArrivedByLine arrived={message.arrived_by} />
          </dd>
          <dt className="text-muted-foreground">{t('messages.to')}</dt>
          <dd>{message.recipients_summary.label}</dd>
          <dt className="text-muted-foreground">{t('messages.channels')}</dt>
          <dd className="flex flex-wrap gap-1">
            <ChannelBadges channels={message.channels} />
          </dd>
        </dl>
        {message.kind === 'scheduled' && message.scheduled_at ? (
          <p className="rounded-md bg-secondary px-3 py-2 text-sm text-secondary-foreground">
            {t('messages.scheduledFor', { date: when.date, time: when.time, timezone: message.timezone })}
          </p>
        ) : (
          <p className="text-sm text-muted-foreground">
            <time dateTime={sent.toISOString()}>
              {when.date}, {when.time}
            </time>
          </p>
        )}
      </header>

      <div className="text-sm leading-relaxed whitespace-pre-wrap">{message.content}</div>

      {message.attachments.length > 0 && (
        <section aria-labelledby="attachments-title" className="flex flex-col gap-2">
          <h2 id="attachments-title" className="text-sm font-semibold">
            {t('messages.attachments')}
          </h2>
          <ul className="flex flex-col gap-1">
            {message.attachments.map((a) => (
              <li key={a.id} className="flex items-center gap-3 text-sm">
                <span className="truncate">{a.name}</span>
                <span className="text-muted-foreground">{formatBytes(a.size, locale)}</span>
                <a className={buttonVariants({ variant: 'outline', size: 'sm' })} href={attachmentHref(a.id)} download={a.name}>
                  {t('messages.download')}
                </a>
              </li>
            ))}
          </ul>
        </section>
      )}

      {kind === 'sent' && message.reception && <Delivery lifecycle={lifecycle} id={message.id} people={message.recipients_summary.total} />}

      <ConversationsSection conversations={message.conversations} timezone={message.timezone} />
      <ThreadSection thread={outsideConversations(message)} timezone={message.timezone} />

      <Actions reader={reader} lifecycle={lifecycle} />
    </div>
  );
}

/** What can be done with the message now: the reader's and the lifecycle's `can`, nothing decided here. */
function Actions({ reader, lifecycle }: { reader: ReaderActor; lifecycle: LifecycleActor }) {
  const t = useT();
  const { canReply, canEdit } = useSelectors(reader, { canReply: selectCanReply, canEdit: selectCanEdit });
  // A button stays (disabled) while its own call runs, so keyboard focus is not lost under the user.
  const { canCancelSchedule, canDelete, canRestore, canPurge, confirmingPurge, confirmingCancel, busy } = useSelectors(lifecycle, {
    canCancelSchedule: selectOffersCancelSchedule,
    canDelete: selectOffersDelete,
    canRestore: selectOffersRestore,
    canPurge: selectOffersPurge,
    confirmingPurge: selectIsConfirmingPurge,
    confirmingCancel: selectIsConfirmingCancel,
    busy: selectIsBusy,
  });
  return (
    <footer className="flex flex-wrap gap-2 border-t pt-4">
      {canReply && (
        <Button variant="outline" onClick={() => reader.send({ type: 'message.reply' })}>
          {t('messages.reply')}
        </Button>
      )}
      {canEdit && (
        <Button variant="outline" onClick={() => reader.send({ type: 'message.edit' })}>
          {t('messages.edit')}
        </Button>
      )}
      {canCancelSchedule && (
        <Button
          id={CANCEL_SCHEDULE_BUTTON_ID}
          variant="outline"
          disabled={busy}
          onClick={() => lifecycle.send({ type: 'message.cancelSchedule' })}
        >
          {t('messages.cancelSchedule')}
        </Button>
      )}
      {canDelete && (
        <Button variant="outline" disabled={busy} onClick={() => lifecycle.send({ type: 'message.delete' })}>
          {t('folders.delete')}
        </Button>
      )}
      {canRestore && (
        <Button variant="outline" disabled={busy} onClick={() => lifecycle.send({ type: 'message.restore' })}>
          {t('folders.restore')}
        </Button>
      )}
      {canPurge && (
        <Button id={PURGE_BUTTON_ID} variant="destructive" disabled={busy} onClick={() => lifecycle.send({ type: 'message.purge' })}>
          {t('folders.purge')}
        </Button>
      )}
      {confirmingCancel && (
        <LifecycleQuestion
          lifecycle={lifecycle}
          title={t('messages.cancelScheduleConfirmTitle')}
          description={t('messages.cancelScheduleConfirmBody')}
          confirmLabel={t('messages.cancelScheduleConfirm')}
          cancelLabel={t('messages.keepSchedule')}
        />
      )}
      {confirmingPurge && (
        <LifecycleQuestion
          lifecycle={lifecycle}
          title={t('folders.purgeConfirmTitle')}
          confirmLabel={t('folders.purge')}
          cancelLabel={t('folders.cancel')}
        />
      )}
    </footer>
  );
}

/** A question the lifecycle waits on (cancel the schedule?, delete forever?): the answer goes back to it. */
function LifecycleQuestion({
  lifecycle,
  ...texts
}: Pick<ComponentProps<typeof ConfirmPanel>, 'title' | 'description' | 'confirmLabel' | 'cancelLabel'> & { lifecycle: LifecycleActor }) {
  return (
    <ConfirmPanel
      {...texts}
      destructive
      onConfirm={() => lifecycle.send({ type: 'message.confirm' })}
      onCancel={() => lifecycle.send({ type: 'message.cancel' })}
    />
  );
}

/** A sent message of its author: live delivery progress (from the lifecycle) and the way to the detail. */
function Delivery({ lifecycle, id, people }: { lifecycle: LifecycleActor; id: number; people: number }) {
  const t = useT();
  const { progress, delivery } = useSelectors(lifecycle, { progress: selectProgress, delivery: selectDelivery });
  const href = `/sent/message/${id}/reception`;
  return (
    <section aria-labelledby="reception-title" className="flex flex-col gap-2 rounded-md border p-3">
      <h2 id="reception-title" className="text-sm font-semibold">
        {t('messages.reception')}
      </h2>
      {progress && (
        <>
          {/* The counts change every poll: visible, not announced. Once settled it reads as the live text below,
            which screen readers then get alone. */}
          <ProgressText progress={progress} {...(delivery ? { 'data-delivery': delivery } : {})} />
          <Progress value={settledPercent(progress)} aria-label={t('reception.progressBar')} />
          {/* People (as the compose estimate counted them) and deliveries (one per person and channel) apart. */}
          <p data-slot="reach-summary" className="text-xs text-muted-foreground">
            {t('messages.reachedPeople', { count: people })} · {t('messages.deliveryCount', { count: triedOf(progress) })}
            {progress.no_address > 0 && ` · ${t('messages.noAddressCount', { count: progress.no_address })}`}
          </p>
          <ul className="flex flex-wrap gap-2 text-xs">
            {(['received', 'read', 'not_received', 'error', 'failed'] as const).map((k) => (
              <li key={k} className="rounded-md border px-2 py-0.5">
                {t(`messages.status.${k}`)}: <strong>{progress[k]}</strong> / {progress.total}{' '}
                {t('messages.deliveries', { count: progress.total })}
              </li>
            ))}
          </ul>
        </>
      )}
      <Link href={href} className={cn(buttonVariants({ variant: 'outline', size: 'sm' }), 'w-fit')}>
        {t('reception.view')}
      </Link>
    </section>
  );
}
