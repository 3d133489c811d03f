// Images and files of the post: message compose's upload rules, limits and texts (the same attachment list);
// each image shows a thumbnail from the local file (an object URL, revoked when the file is removed or the
// page closes; the CSP allows `blob:` images) or, once saved, from the server.
import { useEffect, useState } from 'react';
import type { AttachmentSnapshot, AttachmentActorRef } from '../../../../machines/compose/attachment';
import { NEWS_FIELD_IDS } from '../../../../machines/news/compose-rules';
import { selectAttachmentList, selectIsLocked } from '../../../../machines/news/compose-selectors';
import { useT } from '../../../lib/i18n';
import { errorProps, FieldDescription, FieldError } from '../../../ui/field';
import { ChooseFiles } from '../../compose/attachment-item';
import { AttachmentList } from '../../compose/attachment-list';
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
      {list && (
        <AttachmentList
          list={list}
          label={t('newsCompose.files')}
          onRemove={(key) => compose.send({ type: 'attachment.remove', key })}
          onRetry={(key) => compose.send({ type: 'attachment.retry', key })}
          thumbnail={(attachment) => <Thumbnail attachment={attachment} />}
        />
      )}
      <FieldError id={error.id}>{error.text}</FieldError>
    </div>
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
