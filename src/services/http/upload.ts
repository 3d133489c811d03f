// A multipart POST with upload progress: the one kind of call that cannot go through ofetch (fetch reports no
// upload progress), so it speaks XMLHttpRequest and still fails like every other call (ApiFailureError). It
// goes through the client, so a 401 is refreshed away and the form sent again like any other call's.
// A call may also ask for the server's own progress (`onServerProgress`): the answer then comes as JSON lines
// (`Accept: application/x-ndjson`), read as they arrive, `{ progress }` lines and a last `{ answer: { status,
// body } }` that stands for the status and body of a plain answer (server/http/progress.ts).
import { is, type Struct } from 'superstruct';
import { API, COOKIE, XSRF_HEADER } from '../../../shared/contract';
import { ApiErrorStruct } from '../../../shared/structs';
import { readCookie } from './cookies';
import { API_BASE, ApiFailureError, parseBody, type ApiFailure, type HttpClient } from './client';

/** Called as the bytes go. */
export type UploadProgress = (loaded: number, total: number) => void;

/** The media type of an answer told as JSON lines. */
const NDJSON = 'application/x-ndjson';

export interface FormUpload<T> {
  path: string;
  /** Built again for each trip (a refreshed 401 sends it anew); a string goes as a JSON body. */
  form: () => FormData | string;
  /** The body's size when the browser cannot tell (the file's). */
  size: number;
  struct: Struct<T, unknown>;
  onProgress?: UploadProgress;
  /** Failure codes by status when the body says nothing (a proxy answering a bare 413). */
  statusCodes?: Readonly<Record<number, string>>;
  /** Each `progress` the server tells as it works (unchecked: the caller checks it); asks for JSON lines. */
  onServerProgress?: (progress: unknown) => void;
}

const parsed = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
};

function failureOf(status: number, statusText: string, data: unknown, statusCodes: Readonly<Record<number, string>>): ApiFailure {
  const fallback = statusCodes[status] ?? `http.${status}`;
  if (is(data, ApiErrorStruct)) {
    return { status, code: data.code ?? fallback, message: data.message, fieldErrors: data.errors ?? {} };
  }
  return { status, code: fallback, message: statusText, fieldErrors: {} };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** Reads the complete lines of a growing answer as they come: progress handed on, the last answer kept. */
function lineReader(onProgress: (progress: unknown) => void) {
  let read = 0;
  let answer: { status: number; body: unknown } | null = null;
  return {
    take(text: string) {
      const end = text.lastIndexOf('\n') + 1;
      if (end <= read) return;
      for (const line of text.slice(read, end).split('\n')) {
        const data = line === '' ? null : parsed(line);
        if (!isObject(data)) continue;
        if ('progress' in data) onProgress(data.progress);
        const last = data.answer;
        if (isObject(last) && typeof last.status === 'number') answer = { status: last.status, body: last.body };
      }
      read = end;
    },
    answer: () => answer,
  };
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
    const lines = upload.onServerProgress ? lineReader(upload.onServerProgress) : null;
    if (lines) xhr.onprogress = () => lines.take(xhr.responseText);
    xhr.onload = () => {
      let status = xhr.status;
      let body: unknown = parsed(xhr.responseText);
      if (lines && (xhr.getResponseHeader('Content-Type') ?? '').startsWith(NDJSON)) {
        lines.take(xhr.responseText);
        const answer = lines.answer();
        // Cut short (a server that died mid-way): no answer to stand for.
        if (answer === null) return fail({ status: 0, code: 'network', message: 'Network error', fieldErrors: {} });
        ({ status, body } = answer);
      }
      if (status !== 201 && status !== 200) return fail(failureOf(status, xhr.statusText, body, upload.statusCodes ?? {}));
      try {
        resolve(parseBody(body, upload.struct, upload.path));
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
    xhr.setRequestHeader('Accept', lines ? `${NDJSON}, application/json` : 'application/json');
    if (token !== null) xhr.setRequestHeader(XSRF_HEADER, token);
    const body = upload.form();
    if (typeof body === 'string') xhr.setRequestHeader('Content-Type', 'application/json');
    xhr.send(body);
  });
}
