// /mural/news/compose (a new post) and /mural/news/compose?id=N (edit it): the page actor, its frame, the
// skeleton while it loads, the load failure. The form's sections are beside it.
import { useSearch } from 'wouter';
import { newsComposeMachine } from '../../../machines/news/compose';
import { selectIsEditingPost, selectIsLoading, selectLoadFailed } from '../../../machines/news/compose-selectors';
import type { SessionSnapshot } from '../../../machines/session/session';
import { sessionActor } from '../../actors';
import { useT } from '../../lib/i18n';
import { usePageActor } from '../../lib/page-actor';
import { Button } from '../../ui/button';
import { LoadFailure } from '../../ui/list-state';
import { FormSkeleton, Page, PageTitle } from '../../ui/page';
import { NewsForm } from './compose/news-form';
import type { NewsComposeActor } from './compose/shared';
import { useSelectors } from '../../lib/selectors';

const selectUserId = (s: SessionSnapshot): number | null => s.context.user?.id ?? null;
const selectTimezone = (s: SessionSnapshot): string | null => s.context.user?.institution.timezone ?? null;

/** Each post (and "new") is its own visit with its own backup, per user. */
export function NewsComposePage() {
  const search = useSearch();
  const { userId, timezone } = useSelectors(sessionActor, { userId: selectUserId, timezone: selectTimezone });
  const raw = new URLSearchParams(search).get('id');
  const postId = raw !== null && /^\d{1,12}$/.test(raw) && Number(raw) > 0 ? Number(raw) : null;
  if (userId === null || timezone === null) return null;
  const backupKey = `news:${userId}:${postId ?? 'new'}`;
  return <NewsComposeScreen key={backupKey} postId={postId} backupKey={backupKey} timezone={timezone} />;
}

export function NewsComposeScreen({ postId, backupKey, timezone }: { postId: number | null; backupKey: string; timezone: string }) {
  const t = useT();
  const compose = usePageActor(newsComposeMachine, { input: { postId, backupKey, timezone } });
  return compose ? (
    <ComposeView compose={compose} />
  ) : (
    <Frame editing={postId !== null}>
      <FormSkeleton label={t('newsCompose.loading')} heights={FORM_OUTLINE} />
    </Frame>
  );
}

/** The form's outline while it loads. */
const FORM_OUTLINE = ['h-10', 'h-40', 'h-10', 'h-16', 'h-10'];

function Frame({ editing, children }: { editing: boolean; children: React.ReactNode }) {
  const t = useT();
  return (
    <Page width="w-full max-w-3xl">
      <PageTitle>{t(editing ? 'newsCompose.editHeading' : 'newsCompose.heading')}</PageTitle>
      {children}
    </Page>
  );
}

function ComposeView({ compose }: { compose: NewsComposeActor }) {
  const t = useT();
  const { loading, loadFailed, editing } = useSelectors(compose, {
    loading: selectIsLoading,
    loadFailed: selectLoadFailed,
    editing: selectIsEditingPost,
  });
  return (
    <Frame editing={editing}>
      {loadFailed ? (
        <LoadFailure message={t('newsCompose.loadFailed')}>
          <Button onClick={() => compose.send({ type: 'news.retry' })}>{t('newsCompose.retry')}</Button>
        </LoadFailure>
      ) : loading ? (
        <FormSkeleton label={t('newsCompose.loading')} heights={FORM_OUTLINE} />
      ) : (
        <NewsForm compose={compose} />
      )}
    </Frame>
  );
}
