// The inbox: the children to choose from, a search box, then the messages newest first, unread marked, each
// row with its sender, school, children and date.
import { useSelector } from '@xstate/react';
import { useId } from 'react';
import { Link, useSearch } from 'wouter';
import type { FamilyMessageSummary } from '../../../shared/family-contract';
import {
  type FamilyInboxActor,
  selectCanLoadMore,
  selectInboxFailure,
  selectInboxItems,
  selectInboxPhase,
  selectIsLoadingMore,
  selectIsSearching,
  selectMoreFailure,
  selectSearch,
  selectUnreadCount,
} from '../../machines/family/inbox';
import { Button } from '../ui/button';
import { Label } from '../ui/label';
import { SearchInput } from '../ui/search-input';
import { ChildrenBar } from './children-bar';
import { formatWhen, useFamilyLocale, useFamilyT } from './family-context';
import { childOf, inboxHref, messageHref } from './inbox-address';
import { useChildrenActor, useInboxActor } from './page-actor';

export function InboxPage({ token }: { token: string }) {
  const t = useFamilyT();
  const student = childOf(useSearch());
  const inbox = useInboxActor(token, student);
  const children = useChildrenActor(token);
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
      <ChildrenBar actor={children} student={student} />
      <SearchBox inbox={inbox} />
      {phase === 'loading' ? <p className="text-sm text-muted-foreground">{t('family.app.loading')}</p> : null}
      {phase === 'failed' ? <InboxFailed inbox={inbox} /> : null}
      {phase === 'noResults' ? <NoResults inbox={inbox} student={student} /> : null}
      {phase === 'empty' ? (
        <div className="rounded-lg border bg-card p-4">
          <p className="font-medium">{t('family.inbox.empty')}</p>
          <p className="text-sm text-muted-foreground">{t('family.inbox.emptyHint')}</p>
          <Button variant="outline" className="mt-3" onClick={() => inbox.send({ type: 'inbox.refresh' })}>
            {t('family.inbox.refresh')}
          </Button>
        </div>
      ) : null}
      {phase === 'loaded' ? <InboxList inbox={inbox} student={student} /> : null}
    </section>
  );
}

function SearchBox({ inbox }: { inbox: FamilyInboxActor }) {
  const t = useFamilyT();
  const id = useId();
  const q = useSelector(inbox, selectSearch);
  const searching = useSelector(inbox, selectIsSearching);
  return (
    <search className="flex flex-col gap-1">
      <Label htmlFor={`${id}-q`}>{t('family.children.search')}</Label>
      <SearchInput
        id={`${id}-q`}
        value={q}
        className="w-full"
        aria-describedby={`${id}-hint`}
        onSearch={(text) => inbox.send({ type: 'inbox.search', q: text })}
      />
      <p id={`${id}-hint`} role="status" className="text-xs text-muted-foreground">
        {searching ? t('family.children.searching') : t('family.children.searchHint')}
      </p>
    </search>
  );
}

function NoResults({ inbox, student }: { inbox: FamilyInboxActor; student: number | null }) {
  const t = useFamilyT();
  const q = useSelector(inbox, selectSearch);
  return (
    <div className="rounded-lg border bg-card p-4">
      <p className="font-medium">{t('family.children.noResults')}</p>
      <p className="text-sm text-muted-foreground">
        {q.trim() !== '' ? t('family.children.noResultsSearch') : t('family.children.noResultsChild')}
      </p>
      <div className="mt-3 flex flex-wrap gap-2">
        {q.trim() !== '' ? (
          <Button variant="outline" onClick={() => inbox.send({ type: 'inbox.search', q: '' })}>
            {t('family.children.clearSearch')}
          </Button>
        ) : null}
        {student !== null ? (
          <Link
            href={inboxHref(null)}
            className="inline-flex items-center text-sm font-medium text-primary underline-offset-4 hover:underline"
          >
            {t('family.children.showAll')}
          </Link>
        ) : null}
      </div>
    </div>
  );
}

function InboxFailed({ inbox }: { inbox: FamilyInboxActor }) {
  const t = useFamilyT();
  const failure = useSelector(inbox, selectInboxFailure);
  // A child that is not (or no longer) this family's: nothing to retry, the whole inbox instead.
  if (failure === 'missing') {
    return (
      <div role="alert" className="rounded-lg border border-destructive/40 bg-card p-4">
        <p>{t('family.children.missing')}</p>
        <Link href={inboxHref(null)} className="mt-3 inline-flex text-sm font-medium text-primary underline-offset-4 hover:underline">
          {t('family.children.showAll')}
        </Link>
      </div>
    );
  }
  return (
    <div role="alert" className="rounded-lg border border-destructive/40 bg-card p-4">
      <p>{failure === 'offline' ? t('family.inbox.offline') : t('family.inbox.error')}</p>
      <Button variant="outline" className="mt-3" onClick={() => inbox.send({ type: 'inbox.retry' })}>
        {t('family.inbox.retry')}
      </Button>
    </div>
  );
}

function InboxList({ inbox, student }: { inbox: FamilyInboxActor; student: number | null }) {
  const t = useFamilyT();
  const items = useSelector(inbox, selectInboxItems);
  const loadingMore = useSelector(inbox, selectIsLoadingMore);
  const moreFailure = useSelector(inbox, selectMoreFailure);
  const canMore = useSelector(inbox, selectCanLoadMore);
  return (
    <>
      <ul className="flex flex-col gap-2">
        {items.map((item) => (
          <InboxRow key={item.id} item={item} student={student} />
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

function InboxRow({ item, student }: { item: FamilyMessageSummary; student: number | null }) {
  const t = useFamilyT();
  const locale = useFamilyLocale();
  return (
    <li>
      <Link
        href={messageHref(item.id, student)}
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
        <span className="text-sm text-muted-foreground">{item.school_name}</span>
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
