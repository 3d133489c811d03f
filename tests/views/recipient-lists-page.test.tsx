// /recipient-lists and /recipient-lists/trash (under StrictMode and without it): the real
// machines and the list pattern over a scripted API. The skeleton of the first page, rows that link to
// their list with their counts and badges, "Cargar más" appending the next page, the search sent (and its
// no-match text), the empty and failed states with Reintentar; "Nueva lista" refusing an unnamed, empty
// list with the focus on the name and Cancelar giving the focus back; the trash with who deleted each list
// and when, Restaurar, and "Eliminar definitivamente" after a question whose Cancelar gives focus back.
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { RecipientListSummary } from '../../shared/recipient-lists-contract';
import { RecipientListsPage } from '../../src/views/pages/recipient-lists/recipient-lists-page';
import { RecipientListsTrashPage } from '../../src/views/pages/recipient-lists/trash-page';
import { Toaster } from '../../src/views/layout/toaster';
import { json } from '../fixtures/fake-fetch';
import { listSummary, trashedList } from '../fixtures/recipient-lists';
import { text } from '../fixtures/texts';
import { RENDER_MODES, setUpScreenTest } from './screen-test';

const api = setUpScreenTest();

/** A numbered page of the API (SPEC §7): `{ data, meta, links }`. */
const page = <T,>(data: T[], current: number, last: number, total: number) =>
  json(200, {
    data,
    meta: { current_page: current, last_page: last, per_page: 25, total },
    links: { next: current < last ? `/api/recipient-lists?page=${current + 1}` : null, prev: null },
  });
const serverError = () => json(500, { message: 'Error interno', code: 'server.error' });

const OWN = listSummary({ id: 1, name: 'Apoderados 3° Básico A', users_count: 32, stale_count: 3 });
const SHARED = listSummary({ id: 2, name: 'Centro de Padres', users_count: 12, is_owner: false, shared: true, owner_name: 'Pedro Rojas' });
const LATER = listSummary({ id: 3, name: 'Directiva', users_count: 5 });
const queryOf = (url: string) => Object.fromEntries(new URL(url, 'http://localhost').searchParams);

describe.each(RENDER_MODES)('recipient lists screen (%s)', (_mode, wrap) => {
  const renderPage = () => render(wrap(<RecipientListsPage />));
  const rowOf = (name: string) => screen.getByRole('link', { name: new RegExp(name) });

  it('shows the skeleton, then each list linking to it with its members, owner and badges; «Cargar más» appends the next page', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    api.script['GET /recipient-lists'] = [
      (() => held.then(() => page([OWN, SHARED], 1, 2, 3))) as unknown as () => Response,
      page([LATER], 2, 2, 3),
    ];
    renderPage();
    expect(await screen.findByRole('status', { name: text('recipientLists.loading') })).toBeTruthy();
    await act(async () => release());

    const own = await screen.findByRole('link', { name: new RegExp(OWN.name) });
    expect(own.getAttribute('href')).toBe('/recipient-list/1');
    expect(own.textContent).toContain(text('recipientLists.members', { count: 32 }));
    expect(own.textContent).toContain(text('recipientLists.stale', { count: 3 }));
    const shared = rowOf(SHARED.name);
    expect(shared.textContent).toContain(text('recipientLists.ownerBy', { name: 'Pedro Rojas' }));
    expect(shared.textContent).toContain(text('recipientLists.sharedBadge'));
    expect(screen.getByText(text('recipientLists.total', { count: 3 }))).toBeTruthy();
    expect(screen.queryByRole('status', { name: text('recipientLists.loading') })).toBeNull();

    await act(async () => fireEvent.click(screen.getByRole('button', { name: text('recipientLists.loadMore') })));
    await screen.findByRole('link', { name: new RegExp(LATER.name) });
    expect(
      screen.getAllByRole('link', { name: /./ }).filter((link) => link.getAttribute('href')?.startsWith('/recipient-list/')),
    ).toHaveLength(3);
    expect(api.calls('GET', '/recipient-lists').map((r) => queryOf(r.url).page)).toEqual(['1', '2']);
    expect(screen.queryByRole('button', { name: text('recipientLists.loadMore') })).toBeNull();
  });

  it('with no lists it says how to start; a search is sent and names what matched nothing', async () => {
    api.script['GET /recipient-lists'] = [page<RecipientListSummary>([], 1, 1, 0)];
    renderPage();
    await screen.findByText(text('recipientLists.empty'));
    await act(async () =>
      fireEvent.change(screen.getByRole('searchbox', { name: text('recipientLists.search') }), { target: { value: 'Pádres ' } }),
    );
    await screen.findByText(text('recipientLists.noMatch', { q: 'Pádres' }));
    await waitFor(() => expect(api.calls('GET', '/recipient-lists').map((r) => queryOf(r.url).q)).toEqual([undefined, 'Pádres']));
  });

  it('a failed first page says so; Reintentar asks again and shows the lists', async () => {
    api.script['GET /recipient-lists'] = [serverError(), page([OWN], 1, 1, 1)];
    renderPage();
    await screen.findByText(text('recipientLists.loadFailed'));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: text('recipientLists.retry') })));
    await screen.findByRole('link', { name: new RegExp(OWN.name) });
    expect(screen.queryByText(text('recipientLists.loadFailed'))).toBeNull();
  });

  it('«Nueva lista» refuses a list with no name and no members (both said, focus on the name, nothing sent); Cancelar gives the focus back', async () => {
    api.script['GET /recipient-lists'] = [page([OWN], 1, 1, 1)];
    renderPage();
    await screen.findByRole('link', { name: new RegExp(OWN.name) });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: text('recipientLists.create') })));
    const form = screen.getByRole('form', { name: text('recipientLists.createTitle') });
    const name = within(form).getByLabelText(text('recipientLists.name'));
    await act(async () => fireEvent.click(within(form).getByRole('button', { name: text('recipientLists.save') })));
    expect(within(form).getByText(text('recipientLists.error.nameRequired'))).toBeTruthy();
    expect(within(form).getByText(text('recipientLists.error.picksRequired'))).toBeTruthy();
    expect(name.getAttribute('aria-invalid')).toBe('true');
    await waitFor(() => expect(document.activeElement).toBe(name));
    expect(api.calls('POST', '/recipient-lists')).toHaveLength(0);

    await act(async () => fireEvent.change(name, { target: { value: 'Familias' } }));
    expect(name.getAttribute('aria-invalid')).toBeNull();
    await act(async () => fireEvent.click(within(form).getByRole('button', { name: text('recipientLists.cancel') })));
    expect(screen.queryByRole('form', { name: text('recipientLists.createTitle') })).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: text('recipientLists.create') })));
  });
});

describe.each(RENDER_MODES)('recipient lists trash (%s)', (_mode, wrap) => {
  const A = trashedList({ id: 7, name: 'Salida pedagógica 2025', users_count: 40, deleted_by_name: 'Ana Docente' });
  const B = trashedList({ id: 8, name: 'Taller de teatro', users_count: 9, deleted_by_name: 'Ana Docente' });
  const renderPage = () =>
    render(
      wrap(
        <>
          <RecipientListsTrashPage />
          <Toaster />
        </>,
      ),
    );
  const rowOf = (name: string) => screen.getByText(name).closest('li') as HTMLElement;

  it('shows the skeleton, then each deleted list with who deleted it and when; Restaurar brings it back and it leaves the trash', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    api.script['GET /recipient-lists/trash'] = [(() => held.then(() => page([A, B], 1, 1, 2))) as unknown as () => Response];
    renderPage();
    expect(await screen.findByRole('status', { name: text('recipientLists.loading') })).toBeTruthy();
    await act(async () => release());
    await screen.findByText(A.name);
    expect(rowOf(A.name).textContent).toMatch(/Eliminada por Ana Docente el \d/);
    expect(rowOf(A.name).textContent).toContain(text('recipientLists.members', { count: 40 }));

    api.script['POST /recipient-lists/7/restore'] = [json(200, { data: listSummary({ id: 7, name: A.name }) })];
    await act(async () =>
      fireEvent.click(within(rowOf(A.name)).getByRole('button', { name: `${text('recipientLists.restore')}: ${A.name}` })),
    );
    await screen.findByText(text('recipientLists.restored'));
    await waitFor(() => expect(screen.queryByText(A.name)).toBeNull());
    expect(screen.getByText(B.name)).toBeTruthy();
    expect(api.calls('POST', '/recipient-lists/7/restore')).toHaveLength(1);
  });

  it('«Eliminar definitivamente» asks first; Cancelar gives the focus back to it; confirmed, the list is gone for good', async () => {
    api.script['GET /recipient-lists/trash'] = [page([A, B], 1, 1, 2)];
    renderPage();
    await screen.findByText(B.name);
    const purgeLabel = `${text('recipientLists.purge')}: ${B.name}`;
    await act(async () => fireEvent.click(screen.getByRole('button', { name: purgeLabel })));
    const question = screen.getByRole('alertdialog', { name: text('recipientLists.purgeQuestion', { name: B.name }) });
    await act(async () => fireEvent.click(within(question).getByRole('button', { name: text('recipientLists.cancel') })));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: purgeLabel })));
    expect(api.calls('DELETE', '/recipient-lists/8/forever')).toHaveLength(0);

    api.script['DELETE /recipient-lists/8/forever'] = [new Response(null, { status: 204 })];
    await act(async () => fireEvent.click(screen.getByRole('button', { name: purgeLabel })));
    const again = screen.getByRole('alertdialog', { name: text('recipientLists.purgeQuestion', { name: B.name }) });
    await act(async () => fireEvent.click(within(again).getByRole('button', { name: text('recipientLists.purge') })));
    await screen.findByText(text('recipientLists.purged'));
    await waitFor(() => expect(screen.queryByText(B.name)).toBeNull());
    expect(api.calls('DELETE', '/recipient-lists/8/forever')).toHaveLength(1);
  });

  it('an empty trash says so; a failed one offers Reintentar', async () => {
    api.script['GET /recipient-lists/trash'] = [serverError(), page<RecipientListSummary>([], 1, 1, 0)];
    renderPage();
    await screen.findByText(text('recipientLists.loadFailed'));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: text('recipientLists.retry') })));
    await screen.findByText(text('recipientLists.trashEmpty'));
  });
});
