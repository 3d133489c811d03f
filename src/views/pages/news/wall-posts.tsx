// The wall's list, for readers and the desk alike: search (debounced by the machine), the category filter,
// the first load's skeleton and failure, the empty and no-match states (with "Limpiar búsqueda"), the
// posts, a stale warning and "Cargar más". useWallActor starts the page's wall on its address.
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
import { useLocaleZone, useT } from '../../lib/i18n';
import { usePageActor, wholeQuery } from '../../lib/page-actor';
import { Button } from '../../ui/button';
import { Label } from '../../ui/label';
import { ListFailure, ListSkeleton } from '../../ui/list-state';
import { ListBody, ListEnd, ListTotal, RetryNote, useListPhase } from '../../ui/list-page';
import { NativeSelect } from '../../ui/native-select';
import { SearchInput } from '../../ui/search-input';
import { PostCard } from './post-card';
import { useSelectors } from '../../lib/selectors';

const WALL_SEARCH_ID = 'mural-search';
const WALL_CATEGORY_ID = 'mural-category';

/** The page's wall, on what its address says (`?q=…&category=…`). */
export function useWallActor(manage: boolean, path: string): NewsWallActor | null {
  return usePageActor(newsWallMachine, {
    input: { manage, path },
    address: { read: wholeQuery, event: 'wall.address' },
  });
}

export function WallPosts({ actor, desk }: { actor: NewsWallActor; desk: boolean }) {
  const t = useT();
  const { list, crashed, shown } = useSelectors(actor, { list: selectWallList, crashed: selectHasCrashed, shown: selectWallCount });
  const retry = () => actor.send({ type: 'wall.retry' });
  return (
    <>
      <Filters actor={actor} />
      {crashed || !list ? (
        <ListFailure message={t('news.loadFailed')} retryLabel={t('news.retry')} onRetry={retry} />
      ) : (
        <>
          <Posts actor={actor} list={list} desk={desk} />
          {/* After the posts: how many, "puede que no estén al día" with Reintentar, and "Cargar más". */}
          <ListEnd
            list={list}
            staleText={t('news.staleRows')}
            retryLabel={t('news.retry')}
            moreLabel={t('news.loadMore')}
            moreClassName="min-h-11 sm:min-h-9"
            onRetry={retry}
            onMore={() => actor.send({ type: 'wall.loadMore' })}
          >
            {shown > 0 && <ListTotal list={list} text={(count) => t('news.total', { count })} />}
          </ListEnd>
        </>
      )}
    </>
  );
}

function Filters({ actor }: { actor: NewsWallActor }) {
  const t = useT();
  const { q, category, categories, categoriesFailed } = useSelectors(actor, {
    q: selectWallSearch,
    category: selectWallCategory,
    categories: selectCategories,
    categoriesFailed: selectCategoriesFailed,
  });
  return (
    <div role="search" className="flex flex-col gap-3 sm:flex-row sm:items-end" data-slot="mural-filters">
      <div className="flex min-w-0 flex-1 flex-col gap-1.5">
        <Label htmlFor={WALL_SEARCH_ID}>{t('news.search')}</Label>
        {/* As wide as its column. */}
        <SearchInput
          id={WALL_SEARCH_ID}
          className=""
          placeholder={t('news.searchPlaceholder')}
          value={q}
          onSearch={(text) => actor.send({ type: 'wall.search', q: text })}
        />
      </div>
      {categories.length > 0 && (
        <div className="flex flex-col gap-1.5 sm:w-60">
          <Label htmlFor={WALL_CATEGORY_ID}>{t('news.category')}</Label>
          <NativeSelect
            id={WALL_CATEGORY_ID}
            className="h-11 sm:h-9"
            value={category === null ? '' : String(category)}
            onChange={(e) =>
              actor.send({ type: 'wall.filter', category: e.currentTarget.value === '' ? null : Number(e.currentTarget.value) })
            }
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
      {categoriesFailed && (
        <RetryNote text={t('news.categoriesFailed')} retryLabel={t('news.retry')} onRetry={() => actor.send({ type: 'wall.retry' })} />
      )}
    </div>
  );
}

/** The posts, or before any: the skeleton, the failure, or the empty / no-match state. */
function Posts({ actor, list, desk }: { actor: NewsWallActor; list: AnyActorRef; desk: boolean }) {
  const t = useT();
  const phase = useListPhase(list);
  const { q, filtered, items } = useSelectors(actor, {
    q: (s) => selectWallSearch(s).trim(),
    filtered: selectHasQuery,
    items: selectWallItems,
  });
  const { locale, timezone } = useLocaleZone();
  return (
    <ListBody
      phase={phase}
      skeleton={<ListSkeleton label={t('news.loading')} rows={3} rowClassName="h-40" />}
      failure={
        <ListFailure message={t('news.loadFailed')} retryLabel={t('news.retry')} onRetry={() => actor.send({ type: 'wall.retry' })} />
      }
      empty={
        <div
          role="status"
          data-slot="mural-empty"
          className="flex flex-col items-center gap-3 rounded-lg border border-dashed bg-card p-6 text-center text-muted-foreground"
        >
          <p>{filtered ? (q ? t('news.noMatch', { q }) : t('news.noMatchCategory')) : t(desk ? 'news.emptyDesk' : 'news.empty')}</p>
          {filtered && (
            <Button variant="outline" onClick={() => actor.send({ type: 'wall.clear' })}>
              {t('news.clear')}
            </Button>
          )}
        </div>
      }
    >
      <ul className="flex flex-col gap-4" data-slot="mural-posts">
        {items.map((post) => (
          <li key={post.id}>
            <PostCard post={post} locale={locale} timezone={timezone} {...(desk ? { desk: { actor } } : {})} />
          </li>
        ))}
      </ul>
    </ListBody>
  );
}
