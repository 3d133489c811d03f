// A wall post's picture (fetched with the token when it comes near the screen, shown from an object URL)
// and a document (fetched on «Descargar», then saved from a link).
import { useSelector } from '@xstate/react';
import { useEffect, useRef, useState } from 'react';
import type { NewsAttachment } from '../../../shared/news-contract';
import { selectFileBlob, selectFilePhase } from '../../machines/family/wall-file';
import { Button, buttonVariants } from '../ui/button';
import { formatSize, useFamilyLocale, useFamilyT } from './family-context';
import { useWallFileActor } from './wall-actors';

/** An object URL for `blob` while it is shown; freed when it goes (or changes). */
function useObjectUrl(blob: Blob | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!blob) return;
    const made = URL.createObjectURL(blob);
    setUrl(made);
    return () => {
      URL.revokeObjectURL(made);
      setUrl(null);
    };
  }, [blob]);
  return url;
}

/** Pixels below the screen at which a picture starts loading, so it is there when scrolled to. */
const NEAR = '200px';

export function WallImage({ token, postId, file }: { token: string; postId: number; file: NewsAttachment }) {
  const t = useFamilyT();
  const actor = useWallFileActor({ token, postId, attachmentId: file.id });
  const phase = useSelector(actor, selectFilePhase);
  const url = useObjectUrl(useSelector(actor, selectFileBlob));
  const frame = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = frame.current;
    if (!element || typeof IntersectionObserver === 'undefined') {
      actor.send({ type: 'file.load' });
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          actor.send({ type: 'file.load' });
          observer.disconnect();
        }
      },
      { rootMargin: NEAR },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [actor]);
  return (
    <div ref={frame} data-slot="wall-image" data-phase={phase} className="overflow-hidden rounded-md bg-muted">
      {url ? (
        <img src={url} alt={t('family.wall.imageAlt', { name: file.name })} className="block h-auto w-full" />
      ) : phase === 'failed' ? (
        <div role="alert" className="flex flex-col items-start gap-2 p-3 text-sm">
          <p>{t('family.wall.imageFailed', { name: file.name })}</p>
          <Button variant="outline" size="sm" onClick={() => actor.send({ type: 'file.retry' })}>
            {t('family.wall.imageRetry')}
          </Button>
        </div>
      ) : (
        <p className="flex aspect-video items-center justify-center p-3 text-sm text-muted-foreground">{t('family.wall.imageLoading')}</p>
      )}
    </div>
  );
}

export function WallDocument({ token, postId, file }: { token: string; postId: number; file: NewsAttachment }) {
  const t = useFamilyT();
  const locale = useFamilyLocale();
  const actor = useWallFileActor({ token, postId, attachmentId: file.id });
  const phase = useSelector(actor, selectFilePhase);
  const url = useObjectUrl(useSelector(actor, selectFileBlob));
  return (
    <li className="flex flex-wrap items-center gap-2 text-sm">
      <span className="min-w-0 break-all">{file.name}</span>
      <span className="text-muted-foreground">{formatSize(file.size, locale)}</span>
      {url ? (
        <a className={buttonVariants({ variant: 'outline', size: 'sm' })} href={url} download={file.name}>
          {t('family.wall.download')}
        </a>
      ) : (
        <Button
          variant="outline"
          size="sm"
          disabled={phase === 'loading'}
          onClick={() => actor.send({ type: phase === 'failed' ? 'file.retry' : 'file.load' })}
        >
          {phase === 'loading' ? t('family.wall.downloading') : t('family.wall.download')}
        </Button>
      )}
      {phase === 'failed' ? (
        <span role="alert" className="text-destructive">
          {t('family.wall.downloadFailed')}
        </span>
      ) : null}
    </li>
  );
}
