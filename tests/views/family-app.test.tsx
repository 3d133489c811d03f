// The families' app's wiring (under StrictMode and without it): the real session, inbox and message
// machines and services over a scripted fetch, routed with wouter's memoryLocation. Sign-in by phone and
// code (a light check first, the server's refusal in its own words), the session kept on the device, the
// inbox with sender, school, child, date and unread mark, a message opened and reported read, a reply,
// offline and a revoked token, and «Cerrar sesión».
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

const SESSION: FamilySession = familySession();
const INBOX: FamilyInboxPage = {
  data: [
    {
      id: 41,
      title: 'Reunión de apoderados',
      snippet: 'El jueves a las 19:00',
      sender_name: 'Marta Díaz',
      school_name: 'Colegio San Andrés de Ñuñoa',
      sent_at: '2026-11-28T15:00:00.000Z',
      read: false,
      allow_replies: true,
      student_names: 'Tomás Soto',
    },
    {
      id: 40,
      title: 'Salida pedagógica',
      snippet: 'Traer colación',
      sender_name: 'Pedro Lagos',
      school_name: 'Colegio San Andrés de Ñuñoa',
      sent_at: '2026-11-20T15:00:00.000Z',
      read: true,
      allow_replies: false,
      student_names: null,
    },
  ],
  meta: { current_page: 1, last_page: 1, per_page: 20, total: 2, unread: 1 },
  links: { first: '/api/app/messages?page=1', last: '/api/app/messages?page=1', prev: null, next: null },
};
const CHILDREN: FamilyChild[] = [];
const DETAIL: FamilyMessageDetail = {
  ...INBOX.data[0]!,
  content: 'El jueves a las 19:00 en la sala de 3° A.',
  signature: 'Colegio San Andrés',
  read_at: null,
  attachments: [],
  thread: [],
};

interface Recorded {
  method: string;
  path: string;
  authorization: string | null;
  body: unknown;
}

let requests: Recorded[] = [];
let answer: (method: string, path: string) => Response | Promise<Response>;

beforeEach(() => {
  requests = [];
  localStorage.clear();
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      const method = init?.method ?? 'GET';
      requests.push({
        method,
        path: url.pathname + url.search,
        authorization: new Headers(init?.headers).get('authorization'),
        body: init?.body ? JSON.parse(String(init.body)) : undefined,
      });
      return answer(method, url.pathname + url.search);
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

/** The API as this test scripts it: a known phone, one right code, the inbox and one message. */
function server(overrides: Partial<Record<string, () => Response | Promise<Response>>> = {}) {
  answer = (method, path) => {
    const key = `${method} ${path}`;
    const override = overrides[key];
    if (override) return override();
    switch (key) {
      case 'POST /api/app/session/code':
        return jsonResponse(202, { data: { message: 'Si el teléfono está registrado, te enviamos un código por SMS.' } });
      case 'POST /api/app/session':
        return jsonResponse(200, { data: SESSION });
      case 'DELETE /api/app/session':
        return new Response(null, { status: 204 });
      case 'GET /api/app/messages?page=1':
        return jsonResponse(200, INBOX);
      case 'GET /api/app/children':
        return jsonResponse(200, { data: CHILDREN });
      case 'GET /api/app/messages/41':
        return jsonResponse(200, { data: DETAIL });
      case 'POST /api/app/messages/41/read':
        return jsonResponse(200, { data: { id: 41, read: true, read_at: '2026-11-30T10:00:00.000Z' } });
      case 'POST /api/app/messages/41/reply':
        return jsonResponse(201, { data: { id: 77, sent_at: '2026-11-30T10:05:00.000Z' } });
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

describe.each(modes)("the families' app (%s)", (_, wrap) => {
  it('signs in with the phone and the SMS code, keeps the session on the device and shows the inbox', async () => {
    server();
    open(wrap);
    const phone = await screen.findByLabelText(tx.signIn.phone);
    fireEvent.click(screen.getByRole('button', { name: tx.signIn.sendCode }));
    expect(await screen.findByText(tx.signIn.errors.phoneRequired)).toBeTruthy();
    expect(phone.getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(phone, { target: { value: 'mi casa' } });
    fireEvent.click(screen.getByRole('button', { name: tx.signIn.sendCode }));
    expect(await screen.findByText(tx.signIn.errors.phoneInvalid)).toBeTruthy();
    // No SMS is asked for a number that cannot be one.
    expect(calls('POST', '/api/app/session/code')).toHaveLength(0);

    fireEvent.change(phone, { target: { value: '+56 9 1234 5678' } });
    fireEvent.click(screen.getByRole('button', { name: tx.signIn.sendCode }));
    const code = await screen.findByLabelText(tx.signIn.code);
    expect(calls('POST', '/api/app/session/code')[0]?.body).toEqual({ phone: '+56912345678' });
    fireEvent.change(code, { target: { value: '123' } });
    fireEvent.click(screen.getByRole('button', { name: tx.signIn.submit }));
    expect(await screen.findByText(tx.signIn.errors.codeIncomplete)).toBeTruthy();
    fireEvent.change(code, { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: tx.signIn.submit }));

    const row = await screen.findByRole('link', { name: /Reunión de apoderados/ });
    expect(calls('POST', '/api/app/session')[0]?.body).toEqual({ phone: '+56912345678', code: '123456' });
    expect(calls('GET', '/api/app/messages?page=1')[0]?.authorization).toBe('Bearer tok-123');
    // Sender, school, child, date and the unread mark on the row; the read one has none.
    expect(within(row).getByText('De Marta Díaz')).toBeTruthy();
    expect(within(row).getByText('Colegio San Andrés de Ñuñoa')).toBeTruthy();
    expect(within(row).getByText('Sobre Tomás Soto')).toBeTruthy();
    expect(within(row).getByText(tx.inbox.unreadMark)).toBeTruthy();
    expect(row.querySelector('time')?.getAttribute('datetime')).toBe('2026-11-28T15:00:00.000Z');
    expect(within(screen.getByRole('link', { name: /Salida pedagógica/ })).queryByText(tx.inbox.unreadMark)).toBeNull();
    expect(screen.getByText('1 sin leer')).toBeTruthy();
    // The first row is the newest, as the server ordered them.
    const inbox = screen.getByRole('region', { name: tx.inbox.title });
    expect(
      within(inbox)
        .getAllByRole('link')
        .map((link) => link.textContent?.slice(0, 12)),
    ).toEqual(['Reunión de a', 'Salida pedag']);
    expect(JSON.parse(localStorage.getItem(FAMILY_SESSION_KEY) ?? 'null')).toEqual(SESSION);
  });

  it("says the server's own words for a refused code, and the code is typed again", async () => {
    const refused = 'El código no es válido o venció. Solicita uno nuevo.';
    server({ 'POST /api/app/session': () => jsonResponse(401, { message: refused, code: 'auth.invalid_credentials' }) });
    open(wrap);
    fireEvent.change(await screen.findByLabelText(tx.signIn.phone), { target: { value: '912345678' } });
    fireEvent.click(screen.getByRole('button', { name: tx.signIn.sendCode }));
    const code = await screen.findByLabelText(tx.signIn.code);
    fireEvent.change(code, { target: { value: '000000' } });
    fireEvent.click(screen.getByRole('button', { name: tx.signIn.submit }));
    expect(await screen.findByText(refused)).toBeTruthy();
    expect((screen.getByLabelText(tx.signIn.code) as HTMLInputElement).value).toBe('');
    expect(localStorage.getItem(FAMILY_SESSION_KEY)).toBeNull();
  });

  it('opens a message from the kept session, reports it read, replies, and signs out', async () => {
    server();
    localStorage.setItem(FAMILY_SESSION_KEY, JSON.stringify(SESSION));
    const { location } = open(wrap);
    fireEvent.click(await screen.findByRole('link', { name: /Reunión de apoderados/ }));
    expect(await screen.findByRole('heading', { name: 'Reunión de apoderados' })).toBeTruthy();
    expect(location.history?.at(-1)).toBe('/mensajes/41');
    expect(screen.getByText('El jueves a las 19:00 en la sala de 3° A.')).toBeTruthy();
    await waitFor(() => expect(calls('POST', '/api/app/messages/41/read')).toHaveLength(1));
    expect(calls('POST', '/api/app/messages/41/read')[0]?.authorization).toBe('Bearer tok-123');

    const box = screen.getByLabelText(tx.message.replyLabel);
    fireEvent.click(screen.getByRole('button', { name: tx.message.send }));
    expect(await screen.findByText(tx.message.errors.required)).toBeTruthy();
    fireEvent.change(box, { target: { value: 'Gracias, asistiré.' } });
    fireEvent.click(screen.getByRole('button', { name: tx.message.send }));
    expect(await screen.findByText(tx.message.sent)).toBeTruthy();
    expect(calls('POST', '/api/app/messages/41/reply')[0]?.body).toEqual({ content: 'Gracias, asistiré.' });
    expect(screen.getByText(tx.message.mine)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: tx.app.signOut }));
    expect(await screen.findByLabelText(tx.signIn.phone)).toBeTruthy();
    expect(calls('DELETE', '/api/app/session')[0]?.authorization).toBe('Bearer tok-123');
    expect(localStorage.getItem(FAMILY_SESSION_KEY)).toBeNull();
  });

  it('says when it is offline and loads again on «Reintentar»', async () => {
    let offline = true;
    server({
      'GET /api/app/messages?page=1': () => (offline ? Promise.reject(new TypeError('Failed to fetch')) : jsonResponse(200, INBOX)),
    });
    localStorage.setItem(FAMILY_SESSION_KEY, JSON.stringify(SESSION));
    open(wrap);
    expect(await screen.findByText(tx.inbox.offline)).toBeTruthy();
    offline = false;
    fireEvent.click(screen.getByRole('button', { name: tx.inbox.retry }));
    expect(await screen.findByRole('link', { name: /Reunión de apoderados/ })).toBeTruthy();
  });

  it('signs the device out when the token is refused (revoked or expired)', async () => {
    server({ 'GET /api/app/messages?page=1': () => jsonResponse(401, { message: 'No autenticado.', code: 'auth.unauthenticated' }) });
    localStorage.setItem(FAMILY_SESSION_KEY, JSON.stringify(SESSION));
    open(wrap);
    expect(await screen.findByLabelText(tx.signIn.phone)).toBeTruthy();
    await waitFor(() => expect(localStorage.getItem(FAMILY_SESSION_KEY)).toBeNull());
  });

  it('opens a message at the first slice’s address, moved to /mensajes/:id', async () => {
    server();
    localStorage.setItem(FAMILY_SESSION_KEY, JSON.stringify(SESSION));
    const { location } = open(wrap, '/mensaje/41');
    expect(await screen.findByRole('heading', { name: 'Reunión de apoderados' })).toBeTruthy();
    expect(location.history?.at(-1)).toBe('/mensajes/41');
  });

  it('shows an empty inbox as such', async () => {
    server({ 'GET /api/app/messages?page=1': () => jsonResponse(200, { ...INBOX, data: [], meta: { ...INBOX.meta, total: 0 } }) });
    localStorage.setItem(FAMILY_SESSION_KEY, JSON.stringify(SESSION));
    open(wrap);
    expect(await screen.findByText(tx.inbox.empty)).toBeTruthy();
  });
});
