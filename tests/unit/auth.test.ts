// Session services: each actor logic against a stubbed global fetch, bodies checked by the structs.
import { describe, expect, it } from 'vitest';
import { json, installFakeFetch } from '../fixtures/fake-fetch';
import { createActor, toPromise, type AnyActorLogic } from 'xstate';
import {
  classifySessionCookie,
  fetchUser,
  login,
  logout,
  readSessionCookie,
  refreshToken,
  USER_FIELD_MISSING,
} from '../../src/services/session/auth';
import { toApiFailure } from '../../src/services/http/client';
import { TEACHER } from '../fixtures/users';

const USER = TEACHER;

const fake = installFakeFetch(['auth._token_expiration.cookie', 'auth._refresh_token_expiration.cookie']);
const requests = fake.requests;

const run = <T extends AnyActorLogic>(logic: T, input?: unknown) => toPromise(createActor(logic, { input } as never).start());
const failureOf = async (promise: Promise<unknown>) =>
  toApiFailure(
    await promise.then(
      () => 'resolved',
      (error: unknown) => error,
    ),
  );

describe('session services', () => {
  it('login posts the credentials and returns the token times, the user and their policies', async () => {
    fake.answer = () =>
      json(200, { data: { token_expires_at: 1000, refresh_expires_at: 2000 }, user: USER, policies: ['hermes-acceder-sistema'] });
    await expect(run(login, { email: 'a@b.cl', password: 'x' })).resolves.toEqual({
      times: { tokenExpiresAt: 1000, refreshExpiresAt: 2000 },
      user: USER,
      policies: ['hermes-acceder-sistema'],
    });
    expect(requests).toEqual([{ method: 'POST', url: '/api/login', body: { email: 'a@b.cl', password: 'x' } }]);
  });

  it('login rejects a body without times, without the user or without the policies', async () => {
    const times = { token_expires_at: 1000, refresh_expires_at: 2000 };
    for (const body of [
      { data: { token_expires_at: 'soon' }, user: USER, policies: [] },
      { data: times, policies: ['hermes-acceder-sistema'] },
      { data: times, user: USER },
    ]) {
      fake.answer = () => json(200, body);
      expect(await failureOf(run(login, { email: 'a@b.cl', password: 'x' }))).toMatchObject({ code: 'response.invalid' });
    }
  });

  it('fetchUser returns the checked user and their policies', async () => {
    fake.answer = () => json(200, { user: { ...USER, extra: true }, policies: ['a', 'b'] });
    const signedIn = await run(fetchUser);
    expect(signedIn.user).toMatchObject(USER);
    expect(signedIn.policies).toEqual(['a', 'b']);
  });

  it('fetchUser fails when the policies are missing or malformed', async () => {
    fake.answer = () => json(200, { user: USER });
    expect(await failureOf(run(fetchUser))).toMatchObject({ code: 'response.invalid' });
    fake.answer = () => json(200, { user: USER, policies: [1] });
    expect(await failureOf(run(fetchUser))).toMatchObject({ code: 'response.invalid' });
  });

  it('fetchUser fails with the SPEC message when the field is missing', async () => {
    fake.answer = () => json(200, { data: USER });
    const failure = await failureOf(run(fetchUser));
    expect(failure.message).toBe('User Data response does not contain field user');
    expect(USER_FIELD_MISSING).toBe('User Data response does not contain field user');
  });

  it('fetchUser fails on a malformed user', async () => {
    fake.answer = () => json(200, { user: { ...USER, roles: 'docente' }, policies: [] });
    expect(await failureOf(run(fetchUser))).toMatchObject({ code: 'response.invalid' });
  });

  it('logout and refresh call their endpoints', async () => {
    fake.answer = (url) =>
      url.endsWith('/logout') ? new Response(null, { status: 204 }) : json(200, { data: { token_expires_at: 5, refresh_expires_at: 6 } });
    await run(logout);
    await expect(run(refreshToken)).resolves.toEqual({ tokenExpiresAt: 5, refreshExpiresAt: 6 });
    expect(requests.map((request) => `${request.method} ${request.url}`)).toEqual(['GET /api/logout', 'POST /api/token/refresh']);
  });

  it('readSessionCookie makes no request', async () => {
    await expect(run(readSessionCookie)).resolves.toEqual({ kind: 'none' });
    const now = Date.now();
    document.cookie = `auth._token_expiration.cookie=${now + 60_000}; Path=/`;
    document.cookie = `auth._refresh_token_expiration.cookie=${now + 600_000}; Path=/`;
    await expect(run(readSessionCookie)).resolves.toEqual({
      kind: 'active',
      times: { tokenExpiresAt: now + 60_000, refreshExpiresAt: now + 600_000 },
    });
    expect(requests).toEqual([]);
  });
});

describe('classifySessionCookie', () => {
  const now = 1_000_000;
  it('tells apart no cookie, usable, refreshable and dead sessions (500 ms margin)', () => {
    expect(classifySessionCookie(now, null, null)).toEqual({ kind: 'none' });
    expect(classifySessionCookie(now, now + 501, now + 10_000)).toMatchObject({ kind: 'active' });
    expect(classifySessionCookie(now, now + 500, now + 10_000)).toMatchObject({ kind: 'refreshable' });
    expect(classifySessionCookie(now, now - 1, now + 501)).toMatchObject({ kind: 'refreshable' });
    expect(classifySessionCookie(now, now - 1, now + 500)).toEqual({ kind: 'expired' });
    // No refresh cookie: the access token is all there is.
    expect(classifySessionCookie(now, now + 60_000, null)).toEqual({
      kind: 'active',
      times: { tokenExpiresAt: now + 60_000, refreshExpiresAt: now + 60_000 },
    });
    expect(classifySessionCookie(now, now - 1, null)).toEqual({ kind: 'expired' });
  });
});
