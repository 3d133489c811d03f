// The one HTTP client of the SPA (SPEC §7): common API base, JSON, cookies sent, the XSRF cookie echoed
// on writes, and every failure normalised to `ApiFailure`. Services cannot import machines, so the app
// edge plugs the session-aware parts in through the `set…` hooks below at start-up.
import { ofetch, type $Fetch } from 'ofetch';
import { is, type Struct } from 'superstruct';
import { API, COOKIE, XSRF_HEADER } from '../../../shared/contract';
import { readCookie } from './cookies';
import { ApiErrorStruct } from '../../../shared/structs';

/** SPEC §8, verbatim: shown when a request is refused because both tokens have expired. */
export const TOKENS_EXPIRED_MESSAGE = 'Both token and refresh token have expired. Your request was aborted.';

/** Failure codes produced by the client itself (the server's codes are in contract.ts `ErrorCode`). */
export type ClientErrorCode = 'network' | 'request.cancelled' | 'tokens.expired' | 'response.invalid';

export interface ApiFailure {
  /** HTTP status; 0 when no response arrived (network error, cancelled, refused by the token gate). */
  status: number;
  code: string;
  message: string;
  /** Laravel-style per-field messages of a 422; empty otherwise. */
  fieldErrors: Record<string, string[]>;
}

export class ApiFailureError extends Error implements ApiFailure {
  readonly status: number;
  readonly code: string;
  readonly fieldErrors: Record<string, string[]>;

  constructor(failure: ApiFailure) {
    super(failure.message);
    this.name = 'ApiFailureError';
    this.status = failure.status;
    this.code = failure.code;
    this.fieldErrors = failure.fieldErrors;
  }
}

/** Any thrown value as an `ApiFailure`; machines call this on `xstate.error.actor.*` payloads. */
export function toApiFailure(error: unknown): ApiFailure {
  if (error instanceof ApiFailureError) {
    return { status: error.status, code: error.code, message: error.message, fieldErrors: error.fieldErrors };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { status: 0, code: 'network', message, fieldErrors: {} };
}

// --- hooks the app edge registers -------------------------------------------------------------------

/** Returns false when the request must not leave (both tokens expired). */
export type RequestGate = () => boolean;
export type UnauthorizedHandler = (failure: ApiFailure) => void;
export interface ActivityListener {
  start: () => void;
  finish: () => void;
  fail: () => void;
}

let requestGate: RequestGate | null = null;
let unauthorizedHandler: UnauthorizedHandler | null = null;
let activityListener: ActivityListener | null = null;

/** Each setter returns its own unregister function (used by tests and hot reload). */
export function setRequestGate(gate: RequestGate | null): () => void {
  requestGate = gate;
  return () => {
    if (requestGate === gate) requestGate = null;
  };
}

export function setUnauthorizedHandler(handler: UnauthorizedHandler | null): () => void {
  unauthorizedHandler = handler;
  return () => {
    if (unauthorizedHandler === handler) unauthorizedHandler = null;
  };
}

export function setActivityListener(listener: ActivityListener | null): () => void {
  activityListener = listener;
  return () => {
    if (activityListener === listener) activityListener = null;
  };
}

// --- requests ---------------------------------------------------------------------------------------

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  method?: HttpMethod;
  body?: Record<string, unknown>;
  query?: Record<string, string | number | boolean | undefined>;
  /** Pass the actor's `signal` so leaving the state aborts the request. */
  signal?: AbortSignal;
  /**
   * Calls that are part of the session flow itself (login, refresh, logout, CSRF cookie): the token
   * gate does not apply and a 401 is that call's own answer, not "the session ended".
   */
  authFlow?: boolean;
  /** Background calls (token refresh) do not drive the loading bar. */
  silent?: boolean;
  /** Extra request headers (compose: `Idempotency-Key`). */
  headers?: Record<string, string>;
}

export interface HttpClientConfig {
  /** Injected in tests; the browser's fetch otherwise. */
  fetch?: typeof globalThis.fetch;
  baseURL?: string;
}

export interface HttpClient {
  request: (path: string, options?: RequestOptions) => Promise<unknown>;
}

/** Where API calls go (build-time VITE_API_BASE); also the prefix of download links and uploads. */
export const API_BASE: string = import.meta.env?.VITE_API_BASE ?? '/api';

export function createHttpClient(config: HttpClientConfig = {}): HttpClient {
  const client: $Fetch = ofetch.create(
    {
      baseURL: config.baseURL ?? API_BASE,
      credentials: 'include',
      headers: { Accept: 'application/json' },
      // Retrying is the machines' decision (resource.retry), never a hidden second request.
      retry: false,
    },
    config.fetch ? { fetch: config.fetch } : {},
  );

  async function xsrfHeader(signal: AbortSignal | undefined): Promise<Record<string, string>> {
    let token = readCookie(COOKIE.xsrf);
    if (token === null) {
      await client(API.csrf, { method: 'GET', signal });
      token = readCookie(COOKIE.xsrf);
    }
    // Without a cookie the server answers 419 csrf.mismatch, which is the honest outcome.
    return token === null ? {} : { [XSRF_HEADER]: token };
  }

  async function request(path: string, options: RequestOptions = {}): Promise<unknown> {
    const method = options.method ?? 'GET';
    if (!options.authFlow && requestGate && !requestGate()) {
      throw new ApiFailureError({ status: 0, code: 'tokens.expired', message: TOKENS_EXPIRED_MESSAGE, fieldErrors: {} });
    }
    const activity = options.silent ? null : activityListener;
    activity?.start();
    try {
      const headers = { ...options.headers, ...(method === 'GET' ? {} : await xsrfHeader(options.signal)) };
      const body = await client(path, {
        method,
        headers,
        body: options.body,
        query: options.query,
        signal: options.signal,
      });
      activity?.finish();
      return body;
    } catch (error) {
      const failure = normaliseError(error, options.signal);
      if (failure.code === 'request.cancelled') activity?.finish();
      else activity?.fail();
      if (failure.status === 401 && !options.authFlow) unauthorizedHandler?.(failure);
      throw new ApiFailureError(failure);
    }
  }

  return { request };
}

function normaliseError(error: unknown, signal: AbortSignal | undefined): ApiFailure {
  if (signal?.aborted || (error instanceof Error && error.name === 'AbortError')) {
    return { status: 0, code: 'request.cancelled', message: 'Request cancelled', fieldErrors: {} };
  }
  const response = (error as { response?: Response } | null)?.response;
  if (!response) {
    const message = error instanceof Error ? error.message : String(error);
    return { status: 0, code: 'network', message, fieldErrors: {} };
  }
  const data = (error as { data?: unknown }).data;
  if (is(data, ApiErrorStruct)) {
    return {
      status: response.status,
      code: data.code ?? `http.${response.status}`,
      message: data.message,
      fieldErrors: data.errors ?? {},
    };
  }
  return { status: response.status, code: `http.${response.status}`, message: response.statusText, fieldErrors: {} };
}

/**
 * The failure's text when the server wrote it (Spanish, meant for users), else null: network errors,
 * bare HTTP statuses and bad bodies carry the fetch library's or the browser's English.
 */
export function serverMessage(failure: ApiFailure): string | null {
  const fromServer = failure.status > 0 && !failure.code.startsWith('http.') && failure.code !== 'response.invalid';
  return fromServer ? failure.message : null;
}

/** Checks a response body against its struct; a mismatch is a failure like any other. */
export function parseBody<T>(body: unknown, struct: Struct<T, unknown>, what: string): T {
  if (is(body, struct)) return body;
  throw new ApiFailureError({
    status: 200,
    code: 'response.invalid',
    message: `Unexpected response body for ${what}`,
    fieldErrors: {},
  });
}

export const http: HttpClient = createHttpClient();
