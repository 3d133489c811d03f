// The families' app for a family in two schools (under StrictMode and without it): the real machines and
// services over a scripted fetch, routed with wouter's memoryLocation (path and search). The header names
// both schools; the children are links with school, course and unread count; one child's inbox is in the
// address (`?hijo=`) and asked for as `student`; the search waits for a pause and says when nothing is
// found; a child that is not this family's is said so; a message's file downloads with the bearer token.
import { StrictMode, type ReactNode } from 'react';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { memoryLocation } from 'wouter/memory-location';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import familyCL from '../../src/i18n/family/es-CL.json' with { type: 'json' };
import type { FamilyChild, FamilyInboxPage, FamilyMessageDetail, FamilySession } from '../../shared/family-contract';
import { familySessionMachine } from '../../src/machines/family/session';
import { FamilyApp } from '../../src/views/family/app';
import { FAMILY_SESSION_KEY, familySession, jsonResponse } from '../fixtures/family';

const tx = familyCL.family;
const SA = 'Colegio San Andrés de Ñuñoa';
const BJ = 'Escuela Benito Juárez';

const SESSION: FamilySession = familySession(
  [
    { name: SA, locale: 'es-CL' },
    { name: BJ, locale: 'es-MX' },
  ],
  'tok-9',
);
const CHILDREN: FamilyChild[] = [
  { id: 3, name: 'Tomás Soto Díaz', school_name: SA, course_name: '3° Básico A', unread: 1 },
  { id: 8, name: 'Lucía Soto Díaz', school_name: BJ, course_name: '1° de Secundaria B', unread: 0 },
];
const row = (id: number, title: string, school: string, student: string): FamilyInboxPage['data'][number] => ({
  id,
  title,
  snippet: 'Texto',
  sender_name: 'Marta Díaz',
  school_name: school,
  sent_at: '2026-11-28T15:00:00.000Z',
  read: id !== 41,
  allow_replies: false,
  student_names: student,
});
const pageOf = (data: FamilyInboxPage['data']): FamilyInboxPage => ({
  data,
  meta: { current_page: 1, last_page: 1, per_page: 20, total: data.length, unread: data.filter((m) => !m.read).length },
  links: { first: '', last: '', prev: null, next: null },
});
const ALL = pageOf([row(41, 'Reunión de apoderados', SA, 'Tomás Soto'), row(42, 'Junta de padres', BJ, 'Lucía Soto')]);
const TOMAS = pageOf([ALL.data[0]!]);
const DETAIL: FamilyMessageDetail = {
  ...ALL.data[0]!,
  content: 'El jueves a las 19:00.',
  signature: null,
  read_at: null,
  attachments: [{ id: 5, name: 'autorización.pdf', size: 2048, content_type: 'application/pdf' }],
  thread: [],
};

let requests: { method: string; path: string; authorization: string | null }[] = [];
let answer: (key: string) => Response | Promise<Response>;

function server(overrides: Record<string, () => Response | Promise<Response>> = {}) {
  answer = (key) => {
    const override = overrides[key];
    if (override) return override();
    switch (key) {
      case 'GET /api/app/children':
        return jsonResponse(200, { data: CHILDREN });
      case 'GET /api/app/messages?page=1':
        return jsonResponse(200, ALL);
      case 'GET /api/app/messages?page=1&student=3':
        return jsonResponse(200, TOMAS);
      case 'GET /api/app/messages/41':
        return jsonResponse(200, { data: DETAIL });
      case 'POST /api/app/messages/41/read':
        return jsonResponse(200, { data: { id: 41, read: true, read_at: '2026-11-30T10:00:00.000Z' } });
      case 'GET /api/app/messages/41/attachments/5':
        return new Response('%PDF-1.4', { status: 200, headers: { 'content-type': 'application/pdf' } });
      default:
        return jsonResponse(404, { message: 'No encontrado.', code: 'not_found' });
    }
  };
}

const created: Blob[] = [];
beforeEach(() => {
  requests = [];
  created.length = 0;
  localStorage.clear();
  localStorage.setItem(FAMILY_SESSION_KEY, JSON.stringify(SESSION));
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      const method = init?.method ?? 'GET';
      const path = url.pathname + url.search;
      requests.push({ method, path, authorization: new Headers(init?.headers).get('authorization') });
      return answer(`${method} ${path}`);
    }),
  );
  // jsdom has no object URLs; the download's save step is checked through them.
  URL.createObjectURL = vi.fn((blob: Blob) => {
    created.push(blob);
    return 'blob:familia/1';
  });
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  localStorage.clear();
});

const modes: Array<[string, (node: ReactNode) => ReactNode]> = [
  ['StrictMode', (node) => <StrictMode>{node}</StrictMode>],
  ['plain', (node) => node],
];

function open(wrap: (node: ReactNode) => ReactNode, path = '/') {
  const location = memoryLocation({ path, record: true });
  const session = createActor(familySessionMachine, { input: { preferredLocale: 'es-CL' } }).start();
  render(wrap(<FamilyApp session={session} hook={location.hook} searchHook={location.searchHook} />));
  return location;
}

const calls = (method: string, path: string) => requests.filter((r) => r.method === method && r.path === path);

describe.each(modes)('a family in two schools (%s)', (_, wrap) => {
  it('names both schools, lists the children and narrows the inbox to one in the address', async () => {
    server();
    const location = open(wrap);
    const nav = await screen.findByRole('navigation', { name: tx.children.listLabel });
    expect(screen.getByText(`Ana Soto · ${SA} · ${BJ}`)).toBeTruthy();
    const tomas = within(nav).getByRole('link', { name: /Tomás Soto Díaz/ });
    expect(within(tomas).getByText(`${SA} · 3° Básico A`)).toBeTruthy();
    expect(within(tomas).getByText('1 sin leer')).toBeTruthy();
    expect(within(nav).getByRole('link', { name: /Lucía Soto Díaz/ }).textContent).toContain(`${BJ} · 1° de Secundaria B`);
    expect(
      within(nav)
        .getByRole('link', { name: new RegExp(tx.children.all) })
        .getAttribute('aria-current'),
    ).toBe('page');
    // Each row names its own school.
    const junta = await screen.findByRole('link', { name: /Junta de padres/ });
    expect(within(junta).getByText(BJ)).toBeTruthy();

    fireEvent.click(tomas);
    await waitFor(() => expect(screen.queryByRole('link', { name: /Junta de padres/ })).toBeNull());
    expect(location.history?.at(-1)).toBe('/?hijo=3');
    expect(calls('GET', '/api/app/messages?page=1&student=3')[0]?.authorization).toBe('Bearer tok-9');
    expect(
      within(nav)
        .getByRole('link', { name: /Tomás Soto Díaz/ })
        .getAttribute('aria-current'),
    ).toBe('page');
    // The message opened from there returns there.
    fireEvent.click(screen.getByRole('link', { name: /Reunión de apoderados/ }));
    expect(await screen.findByRole('heading', { name: 'Reunión de apoderados' })).toBeTruthy();
    expect(location.history?.at(-1)).toBe('/mensajes/41?hijo=3');
    expect(screen.getByRole('link', { name: new RegExp(tx.app.back) }).getAttribute('href')).toBe('/?hijo=3');
  });

  it('starts on the child of the address, searches after a pause and says when nothing is found', async () => {
    server({
      [`GET /api/app/messages?page=1&student=3&q=${encodeURIComponent('reunión')}`]: () => jsonResponse(200, TOMAS),
      'GET /api/app/messages?page=1&student=3&q=zzz': () => jsonResponse(200, pageOf([])),
    });
    open(wrap, '/?hijo=3');
    expect(await screen.findByRole('link', { name: /Reunión de apoderados/ })).toBeTruthy();
    expect(calls('GET', '/api/app/messages?page=1')).toHaveLength(0);
    const box = screen.getByLabelText(tx.children.search);
    fireEvent.change(box, { target: { value: 'reu' } });
    fireEvent.change(box, { target: { value: 'reunión' } });
    expect(screen.getByText(tx.children.searching)).toBeTruthy();
    await waitFor(() => expect(calls('GET', `/api/app/messages?page=1&student=3&q=${encodeURIComponent('reunión')}`)).toHaveLength(1));
    // One request for the pause, none for the key before it.
    expect(requests.filter((r) => r.path.includes('q=reu&'))).toHaveLength(0);
    expect(requests.filter((r) => r.path.endsWith('q=reu'))).toHaveLength(0);

    fireEvent.change(box, { target: { value: 'zzz' } });
    expect(await screen.findByText(tx.children.noResults)).toBeTruthy();
    expect(screen.getByText(tx.children.noResultsSearch)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: tx.children.clearSearch }));
    expect(await screen.findByRole('link', { name: /Reunión de apoderados/ })).toBeTruthy();
    expect((screen.getByLabelText(tx.children.search) as HTMLInputElement).value).toBe('');
  });

  it('says a child who is not this family’s is not found, with the way back to every message', async () => {
    server();
    open(wrap, '/?hijo=99');
    expect(await screen.findByText(tx.children.missing)).toBeTruthy();
    expect(screen.getByRole('link', { name: tx.children.showAll }).getAttribute('href')).toBe('/');
    expect(screen.queryByRole('button', { name: tx.inbox.retry })).toBeNull();
  });

  it('downloads a message file with the token, and says when it could not', async () => {
    server();
    open(wrap, '/mensajes/41');
    const button = await screen.findByRole('button', { name: /Descargar autorización\.pdf/ });
    fireEvent.click(button);
    await waitFor(() => expect(created).toHaveLength(1));
    expect(calls('GET', '/api/app/messages/41/attachments/5')[0]?.authorization).toBe('Bearer tok-9');
    expect(await created[0]!.text()).toBe('%PDF-1.4');
    expect(HTMLAnchorElement.prototype.click).toHaveBeenCalledTimes(1);

    server({ 'GET /api/app/messages/41/attachments/5': () => jsonResponse(404, { message: 'No encontrado.', code: 'not_found' }) });
    fireEvent.click(screen.getByRole('button', { name: /Descargar autorización\.pdf/ }));
    expect(await screen.findByText('No pudimos descargar autorización.pdf. Inténtalo de nuevo.')).toBeTruthy();
    expect(created).toHaveLength(1);
  });
});
