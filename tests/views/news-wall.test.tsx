// /mural/news and /mural (under StrictMode and without it): the real news-wall
// machine and list pattern over a scripted API. The wall: the skeleton, then posts pinned first and marked,
// with category, author and date, paragraphs with safe links, images (lazy, alt = file name, open full
// size) and files to download, "Cargar más" by cursor; the empty state, a search sent to the server and its
// no-match state with "Limpiar búsqueda", the category filter; a failed load with Reintentar; every control
// a native, keyboard-reachable element. The desk: every status asked for (`status=all`) and shown in words,
// Despublicar / Publicar de nuevo replacing the row, Eliminar with "Deshacer" restoring the post. The one
// shell: one h1 equal to the page's title; a manager's tabs in order with the current one marked and the
// actions beside the title, none for a reader. The search and the category in the address: the desk opens
// with what it says, writes each choice back (replacing the entry) and follows Back.
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { NewsPost } from '../../shared/news-contract';
import { Toaster } from '../../src/views/layout/toaster';
import { DeskScreen } from '../../src/views/pages/news/desk-page';
import { NewsWallPage } from '../../src/views/pages/news/wall-page';
import { json } from '../fixtures/fake-fetch';
import { DESK_POSTS, WALL_CATEGORIES, wallFile, wallImage, wallPageBody, wallPost } from '../fixtures/news-wall';
import { text } from '../fixtures/texts';
import { RENDER_MODES, setUpScreenTest } from './screen-test';

const api = setUpScreenTest();
// The wall writes its search into the address: each test starts at /.
afterEach(() => window.history.replaceState(null, '', '/'));
const here = () => window.location.pathname + window.location.search;
const TAB_NAMES = [text('news.tabs.wall'), text('news.tabs.desk'), text('news.tabs.categories'), text('news.tabs.trash')];

const page = (data: NewsPost[], next: string | null = null, total = data.length) => json(200, wallPageBody(data, next, total));
const categories = () => json(200, { data: WALL_CATEGORIES });
const serverError = () => json(500, { message: 'Error interno', code: 'server.error' });
const queryOf = (url: string) => Object.fromEntries(new URL(url, 'http://localhost').searchParams);
const postOf = (title: string) => screen.getByRole('article', { name: title });

const PINNED = wallPost({
  id: 7,
  title: 'Suspensión de clases',
  pinned: true,
  body: 'Mañana no hay clases.\n\nMás información en https://www.mineduc.cl/calendario. Saludos.',
  attachments: [wallImage(31, 'patio.png'), wallFile(32, 'circular.pdf')],
});
const NEWS = wallPost({
  id: 6,
  title: 'Feria científica',
  category: { id: 2, name: 'Reuniones' },
  audience: { scope: 'groups', level_ids: [4], course_ids: [31] },
  audience_names: ['Enseñanza Media', '3° Básico A'],
});
const OLDER = wallPost({ id: 2, title: 'Bienvenida', category: null });

describe.each(RENDER_MODES)('the wall (%s)', (_mode, wrap) => {
  const renderWall = () => render(wrap(<NewsWallPage />));

  it('shows the skeleton, then the posts pinned first and marked, with their parts; «Cargar más» asks for the next cursor', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    api.script['GET /news'] = [(() => held.then(() => page([PINNED, NEWS], 'c2', 3))) as unknown as () => Response, page([OLDER], null, 3)];
    api.script['GET /news-categories'] = [categories()];
    renderWall();
    expect(await screen.findByRole('status', { name: text('news.loading') })).toBeTruthy();
    await act(async () => release());

    const pinned = await screen.findByRole('article', { name: PINNED.title });
    const articles = screen.getAllByRole('article');
    expect(articles.map((a) => a.getAttribute('aria-labelledby'))).toEqual(['post-7-title', 'post-6-title']);
    expect(within(pinned).getByText(text('news.pinned'))).toBeTruthy();
    expect(within(postOf(NEWS.title)).queryByText(text('news.pinned'))).toBeNull();
    expect(within(pinned).getByText('Actividades')).toBeTruthy();
    expect(pinned.textContent).toContain('Por Ana Directora');
    // Paragraphs, and the address as a link that opens apart and tells nothing back.
    expect(pinned.querySelectorAll('[data-slot=post-body] p')).toHaveLength(2);
    const link = within(pinned).getByRole('link', { name: 'https://www.mineduc.cl/calendario' });
    expect(link.getAttribute('href')).toBe('https://www.mineduc.cl/calendario');
    expect(link.getAttribute('rel')).toContain('noopener');
    expect(link.getAttribute('target')).toBe('_blank');
    // The image: lazy, its file name as alt, a link to it full size; the other file to download.
    const image = within(pinned).getByRole('img', { name: 'patio.png' });
    expect(image.getAttribute('loading')).toBe('lazy');
    expect(image.getAttribute('src')).toBe('/api/attachments/31');
    expect(
      within(pinned)
        .getByRole('link', { name: text('news.openImage', { name: 'patio.png' }) })
        .getAttribute('href'),
    ).toBe('/api/attachments/31');
    const file = within(pinned).getByRole('link', { name: /circular\.pdf/ });
    expect(file.getAttribute('download')).toBe('circular.pdf');
    // Staff who read the wall see whom each post is for, like the desk.
    expect(within(pinned).getByText('Para: todo el colegio')).toBeTruthy();
    expect(within(postOf(NEWS.title)).getByText('Para: Enseñanza Media, 3° Básico A')).toBeTruthy();
    // Readers see no status and no actions.
    expect(screen.queryByText(text('news.status.published'))).toBeNull();
    expect(screen.queryByRole('button', { name: text('news.actions.unpublish') })).toBeNull();
    expect(screen.getByText(text('news.total', { count: 3 }))).toBeTruthy();

    await act(async () => fireEvent.click(screen.getByRole('button', { name: text('news.loadMore') })));
    await screen.findByRole('article', { name: OLDER.title });
    expect(within(postOf(OLDER.title)).getByText(text('news.noCategory'))).toBeTruthy();
    expect(api.calls('GET', '/news').map((r) => queryOf(r.url))).toEqual([{ limit: '20' }, { cursor: 'c2', limit: '20' }]);
    expect(screen.queryByRole('button', { name: text('news.loadMore') })).toBeNull();
  });

  it('with no posts it says so; a search is sent to the server, names what matched nothing, and «Limpiar búsqueda» shows the wall again; the category filter is sent', async () => {
    api.script['GET /news'] = [page([]), page([]), page([NEWS]), page([NEWS])];
    api.script['GET /news-categories'] = [categories()];
    renderWall();
    await screen.findByText(text('news.empty'));
    await act(async () =>
      fireEvent.change(screen.getByRole('searchbox', { name: text('news.search') }), { target: { value: 'Reunión ' } }),
    );
    await screen.findByText(text('news.noMatch', { q: 'Reunión' }));
    await waitFor(() => expect(api.calls('GET', '/news').map((r) => queryOf(r.url).q)).toEqual([undefined, 'Reunión']));

    await act(async () => fireEvent.click(screen.getByRole('button', { name: text('news.clear') })));
    await screen.findByRole('article', { name: NEWS.title });
    expect((screen.getByRole('searchbox', { name: text('news.search') }) as HTMLInputElement).value).toBe('');
    expect(queryOf(api.calls('GET', '/news').at(-1)?.url ?? '').q).toBeUndefined();

    const select = screen.getByRole('combobox', { name: text('news.category') });
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual([text('news.allCategories'), 'Actividades', 'Reuniones']);
    await act(async () => fireEvent.change(select, { target: { value: '2' } }));
    await waitFor(() => expect(queryOf(api.calls('GET', '/news').at(-1)?.url ?? '').category).toBe('2'));
  });

  it("a reader gets one h1, the page's title, and no managers' tabs or actions", async () => {
    window.history.replaceState(null, '', '/mural/news');
    api.script['GET /news'] = [page([NEWS])];
    api.script['GET /news-categories'] = [categories()];
    renderWall();
    await screen.findByRole('article', { name: NEWS.title });
    expect(screen.getAllByRole('heading', { level: 1 }).map((h) => h.textContent)).toEqual([text('pages.newsWall')]);
    expect(screen.queryByRole('navigation', { name: text('news.tabs.label') })).toBeNull();
    expect(screen.queryByRole('link', { name: text('news.newPost') })).toBeNull();
  });

  it('a failed first page says so; Reintentar asks again and shows the posts', async () => {
    api.script['GET /news'] = [serverError(), page([NEWS])];
    api.script['GET /news-categories'] = [categories()];
    renderWall();
    await screen.findByText(text('news.loadFailed'));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: text('news.retry') })));
    await screen.findByRole('article', { name: NEWS.title });
    expect(screen.queryByText(text('news.loadFailed'))).toBeNull();
  });

  it('is used by keyboard: every control is a native, labelled, focusable element', async () => {
    api.script['GET /news'] = [page([PINNED], 'c2', 2)];
    api.script['GET /news-categories'] = [categories()];
    renderWall();
    const pinned = await screen.findByRole('article', { name: PINNED.title });
    const search = screen.getByRole('searchbox', { name: text('news.search') });
    search.focus();
    expect(document.activeElement).toBe(search);
    const select = screen.getByRole('combobox', { name: text('news.category') });
    expect(select.tagName).toBe('SELECT');
    const more = screen.getByRole('button', { name: text('news.loadMore') });
    expect(more.tagName).toBe('BUTTON');
    for (const element of [...pinned.querySelectorAll('a, button'), search, select, more]) {
      expect(element.getAttribute('tabindex'), element.outerHTML.slice(0, 60)).not.toBe('-1');
      if (element.tagName === 'A') expect(element.getAttribute('href')).toBeTruthy();
      element instanceof HTMLElement && element.focus();
      expect(document.activeElement).toBe(element);
    }
  });
});

describe.each(RENDER_MODES)('the desk (%s)', (_mode, wrap) => {
  const renderDesk = () =>
    render(
      wrap(
        <>
          <DeskScreen manage />
          <Toaster />
        </>,
      ),
    );

  it('asks for every status and says each one in words, with the actions each allows', async () => {
    api.script['GET /news'] = [page([DESK_POSTS.published, DESK_POSTS.unpublished, DESK_POSTS.scheduled, DESK_POSTS.ended])];
    api.script['GET /news-categories'] = [categories()];
    renderDesk();
    await screen.findByRole('article', { name: DESK_POSTS.published.title });
    expect(queryOf(api.calls('GET', '/news')[0]?.url ?? '').status).toBe('all');
    const status = (post: NewsPost) => postOf(post.title).querySelector('[data-slot=post-status]')?.textContent;
    expect(status(DESK_POSTS.published)).toBe(text('news.status.published'));
    expect(status(DESK_POSTS.unpublished)).toBe(text('news.status.unpublished'));
    expect(status(DESK_POSTS.scheduled)).toMatch(/^Programada para el \d\d-\d\d-2026, \d\d:\d\d$/);
    expect(status(DESK_POSTS.ended)).toBe(text('news.status.ended'));
    const buttons = (post: NewsPost) =>
      within(postOf(post.title))
        .getAllByRole('button')
        .map((b) => b.textContent);
    expect(buttons(DESK_POSTS.published)).toEqual([text('news.actions.unpublish'), text('news.actions.delete')]);
    expect(buttons(DESK_POSTS.unpublished)).toEqual([text('news.actions.publish'), text('news.actions.delete')]);
    expect(buttons(DESK_POSTS.scheduled)).toEqual([text('news.actions.unpublish'), text('news.actions.delete')]);
    expect(buttons(DESK_POSTS.ended)).toEqual([text('news.actions.publish'), text('news.actions.delete')]);
    expect(
      within(postOf(DESK_POSTS.published.title))
        .getByRole('link', { name: text('news.actions.edit') })
        .getAttribute('href'),
    ).toBe('/mural/news/compose?id=1');
    expect(screen.getByRole('link', { name: text('news.newPost') }).getAttribute('href')).toBe('/mural/news/compose');
    expect(screen.getByRole('link', { name: text('news.week') }).getAttribute('href')).toBe('/mural/news/week');
  });

  it("is in the one shell: its title as the one h1, the tabs in a manager's order with Publicaciones current, the actions not tabs", async () => {
    window.history.replaceState(null, '', '/mural');
    api.script['GET /news'] = [page([DESK_POSTS.published])];
    api.script['GET /news-categories'] = [categories()];
    renderDesk();
    await screen.findByRole('article', { name: DESK_POSTS.published.title });
    expect(screen.getAllByRole('heading', { level: 1 }).map((h) => h.textContent)).toEqual([text('pages.newsDesk')]);
    const tabs = within(screen.getByRole('navigation', { name: text('news.tabs.label') })).getAllByRole('link');
    expect(tabs.map((tab) => tab.textContent)).toEqual(TAB_NAMES);
    expect(tabs.map((tab) => tab.getAttribute('href'))).toEqual(['/mural/news', '/mural', '/mural/categories', '/mural/trash']);
    expect(tabs.map((tab) => tab.getAttribute('aria-current'))).toEqual([null, 'page', null, null]);
    // Nueva publicación and the printable week are actions beside the title, not tabs.
    const actions = document.querySelector('[data-slot=mural-actions]') as HTMLElement;
    expect(
      within(actions)
        .getAllByRole('link')
        .map((link) => link.getAttribute('href')),
    ).toEqual(['/mural/news/week', '/mural/news/compose']);
  });

  it('opens with the search and the category of its address, writes each choice back, and follows Back', async () => {
    window.history.replaceState(null, '', '/mural?newsfeed=1&q=acto&category=2');
    api.script['GET /news'] = [page([DESK_POSTS.published])];
    api.script['GET /news-categories'] = [categories()];
    renderDesk();
    await screen.findByRole('article', { name: DESK_POSTS.published.title });
    const first = queryOf(api.calls('GET', '/news')[0]?.url ?? '');
    expect([first.q, first.category]).toEqual(['acto', '2']);
    const search = screen.getByRole('searchbox', { name: text('news.search') }) as HTMLInputElement;
    expect(search.value).toBe('acto');
    const select = (await screen.findByRole('combobox', { name: text('news.category') })) as HTMLSelectElement;
    expect(select.value).toBe('2');

    const entries = window.history.length;
    await act(async () => fireEvent.change(search, { target: { value: 'acto cívico ' } }));
    expect(here()).toBe('/mural?newsfeed=1&q=acto+c%C3%ADvico+&category=2');
    await act(async () => fireEvent.change(select, { target: { value: '' } }));
    expect(here()).toBe('/mural?newsfeed=1&q=acto+c%C3%ADvico+');
    // Replaced, not pushed: Back leaves the page rather than undoing a letter.
    expect(window.history.length).toBe(entries);
    await waitFor(() => expect(queryOf(api.calls('GET', '/news').at(-1)?.url ?? '')).toMatchObject({ q: 'acto cívico' }));

    // Back (or a link) to another view of the desk: it shows what the address says.
    await act(async () => {
      window.history.replaceState(null, '', '/mural?category=1');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    await waitFor(() => expect(search.value).toBe(''));
    expect(select.value).toBe('1');
    await waitFor(() => expect(queryOf(api.calls('GET', '/news').at(-1)?.url ?? '').category).toBe('1'));
  });

  it('Despublicar takes the post off the wall and offers Publicar de nuevo, which puts it back; a failure says so', async () => {
    api.script['GET /news'] = [page([DESK_POSTS.published])];
    api.script['GET /news-categories'] = [categories()];
    api.script['POST /news/1/unpublish'] = [json(200, { data: { ...DESK_POSTS.published, status: 'unpublished' } })];
    renderDesk();
    await screen.findByRole('article', { name: DESK_POSTS.published.title });
    await act(async () =>
      fireEvent.click(within(postOf(DESK_POSTS.published.title)).getByRole('button', { name: text('news.actions.unpublish') })),
    );
    await screen.findByText(text('news.toast.unpublished'));
    const republish = await within(postOf(DESK_POSTS.published.title)).findByRole('button', { name: text('news.actions.publish') });
    expect(postOf(DESK_POSTS.published.title).querySelector('[data-slot=post-status]')?.textContent).toBe(text('news.status.unpublished'));

    api.script['POST /news/1/publish'] = [serverError()];
    await act(async () => fireEvent.click(republish));
    await screen.findByText(text('news.toast.publishFailed'));
    expect(api.calls('POST', '/news/1/publish')).toHaveLength(1);
    expect(postOf(DESK_POSTS.published.title).querySelector('[data-slot=post-status]')?.textContent).toBe(text('news.status.unpublished'));
  });

  it('Eliminar moves the post to the trash at once; «Deshacer» in the toast restores it and the desk shows it again', async () => {
    const other = DESK_POSTS.unpublished;
    api.script['GET /news'] = [page([DESK_POSTS.published, other]), page([DESK_POSTS.published, other])];
    api.script['GET /news-categories'] = [categories()];
    api.script['DELETE /news/1'] = [
      json(200, {
        data: {
          ...DESK_POSTS.published,
          status: 'deleted',
          deleted_at: '2026-03-02T12:05:00.000Z',
          deleted_by: { id: 10, name: 'Ana Directora' },
        },
      }),
    ];
    api.script['POST /news/1/restore'] = [json(200, { data: DESK_POSTS.published })];
    renderDesk();
    await screen.findByRole('article', { name: DESK_POSTS.published.title });
    await act(async () =>
      fireEvent.click(within(postOf(DESK_POSTS.published.title)).getByRole('button', { name: text('news.actions.delete') })),
    );
    const toast = await screen.findByText(text('news.toast.trashed', { title: DESK_POSTS.published.title }));
    await waitFor(() => expect(screen.queryByRole('article', { name: DESK_POSTS.published.title })).toBeNull());
    expect(screen.getByRole('article', { name: other.title })).toBeTruthy();

    expect(toast).toBeTruthy();
    const undo = screen.getByRole('button', { name: text('toast.undo') });
    await act(async () => fireEvent.click(undo));
    await screen.findByText(text('news.toast.restored'));
    await screen.findByRole('article', { name: DESK_POSTS.published.title });
    expect(api.calls('POST', '/news/1/restore')).toHaveLength(1);
    expect(api.calls('GET', '/news')).toHaveLength(2);
  });
});
