// The HTTP client against a fake fetch: headers, XSRF, its session callbacks (the gate, a 401 refreshed once
// and sent again, one refresh for concurrent 401s, the session ended only when that fails) and error
// normalisation.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { string, type } from 'superstruct';
import {
  ApiFailureError,
  createHttpClient,
  parseBody,
  serverMessage,
  toApiFailure,
  TOKENS_EXPIRED_MESSAGE,
} from '../../src/services/http/client';

interface Call {
  url: string;
  method: string;
  headers: Headers;
  credentials: RequestCredentials | undefined;
  body: unknown;
}

type Responder = (call: Call) => Response | Promise<Response>;

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function fakeFetch(responder: Responder) {
  const calls: Call[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const call: Call = {
      url: String(input),
      method: (init?.method ?? 'GET').toUpperCase(),
      headers: new Headers(init?.headers),
      credentials: init?.credentials,
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : init?.body,
    };
    calls.push(call);
    if (init?.signal?.aborted) throw new DOMException('The operation was aborted.', 'AbortError');
    return responder(call);
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, calls };
}

function clearCookies() {
  for (const part of document.cookie.split(';')) {
    const name = part.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; Max-Age=0; Path=/`;
  }
}

beforeEach(() => clearCookies());
afterEach(() => clearCookies());

describe('http client', () => {
  it('calls the API base with JSON and credentials', async () => {
    const { fetch, calls } = fakeFetch(() => json(200, { ok: true }));
    const http = createHttpClient({ fetch, baseURL: '/api' });
    await expect(http.request('/user')).resolves.toEqual({ ok: true });
    expect(calls).toHaveLength(1);
    expect(calls[0]?.url).toBe('/api/user');
    expect(calls[0]?.credentials).toBe('include');
    expect(calls[0]?.headers.get('accept')).toBe('application/json');
    // Reads never carry the XSRF header.
    expect(calls[0]?.headers.has('x-xsrf-token')).toBe(false);
  });

  it('sends the defined query values, a JSON body as JSON, and reads an empty or plain-text answer as such', async () => {
    document.cookie = 'XSRF-TOKEN-HERMES=t; Path=/';
    const { fetch, calls } = fakeFetch((call) =>
      call.method === 'DELETE'
        ? new Response(null, { status: 204 })
        : new Response('hola', { status: 200, headers: { 'content-type': 'text/plain' } }),
    );
    const http = createHttpClient({ fetch, baseURL: '/api/' });
    await expect(http.request('/messages', { query: { q: 'año 2°', page: 2, unread: true, folder: undefined } })).resolves.toBe('hola');
    expect(calls[0]?.url).toBe('/api/messages?q=a%C3%B1o+2%C2%B0&page=2&unread=true');
    await expect(http.request('/messages/7', { method: 'DELETE', body: { ids: [7] } })).resolves.toBeUndefined();
    expect(calls[1]?.headers.get('content-type')).toBe('application/json');
    expect(calls[1]?.body).toEqual({ ids: [7] });
  });

  it('echoes the XSRF cookie on writes', async () => {
    document.cookie = 'XSRF-TOKEN-HERMES=abc%3D123; Path=/';
    const { fetch, calls } = fakeFetch(() => json(200, { data: {} }));
    const http = createHttpClient({ fetch, baseURL: '/api' });
    await http.request('/login', { method: 'POST', body: { email: 'a@b.cl', password: 'x' } });
    expect(calls).toHaveLength(1);
    expect(calls[0]?.headers.get('x-xsrf-token')).toBe('abc=123');
    expect(calls[0]?.body).toEqual({ email: 'a@b.cl', password: 'x' });
  });

  it('fetches the CSRF cookie first when it is missing', async () => {
    const { fetch, calls } = fakeFetch((call) => {
      if (call.url === '/api/csrf-cookie') {
        document.cookie = 'XSRF-TOKEN-HERMES=fresh; Path=/';
        return new Response(null, { status: 204 });
      }
      return json(200, { data: {} });
    });
    const http = createHttpClient({ fetch, baseURL: '/api' });
    await http.request('/token/refresh', { method: 'POST' });
    expect(calls.map((call) => `${call.method} ${call.url}`)).toEqual(['GET /api/csrf-cookie', 'POST /api/token/refresh']);
    expect(calls[1]?.headers.get('x-xsrf-token')).toBe('fresh');
  });

  it('tells the session about a 401, except on session-flow calls', async () => {
    const unauthorized = vi.fn();
    const { fetch } = fakeFetch(() => json(401, { message: 'Unauthenticated.', code: 'auth.unauthenticated' }));
    const http = createHttpClient({ fetch, baseURL: '/api', session: { unauthorized } });

    const error = await http.request('/user').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiFailureError);
    expect(toApiFailure(error)).toEqual({ status: 401, code: 'auth.unauthenticated', message: 'Unauthenticated.', fieldErrors: {} });
    expect(unauthorized).toHaveBeenCalledTimes(1);

    document.cookie = 'XSRF-TOKEN-HERMES=t; Path=/';
    await expect(http.request('/login', { method: 'POST', authFlow: true })).rejects.toBeInstanceOf(ApiFailureError);
    expect(unauthorized).toHaveBeenCalledTimes(1);
  });

  it('a 401 with a live refresh token refreshes once and retries: the caller gets the answer, the session is not ended', async () => {
    let refreshed = false;
    const refresh = vi.fn(async () => {
      refreshed = true;
      return true;
    });
    const unauthorized = vi.fn();
    const { fetch, calls } = fakeFetch(() =>
      refreshed ? json(200, { data: ['hola'] }) : json(401, { message: 'Unauthenticated.', code: 'auth.unauthenticated' }),
    );
    const http = createHttpClient({ fetch, baseURL: '/api', session: { refresh, unauthorized } });

    await expect(http.request('/messages')).resolves.toEqual({ data: ['hola'] });
    expect(calls.map((call) => `${call.method} ${call.url}`)).toEqual(['GET /api/messages', 'GET /api/messages']);
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(unauthorized).not.toHaveBeenCalled();
  });

  it('a write refused with 401 is sent again after the refresh with the XSRF cookie as it is then', async () => {
    document.cookie = 'XSRF-TOKEN-HERMES=before; Path=/';
    let refreshed = false;
    const refresh = async () => {
      refreshed = true;
      document.cookie = 'XSRF-TOKEN-HERMES=after; Path=/';
      return true;
    };
    const { fetch, calls } = fakeFetch(() => (refreshed ? json(201, { data: { id: 9 } }) : json(401, { message: 'Unauthenticated.' })));
    const http = createHttpClient({ fetch, baseURL: '/api', session: { refresh } });

    await expect(http.request('/messages', { method: 'POST', body: { title: 'Hola' } })).resolves.toEqual({ data: { id: 9 } });
    expect(calls.map((call) => [call.method, call.headers.get('x-xsrf-token'), call.body])).toEqual([
      ['POST', 'before', { title: 'Hola' }],
      ['POST', 'after', { title: 'Hola' }],
    ]);
  });

  it('concurrent 401s wait for one refresh, then each request is sent again once', async () => {
    let refreshed = false;
    let finishRefresh: (ok: boolean) => void = () => {};
    const refresh = vi.fn(
      () =>
        new Promise<boolean>((resolve) => {
          finishRefresh = (ok) => {
            refreshed = ok;
            resolve(ok);
          };
        }),
    );
    const { fetch, calls } = fakeFetch((call) => (refreshed ? json(200, { path: call.url }) : json(401, { message: 'Unauthenticated.' })));
    const http = createHttpClient({ fetch, baseURL: '/api', session: { refresh } });

    const answers = Promise.all(['/messages', '/templates', '/user'].map((path) => http.request(path)));
    await vi.waitFor(() => expect(calls).toHaveLength(3));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(refresh).toHaveBeenCalledTimes(1);
    finishRefresh(true);
    await expect(answers).resolves.toEqual([{ path: '/api/messages' }, { path: '/api/templates' }, { path: '/api/user' }]);
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(calls).toHaveLength(6);
  });

  it('a 401 that arrives after a refresh its request did not wait for is sent again without another refresh', async () => {
    // Each answer is released by hand, so the second request's 401 comes back after the first one's refresh.
    const pending: Array<{ url: string; answer: (response: Response) => void }> = [];
    const { fetch } = fakeFetch(
      (call) =>
        new Promise<Response>((resolve) => {
          pending.push({ url: call.url, answer: resolve });
        }),
    );
    const refresh = vi.fn(async () => true);
    const http = createHttpClient({ fetch, baseURL: '/api', session: { refresh } });
    const unauthenticated = () => json(401, { message: 'Unauthenticated.' });

    const first = http.request('/messages');
    const second = http.request('/templates');
    await vi.waitFor(() => expect(pending).toHaveLength(2));
    pending[0]!.answer(unauthenticated());
    await vi.waitFor(() => expect(pending).toHaveLength(3));
    pending[2]!.answer(json(200, { which: 'first' }));
    await expect(first).resolves.toEqual({ which: 'first' });
    pending[1]!.answer(unauthenticated());
    await vi.waitFor(() => expect(pending).toHaveLength(4));
    expect(pending[3]!.url).toBe('/api/templates');
    pending[3]!.answer(json(200, { which: 'second' }));
    await expect(second).resolves.toEqual({ which: 'second' });
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it('only a failed refresh ends the session: the 401 stands and is not sent again', async () => {
    const refresh = vi.fn(async () => false);
    const unauthorized = vi.fn();
    const { fetch, calls } = fakeFetch(() => json(401, { message: 'Unauthenticated.', code: 'auth.unauthenticated' }));
    const http = createHttpClient({ fetch, baseURL: '/api', session: { refresh, unauthorized } });

    const error = await http.request('/messages').catch((caught: unknown) => caught);
    expect(toApiFailure(error)).toMatchObject({ status: 401, code: 'auth.unauthenticated' });
    expect(calls).toHaveLength(1);
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(unauthorized).toHaveBeenCalledTimes(1);
  });

  it('a request refused again after a good refresh ends the session, without a second refresh', async () => {
    const refresh = vi.fn(async () => true);
    const unauthorized = vi.fn();
    const events: string[] = [];
    const activity = { start: () => events.push('start'), finish: () => events.push('finish'), fail: () => events.push('fail') };
    const { fetch, calls } = fakeFetch(() => json(401, { message: 'Unauthenticated.', code: 'auth.unauthenticated' }));
    const http = createHttpClient({ fetch, baseURL: '/api', session: { refresh, unauthorized, activity } });

    const error = await http.request('/messages').catch((caught: unknown) => caught);
    expect(toApiFailure(error)).toMatchObject({ status: 401 });
    expect(calls).toHaveLength(2);
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(unauthorized).toHaveBeenCalledTimes(1);
    // One request for the loading bar, however many times it was sent.
    expect(events).toEqual(['start', 'fail']);
  });

  it('aborts with the exact SPEC message when the gate refuses, without any request', async () => {
    const { fetch, calls } = fakeFetch(() => json(200, {}));
    const http = createHttpClient({ fetch, baseURL: '/api', session: { mayRequest: () => false } });
    const error = await http.request('/channels').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiFailureError);
    expect((error as Error).message).toBe('Both token and refresh token have expired. Your request was aborted.');
    expect(TOKENS_EXPIRED_MESSAGE).toBe('Both token and refresh token have expired. Your request was aborted.');
    expect(toApiFailure(error)).toMatchObject({ status: 0, code: 'tokens.expired' });
    expect(calls).toHaveLength(0);
    // The session flow itself is not gated (logging in again must work).
    document.cookie = 'XSRF-TOKEN-HERMES=t; Path=/';
    await expect(http.request('/login', { method: 'POST', authFlow: true })).resolves.toEqual({});
  });

  it('lets requests through when the gate allows', async () => {
    const gate = vi.fn(() => true);
    const { fetch } = fakeFetch(() => json(200, { data: [] }));
    await expect(createHttpClient({ fetch, baseURL: '/api', session: { mayRequest: gate } }).request('/templates')).resolves.toEqual({
      data: [],
    });
    expect(gate).toHaveBeenCalledTimes(1);
  });

  it('normalises network failures, validation errors and unknown bodies', async () => {
    const offline = createHttpClient({ fetch: fakeFetch(() => Promise.reject(new TypeError('Failed to fetch'))).fetch, baseURL: '/api' });
    expect(toApiFailure(await offline.request('/user').catch((caught: unknown) => caught))).toMatchObject({ status: 0, code: 'network' });

    document.cookie = 'XSRF-TOKEN-HERMES=t; Path=/';
    const invalid = createHttpClient({
      fetch: fakeFetch(() => json(422, { message: 'invalid', code: 'validation.failed', errors: { email: ['requerido'] } })).fetch,
      baseURL: '/api',
    });
    expect(toApiFailure(await invalid.request('/login', { method: 'POST', authFlow: true }).catch((caught: unknown) => caught))).toEqual({
      status: 422,
      code: 'validation.failed',
      message: 'invalid',
      fieldErrors: { email: ['requerido'] },
    });

    const html = createHttpClient({
      fetch: fakeFetch(() => new Response('<h1>Bad gateway</h1>', { status: 502, statusText: 'Bad Gateway' })).fetch,
      baseURL: '/api',
    });
    expect(toApiFailure(await html.request('/user').catch((caught: unknown) => caught))).toMatchObject({ status: 502, code: 'http.502' });
  });

  it('reports activity to the loading bar: start, then finish or fail; cancels are not failures', async () => {
    const events: string[] = [];
    const session = {
      activity: { start: () => events.push('start'), finish: () => events.push('finish'), fail: () => events.push('fail') },
    };
    const ok = createHttpClient({ fetch: fakeFetch(() => json(200, {})).fetch, baseURL: '/api', session });
    const broken = createHttpClient({
      fetch: fakeFetch(() => json(500, { message: 'boom', code: 'server.error' })).fetch,
      baseURL: '/api',
      session,
    });

    await ok.request('/channels');
    await broken.request('/channels').catch(() => undefined);
    const controller = new AbortController();
    controller.abort();
    const cancelled = await ok.request('/channels', { signal: controller.signal }).catch((caught: unknown) => caught);
    await ok.request('/token/refresh', { silent: true, authFlow: true, method: 'GET' });

    expect(toApiFailure(cancelled).code).toBe('request.cancelled');
    expect(events).toEqual(['start', 'finish', 'start', 'fail', 'start', 'finish']);
  });

  it('checks bodies with superstruct', () => {
    const struct = type({ name: string() });
    expect(parseBody({ name: 'x', extra: 1 }, struct, '/thing')).toEqual({ name: 'x', extra: 1 });
    let caught: unknown;
    try {
      parseBody({ name: 1 }, struct, '/thing');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ApiFailureError);
    expect(toApiFailure(caught)).toMatchObject({ status: 200, code: 'response.invalid' });
  });

  it("asks its own session only, never another client's", async () => {
    const first = vi.fn(() => false);
    const second = vi.fn(() => true);
    const { fetch } = fakeFetch(() => json(200, {}));
    createHttpClient({ fetch, baseURL: '/api', session: { mayRequest: first } });
    await createHttpClient({ fetch, baseURL: '/api', session: { mayRequest: second } }).request('/user');
    expect(second).toHaveBeenCalledTimes(1);
    expect(first).not.toHaveBeenCalled();
  });
});

describe('serverMessage', () => {
  it('gives users only what the server wrote, never the fetch library or the browser status text', () => {
    const base = { fieldErrors: {} };
    expect(serverMessage({ ...base, status: 422, code: 'validation.failed', message: 'Los datos enviados no son válidos.' })).toBe(
      'Los datos enviados no son válidos.',
    );
    expect(serverMessage({ ...base, status: 0, code: 'network', message: '[POST] "/api/messages/send": Failed to fetch' })).toBeNull();
    expect(serverMessage({ ...base, status: 502, code: 'http.502', message: 'Bad Gateway' })).toBeNull();
    expect(serverMessage({ ...base, status: 200, code: 'response.invalid', message: 'Unexpected response body for /user' })).toBeNull();
  });
});
