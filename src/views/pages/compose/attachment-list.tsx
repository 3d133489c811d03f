import type * as React from 'react';
import { useSelector } from '@xstate/react';
import type { AttachmentActorRef } from '../../../machines/compose/attachment';
import { selectEntries, type AttachmentListActor } from '../../../machines/compose/attachment-list';
import { AttachmentItem } from './attachment-item';

/**
 * The files of an attachment list (message compose, news compose), each with its own progress and error
 * (read from its `attachment` child); remove and retry go to the form by the entry's key. `thumbnail` draws
 * a picture beside each file (news).
 */
export function AttachmentList({
  list,
  label,
  onRemove,
  onRetry,
  thumbnail,
}: {
  list: AttachmentListActor;
  label: string;
  onRemove: (key: string) => void;
  onRetry: (key: string) => void;
  thumbnail?: (attachment: AttachmentActorRef) => React.ReactNode;
}) {
  const entries = useSelector(list, selectEntries);
  if (entries.length === 0) return null;
  return (
    <ul aria-label={label} className="flex flex-col gap-2">
      {entries.map((entry) => {
        const item = (
          <AttachmentItem key={entry.key} attachment={entry.ref} onRemove={() => onRemove(entry.key)} onRetry={() => onRetry(entry.key)} />
        );
        if (!thumbnail) return item;
        return (
          <li key={entry.key} className="flex items-start gap-3">
            {thumbnail(entry.ref)}
            <ul className="min-w-0 flex-1 list-none">{item}</ul>
          </li>
        );
      })}
    </ul>
  );
}
