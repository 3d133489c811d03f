import { useEffect, useState } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { navigate } from 'wouter/use-browser-location';
import { selectLocale } from '../../machines/locale';
import {
  canTransition,
  messageLifecycleMachine,
  selectDelivery,
  selectIsBusy,
  selectKind,
  selectProgress,
  type MessageLifecycleMachine,
} from '../../machines/message-lifecycle';
import {
  messageReaderMachine,
  selectIsReaderFailed,
  selectIsReaderNotFound,
  selectMessage,
} from '../../machines/message-reader';
import type { MessageDetail } from '../../../shared/messages-contract';
import { attachmentHref } from '../../services/messages';
import { localeActor } from '../actors';
import { showToast } from '../layout/toaster';
import { settledPercent } from '../../../shared/delivery-progress';
import type { ActorRefFrom } from 'xstate';
import { formatBytes, formatLongDate } from '../lib/format';
import { useT } from '../lib/i18n';
import { ProgressText } from '../lib/progress-text';
import { Button, buttonVariants } from '../ui/button';
import { Progress } from '../ui/progress';
import { cn } from '../lib/utils';
import { ErrorPage } from './error-page';
import type { Folder } from '../../../shared/codes';

const FOLDER_TITLE: Record<Folder, string> = {
  inbox: 'pages.inbox',
  sent: 'pages.sent',
  scheduled: 'pages.scheduled',
  draft: 'pages.draft',
  trash: 'folders.trash',
};

export function MessagePage({ folder, id }: { folder: Folder; id: number }) {
  const t = useT();
  const reader = useActorRef(messageReaderMachine, { input: { id } });
  useEffect(() => {
    const sub = reader.on('toast', (e) => showToast(e.kind, t(e.key, e.params)));
    return () => sub.unsubscribe();
  }, [reader, t]);
  const message = useSelector(reader, selectMessage);
  const failed = useSelector(reader, selectIsReaderFailed);
  const notFound = useSelector(reader, selectIsReaderNotFound);

  if (notFound) return <ErrorPage code={404} />;
  return (
    <article aria-labelledby="message-title" className="mx-auto flex max-w-3xl flex-col gap-4">
      <a href={`/${folder}`} className="text-sm text-primary hover:underline" onClick={(e) => { e.preventDefault(); navigate(`/${folder}`); }}>
        ← {t('messages.back', { folder: t(FOLDER_TITLE[folder]) })}
      </a>
      {failed && (
        <div role="alert" className="flex flex-col items-start gap-3 rounded-lg border bg-card p-6">
          <p>{t('messages.readFailed')}</p>
          <Button onClick={() => reader.send({ type: 'reader.retry' })}>{t('folders.retry')}</Button>
        </div>
      )}
      {!message && !failed && <div role="status" aria-label={t('app.loading')} className="h-64 animate-pulse rounded-lg bg-muted" />}
      {message && <MessageView message={message} folder={folder} />}
    </article>
  );
}

function MessageView({ message, folder }: { message: MessageDetail; folder: Folder }) {
  const t = useT();
  const locale = useSelector(localeActor, selectLocale);
  const lifecycle = useActorRef(messageLifecycleMachine);
  const kind = useSelector(lifecycle, selectKind);
  const busy = useSelector(lifecycle, selectIsBusy);
  const [confirmPurge, setConfirmPurge] = useState(false);

  useEffect(() => {
    const sub = lifecycle.on('toast', (e) => showToast(e.kind, t(e.key, e.params)));
    lifecycle.send({ type: 'message.open', message });
    // SPEC: opening an inbox message marks it read (the lifecycle ignores it when already read).
    if (message.kind === 'received' && message.unread) lifecycle.send({ type: 'message.read' });
    return () => sub.unsubscribe();
    // Opened once per message; `t` changing must not reopen it.
  }, [lifecycle, message]);

  // After a move the message is no longer in this folder: go back to where it now makes sense.
  useEffect(() => {
    if (kind === 'deleted' && folder !== 'trash') navigate(`/${folder}`, { replace: true });
    if (kind !== null && kind !== 'deleted' && folder === 'trash') navigate('/trash', { replace: true });
    if (kind === 'draft' && folder === 'scheduled') navigate('/draft', { replace: true });
    if (kind === null && lifecycle.getSnapshot().matches('purged')) navigate('/trash', { replace: true });
  }, [kind, folder, lifecycle]);

  const current = kind ?? message.kind;
  const sent = new Date(message.date);
  const when = formatLongDate(message.scheduled_at ?? message.date, locale, message.timezone);

  return (
    <div className="flex flex-col gap-4 rounded-lg border bg-card p-6">
      <header className="flex flex-col gap-2">
        <h1 id="message-title" className="text-2xl font-bold">
          {message.title}
        </h1>
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
          <dt className="text-muted-foreground">{t('messages.from')}</dt>
          <dd>{message.sender.name}</dd>
          <dt className="text-muted-foreground">{t('messages.to')}</dt>
          <dd>{message.recipients_summary.label}</dd>
          <dt className="text-muted-foreground">{t('messages.channels')}</dt>
          <dd className="flex flex-wrap gap-1">
            {message.channels.map((c) => (
              <span key={c} className="rounded bg-secondary px-1.5 py-0.5 text-xs text-secondary-foreground">
                {t(`messages.channel.${c}`)}
              </span>
            ))}
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
                <span className="text-muted-foreground">{formatBytes(a.size)}</span>
                <a className={buttonVariants({ variant: 'outline', size: 'sm' })} href={attachmentHref(a.id)} download={a.name}>
                  {t('messages.download')}
                </a>
              </li>
            ))}
          </ul>
        </section>
      )}

      {current === 'sent' && message.reception && <Delivery lifecycle={lifecycle} id={message.id} />}

      <footer className="flex flex-wrap gap-2 border-t pt-4">
        {current === 'received' && message.allow_replies && (
          <Button variant="outline" onClick={() => navigate(`/new?reply=${message.id}`)}>
            {t('messages.reply')}
          </Button>
        )}
        {current === 'draft' && (
          <Button variant="outline" onClick={() => navigate(`/new?draft=${message.id}`)}>
            {t('messages.edit')}
          </Button>
        )}
        {canTransition(current, 'cancelSchedule') && (
          <Button variant="outline" disabled={busy} onClick={() => lifecycle.send({ type: 'message.cancelSchedule' })}>
            {t('messages.cancelSchedule')}
          </Button>
        )}
        {canTransition(current, 'delete') && (
          <Button variant="outline" disabled={busy} onClick={() => lifecycle.send({ type: 'message.delete' })}>
            {t('folders.delete')}
          </Button>
        )}
        {canTransition(current, 'restore') && (
          <Button variant="outline" disabled={busy} onClick={() => lifecycle.send({ type: 'message.restore' })}>
            {t('folders.restore')}
          </Button>
        )}
        {canTransition(current, 'purge') &&
          (confirmPurge ? (
            <span role="alertdialog" aria-label={t('folders.purgeConfirmTitle')} className="flex items-center gap-2">
              <span className="text-sm">{t('folders.purgeConfirmTitle')}</span>
              <Button variant="destructive" size="sm" autoFocus disabled={busy} onClick={() => lifecycle.send({ type: 'message.purge' })}>
                {t('folders.purge')}
              </Button>
              <Button variant="ghost" size="sm" onClick={() => setConfirmPurge(false)}>
                {t('folders.cancel')}
              </Button>
            </span>
          ) : (
            <Button variant="destructive" disabled={busy} onClick={() => setConfirmPurge(true)}>
              {t('folders.purge')}
            </Button>
          ))}
      </footer>
    </div>
  );
}

/** A sent message of its author: live delivery progress (from the lifecycle) and the way to the detail. */
function Delivery({ lifecycle, id }: { lifecycle: ActorRefFrom<MessageLifecycleMachine>; id: number }) {
  const t = useT();
  const progress = useSelector(lifecycle, selectProgress);
  const delivery = useSelector(lifecycle, selectDelivery);
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
          <ul className="flex flex-wrap gap-2 text-xs">
            {(['received', 'read', 'not_received', 'error', 'failed'] as const).map((k) => (
              <li key={k} className="rounded-md border px-2 py-0.5">
                {t(`messages.status.${k}`)}: <strong>{progress[k]}</strong> / {progress.total}
              </li>
            ))}
          </ul>
        </>
      )}
      <a
        href={href}
        className={cn(buttonVariants({ variant: 'outline', size: 'sm' }), 'w-fit')}
        onClick={(e) => {
          if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
          e.preventDefault();
          navigate(href);
        }}
      >
        {t('reception.view')}
      </a>
    </section>
  );
}
