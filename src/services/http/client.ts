// The one HTTP client of the SPA (SPEC §7): common API base, JSON, cookies sent, the XSRF cookie echoed
// on writes, and every failure normalised to `ApiFailure`. What it asks of the session and tells it (the
// token gate, a refresh after a 401, a 401 that stands, activity for the loading bar) are callbacks it is
// created with: the app root creates
// the app's client with its actors' answers and keeps it in the actor system as `http`, where every call
// made as actor logic (`fromCall`) finds it. Services cannot import machines; nothing here is set later.
import { ofetch, type $Fetch } from 'ofetch';
import { fromPromise, fromTransition, type ActorRefFrom, type AnyActorRef, type NonReducibleUnknown } from 'xstate';
import { is, type Struct } from 'superstruct';
import { API, COOKIE, XSRF_HEADER } from '../../../shared/contract';
import { readCookie } from './cookies';
import { ApiErrorStruct } from '../../../shared/structs';

/** SPEC §8, verbatim: shown when a request is refused because both tokens have expired. */
export const TOKENS_EXPIRED_MESSAGE = 'Both token and refresh token have expired. Your request was aborted.';

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

// --- what the client asks of the session and tells it ------------------------------------------------

interface ActivityListener {
  start: () => void;
  finish: () => void;
  fail: () => void;
}

/** The session's side of the client; a client without one (a test, a call run alone) asks and tells nobody. */
export interface HttpSession {
  /** False when the request must not leave (both tokens expired). */
  mayRequest?: () => boolean;
  /**
   * A 401 on a call outside the session flow: refresh the access token if the refresh token lives, and
   * answer whether it worked. The client asks once for all the 401s that arrive while it runs.
   */
  refresh?: () => Promise<boolean>;
  /** A 401 the session could not refresh away (no refresh, a failed one, or refused again after it): the session has ended. */
  unauthorized?: (failure: ApiFailure) => void;
  /** Requests that are not silent drive the loading bar. */
  activity?: ActivityListener;
}

// --- requests ---------------------------------------------------------------------------------------

type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

interface RequestOptions {
  method?: HttpMethod;
  /** JSON, or a multipart form (a file upload that needs no progress). */
  body?: Record<string, unknown> | FormData;
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
  session?: HttpSession;
}

/** What `through` takes of a request's options: a call it does not make itself is never a session-flow call. */
type ThroughOptions = Pick<RequestOptions, 'signal' | 'silent'>;

export interface HttpClient {
  request: (path: string, options?: RequestOptions) => Promise<unknown>;
  /**
   * A call the client cannot make itself (the upload's XMLHttpRequest, for its progress): `send` makes one
   * trip and rejects with an ApiFailureError. It is gated, refreshed after a 401 and sent again, and tells
   * the session like `request`.
   */
  through: <T>(send: () => Promise<T>, options?: ThroughOptions) => Promise<T>;
}

/** Where API calls go (build-time VITE_API_BASE); also the prefix of download links and uploads. */
export const API_BASE: string = import.meta.env?.VITE_API_BASE ?? '/api';

export function createHttpClient(config: HttpClientConfig = {}): HttpClient {
  const session = config.session ?? {};
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

  // The refresh a 401 started, shared by every 401 that arrives while it runs; and how many refreshes have
  // succeeded, so a 401 to a request sent before the last one is simply sent again.
  let refreshing: Promise<boolean> | null = null;
  let refreshes = 0;

  function refreshOnce(refresh: () => Promise<boolean>): Promise<boolean> {
    refreshing ??= refresh()
      .catch(() => false)
      .then((ok) => {
        if (ok) refreshes += 1;
        refreshing = null;
        return ok;
      });
    return refreshing;
  }

  /** One trip to the server; the XSRF header is read for each, as a refresh may have renewed the cookie. */
  async function fetchOnce(path: string, method: HttpMethod, options: RequestOptions): Promise<unknown> {
    const headers = { ...options.headers, ...(method === 'GET' ? {} : await xsrfHeader(options.signal)) };
    return client(path, { method, headers, body: options.body, query: options.query, signal: options.signal });
  }

  /**
   * Sends the request; a 401 outside the session flow is refreshed away once (a tab woken after the access
   * token expired, before the refresh timer fired) and the request sent again. Only a 401 that survives that
   * ends the session.
   */
  async function sendRefreshing<T>(send: () => Promise<T>, options: RequestOptions): Promise<T> {
    const sentAfter = refreshes;
    try {
      return await send();
    } catch (error) {
      const failure = normaliseError(error, options.signal);
      if (failure.status !== 401 || options.authFlow || !session.refresh) throw error;
      const renewed = refreshes !== sentAfter || (await refreshOnce(session.refresh));
      if (!renewed || options.signal?.aborted) throw error;
      return send();
    }
  }

  /** The gate, the loading bar, the refresh after a 401 and the failure as an ApiFailureError, around `send`. */
  async function perform<T>(send: () => Promise<T>, options: RequestOptions): Promise<T> {
    if (!options.authFlow && session.mayRequest && !session.mayRequest()) {
      throw new ApiFailureError({ status: 0, code: 'tokens.expired', message: TOKENS_EXPIRED_MESSAGE, fieldErrors: {} });
    }
    const activity = options.silent ? null : session.activity;
    activity?.start();
    try {
      const body = await sendRefreshing(send, options);
      activity?.finish();
      return body;
    } catch (error) {
      const failure = normaliseError(error, options.signal);
      if (failure.code === 'request.cancelled') activity?.finish();
      else activity?.fail();
      if (failure.status === 401 && !options.authFlow) session.unauthorized?.(failure);
      throw new ApiFailureError(failure);
    }
  }

  function request(path: string, options: RequestOptions = {}): Promise<unknown> {
    const method = options.method ?? 'GET';
    return perform(() => fetchOnce(path, method, options), options);
  }

  function through<T>(send: () => Promise<T>, options: ThroughOptions = {}): Promise<T> {
    return perform(send, options);
  }

  return { request, through };
}

function normaliseError(error: unknown, signal: AbortSignal | undefined): ApiFailure {
  // Already one (a call made `through` the client, or one this client normalised before).
  if (error instanceof ApiFailureError) return toApiFailure(error);
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

/**
 * The save of a form that makes one thing or edits it: a new one (`id` null) is POSTed to `collection`,
 * one that exists is PATCHed at `one(id)` with the whole form; the answer's `data`, checked by `struct`.
 */
export async function saveOne<T>(
  http: HttpClient,
  target: { id: number | null; collection: string; one: (id: number) => string },
  form: object,
  struct: Struct<{ data: T }, unknown>,
  signal: AbortSignal,
): Promise<T> {
  const path = target.id === null ? target.collection : target.one(target.id);
  const body = await http.request(path, { method: target.id === null ? 'POST' : 'PATCH', body: { ...form }, signal });
  return parseBody(body, struct, path).data;
}

/** The client without a session: what a call finds outside the app's actor system (a test of one actor). */
export const http: HttpClient = createHttpClient();

// --- the app's client in the actor system ------------------------------------------------------------

/** The systemId under which the app root keeps its client. */
export const HTTP_SYSTEM_ID = 'http';

/** Holds the app's client, created once with its session (the root's child `http`); it takes no events. */
export const httpClientLogic = fromTransition(
  (client: HttpClient) => client,
  ({ input }: { input: HttpClientConfig }) => createHttpClient(input),
);
type HttpClientActor = ActorRefFrom<typeof httpClientLogic>;

/** An actor system as far as finding an actor by its systemId. */
export interface ActorLookup {
  get: (systemId: string) => AnyActorRef | undefined;
}

/** The client of the system an actor runs in: the app's, or the plain one outside the app. */
export function httpIn(system: ActorLookup): HttpClient {
  const holder: HttpClientActor | undefined = system.get(HTTP_SYSTEM_ID);
  return holder?.getSnapshot().context ?? http;
}

export interface CallArgs<TInput> {
  input: TInput;
  /** Aborted when the actor stops (the state that invoked it is left). */
  signal: AbortSignal;
  /** The client of the system the call runs in. */
  http: HttpClient;
}

/** An HTTP call as actor logic: a `fromPromise` given its input, its `signal` and the client of its system. */
export function fromCall<TOutput, TInput = NonReducibleUnknown>(run: (args: CallArgs<TInput>) => Promise<TOutput>) {
  return fromPromise<TOutput, TInput>(({ input, signal, system }) => run({ input, signal, http: httpIn(system) }));
}
