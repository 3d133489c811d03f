// The families' app's calls (services/family/api.ts): the bearer token on every call but the sign-in ones,
// failures as `FamilyFailure` (the server's message and field errors kept, offline as status 0), an answer
// that is not what the contract says refused, and the kept session (device.ts) read back only while valid.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, toPromise, type PromiseActorLogic } from 'xstate';
import type { FamilySession } from '../../shared/family-contract';
import { fetchInboxPage, signIn, toFamilyFailure } from '../../src/services/family/api';
import { signOut } from '../../src/services/family/sign-out';
import { restoreSession } from '../../src/services/family/device';
import { familySession, jsonResponse } from '../fixtures/family';

const SESSION: FamilySession = familySession([{ name: 'Liceo Bicentenario Valle del Elqui', locale: 'es-CL' }], 'tok');

let answer: () => Response | Promise<Response>;
const seen: { url: string; method: string; authorization: string | null }[] = [];

beforeEach(() => {
  seen.length = 0;
  localStorage.clear();
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      seen.push({ url: String(input), method: init?.method ?? 'GET', authorization: new Headers(init?.headers).get('authorization') });
      return answer();
    }),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

const run = <TOutput, TInput>(logic: PromiseActorLogic<TOutput, TInput>, input: TInput): Promise<TOutput> =>
  toPromise(createActor(logic, { input }).start());

describe("the families' app's calls", () => {
  it('signs in without a token, keeps the session on the device, then sends the bearer token', async () => {
    answer = () => jsonResponse(200, { data: SESSION });
    await expect(run(signIn, { phone: '+56912345678', code: '123456' })).resolves.toEqual(SESSION);
    expect(seen[0]).toEqual({ url: '/api/app/session', method: 'POST', authorization: null });
    await expect(run(restoreSession, undefined)).resolves.toEqual(SESSION);
    answer = () =>
      jsonResponse(200, {
        data: [],
        meta: { current_page: 1, last_page: 1, per_page: 20, total: 0, unread: 0 },
        links: { first: '', last: '', prev: null, next: null },
      });
    await run(fetchInboxPage, { token: 'tok', page: 2, student: null, q: '' });
    expect(seen[1]).toEqual({ url: '/api/app/messages?page=2', method: 'GET', authorization: 'Bearer tok' });
    // One child's, with words: both in the query; none of them when not asked.
    await run(fetchInboxPage, { token: 'tok', page: 1, student: 5, q: 'reunión' });
    expect(seen[2]!.url).toBe(`/api/app/messages?page=1&student=5&q=${encodeURIComponent('reunión')}`);
  });

  it("keeps the server's message and field errors, and says offline as status 0", async () => {
    answer = () =>
      jsonResponse(429, { message: 'Demasiadas solicitudes de código. Inténtalo de nuevo en 10 minutos.', code: 'auth.throttled' });
    const throttled = await run(signIn, { phone: '+56912345678', code: '123456' }).catch(toFamilyFailure);
    expect(throttled).toEqual({
      status: 429,
      code: 'auth.throttled',
      message: 'Demasiadas solicitudes de código. Inténtalo de nuevo en 10 minutos.',
      fieldErrors: {},
    });
    answer = () =>
      jsonResponse(422, { message: 'Revisa los campos', code: 'validation.failed', errors: { code: ['El código es obligatorio.'] } });
    const refused = await run(signIn, { phone: '+56912345678', code: '' }).catch(toFamilyFailure);
    expect(refused).toMatchObject({ status: 422, fieldErrors: { code: ['El código es obligatorio.'] } });
    answer = () => Promise.reject(new TypeError('Failed to fetch'));
    expect(await run(signIn, { phone: '+56912345678', code: '123456' }).catch(toFamilyFailure)).toMatchObject({
      status: 0,
      code: 'network',
    });
    expect(localStorage.length).toBe(0);
  });

  it('reads a refusal without JSON (a proxy’s error page) as the status alone, and sends a JSON body', async () => {
    answer = () => new Response('<html>Bad gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } });
    expect(await run(signIn, { phone: '+56912345678', code: '123456' }).catch(toFamilyFailure)).toEqual({
      status: 502,
      code: 'http',
      message: '',
      fieldErrors: {},
    });
    const init = vi.mocked(fetch).mock.calls[0]?.[1];
    expect(new Headers(init?.headers).get('content-type')).toBe('application/json');
    expect(JSON.parse(String(init?.body))).toEqual({ phone: '+56912345678', code: '123456' });
  });

  it('refuses an answer that is not what the contract says', async () => {
    answer = () => jsonResponse(200, { data: { token: 'tok' } });
    expect(await run(signIn, { phone: '+56912345678', code: '123456' }).catch(toFamilyFailure)).toMatchObject({
      status: 200,
      code: 'response.invalid',
    });
    expect(localStorage.length).toBe(0);
  });

  it('forgets the kept session on sign-out even when the server cannot be reached', async () => {
    localStorage.setItem('hermes.familia.session', JSON.stringify(SESSION));
    answer = () => Promise.reject(new TypeError('Failed to fetch'));
    await run(signOut, { token: 'tok' });
    expect(seen[0]).toEqual({ url: '/api/app/session', method: 'DELETE', authorization: 'Bearer tok' });
    await expect(run(restoreSession, undefined)).resolves.toBeNull();
  });

  it('reads back no kept session that is expired or not a session', async () => {
    localStorage.setItem('hermes.familia.session', JSON.stringify({ ...SESSION, expires_at: '2020-01-01T00:00:00.000Z' }));
    await expect(run(restoreSession, undefined)).resolves.toBeNull();
    localStorage.setItem('hermes.familia.session', '{"token": 3');
    await expect(run(restoreSession, undefined)).resolves.toBeNull();
    localStorage.setItem('hermes.familia.session', JSON.stringify({ token: 'tok' }));
    await expect(run(restoreSession, undefined)).resolves.toBeNull();
  });
});
