// /mural/news: the wall as readers see it. Staff on device latam see every published post of
// their school, pinned first, then newest. The machine is news/wall.ts (`manage: false`); the search and
// the category live in the address like the desk's.
import { useSelector } from '@xstate/react';
import { sessionActor } from '../../actors';
import { useT } from '../../lib/i18n';
import { ListSkeleton } from '../../ui/list-state';
import { NewsShell, selectIsNewsManager } from './shell';
import { useWallActor, WallPosts } from './wall-posts';

export function NewsWallPage() {
  const t = useT();
  const actor = useWallActor(false, '/mural/news');
  // Readers get the wall alone; a manager reading it has the tabs back to the desk.
  const manager = useSelector(sessionActor, selectIsNewsManager);
  return (
    <NewsShell title="pages.newsWall" intro={t('news.wallIntro')} manage={manager}>
      {actor ? <WallPosts actor={actor} desk={false} /> : <ListSkeleton label={t('news.loading')} rows={3} rowClassName="h-40" />}
    </NewsShell>
  );
}
