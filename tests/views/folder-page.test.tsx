// The folder screen's wiring (under StrictMode and without it): the real folder machine, its
// hosted list and the message services over a scripted fetch. The first page and its total, a search that
// waits for typing to pause and keeps the rows meanwhile, the next page on scrolling, a silent failure with
// Reintentar, rows that leave at once after an action (toast, counters), the purge that asks first, and the
// sent folder's "Enviando N %" badge kept fresh.
import { StrictMode, type ReactNode } from 'react';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { InspectionEvent } from 'xstate';
import { toast } from 'react-hot-toast/headless';
import { text } from '../fixtures/texts';
import type { DeliveryProgress } from '../../shared/reception-contract';
import type { Folder } from '../../shared/codes';
import { FolderPage } from '../../src/views/pages/messages/folder-page';
import { Toaster } from '../../src/views/layout/toaster';
import { appActor } from '../../src/views/actors';
import { json, installFakeFetch } from '../fixtures/fake-fetch';
import { messagePage, messageSummary } from '../fixtures/messages';
import { deliveryProgress } from '../fixtures/reception';
import { startApp } from './app';

const row = (id: number, folder: Folder, progress: DeliveryProgress | null = null) => messageSummary({ id, folder, progress });

const SENDING = deliveryProgress({ queued: 2, received: 2 });
const SENT = deliveryProgress({ received: 4 });

/** Answers `GET /messages` by its query; null holds the answer back until `release()`. */
let pages: (query: URLSearchParams) => Response | null = () => json(200, messagePage([]));
let held: Array<() => void> = [];
const release = () => {
  for (const go of held.splice(0)) go();
};
const fake = installFakeFetch();
fake.answer = ((url: string) => {
  const { pathname, searchParams } = new URL(url, 'http://localhost');
  const method = fake.requests.at(-1)?.method ?? 'GET';
  if (method === 'POST' && pathname === '/api/messages/delete') return json(200, { data: { moved: 1 } });
  if (method === 'POST' && pathname === '/api/messages/purge') return json(200, { data: { purged: 1 } });
  if (method === 'POST' && pathname === '/api/messages/restore') return json(200, { data: { restored: 1 } });
  if (pathname === '/api/messages') {
    const answer = pages(searchParams);
    if (answer) return answer;
    const later = json(200, messagePage([]));
    return new Promise<Response>((resolve) => held.push(() => resolve(pages(searchParams) ?? later)));
  }
  return json(404, { message: 'No encontrado', code: 'not_found' });
}) as (url: string) => Response;

/** `counts.refresh` as the root routes it to the counters (the SPEC §7 `counts.changed`). */
let countReloads = 0;
beforeAll(async () => {
  await startApp();
  appActor.system.inspect((event: InspectionEvent) => {
    if (event.type === '@xstate.event' && event.event.type === 'counts.refresh') countReloads += 1;
  });
});
afterEach(() => {
  cleanup();
  // Toasts live in react-hot-toast's own store: one test's must not be read by the next.
  act(() => toast.remove());
  // A search puts itself in the address (`?q=`): the next folder opens unsearched.
  window.history.replaceState(null, '', '/');
  held = [];
  pages = () => json(200, messagePage([]));
});

const modes: Array<[string, (node: ReactNode) => ReactNode]> = [
  ['StrictMode', (node) => <StrictMode>{node}</StrictMode>],
  ['plain', (node) => node],
];

const listRequests = () =>
  fake.requests.filter((r) => r.method === 'GET' && new URL(r.url, 'http://localhost').pathname === '/api/messages');
const queryOf = (r: { url: string }) => Object.fromEntries(new URL(r.url, 'http://localhost').searchParams);
const titles = () => screen.queryAllByRole('listitem').map((item) => item.querySelector('[data-slot=message-title]')?.textContent);

describe.each(modes)('folder screen (%s)', (_mode, wrap) => {
  function renderFolder(folder: Folder) {
    render(
      wrap(
        <>
          <FolderPage folder={folder} />
          <Toaster />
        </>,
      ),
    );
  }

  /** Ticks the row titled `title`, then presses the toolbar's `action`. */
  async function selectAndPress(title: string, action: 'folders.delete' | 'folders.purge') {
    await act(async () => fireEvent.click(screen.getByRole('checkbox', { name: text('folders.select', { title }) })));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: text(action) })));
  }

  it('names the tick box of a draft without a title (not «Seleccionar «»»)', async () => {
    pages = () => json(200, messagePage([messageSummary({ id: 7, folder: 'draft', title: '' })], null, 1));
    renderFolder('draft');
    expect(await screen.findByRole('checkbox', { name: 'Seleccionar mensaje sin título' })).toBeTruthy();
    expect(screen.queryByRole('checkbox', { name: 'Seleccionar «»' })).toBeNull();
  });

  it('shows the first page with its total, asking once for the folder', async () => {
    pages = () => json(200, messagePage([row(1, 'inbox'), row(2, 'inbox')], null, 2));
    renderFolder('inbox');
    await screen.findByText('Mensaje 1');
    expect(titles()).toEqual(['Mensaje 1', 'Mensaje 2']);
    expect(screen.getByText(text('folders.total', { count: 2 }))).toBeTruthy();
    expect(listRequests().map(queryOf)).toEqual([{ folder: 'inbox', limit: '50' }]);
  });

  it('a search waits for typing to pause, keeps the rows while it loads, then shows what matches', async () => {
    pages = (query) => (query.get('q') === 'ana' ? null : json(200, messagePage([row(1, 'inbox'), row(2, 'inbox')])));
    renderFolder('inbox');
    await screen.findByText('Mensaje 1');
    const box = screen.getByRole('searchbox');
    for (const q of ['a', 'an', 'ana']) await act(async () => fireEvent.change(box, { target: { value: q } }));
    expect((box as HTMLInputElement).value).toBe('ana');
    // One request, for the text as it stood when typing paused (250 ms).
    await waitFor(() => expect(listRequests()).toHaveLength(2));
    expect(queryOf(listRequests()[1]!)).toEqual({ folder: 'inbox', q: 'ana', limit: '50' });
    expect(titles()).toEqual(['Mensaje 1', 'Mensaje 2']);
    pages = () => json(200, messagePage([row(2, 'inbox')]));
    await act(async () => release());
    await waitFor(() => expect(titles()).toEqual(['Mensaje 2']));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(listRequests()).toHaveLength(2);
  });

  it('scrolling near the end asks for the next page by its cursor and appends it', async () => {
    pages = (query) =>
      query.get('cursor') === 'c2'
        ? json(200, messagePage([row(3, 'inbox')], null, 3))
        : json(200, messagePage([row(1, 'inbox'), row(2, 'inbox')], 'c2', 3));
    renderFolder('inbox');
    const list = await screen.findByRole('list');
    await act(async () => fireEvent.scroll(list, { target: { scrollTop: 10 } }));
    await waitFor(() => expect(titles()).toEqual(['Mensaje 1', 'Mensaje 2', 'Mensaje 3']));
    expect(queryOf(listRequests()[1]!)).toEqual({ folder: 'inbox', cursor: 'c2', limit: '50' });
  });

  it('a failed load is silent, with Reintentar, which loads again', async () => {
    pages = () => json(500, { message: 'Error del servidor', code: 'server.error' });
    renderFolder('inbox');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(text('folders.failed'));
    pages = () => json(200, messagePage([row(1, 'inbox')]));
    await act(async () => fireEvent.click(within(alert).getByRole('button', { name: text('folders.retry') })));
    await screen.findByText('Mensaje 1');
    expect(screen.queryByRole('alert')).toBeNull();
    // Nothing but the screen says so: no toast.
    expect(screen.queryByText('Error del servidor')).toBeNull();
  });

  it('deleted rows leave at once with the toast, and the counters reload', async () => {
    pages = () => json(200, messagePage([row(1, 'inbox'), row(2, 'inbox')]));
    renderFolder('inbox');
    await screen.findByText('Mensaje 1');
    const before = countReloads;
    await selectAndPress('Mensaje 1', 'folders.delete');
    await screen.findByText(text('messages.deleted', { count: 1 }));
    expect(titles()).toEqual(['Mensaje 2']);
    expect(countReloads).toBe(before + 1);
    expect(fake.requests.find((r) => r.method === 'POST')?.body).toEqual({ ids: [1] });
    // The list was not asked again: the row left by itself.
    expect(listRequests()).toHaveLength(1);
  });

  it('"Deshacer" in the toast of a delete restores those messages and the folder lists them again', async () => {
    pages = () => json(200, messagePage([row(1, 'inbox'), row(2, 'inbox')]));
    renderFolder('inbox');
    await screen.findByText('Mensaje 1');
    await selectAndPress('Mensaje 1', 'folders.delete');
    const deleted = (await screen.findByText(text('messages.deleted', { count: 1 }))).closest('[data-slot=toast]') as HTMLElement;
    expect(titles()).toEqual(['Mensaje 2']);
    const before = countReloads;
    await act(async () => fireEvent.click(within(deleted).getByRole('button', { name: text('toast.undo') })));
    await screen.findByText(text('messages.restored', { count: 1 }));
    expect(fake.requests.filter((r) => r.method === 'POST').map((r) => [new URL(r.url, 'http://localhost').pathname, r.body])).toEqual([
      ['/api/messages/delete', { ids: [1] }],
      ['/api/messages/restore', { ids: [1] }],
    ]);
    // The toast's button is gone with it, the counters reload, and the folder asks for its rows again.
    expect(screen.queryByRole('button', { name: text('toast.undo') })).toBeNull();
    expect(countReloads).toBe(before + 1);
    await waitFor(() => expect(titles()).toEqual(['Mensaje 1', 'Mensaje 2']));
    expect(listRequests()).toHaveLength(2);
  });

  it('the purge asks first; Cancelar and Escape do nothing and give focus back, Eliminar definitivamente purges', async () => {
    pages = () => json(200, messagePage([row(11, 'trash'), row(12, 'trash')]));
    renderFolder('trash');
    await screen.findByText('Mensaje 11');
    await selectAndPress('Mensaje 12', 'folders.purge');
    let dialog = screen.getByRole('alertdialog');
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: text('folders.cancel') })));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(fake.requests.filter((r) => r.method === 'POST')).toEqual([]);
    // Keyboard users land back on the button that asked, not on <body>.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: text('folders.purge') })));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: text('folders.purge') })));
    await act(async () => fireEvent.keyDown(screen.getByRole('alertdialog'), { key: 'Escape' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: text('folders.purge') })));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: text('folders.purge') })));
    dialog = screen.getByRole('alertdialog');
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: text('folders.purge') })));
    await screen.findByText(text('messages.purged', { count: 1 }));
    expect(titles()).toEqual(['Mensaje 11']);
    expect(fake.requests.filter((r) => r.method === 'POST').map((r) => r.body)).toEqual([{ ids: [12] }]);
  });

  it('a sent row still going out keeps its "Enviando N %" badge fresh until it is sent', async () => {
    let progress = SENDING;
    pages = () => json(200, messagePage([row(21, 'sent', progress)]));
    renderFolder('sent');
    const badge = await screen.findByText(text('folders.progressSending', { percent: 50 }));
    expect(badge.getAttribute('data-slot')).toBe('progress-badge');
    progress = SENT;
    // The poller asks again (every 2 s) and the row follows.
    await waitFor(() => expect(screen.queryByText(text('folders.progressSending', { percent: 50 }))).toBeNull(), { timeout: 4000 });
    expect(titles()).toEqual(['Mensaje 21']);
  });
});
