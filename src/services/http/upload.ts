// A multipart POST with upload progress: the one kind of call that cannot go through ofetch (fetch reports no
// upload progress), so it speaks XMLHttpRequest and still fails like every other call (ApiFailureError). It
// goes through the client, so a 401 is refreshed away and the form sent again like any other call's.
import { is, type Struct } from 'superstruct';
import { API, COOKIE, XSRF_HEADER } from '../../../shared/contract';
import { ApiErrorStruct } from '../../../shared/structs';
import { readCookie } from './cookies';
import { API_BASE, ApiFailureError, parseBody, type ApiFailure, type HttpClient } from './client';

/** Called as the bytes go. */
export type UploadProgress = (loaded: number, total: number) => void;

export interface FormUpload<T> {
  path: string;
  /** Built again for each trip (a refreshed 401 sends it anew). */
  form: () => FormData;
  /** The body's size when the browser cannot tell (the file's). */
  size: number;
  struct: Struct<T, unknown>;
  onProgress?: UploadProgress;
  /** Failure codes by status when the body says nothing (a proxy answering a bare 413). */
  statusCodes?: Readonly<Record<number, string>>;
}

function uploadFailure(xhr: XMLHttpRequest, statusCodes: Readonly<Record<number, string>>): ApiFailure {
  let data: unknown = null;
  try {
    data = JSON.parse(xhr.responseText);
  } catch {
    data = null;
  }
  const fallback = statusCodes[xhr.status] ?? `http.${xhr.status}`;
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

/** Sends `upload` through `http`; resolves with the body checked by its struct, rejects with an ApiFailureError. */
export function uploadForm<T>(http: HttpClient, upload: FormUpload<T>, signal: AbortSignal): Promise<T> {
  return http.through(async () => sendForm(upload, await xsrfToken(http, signal), signal), { signal, silent: true });
}

/** One trip of the form to the server. */
function sendForm<T>(upload: FormUpload<T>, token: string | null, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const fail = (failure: ApiFailure) => reject(new ApiFailureError(failure));
    xhr.upload.onprogress = (event) => {
      upload.onProgress?.(event.loaded, event.lengthComputable ? event.total : upload.size);
    };
    xhr.onload = () => {
      if (xhr.status !== 201 && xhr.status !== 200) return fail(uploadFailure(xhr, upload.statusCodes ?? {}));
      try {
        resolve(parseBody(JSON.parse(xhr.responseText) as unknown, upload.struct, upload.path));
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
    xhr.open('POST', `${API_BASE}${upload.path}`);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    if (token !== null) xhr.setRequestHeader(XSRF_HEADER, token);
    xhr.send(upload.form());
  });
}
