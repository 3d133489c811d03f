// Images and files of the post: message compose's upload rules, limits and texts (the same attachment list);
// each image shows a thumbnail from the local file (an object URL, revoked when the file is removed or the
// page closes; the CSP allows `blob:` images) or, once saved, from the server.
import { useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import type { AttachmentSnapshot, AttachmentActorRef } from '../../../../machines/compose/attachment';
import { selectEntries, type AttachmentListActor } from '../../../../machines/compose/attachment-list';
import { NEWS_FIELD_IDS } from '../../../../machines/news/compose-rules';
import { selectAttachmentList, selectIsLocked } from '../../../../machines/news/compose-selectors';
import { useT } from '../../../lib/i18n';
import { errorProps, FieldDescription, FieldError } from '../../../ui/field';
import { AttachmentItem, ChooseFiles } from '../../compose/attachment-item';
import { useNewsFieldError, type NewsComposeActor } from './shared';
import { useSelectors } from '../../../lib/selectors';

const IMAGE = /^image\/(png|jpeg|gif|webp)$/;
const selectFile = (s: AttachmentSnapshot): File | null => s.context.file;
const selectServerImage = (s: AttachmentSnapshot): string | null =>
  s.context.summary && IMAGE.test(s.context.summary.content_type) ? s.context.summary.url : null;
const selectName = (s: AttachmentSnapshot): string => s.context.name;

export function FilesField({ compose }: { compose: NewsComposeActor }) {
  const t = useT();
  const { list, locked } = useSelectors(compose, { list: selectAttachmentList, locked: selectIsLocked });
  const error = useNewsFieldError(compose, 'attachment_ids');
  return (
    <div role="group" aria-labelledby="news-files-label" className="flex flex-col gap-2">
      <span id="news-files-label" className="text-sm font-medium">
        {t('newsCompose.files')}
      </span>
      <ChooseFiles
        id={NEWS_FIELD_IDS.attachment_ids}
        fit
        disabled={locked}
        {...errorProps(error.text, error.id, 'news-files-hint')}
        onFiles={(files) => compose.send({ type: 'attachment.add', files })}
      >
        {t('newsCompose.choose')}
      </ChooseFiles>
      <FieldDescription id="news-files-hint">{t('newsCompose.filesHint')}</FieldDescription>
      {list && <Files compose={compose} list={list} />}
      <FieldError id={error.id}>{error.text}</FieldError>
    </div>
  );
}

function Files({ compose, list }: { compose: NewsComposeActor; list: AttachmentListActor }) {
  const t = useT();
  const entries = useSelector(list, selectEntries);
  if (entries.length === 0) return null;
  return (
    <ul aria-label={t('newsCompose.files')} className="flex flex-col gap-2">
      {entries.map((entry) => (
        <li key={entry.key} className="flex items-start gap-3">
          <Thumbnail attachment={entry.ref} />
          <ul className="min-w-0 flex-1 list-none">
            <AttachmentItem
              attachment={entry.ref}
              onRemove={() => compose.send({ type: 'attachment.remove', key: entry.key })}
              onRetry={() => compose.send({ type: 'attachment.retry', key: entry.key })}
            />
          </ul>
        </li>
      ))}
    </ul>
  );
}

/** The local file's image while this item lives (kept after the upload drops the file), else the server's. */
function Thumbnail({ attachment }: { attachment: AttachmentActorRef }) {
  const t = useT();
  const { file, server, name } = useSelectors(attachment, { file: selectFile, server: selectServerImage, name: selectName });
  const [local, setLocal] = useState<string | null>(null);
  useEffect(() => {
    if (!file || !IMAGE.test(file.type)) return;
    const url = URL.createObjectURL(file);
    setLocal(url);
    return () => URL.revokeObjectURL(url);
    // One URL per item (an item's file is set once): the upload's end drops the file, the image stays until the item goes.
  }, [file]);
  const src = local ?? server;
  if (!src) return null;
  return (
    <img
      data-slot="thumbnail"
      src={src}
      alt={t('newsCompose.thumbnail', { name })}
      className="size-16 shrink-0 rounded-md border object-cover"
    />
  );
}
