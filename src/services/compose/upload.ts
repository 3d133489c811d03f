// `POST /attachments` with upload progress: the one call that cannot go through ofetch (fetch reports no
// upload progress), so it speaks XMLHttpRequest and still fails like every other call (ApiFailureError).
import { is } from 'superstruct';
import { MESSAGES_API } from '../../../shared/messages-contract';
import { AttachmentBodyStruct } from '../../../shared/compose-structs';
import { API, COOKIE, XSRF_HEADER } from '../../../shared/contract';
import type { AttachmentSummary } from '../../../shared/messages-contract';
import { ApiErrorStruct } from '../../../shared/structs';
import { readCookie } from '../http/cookies';
import { fromCall, API_BASE, ApiFailureError, parseBody, type ApiFailure, type HttpClient } from '../http/client';

export interface UploadInput {
  file: File;
  /** Called as the bytes go (fetch cannot report upload progress, hence XMLHttpRequest). */
  onProgress?: (loaded: number, total: number) => void;
}

/** Failure codes of the upload when the body says nothing (a proxy answering a bare 413). */
const UPLOAD_STATUS_CODES: Readonly<Record<number, string>> = {
  413: 'attachment.too_large',
  415: 'attachment.type',
  422: 'validation.failed',
};

function uploadFailure(xhr: XMLHttpRequest): ApiFailure {
  let data: unknown = null;
  try {
    data = JSON.parse(xhr.responseText);
  } catch {
    data = null;
  }
  const fallback = UPLOAD_STATUS_CODES[xhr.status] ?? `http.${xhr.status}`;
  if (is(data, ApiErrorStruct)) {
    return { status: xhr.status, code: data.code ?? fallback, message: data.message, fieldErrors: data.errors ?? {} };
  }
  return { status: xhr.status, code: fallback, message: xhr.statusText, fieldErrors: {} };
}

async function xsrfToken(http: HttpClient, signal: AbortSignal): Promise<string | null> {
  const token = readCookie(COOKIE.xsrf);
  if (token !== null) return token;
  await http.request(API.csrf, { signal, authFlow: true, silent: true });
  return readCookie(COOKIE.xsrf);
}

/**
 * `POST /attachments` (multipart `file`) with XMLHttpRequest for its upload progress. Resolves with the
 * stored attachment; rejects with an ApiFailureError like every other call (413/415/422/network/cancel);
 * stopping the actor aborts the upload. It goes through the client, so a 401 is refreshed away and the file
 * sent again like any other call's.
 */
export const uploadAttachment = fromCall<AttachmentSummary, UploadInput>(({ input, signal, http }) =>
  http.through(async () => sendFile(input, await xsrfToken(http, signal), signal), { signal, silent: true }),
);

/** One trip of the file to the server. */
function sendFile(input: UploadInput, token: string | null, signal: AbortSignal): Promise<AttachmentSummary> {
  return new Promise<AttachmentSummary>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const fail = (failure: ApiFailure) => reject(new ApiFailureError(failure));
    xhr.upload.onprogress = (event) => {
      input.onProgress?.(event.loaded, event.lengthComputable ? event.total : input.file.size);
    };
    xhr.onload = () => {
      if (xhr.status !== 201 && xhr.status !== 200) return fail(uploadFailure(xhr));
      try {
        resolve(parseBody(JSON.parse(xhr.responseText) as unknown, AttachmentBodyStruct, MESSAGES_API.attachments).data);
      } catch (error) {
        reject(
          error instanceof ApiFailureError
            ? error
            : new ApiFailureError({ status: xhr.status, code: 'response.invalid', message: 'Unexpected response body', fieldErrors: {} }),
        );
      }
    };
    xhr.onerror = () => fail({ status: 0, code: 'network', message: 'Network error', fieldErrors: {} });
    xhr.onabort = () => fail({ status: 0, code: 'request.cancelled', message: 'Request cancelled', fieldErrors: {} });
    if (signal.aborted) {
      fail({ status: 0, code: 'request.cancelled', message: 'Request cancelled', fieldErrors: {} });
      return;
    }
    signal.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.open('POST', `${API_BASE}${MESSAGES_API.attachments}`);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    if (token !== null) xhr.setRequestHeader(XSRF_HEADER, token);
    const form = new FormData();
    form.append('file', input.file, input.file.name);
    xhr.send(form);
  });
}
