// The wall's list, for readers and the desk alike: search (debounced by the machine), the category filter,
// the first load's skeleton and failure, the empty and no-match states (with "Limpiar búsqueda"), the
// posts, a stale warning and "Cargar más". useWallActor starts the page's wall on its address.
import { useSelector } from '@xstate/react';
import type { AnyActorRef } from 'xstate';
import {
  newsWallMachine,
  selectCategories,
  selectCategoriesFailed,
  selectHasCrashed,
  selectHasQuery,
  selectWallCategory,
  selectWallCount,
  selectWallItems,
  selectWallList,
  selectWallSearch,
  type NewsWallActor,
} from '../../../machines/news/wall';
import { selectCanLoadMore, selectIsAppending, selectIsStale, selectPlaceholder, selectTotal, type ListSnapshot } from '../../../machines/list/list';
import { selectLocale } from '../../../machines/app/locale';
import { selectTimezone } from '../../../machines/session/selectors';
import { localeActor, sessionActor } from '../../actors';
import { useT } from '../../lib/i18n';
import { usePageActor, wholeQuery } from '../../lib/page-actor';
import { Button } from '../../ui/button';
import { Input } from '../../ui/input';
import { Label } from '../../ui/label';
import { ListFailure, ListSkeleton } from '../../ui/list-state';
import { NativeSelect } from '../../ui/native-select';
import { PostCard } from './post-card';

const as = <R,>(select: (s: ListSnapshot<unknown, unknown>) => R) => (s: unknown) => select(s as ListSnapshot<unknown, unknown>);
const placeholderOf = as(selectPlaceholder);
const isStale = as(selectIsStale);
const canMore = as(selectCanLoadMore);
const isAppending = as(selectIsAppending);
const totalOf = as(selectTotal);

export const WALL_SEARCH_ID = 'mural-search';
export const WALL_CATEGORY_ID = 'mural-category';

/** The page's wall, on what its address says (`?q=…&category=…`). */
export function useWallActor(manage: boolean, path: string): NewsWallActor | null {
  return usePageActor(newsWallMachine, {
    input: { manage, path },
    address: { read: wholeQuery, event: 'wall.address' },
  });
}

export function WallPosts({ actor, desk }: { actor: NewsWallActor; desk: boolean }) {
  const t = useT();
  const list = useSelector(actor, selectWallList);
  const crashed = useSelector(actor, selectHasCrashed);
  return (
    <>
      <Filters actor={actor} />
      {crashed || !list ? (
        <ListFailure message={t('news.loadFailed')} retryLabel={t('news.retry')} onRetry={() => actor.send({ type: 'wall.retry' })} />
      ) : (
        <>
          <Placeholder actor={actor} list={list} desk={desk} />
          <Posts actor={actor} desk={desk} />
          <ListEnd actor={actor} list={list} />
        </>
      )}
    </>
  );
}

function Filters({ actor }: { actor: NewsWallActor }) {
  const t = useT();
  const q = useSelector(actor, selectWallSearch);
  const category = useSelector(actor, selectWallCategory);
  const categories = useSelector(actor, selectCategories);
  const categoriesFailed = useSelector(actor, selectCategoriesFailed);
  return (
    <div role="search" className="flex flex-col gap-3 sm:flex-row sm:items-end" data-slot="mural-filters">
      <div className="flex min-w-0 flex-1 flex-col gap-1.5">
        <Label htmlFor={WALL_SEARCH_ID}>{t('news.search')}</Label>
        <Input
          id={WALL_SEARCH_ID}
          type="search"
          placeholder={t('news.searchPlaceholder')}
          value={q}
          onChange={(e) => actor.send({ type: 'wall.search', q: e.currentTarget.value })}
        />
      </div>
      {categories.length > 0 && (
        <div className="flex flex-col gap-1.5 sm:w-60">
          <Label htmlFor={WALL_CATEGORY_ID}>{t('news.category')}</Label>
          <NativeSelect
            id={WALL_CATEGORY_ID}
            className="h-11 sm:h-9"
            value={category === null ? '' : String(category)}
            onChange={(e) => actor.send({ type: 'wall.filter', category: e.currentTarget.value === '' ? null : Number(e.currentTarget.value) })}
          >
            <option value="">{t('news.allCategories')}</option>
            {categories.map((c) => (
              <option key={c.id} value={String(c.id)}>
                {c.name}
              </option>
            ))}
          </NativeSelect>
        </div>
      )}
      {categoriesFailed && <RetryNote actor={actor} text={t('news.categoriesFailed')} />}
    </div>
  );
}

/** Before any post: the skeleton, the failure, or the empty / no-match state; nothing once posts are there. */
function Placeholder({ actor, list, desk }: { actor: NewsWallActor; list: AnyActorRef; desk: boolean }) {
  const t = useT();
  const placeholder = useSelector(list, placeholderOf);
  const q = useSelector(actor, selectWallSearch).trim();
  const filtered = useSelector(actor, selectHasQuery);
  if (placeholder === 'loading') return <ListSkeleton label={t('news.loading')} rows={3} rowClassName="h-40" />;
  if (placeholder === 'failed') return <ListFailure message={t('news.loadFailed')} retryLabel={t('news.retry')} onRetry={() => actor.send({ type: 'wall.retry' })} />;
  if (placeholder !== 'empty') return null;
  return (
    <div role="status" data-slot="mural-empty" className="flex flex-col items-center gap-3 rounded-lg border border-dashed bg-card p-6 text-center text-muted-foreground">
      <p>{filtered ? (q ? t('news.noMatch', { q }) : t('news.noMatchCategory')) : t(desk ? 'news.emptyDesk' : 'news.empty')}</p>
      {filtered && (
        <Button variant="outline" onClick={() => actor.send({ type: 'wall.clear' })}>
          {t('news.clear')}
        </Button>
      )}
    </div>
  );
}

function Posts({ actor, desk }: { actor: NewsWallActor; desk: boolean }) {
  const items = useSelector(actor, selectWallItems);
  const locale = useSelector(localeActor, selectLocale);
  const timezone = useSelector(sessionActor, selectTimezone);
  if (items.length === 0) return null;
  return (
    <ul className="flex flex-col gap-4" data-slot="mural-posts">
      {items.map((post) => (
        <li key={post.id}>
          <PostCard post={post} locale={locale} timezone={timezone} {...(desk ? { desk: { actor } } : {})} />
        </li>
      ))}
    </ul>
  );
}

/** After the posts: how many, "puede que no estén al día" with Reintentar, and "Cargar más". */
function ListEnd({ actor, list }: { actor: NewsWallActor; list: AnyActorRef }) {
  const t = useT();
  const stale = useSelector(list, isStale);
  const more = useSelector(list, canMore);
  const appending = useSelector(list, isAppending);
  const total = useSelector(list, totalOf);
  const shown = useSelector(actor, selectWallCount);
  return (
    <div className="flex flex-col items-center gap-2">
      {shown > 0 && total !== null && <p className="text-sm text-muted-foreground">{t('news.total', { count: total })}</p>}
      {stale && <RetryNote actor={actor} text={t('news.staleRows')} />}
      {(more || appending) && (
        <Button variant="outline" className="min-h-11 sm:min-h-9" disabled={appending} aria-busy={appending || undefined} onClick={() => actor.send({ type: 'wall.loadMore' })}>
          {t('news.loadMore')}
        </Button>
      )}
    </div>
  );
}

/** Something on the page could not be brought up to date: what, and Reintentar (the wall retries all of it). */
function RetryNote({ actor, text }: { actor: NewsWallActor; text: string }) {
  const t = useT();
  return (
    <p role="alert" className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
      {text}
      <Button size="sm" variant="outline" onClick={() => actor.send({ type: 'wall.retry' })}>
        {t('news.retry')}
      </Button>
    </p>
  );
}
