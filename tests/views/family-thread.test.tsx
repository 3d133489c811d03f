// The families' app's conversation and wall (under StrictMode and without it), with the real session and
// screen machines over a scripted fetch, routed with memoryLocation: the staff's answers in the thread
// (sender, «Colegio», time) beside the guardian's own; a reply shown at once, kept with the server's time,
// or back in the box when it fails; «Actualizar conversación»; the wall (pictures fetched with the token,
// shown from object URLs), one post, and the wall's empty and offline states; the header's way there.
import { StrictMode, type ReactNode } from 'react';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { memoryLocation } from 'wouter/memory-location';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import familyCL from '../../src/i18n/family/es-CL.json' with { type: 'json' };
import type { FamilyMessageDetail, FamilySession } from '../../shared/family-contract';
import type { NewsPost } from '../../shared/news-contract';
import { familySessionMachine } from '../../src/machines/family/session';
import { FamilyApp } from '../../src/views/family/app';
import { FAMILY_SESSION_KEY, familySession, jsonResponse } from '../fixtures/family';

const tx = familyCL.family;
const SESSION: FamilySession = familySession();
const DETAIL: FamilyMessageDetail = {
  id: 41,
  title: 'Reunión de apoderados',
  snippet: 'El jueves a las 19:00',
  sender_name: 'Marta Díaz',
  school_name: 'Colegio San Andrés de Ñuñoa',
  sent_at: '2026-11-28T15:00:00.000Z',
  read: true,
  allow_replies: true,
  student_names: 'Tomás Soto',
  content: 'El jueves a las 19:00 en la sala de 3° A.',
  signature: null,
  read_at: '2026-11-28T16:00:00.000Z',
  attachments: [],
  thread: [
    {
      id: 50,
      title: 'Re: Reunión de apoderados',
      content: '¿Puedo llegar 19:30?',
      sender_name: 'Ana Soto',
      mine: true,
      sent_at: '2026-11-28T17:00:00.000Z',
    },
    {
      id: 51,
      title: 'Re: Reunión de apoderados',
      content: 'Sí, la esperamos.',
      sender_name: 'Marta Díaz',
      mine: false,
      sent_at: '2026-11-28T18:00:00.000Z',
    },
  ],
};
const LATER_ANSWER = {
  id: 53,
  title: 'Re: Reunión de apoderados',
  content: 'Le guardamos un asiento.',
  sender_name: 'Marta Díaz',
  mine: false,
  sent_at: '2026-11-29T09:00:00.000Z',
};
const post = (id: number, images: number): NewsPost => ({
  id,
  title: id === 9 ? 'Feria científica' : `Publicación ${id}`,
  body: 'Los esperamos en el gimnasio.',
  category: { id: 1, name: 'Eventos' },
  author: { id: 3, name: 'Marta Díaz' },
  audience: { scope: 'groups', level_ids: [], course_ids: [5] },
  audience_names: [],
  status: 'published',
  pinned: true,
  publish_at: '2026-11-27T12:00:00.000Z',
  ends_at: null,
  attachments: [
    ...Array.from({ length: images }, (_, i) => ({
      id: 90 + i,
      name: `foto-${i + 1}.jpg`,
      size: 2048,
      content_type: 'image/jpeg',
      url: '',
      is_image: true,
    })),
    { id: 99, name: 'programa.pdf', size: 4096, content_type: 'application/pdf', url: '', is_image: false },
  ],
  created_at: '2026-11-27T12:00:00.000Z',
  updated_at: '2026-11-27T12:00:00.000Z',
  deleted_at: null,
  deleted_by: null,
  editable: false,
});
const wallPage = (posts: NewsPost[]) => ({
  data: posts,
  meta: { current_page: 1, last_page: 1, per_page: 20, total: posts.length },
  links: { first: '/api/app/wall?page=1', last: '/api/app/wall?page=1', prev: null, next: null },
});

interface Recorded {
  method: string;
  path: string;
  authorization: string | null;
  body: unknown;
}
let requests: Recorded[] = [];
let routes: Record<string, () => Response | Promise<Response>> = {};
const offline = () => Promise.reject(new TypeError('Failed to fetch'));

beforeEach(() => {
  requests = [];
  routes = {};
  localStorage.setItem(FAMILY_SESSION_KEY, JSON.stringify(SESSION));
  let objects = 0;
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => `blob:foto-${++objects}`), revokeObjectURL: vi.fn() }));
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      const method = init?.method ?? 'GET';
      const path = url.pathname + url.search;
      requests.push({
        method,
        path,
        authorization: new Headers(init?.headers).get('authorization'),
        body: init?.body ? JSON.parse(String(init.body)) : undefined,
      });
      const route = routes[`${method} ${path}`];
      return route ? route() : jsonResponse(404, { message: 'No encontrado.', code: 'not_found' });
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

const modes: Array<[string, (node: ReactNode) => ReactNode]> = [
  ['StrictMode', (node) => <StrictMode>{node}</StrictMode>],
  ['plain', (node) => node],
];

function open(wrap: (node: ReactNode) => ReactNode, path: string) {
  const location = memoryLocation({ path, record: true });
  const session = createActor(familySessionMachine, { input: { preferredLocale: 'es-CL' } }).start();
  render(wrap(<FamilyApp session={session} hook={location.hook} />));
  return location;
}
const calls = (method: string, path: string) => requests.filter((r) => r.method === method && r.path === path);

describe.each(modes)("the conversation in the families' app (%s)", (_, wrap) => {
  it("shows the staff's answers beside the guardian's own, each with its sender and time", async () => {
    routes['GET /api/app/messages/41'] = () => jsonResponse(200, { data: DETAIL });
    open(wrap, '/mensajes/41');
    const thread = await screen.findByRole('region', { name: tx.message.thread });
    const items = within(thread).getAllByRole('listitem');
    expect(items.map((item) => item.getAttribute('data-mine'))).toEqual(['true', 'false']);
    expect(within(items[0]!).getByText(tx.message.mine)).toBeTruthy();
    expect(items[1]!.textContent).toContain('Marta Díaz · Colegio');
    expect(within(items[1]!).getByText('Sí, la esperamos.')).toBeTruthy();
    expect(items[1]!.querySelector('time')?.getAttribute('datetime')).toBe('2026-11-28T18:00:00.000Z');
  });

  it('adds a reply at once, keeps it with the server time, and brings new answers on «Actualizar conversación»', async () => {
    let answerReply: (response: Response) => void = () => {};
    routes['GET /api/app/messages/41'] = () => jsonResponse(200, { data: DETAIL });
    routes['POST /api/app/messages/41/reply'] = () => new Promise<Response>((resolve) => (answerReply = resolve));
    open(wrap, '/mensajes/41');
    const box = (await screen.findByLabelText(tx.message.replyLabel)) as HTMLTextAreaElement;
    fireEvent.change(box, { target: { value: 'Gracias, llego 19:30.' } });
    fireEvent.click(screen.getByRole('button', { name: tx.message.send }));
    const thread = screen.getByRole('region', { name: tx.message.thread });
    // On its way: at the end of the conversation, «Enviando…», out of the box.
    const pending = await within(thread).findByText(tx.thread.pending);
    expect(pending.closest('li')?.textContent).toContain('Gracias, llego 19:30.');
    expect(box.value).toBe('');
    answerReply(jsonResponse(201, { data: { id: 52, sent_at: '2026-11-29T08:00:00.000Z' } }));
    await waitFor(() => expect(within(thread).queryByText(tx.thread.pending)).toBeNull());
    const mine = within(thread).getAllByRole('listitem').at(-1)!;
    expect(mine.textContent).toContain('Gracias, llego 19:30.');
    expect(mine.querySelector('time')?.getAttribute('datetime')).toBe('2026-11-29T08:00:00.000Z');

    routes['GET /api/app/messages/41'] = () =>
      jsonResponse(200, {
        data: {
          ...DETAIL,
          thread: [
            ...DETAIL.thread,
            {
              id: 52,
              title: 'Re',
              content: 'Gracias, llego 19:30.',
              sender_name: 'Ana Soto',
              mine: true,
              sent_at: '2026-11-29T08:00:00.000Z',
            },
            LATER_ANSWER,
          ],
        },
      });
    fireEvent.click(screen.getByRole('button', { name: tx.thread.refresh }));
    expect(await within(thread).findByText('Le guardamos un asiento.')).toBeTruthy();
    expect(calls('GET', '/api/app/messages/41').length).toBeGreaterThanOrEqual(2);
  });

  it('keeps «Enviar» pressed while the reading is still being reported, and sends it when the report ends', async () => {
    let answerRead: (response: Response) => void = () => {};
    routes['GET /api/app/messages/41'] = () => jsonResponse(200, { data: { ...DETAIL, read: false, read_at: null } });
    routes['POST /api/app/messages/41/read'] = () => new Promise<Response>((resolve) => (answerRead = resolve));
    routes['POST /api/app/messages/41/reply'] = () => jsonResponse(201, { data: { id: 52, sent_at: '2026-11-29T08:00:00.000Z' } });
    open(wrap, '/mensajes/41');
    const box = (await screen.findByLabelText(tx.message.replyLabel)) as HTMLTextAreaElement;
    await waitFor(() => expect(calls('POST', '/api/app/messages/41/read')).toHaveLength(1));
    fireEvent.change(box, { target: { value: 'Gracias, llego 19:30.' } });
    fireEvent.click(screen.getByRole('button', { name: tx.message.send }));
    // Kept, not lost: at once in the conversation, the button busy, the POST after the report.
    const thread = screen.getByRole('region', { name: tx.message.thread });
    const pending = await within(thread).findByText(tx.thread.pending);
    expect(pending.closest('li')?.textContent).toContain('Gracias, llego 19:30.');
    expect(box.value).toBe('');
    expect((screen.getByRole('button', { name: tx.message.sending }) as HTMLButtonElement).disabled).toBe(true);
    expect(calls('POST', '/api/app/messages/41/reply')).toHaveLength(0);
    answerRead(jsonResponse(200, { data: { id: 41, read: true, read_at: '2026-11-29T07:59:00.000Z' } }));
    await waitFor(() => expect(within(thread).queryByText(tx.thread.pending)).toBeNull());
    expect(calls('POST', '/api/app/messages/41/reply').map((r) => r.body)).toEqual([{ content: 'Gracias, llego 19:30.' }]);
    expect(within(thread).getAllByRole('listitem').at(-1)!.textContent).toContain('Gracias, llego 19:30.');
  });

  it('gives the reply back to the box when it cannot be sent, nothing lost', async () => {
    routes['GET /api/app/messages/41'] = () => jsonResponse(200, { data: DETAIL });
    routes['POST /api/app/messages/41/reply'] = offline;
    open(wrap, '/mensajes/41');
    const box = (await screen.findByLabelText(tx.message.replyLabel)) as HTMLTextAreaElement;
    fireEvent.change(box, { target: { value: 'Gracias, llego 19:30.' } });
    fireEvent.click(screen.getByRole('button', { name: tx.message.send }));
    expect(await screen.findByText(tx.message.errors.offline)).toBeTruthy();
    expect(box.value).toBe('Gracias, llego 19:30.');
    const thread = screen.getByRole('region', { name: tx.message.thread });
    expect(within(thread).getAllByRole('listitem')).toHaveLength(2);
  });
});

describe.each(modes)("the school's wall in the families' app (%s)", (_, wrap) => {
  it('lists the posts with their first picture fetched with the token, and opens one whole', async () => {
    routes['GET /api/app/messages?page=1'] = () => jsonResponse(200, wallPage([]));
    routes['GET /api/app/wall?page=1'] = () => jsonResponse(200, wallPage([post(9, 2)]));
    routes['GET /api/app/wall/9'] = () => jsonResponse(200, { data: post(9, 2) });
    for (const id of [90, 91, 99])
      routes[`GET /api/app/wall/9/attachments/${id}`] = () => new Response('x', { headers: { 'content-type': 'image/jpeg' } });
    const location = open(wrap, '/');
    const nav = await screen.findByRole('navigation', { name: tx.wall.navLabel });
    fireEvent.click(within(nav).getByRole('link', { name: tx.wall.nav }));
    expect(location.history?.at(-1)).toBe('/mural');
    expect(await screen.findByRole('heading', { level: 1, name: tx.wall.title })).toBeTruthy();
    const card = (await screen.findByRole('article', { name: 'Feria científica' })) as HTMLElement;
    expect(within(card).getByText(tx.wall.pinned)).toBeTruthy();
    expect(within(card).getByText(tx.wall.forChildren, { exact: false })).toBeTruthy();
    const image = (await within(card).findByRole('img', { name: 'Imagen: foto-1.jpg' })) as HTMLImageElement;
    expect(image.src).toMatch(/^blob:/);
    expect(calls('GET', '/api/app/wall/9/attachments/90')[0]?.authorization).toBe('Bearer tok-123');
    // Only the first picture on the list.
    expect(calls('GET', '/api/app/wall/9/attachments/91')).toHaveLength(0);

    fireEvent.click(within(card).getByRole('link', { name: 'Feria científica' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Feria científica' })).toBeTruthy();
    expect(await screen.findByRole('img', { name: 'Imagen: foto-2.jpg' })).toBeTruthy();
    // A document waits for «Descargar».
    expect(calls('GET', '/api/app/wall/9/attachments/99')).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: tx.wall.download }));
    const save = await screen.findByRole('link', { name: tx.wall.download });
    expect(save.getAttribute('download')).toBe('programa.pdf');
  });

  it('says when the wall is empty, and when it is offline, with a retry', async () => {
    routes['GET /api/app/wall?page=1'] = offline;
    open(wrap, '/mural');
    expect(await screen.findByText(tx.wall.offline)).toBeTruthy();
    routes['GET /api/app/wall?page=1'] = () => jsonResponse(200, wallPage([]));
    fireEvent.click(screen.getByRole('button', { name: tx.wall.retry }));
    expect(await screen.findByText(tx.wall.empty)).toBeTruthy();
  });

  it('says a post is missing for good when it is not for this guardian', async () => {
    open(wrap, '/mural/123');
    expect(await screen.findByText(tx.wall.missing)).toBeTruthy();
    expect(screen.queryByRole('button', { name: tx.wall.retry })).toBeNull();
  });
});
