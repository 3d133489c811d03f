// One post of the wall: pinned mark, category, title, byline (author, date in the school's zone), the text
// with safe links, its images (lazy, sized by class, open full size) and its files to download. On the desk
// it also shows its status in words and colour and the actions the machine offers for it. Every staff reader
// sees its audience.
import { Link } from 'wouter';
import type { NewsPost, NewsStatus } from '../../../../shared/news-contract';
import { postActions, selectActingOn, type NewsWallActor, type NewsWallSnapshot } from '../../../machines/news/wall';
import { newsFileHref } from '../../../services/news/wall';
import type { MessageKey } from '../../../i18n';
import { formatBytes, formatDateTime } from '../../lib/format';
import { useT } from '../../lib/i18n';
import { cn } from '../../lib/utils';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { PostBody } from './post-body';
import { useSelectors } from '../../lib/selectors';

/** Status colours (classes, never inline styles: the CSP forbids them). */
const STATUS_CLASS: Record<NewsStatus, string> = {
  scheduled: 'border-transparent bg-sky-100 text-sky-900',
  published: 'border-transparent bg-emerald-100 text-emerald-900',
  ended: 'border-transparent bg-muted text-muted-foreground',
  unpublished: 'border-warning/60 bg-warning/15 text-foreground',
  deleted: 'border-transparent bg-destructive/10 text-destructive',
};

const STATUS_KEY: Record<NewsStatus, MessageKey> = {
  scheduled: 'news.status.scheduled',
  published: 'news.status.published',
  ended: 'news.status.ended',
  unpublished: 'news.status.unpublished',
  deleted: 'news.status.deleted',
};

export interface PostCardProps {
  post: NewsPost;
  locale: string;
  timezone: string;
  /** The desk: status, audience and actions. */
  desk?: { actor: NewsWallActor };
}

export function PostCard({ post, locale, timezone, desk }: PostCardProps) {
  const t = useT();
  const titleId = `post-${post.id}-title`;
  const images = post.attachments.filter((a) => a.is_image);
  const files = post.attachments.filter((a) => !a.is_image);
  const date = formatDateTime(post.publish_at, locale, timezone);
  return (
    <article
      aria-labelledby={titleId}
      data-slot="post"
      data-pinned={post.pinned || undefined}
      data-status={post.status}
      className={cn('flex flex-col gap-3 rounded-lg border bg-card p-4 sm:p-5', post.pinned && 'border-primary/60 ring-1 ring-primary/30')}
    >
      <div className="flex flex-wrap items-center gap-1.5 text-sm">
        {post.pinned && <Badge data-slot="post-pinned">{t('news.pinned')}</Badge>}
        <Badge variant="secondary" data-slot="post-category">
          {post.category?.name ?? t('news.noCategory')}
        </Badge>
        {desk && (
          <Badge data-slot="post-status" className={STATUS_CLASS[post.status]}>
            {t(STATUS_KEY[post.status], { date })}
          </Badge>
        )}
      </div>
      <h2 id={titleId} className="text-lg font-semibold break-words">
        {post.title}
      </h2>
      <p className="text-sm text-muted-foreground">
        {t('news.byline', { name: post.author.name, date })}
        {post.ends_at && <> · {t('news.endsAt', { date: formatDateTime(post.ends_at, locale, timezone) })}</>}
      </p>
      {/* Every staff reader sees whom a post is for: a teacher must tell a course's notice from the school's. */}
      <p className="text-sm text-muted-foreground" data-slot="post-audience">
        {post.audience.scope === 'school' ? t('news.forSchool') : t('news.forGroups', { names: post.audience_names.join(', ') })}
      </p>
      <PostBody body={post.body} />
      {images.length > 0 && (
        <ul aria-label={t('news.images')} className="grid grid-cols-2 gap-2 sm:grid-cols-3" data-slot="post-images">
          {images.map((image) => (
            <li key={image.id}>
              <a
                href={newsFileHref(image.url)}
                target="_blank"
                rel="noopener"
                aria-label={t('news.openImage', { name: image.name })}
                className="block overflow-hidden rounded-md border outline-none focus-visible:ring-[3px] focus-visible:ring-ring/40"
              >
                <img
                  src={newsFileHref(image.url)}
                  alt={image.name}
                  loading="lazy"
                  decoding="async"
                  className="aspect-[4/3] h-auto w-full bg-muted object-cover"
                />
              </a>
            </li>
          ))}
        </ul>
      )}
      {files.length > 0 && (
        <section aria-label={t('news.files')} data-slot="post-files">
          <ul className="flex flex-col gap-1">
            {files.map((file) => (
              <li key={file.id}>
                <a
                  href={newsFileHref(file.url)}
                  download={file.name}
                  className="inline-flex min-h-11 items-center text-sm text-primary underline underline-offset-2 sm:min-h-0"
                >
                  {t('news.download', { name: file.name, size: formatBytes(file.size, locale) })}
                </a>
              </li>
            ))}
          </ul>
        </section>
      )}
      {desk && <PostActions actor={desk.actor} post={post} />}
    </article>
  );
}

/** What the desk offers for one post: what `state.can(...)` allows, busy while its action runs. */
function PostActions({ actor, post }: { actor: NewsWallActor; post: NewsPost }) {
  const t = useT();
  const id = post.id;
  const { canUnpublish, canPublish, canDelete, busy } = useSelectors(actor, {
    canUnpublish: (s: NewsWallSnapshot) => s.can({ type: 'news.unpublish', id }),
    canPublish: (s: NewsWallSnapshot) => s.can({ type: 'news.publish', id }),
    canDelete: (s: NewsWallSnapshot) => s.can({ type: 'news.delete', id }),
    busy: (s: NewsWallSnapshot) => selectActingOn(s) === id,
  });
  // Which buttons a post has (its status); whether each works now is `state.can` (one action at a time).
  const offered = postActions(post);
  if (!post.editable) return null;
  return (
    <div
      role="group"
      aria-label={t('news.actions.label', { title: post.title })}
      aria-busy={busy || undefined}
      className="flex flex-wrap gap-2 border-t pt-3"
      data-slot="post-actions"
    >
      {busy && (
        <span role="status" className="inline-flex items-center text-sm text-muted-foreground">
          {t('news.actions.busy')}
        </span>
      )}
      <Button asChild size="sm" variant="outline">
        <Link href={`/mural/news/compose?id=${id}`}>{t('news.actions.edit')}</Link>
      </Button>
      {offered.unpublish && (
        <Button size="sm" variant="outline" disabled={!canUnpublish} onClick={() => actor.send({ type: 'news.unpublish', id })}>
          {t('news.actions.unpublish')}
        </Button>
      )}
      {offered.publish && (
        <Button size="sm" variant="outline" disabled={!canPublish} onClick={() => actor.send({ type: 'news.publish', id })}>
          {t('news.actions.publish')}
        </Button>
      )}
      <Button
        size="sm"
        variant="ghost"
        className="text-destructive"
        disabled={!canDelete}
        onClick={() => actor.send({ type: 'news.delete', id })}
      >
        {t('news.actions.delete')}
      </Button>
    </div>
  );
}
