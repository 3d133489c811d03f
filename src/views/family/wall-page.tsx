// The school's wall: the posts for the school and for the guardian's children's courses and levels, pinned
// first, each with its date, audience, text and first picture; a post opens whole on its own page.
import { useSelector } from '@xstate/react';
import { Link } from 'wouter';
import type { NewsPost } from '../../../shared/news-contract';
import {
  type FamilyWallActor,
  selectCanLoadMorePosts,
  selectIsLoadingMorePosts,
  selectWallFailure,
  selectWallMoreFailure,
  selectWallPhase,
  selectWallPosts,
} from '../../machines/family/wall';
import { Button } from '../ui/button';
import { formatWhen, useFamilyLocale, useFamilyT } from './family-context';
import { useWallActor } from './wall-actors';
import { WallImage } from './wall-file';

export function WallPage({ token }: { token: string }) {
  const t = useFamilyT();
  const wall = useWallActor(token);
  const phase = useSelector(wall, selectWallPhase);
  return (
    <section aria-labelledby="wall-title" aria-busy={phase === 'loading'} className="flex flex-col gap-3">
      <h1 id="wall-title" className="text-xl font-semibold">
        {t('family.wall.title')}
      </h1>
      <p className="text-sm text-muted-foreground">{t('family.wall.intro')}</p>
      {phase === 'loading' ? <p className="text-sm text-muted-foreground">{t('family.app.loading')}</p> : null}
      {phase === 'failed' ? <WallFailed wall={wall} /> : null}
      {phase === 'empty' ? (
        <div className="rounded-lg border bg-card p-4">
          <p className="font-medium">{t('family.wall.empty')}</p>
          <p className="text-sm text-muted-foreground">{t('family.wall.emptyHint')}</p>
          <Button variant="outline" className="mt-3" onClick={() => wall.send({ type: 'wall.refresh' })}>
            {t('family.wall.refresh')}
          </Button>
        </div>
      ) : null}
      {phase === 'loaded' ? <WallList wall={wall} token={token} /> : null}
    </section>
  );
}

function WallFailed({ wall }: { wall: FamilyWallActor }) {
  const t = useFamilyT();
  const failure = useSelector(wall, selectWallFailure);
  return (
    <div role="alert" className="rounded-lg border border-destructive/40 bg-card p-4">
      <p>{failure === 'offline' ? t('family.wall.offline') : t('family.wall.error')}</p>
      <Button variant="outline" className="mt-3" onClick={() => wall.send({ type: 'wall.retry' })}>
        {t('family.wall.retry')}
      </Button>
    </div>
  );
}

function WallList({ wall, token }: { wall: FamilyWallActor; token: string }) {
  const t = useFamilyT();
  const posts = useSelector(wall, selectWallPosts);
  const loadingMore = useSelector(wall, selectIsLoadingMorePosts);
  const moreFailure = useSelector(wall, selectWallMoreFailure);
  const canMore = useSelector(wall, selectCanLoadMorePosts);
  return (
    <>
      <ul className="flex flex-col gap-3">
        {posts.map((post) => (
          <WallCard key={post.id} post={post} token={token} />
        ))}
      </ul>
      {moreFailure ? (
        <p role="alert" className="text-sm text-destructive">
          {t('family.wall.moreFailed')}
        </p>
      ) : null}
      {canMore || loadingMore ? (
        <Button variant="outline" disabled={loadingMore} onClick={() => wall.send({ type: 'wall.more' })}>
          {loadingMore ? t('family.wall.loadingMore') : t('family.wall.more')}
        </Button>
      ) : null}
    </>
  );
}

/** Pinned, category, date, author and audience of a post: the line under its title. */
export function PostMeta({ post }: { post: NewsPost }) {
  const t = useFamilyT();
  const locale = useFamilyLocale();
  return (
    <div className="flex flex-col gap-1 text-sm text-muted-foreground">
      <p className="flex flex-wrap items-center gap-2">
        {post.pinned ? (
          <span className="rounded-full bg-primary px-2 py-0.5 text-xs font-medium text-primary-foreground">{t('family.wall.pinned')}</span>
        ) : null}
        {post.category ? <span className="rounded-full border px-2 py-0.5 text-xs">{post.category.name}</span> : null}
        <time dateTime={post.publish_at}>{t('family.wall.published', { date: formatWhen(post.publish_at, locale) })}</time>
      </p>
      <p>
        {t('family.wall.by', { name: post.author.name })} ·{' '}
        {/* Guardians are not told which other courses a post is for: only that it is for their children's. */}
        {post.audience.scope === 'school' ? t('family.wall.forSchool') : t('family.wall.forChildren')}
      </p>
    </div>
  );
}

function WallCard({ post, token }: { post: NewsPost; token: string }) {
  const t = useFamilyT();
  const images = post.attachments.filter((file) => file.is_image);
  const first = images[0];
  return (
    <li>
      <article aria-labelledby={`post-${post.id}`} className="flex flex-col gap-2 rounded-lg border bg-card p-3">
        <h2 id={`post-${post.id}`} className="text-lg font-semibold break-words">
          <Link href={`/mural/${post.id}`} className="text-primary underline-offset-4 hover:underline">
            {post.title}
          </Link>
        </h2>
        <PostMeta post={post} />
        {first ? <WallImage token={token} postId={post.id} file={first} /> : null}
        {images.length > 1 ? <p className="text-xs text-muted-foreground">{t('family.wall.images', { count: images.length })}</p> : null}
        <p className="line-clamp-4 text-sm break-words whitespace-pre-wrap">{post.body}</p>
      </article>
    </li>
  );
}
