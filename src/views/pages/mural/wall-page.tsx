// /mural/news: the wall as readers see it (issue 17). Staff on device latam see every published post of
// their school, pinned first, then newest. The machine is news-wall.ts (`manage: false`).
import { useSelector } from '@xstate/react';
import { NEWSFEED_ROLES } from '../../../../shared/codes';
import { newsWallMachine } from '../../../machines/news-wall';
import { selectHasAnyRole } from '../../../machines/session-selectors';
import { sessionActor } from '../../actors';
import { usePageActor } from '../../lib/page-actor';
import { useT } from '../../lib/i18n';
import { ListSkeleton } from '../../ui/list-state';
import { MuralShell } from './shell';
import { WallPosts } from './wall-posts';

const selectIsManager = selectHasAnyRole(NEWSFEED_ROLES);
const READER = { manage: false } as const;

export function MuralWallPage() {
  const t = useT();
  const actor = usePageActor(newsWallMachine, { input: READER });
  const manager = useSelector(sessionActor, selectIsManager);
  return (
    <MuralShell title={t('pages.muralNews')} intro={t('mural.wallIntro')} manage={manager}>
      {actor ? <WallPosts actor={actor} desk={false} /> : <ListSkeleton label={t('mural.loading')} rows={3} rowClassName="h-40" />}
    </MuralShell>
  );
}
