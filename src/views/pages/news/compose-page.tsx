// /mural/news/compose (a new post) and /mural/news/compose?id=N (edit it): the page actor, its frame, the
// skeleton while it loads, the load failure. The form's sections are beside it.
import { useSelector } from '@xstate/react';
import { useSearch } from 'wouter';
import { newsComposeMachine } from '../../../machines/news/compose';
import { selectIsEditingPost, selectIsLoading, selectLoadFailed } from '../../../machines/news/compose-selectors';
import type { SessionSnapshot } from '../../../machines/session/session';
import { sessionActor } from '../../actors';
import { useT } from '../../lib/i18n';
import { usePageActor } from '../../lib/page-actor';
import { cn } from '../../lib/utils';
import { Button } from '../../ui/button';
import { NewsForm } from './compose/news-form';
import type { NewsComposeActor } from './compose/shared';

const selectUserId = (s: SessionSnapshot): number | null => s.context.user?.id ?? null;
const selectTimezone = (s: SessionSnapshot): string | null => s.context.user?.institution.timezone ?? null;

/** Each post (and "new") is its own visit with its own backup, per user. */
export function NewsComposePage() {
  const search = useSearch();
  const userId = useSelector(sessionActor, selectUserId);
  const timezone = useSelector(sessionActor, selectTimezone);
  const raw = new URLSearchParams(search).get('id');
  const postId = raw !== null && /^\d{1,12}$/.test(raw) && Number(raw) > 0 ? Number(raw) : null;
  if (userId === null || timezone === null) return null;
  const backupKey = `news:${userId}:${postId ?? 'new'}`;
  return <NewsComposeScreen key={backupKey} postId={postId} backupKey={backupKey} timezone={timezone} />;
}

export function NewsComposeScreen({ postId, backupKey, timezone }: { postId: number | null; backupKey: string; timezone: string }) {
  const compose = usePageActor(newsComposeMachine, { input: { postId, backupKey, timezone } });
  return compose ? <ComposeView compose={compose} /> : <Frame editing={postId !== null}><Skeleton /></Frame>;
}

function Frame({ editing, children }: { editing: boolean; children: React.ReactNode }) {
  const t = useT();
  return (
    <section aria-labelledby="page-title" className="mx-auto flex w-full max-w-3xl flex-col gap-4">
      <h1 id="page-title" className="text-2xl font-bold">
        {t(editing ? 'newsCompose.editHeading' : 'newsCompose.heading')}
      </h1>
      {children}
    </section>
  );
}

function ComposeView({ compose }: { compose: NewsComposeActor }) {
  const t = useT();
  const loading = useSelector(compose, selectIsLoading);
  const loadFailed = useSelector(compose, selectLoadFailed);
  const editing = useSelector(compose, selectIsEditingPost);
  return (
    <Frame editing={editing}>
      {loadFailed ? (
        <div role="alert" className="flex flex-col items-start gap-3 rounded-lg border bg-card p-6">
          <p>{t('newsCompose.loadFailed')}</p>
          <Button onClick={() => compose.send({ type: 'news.retry' })}>{t('newsCompose.retry')}</Button>
        </div>
      ) : loading ? (
        <Skeleton />
      ) : (
        <NewsForm compose={compose} />
      )}
    </Frame>
  );
}

function Skeleton() {
  const t = useT();
  return (
    <div role="status" aria-label={t('newsCompose.loading')} className="flex flex-col gap-4 rounded-lg border bg-card p-6">
      {['h-10', 'h-40', 'h-10', 'h-16', 'h-10'].map((height, i) => (
        <div key={i} className={cn('animate-pulse rounded-md bg-muted', height)} />
      ))}
    </div>
  );
}
