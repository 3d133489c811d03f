// The inbox: newest first, unread marked, each row with its sender, school, children and date.
import { useSelector } from '@xstate/react';
import { Link } from 'wouter';
import type { FamilyMessageSummary } from '../../../shared/family-contract';
import {
  type FamilyInboxActor,
  selectCanLoadMore,
  selectInboxFailure,
  selectInboxItems,
  selectInboxPhase,
  selectIsLoadingMore,
  selectMoreFailure,
  selectUnreadCount,
} from '../../machines/family/inbox';
import { selectSchoolName } from '../../machines/family/session';
import { Button } from '../ui/button';
import { formatWhen, useFamilyLocale, useFamilyT, useSession } from './family-context';
import { useInboxActor } from './page-actor';

export function InboxPage({ token }: { token: string }) {
  const t = useFamilyT();
  const inbox = useInboxActor(token);
  const phase = useSelector(inbox, selectInboxPhase);
  const unread = useSelector(inbox, selectUnreadCount);
  return (
    <section aria-labelledby="inbox-title" aria-busy={phase === 'loading'} className="flex flex-col gap-3">
      <div className="flex items-center justify-between gap-2">
        <h1 id="inbox-title" className="text-xl font-semibold">
          {t('family.inbox.title')}
        </h1>
        {phase === 'loaded' && unread > 0 ? (
          <span className="rounded-full bg-primary px-2 py-0.5 text-xs font-medium text-primary-foreground">
            {t('family.inbox.unread', { count: unread })}
          </span>
        ) : null}
      </div>
      {phase === 'loading' ? <p className="text-sm text-muted-foreground">{t('family.app.loading')}</p> : null}
      {phase === 'failed' ? <InboxFailed inbox={inbox} /> : null}
      {phase === 'empty' ? (
        <div className="rounded-lg border bg-card p-4">
          <p className="font-medium">{t('family.inbox.empty')}</p>
          <p className="text-sm text-muted-foreground">{t('family.inbox.emptyHint')}</p>
          <Button variant="outline" className="mt-3" onClick={() => inbox.send({ type: 'inbox.refresh' })}>
            {t('family.inbox.refresh')}
          </Button>
        </div>
      ) : null}
      {phase === 'loaded' ? <InboxList inbox={inbox} /> : null}
    </section>
  );
}

function InboxFailed({ inbox }: { inbox: FamilyInboxActor }) {
  const t = useFamilyT();
  const failure = useSelector(inbox, selectInboxFailure);
  return (
    <div role="alert" className="rounded-lg border border-destructive/40 bg-card p-4">
      <p>{failure === 'offline' ? t('family.inbox.offline') : t('family.inbox.error')}</p>
      <Button variant="outline" className="mt-3" onClick={() => inbox.send({ type: 'inbox.retry' })}>
        {t('family.inbox.retry')}
      </Button>
    </div>
  );
}

function InboxList({ inbox }: { inbox: FamilyInboxActor }) {
  const t = useFamilyT();
  const items = useSelector(inbox, selectInboxItems);
  const loadingMore = useSelector(inbox, selectIsLoadingMore);
  const moreFailure = useSelector(inbox, selectMoreFailure);
  const canMore = useSelector(inbox, selectCanLoadMore);
  return (
    <>
      <ul className="flex flex-col gap-2">
        {items.map((item) => (
          <InboxRow key={item.id} item={item} />
        ))}
      </ul>
      {moreFailure ? (
        <p role="alert" className="text-sm text-destructive">
          {t('family.inbox.moreFailed')}
        </p>
      ) : null}
      {canMore || loadingMore ? (
        <Button variant="outline" disabled={loadingMore} onClick={() => inbox.send({ type: 'inbox.more' })}>
          {loadingMore ? t('family.inbox.loadingMore') : t('family.inbox.more')}
        </Button>
      ) : null}
    </>
  );
}

function InboxRow({ item }: { item: FamilyMessageSummary }) {
  const t = useFamilyT();
  const locale = useFamilyLocale();
  const school = useSelector(useSession(), selectSchoolName);
  return (
    <li>
      <Link
        href={`/mensajes/${item.id}`}
        data-unread={item.read ? undefined : true}
        className="flex flex-col gap-1 rounded-lg border bg-card p-3 outline-none hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/40 data-[unread]:border-l-4 data-[unread]:border-l-primary"
      >
        <span className="flex items-start justify-between gap-2">
          <span className={item.read ? 'font-medium' : 'font-bold'}>{item.title}</span>
          {item.read ? null : (
            <span className="shrink-0 rounded-full bg-primary px-2 py-0.5 text-xs font-medium text-primary-foreground">
              {t('family.inbox.unreadMark')}
            </span>
          )}
        </span>
        <span className="text-sm">{t('family.inbox.from', { name: item.sender_name })}</span>
        <span className="text-sm text-muted-foreground">{school}</span>
        {item.student_names ? (
          <span className="text-sm text-muted-foreground">{t('family.inbox.about', { names: item.student_names })}</span>
        ) : null}
        <span className="line-clamp-2 text-sm text-muted-foreground">{item.snippet}</span>
        <time className="text-xs text-muted-foreground" dateTime={item.sent_at ?? undefined}>
          {formatWhen(item.sent_at, locale)}
        </time>
      </Link>
    </li>
  );
}
