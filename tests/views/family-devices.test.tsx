// The families' app's device screens (under StrictMode and without it), over a scripted fetch and wouter's
// memoryLocation: «Avisos» with one switch per child (school and course, emergencies always said to ring),
// a switch saved and what the server answered shown, a failed save said; «No es mi teléfono» explained and
// confirmed, every session ended on the server and the app back at sign-in, or cancelled, or failed offline
// with the guardian still signed in.
import { StrictMode, type ReactNode } from 'react';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { memoryLocation } from 'wouter/memory-location';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import familyCL from '../../src/i18n/family/es-CL.json' with { type: 'json' };
import type { FamilySession } from '../../shared/family-contract';
import type { FamilyNotifications } from '../../shared/family-devices-contract';
import { familySessionMachine } from '../../src/machines/family/session';
import { FamilyApp } from '../../src/views/family/app';
import { EMPTY_FAMILY_INBOX, FAMILY_SESSION_KEY, familySession, jsonResponse } from '../fixtures/family';

const tx = familyCL.family;
const dx = familyCL.family.devices;

const SESSION: FamilySession = familySession();
const child = (id: number, name: string, course: string, push: boolean) => ({
  student_id: id,
  name,
  school: 'Colegio San Andrés de Ñuñoa',
  course,
  push,
});
const NOTICES: FamilyNotifications = {
  children: [child(3, 'Tomás Soto Rojas', '3° Básico A', true), child(5, 'Julia Soto Rojas', '1° Medio B', true)],
};

interface Recorded {
  method: string;
  path: string;
  authorization: string | null;
  body: unknown;
}
let requests: Recorded[] = [];
let answer: (method: string, path: string, body: unknown) => Response | Promise<Response>;

beforeEach(() => {
  requests = [];
  localStorage.clear();
  localStorage.setItem(FAMILY_SESSION_KEY, JSON.stringify(SESSION));
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      const method = init?.method ?? 'GET';
      const body = init?.body ? JSON.parse(String(init.body)) : undefined;
      requests.push({ method, path: url.pathname + url.search, authorization: new Headers(init?.headers).get('authorization'), body });
      return answer(method, url.pathname + url.search, body);
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

function server(overrides: Partial<Record<string, (body: unknown) => Response | Promise<Response>>> = {}) {
  answer = (method, path, body) => {
    const key = `${method} ${path}`;
    const override = overrides[key];
    if (override) return override(body);
    switch (key) {
      case 'GET /api/app/messages?page=1':
        return jsonResponse(200, EMPTY_FAMILY_INBOX);
      case 'GET /api/app/notifications':
        return jsonResponse(200, { data: NOTICES });
      case 'DELETE /api/app/sessions':
        return jsonResponse(200, { data: { sessions: 2, subscriptions: 1 } });
      default:
        return jsonResponse(404, { message: 'No encontrado.', code: 'not_found' });
    }
  };
}

const modes: Array<[string, (node: ReactNode) => ReactNode]> = [
  ['StrictMode', (node) => <StrictMode>{node}</StrictMode>],
  ['plain', (node) => node],
];

function open(wrap: (node: ReactNode) => ReactNode, path = '/') {
  const location = memoryLocation({ path, record: true });
  const session = createActor(familySessionMachine, { input: { preferredLocale: 'es-CL' } }).start();
  render(wrap(<FamilyApp session={session} hook={location.hook} />));
  return { session, location };
}

const calls = (method: string, path: string) => requests.filter((r) => r.method === method && r.path === path);

describe.each(modes)("the families' device screens (%s)", (_, wrap) => {
  it('«Avisos»: a switch per child with school and course; one turned off is saved and shown as the server has it', async () => {
    server({
      'PUT /api/app/notifications': () =>
        jsonResponse(200, { data: { children: [NOTICES.children[0]!, { ...NOTICES.children[1]!, push: false }] } }),
    });
    const { location } = open(wrap);
    fireEvent.click(await screen.findByRole('link', { name: dx.nav.notices }));
    expect(location.history?.at(-1)).toBe('/avisos');
    expect(await screen.findByRole('heading', { name: dx.notices.title })).toBeTruthy();
    expect(screen.getByText(dx.notices.emergencies)).toBeTruthy();
    const julia = await screen.findByRole('switch', { name: 'Avisos de Julia Soto Rojas' });
    expect(screen.getByRole('switch', { name: 'Avisos de Tomás Soto Rojas' }).getAttribute('aria-checked')).toBe('true');
    expect(screen.getByText('1° Medio B · Colegio San Andrés de Ñuñoa')).toBeTruthy();
    expect(julia.getAttribute('aria-checked')).toBe('true');
    fireEvent.click(julia);
    await waitFor(() =>
      expect(screen.getByRole('switch', { name: 'Avisos de Julia Soto Rojas' }).getAttribute('aria-checked')).toBe('false'),
    );
    expect(calls('PUT', '/api/app/notifications')).toHaveLength(1);
    expect(calls('PUT', '/api/app/notifications')[0]).toMatchObject({
      authorization: 'Bearer tok-123',
      body: { children: [{ student_id: 5, push: false }] },
    });
    expect(screen.getAllByText(dx.notices.off)).toHaveLength(1);
  });

  it('«Avisos»: a save that fails offline says so and the switch stays as it was', async () => {
    server({ 'PUT /api/app/notifications': () => Promise.reject(new TypeError('Failed to fetch')) });
    open(wrap, '/avisos');
    fireEvent.click(await screen.findByRole('switch', { name: 'Avisos de Tomás Soto Rojas' }));
    expect(await screen.findByText(dx.notices.saveOffline)).toBeTruthy();
    expect(screen.getByRole('switch', { name: 'Avisos de Tomás Soto Rojas' }).getAttribute('aria-checked')).toBe('true');
  });

  it('«No es mi teléfono»: explained, cancelled, then confirmed: every session ended and back at sign-in', async () => {
    server();
    open(wrap);
    fireEvent.click(await screen.findByRole('button', { name: dx.notMyPhone.action }));
    expect(screen.getByText(dx.notMyPhone.description)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: dx.notMyPhone.cancel }));
    expect(screen.queryByText(dx.notMyPhone.description)).toBeNull();
    expect(calls('DELETE', '/api/app/sessions')).toHaveLength(0);
    // Focus back where the question came from, not lost to the page's top.
    expect(document.activeElement).toBe(screen.getByRole('button', { name: dx.notMyPhone.action }));

    // What the worker kept for this family: the copies of what was read go, the app's own shell stays.
    const kept = new Set(['hermes-familia-copias-abc123', 'hermes-familia-shell-v1']);
    vi.stubGlobal('caches', {
      keys: async () => [...kept],
      delete: async (name: string) => kept.delete(name),
    });
    fireEvent.click(screen.getByRole('button', { name: dx.notMyPhone.action }));
    fireEvent.click(screen.getByRole('button', { name: dx.notMyPhone.confirm }));
    expect(await screen.findByLabelText(tx.signIn.phone)).toBeTruthy();
    expect([...kept]).toEqual(['hermes-familia-shell-v1']);
    expect(calls('DELETE', '/api/app/sessions')).toHaveLength(1);
    expect(calls('DELETE', '/api/app/sessions')[0]?.authorization).toBe('Bearer tok-123');
    expect(localStorage.getItem(FAMILY_SESSION_KEY)).toBeNull();
  });

  it('«No es mi teléfono» offline: said, and the guardian stays signed in to try again', async () => {
    server({ 'DELETE /api/app/sessions': () => Promise.reject(new TypeError('Failed to fetch')) });
    open(wrap);
    fireEvent.click(await screen.findByRole('button', { name: dx.notMyPhone.action }));
    fireEvent.click(screen.getByRole('button', { name: dx.notMyPhone.confirm }));
    expect(await screen.findByText(dx.notMyPhone.offline)).toBeTruthy();
    expect(screen.getByRole('button', { name: dx.notMyPhone.confirm })).toBeTruthy();
    expect(JSON.parse(localStorage.getItem(FAMILY_SESSION_KEY) ?? 'null')).toEqual(SESSION);
    expect(screen.queryByLabelText(tx.signIn.phone)).toBeNull();
  });
});
