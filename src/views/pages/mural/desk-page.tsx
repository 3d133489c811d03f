// /mural: the managers' desk (issue 17). Every post of the school with its status (programada, publicada,
// terminada, despublicada) and its actions: Editar, Despublicar / Publicar de nuevo, Eliminar (with
// "Deshacer"); "Nueva publicación" and the printable weekly wall. Someone who is not a manager but came
// with a `newsfeed` query (SPEC §2) sees the published posts only, without actions.
import { useSelector } from '@xstate/react';
import { Link } from 'wouter';
import { NEWSFEED_ROLES } from '../../../../shared/codes';
import { newsWallMachine } from '../../../machines/news-wall';
import { selectHasAnyRole } from '../../../machines/session-selectors';
import { sessionActor } from '../../actors';
import { usePageActor } from '../../lib/page-actor';
import { useT } from '../../lib/i18n';
import { Button } from '../../ui/button';
import { ListSkeleton } from '../../ui/list-state';
import { MuralShell } from './shell';
import { WallPosts } from './wall-posts';

const selectIsManager = selectHasAnyRole(NEWSFEED_ROLES);

export function MuralDeskPage() {
  const manager = useSelector(sessionActor, selectIsManager);
  return <DeskScreen key={String(manager)} manage={manager} />;
}

/** The desk for a manager, or the published wall for someone let in by `?newsfeed`. */
export function DeskScreen({ manage }: { manage: boolean }) {
  const t = useT();
  const actor = usePageActor(newsWallMachine, { input: { manage } });
  const actions = manage ? (
    <>
      <Button asChild variant="outline">
        <Link href="/mural/news/week">{t('mural.week')}</Link>
      </Button>
      <Button asChild>
        <Link href="/mural/news/compose">{t('mural.newPost')}</Link>
      </Button>
    </>
  ) : undefined;
  return (
    <MuralShell title={t('pages.mural')} intro={t('mural.deskIntro')} manage={manage} actions={actions}>
      {actor ? <WallPosts actor={actor} desk={manage} /> : <ListSkeleton label={t('mural.loading')} rows={3} rowClassName="h-40" />}
    </MuralShell>
  );
}
