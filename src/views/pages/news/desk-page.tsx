// /mural: the managers' desk. Every post of the school with its status (programada, publicada,
// terminada, despublicada) and its actions: Editar, Despublicar / Publicar de nuevo, Eliminar (with
// "Deshacer"); "Nueva publicación" and the printable weekly wall. Someone who is not a manager but came
// with a `newsfeed` query (SPEC §2) sees the published posts only, without actions. The search and the
// category live in the address (`?q=…&category=…`, useWallActor).
import { useSelector } from '@xstate/react';
import { sessionActor } from '../../actors';
import { useT } from '../../lib/i18n';
import { ListSkeleton } from '../../ui/list-state';
import { NewsShell, selectIsNewsManager } from './shell';
import { useWallActor, WallPosts } from './wall-posts';

export function NewsDeskPage() {
  const manager = useSelector(sessionActor, selectIsNewsManager);
  return <DeskScreen key={String(manager)} manage={manager} />;
}

/** The desk for a manager, or the published wall for someone let in by `?newsfeed`. */
export function DeskScreen({ manage }: { manage: boolean }) {
  const t = useT();
  const actor = useWallActor(manage, '/mural');
  return (
    <NewsShell title="pages.newsDesk" intro={t('news.deskIntro')} manage={manage}>
      {actor ? <WallPosts actor={actor} desk={manage} /> : <ListSkeleton label={t('news.loading')} rows={3} rowClassName="h-40" />}
    </NewsShell>
  );
}
