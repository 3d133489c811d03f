// `POST /attachments` with upload progress (services/http/upload.ts: XMLHttpRequest, failing like every other call).
import { MESSAGES_API } from '../../../shared/messages-contract';
import { AttachmentBodyStruct } from '../../../shared/compose-structs';
import type { AttachmentSummary } from '../../../shared/messages-contract';
import { fromCall } from '../http/client';
import { uploadForm, type UploadProgress } from '../http/upload';

export interface UploadInput {
  file: File;
  /** Called as the bytes go (fetch cannot report upload progress, hence XMLHttpRequest). */
  onProgress?: UploadProgress;
}

/** Failure codes of the upload when the body says nothing (a proxy answering a bare 413). */
const UPLOAD_STATUS_CODES: Readonly<Record<number, string>> = {
  413: 'attachment.too_large',
  415: 'attachment.type',
  422: 'validation.failed',
};

/**
 * `POST /attachments` (multipart `file`). Resolves with the stored attachment; rejects with an ApiFailureError
 * like every other call (413/415/422/network/cancel); stopping the actor aborts the upload.
 */
export const uploadAttachment = fromCall<AttachmentSummary, UploadInput>(async ({ input, signal, http }) => {
  const form = () => {
    const body = new FormData();
    body.append('file', input.file, input.file.name);
    return body;
  };
  const upload = {
    path: MESSAGES_API.attachments,
    form,
    size: input.file.size,
    struct: AttachmentBodyStruct,
    statusCodes: UPLOAD_STATUS_CODES,
    ...(input.onProgress ? { onProgress: input.onProgress } : {}),
  };
  return (await uploadForm(http, upload, signal)).data;
});
