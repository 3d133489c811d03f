// One post of the school's wall, whole: its text, every picture (each loading as it comes near the
// screen) and its documents to download.
import { useSelector } from '@xstate/react';
import { Link } from 'wouter';
import {
  type FamilyWallPostActor,
  selectCanRetryPost,
  selectPost,
  selectPostFailure,
  selectPostPhase,
} from '../../machines/family/wall-post';
import { Button } from '../ui/button';
import { useFamilyT } from './family-context';
import { useWallPostActor } from './wall-actors';
import { WallDocument, WallImage } from './wall-file';
import { PostMeta } from './wall-page';

export function WallPostPage({ token, id }: { token: string; id: number }) {
  const t = useFamilyT();
  const actor = useWallPostActor(token, id);
  const phase = useSelector(actor, selectPostPhase);
  return (
    <div className="flex flex-col gap-3">
      <Link href="/mural" className="text-sm font-medium text-primary underline-offset-4 hover:underline">
        ← {t('family.wall.back')}
      </Link>
      {phase === 'loading' ? <p className="text-sm text-muted-foreground">{t('family.app.loading')}</p> : null}
      {phase === 'failed' ? <PostFailed actor={actor} /> : null}
      {phase === 'shown' ? <PostShown actor={actor} token={token} /> : null}
    </div>
  );
}

function PostFailed({ actor }: { actor: FamilyWallPostActor }) {
  const t = useFamilyT();
  const failure = useSelector(actor, selectPostFailure);
  const canRetry = useSelector(actor, selectCanRetryPost);
  const text =
    failure === 'missing' ? t('family.wall.missing') : failure === 'offline' ? t('family.wall.postOffline') : t('family.wall.postError');
  return (
    <div role="alert" className="rounded-lg border border-destructive/40 bg-card p-4">
      <p>{text}</p>
      {canRetry ? (
        <Button variant="outline" className="mt-3" onClick={() => actor.send({ type: 'post.retry' })}>
          {t('family.wall.retry')}
        </Button>
      ) : null}
    </div>
  );
}

function PostShown({ actor, token }: { actor: FamilyWallPostActor; token: string }) {
  const t = useFamilyT();
  const post = useSelector(actor, selectPost);
  if (!post) return null;
  const images = post.attachments.filter((file) => file.is_image);
  const documents = post.attachments.filter((file) => !file.is_image);
  return (
    <article aria-labelledby="post-title" className="flex flex-col gap-3 rounded-lg border bg-card p-4">
      <h1 id="post-title" className="text-xl font-semibold break-words">
        {post.title}
      </h1>
      <PostMeta post={post} />
      <div className="text-base break-words whitespace-pre-wrap">{post.body}</div>
      {images.map((file) => (
        <WallImage key={file.id} token={token} postId={post.id} file={file} />
      ))}
      {documents.length > 0 ? (
        <section aria-labelledby="post-files" className="flex flex-col gap-2 border-t pt-3">
          <h2 id="post-files" className="font-semibold">
            {t('family.wall.files')}
          </h2>
          <ul className="flex flex-col gap-2">
            {documents.map((file) => (
              <WallDocument key={file.id} token={token} postId={post.id} file={file} />
            ))}
          </ul>
        </section>
      ) : null}
    </article>
  );
}
