// The news wall's managers' screens under StrictMode and without it, real machines over a
// scripted API: /mural/categories (create with the shared rule and the server's 422, rename in place with
// Enter and Escape, Subir/Bajar at once with the order put back and a toast when refused, delete only when
// empty, the in-use count before asking and from the 409), /mural/trash (who deleted and when, Restaurar,
// delete forever after a question, empty) and the printable week (posts, the QR code as one path, Imprimir
// through the edge). Categories and trash are in the mural's one shell: the page's title as the one h1, the
// managers' tabs in one order with their own tab current.
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NEWS_TEXTS, type NewsCategory, type NewsPost } from '../../shared/news-contract';
import { NEWS_MESSAGES } from '../../shared/news-rules';
import { NewsCategoriesPage } from '../../src/views/pages/news/categories-page';
import { NewsTrashPage } from '../../src/views/pages/news/trash-page';
import { NewsWeekPage } from '../../src/views/pages/news/week-page';
import { qrPathOf } from '../../src/views/pages/news/qr-code';
import { selectIsLoggedIn } from '../../src/machines/session/selectors';
import { sessionActor } from '../../src/views/actors';
import { Toaster } from '../../src/views/layout/toaster';
import { ADMIN } from '../fixtures/users';
import { json } from '../fixtures/fake-fetch';
import { CATEGORIES, newsCategory, newsWeek, trashedPost } from '../fixtures/news-admin';
import { text } from '../fixtures/texts';
import { RENDER_MODES, setUpScreenTest } from './screen-test';

const api = setUpScreenTest();
const serverError = () => json(500, { message: 'Error interno', code: 'server.error' });
const withToaster = (node: React.ReactNode) => (
  <>
    {node}
    <Toaster />
  </>
);
const categoriesBody = (data: NewsCategory[]) => json(200, { data });
const cursorPage = (data: NewsPost[], next: string | null, total: number) =>
  json(200, { data, meta: { per_page: 20, next_cursor: next, prev_cursor: null, total }, links: { next: null, prev: null } });
/** The one h1, the tabs' names and which one is current: the mural's shell. */
function expectShell(title: string, current: string) {
  expect(screen.getAllByRole('heading', { level: 1 }).map((h) => h.textContent)).toEqual([title]);
  const tabs = within(screen.getByRole('navigation', { name: text('news.tabs.label') })).getAllByRole('link');
  expect(tabs.map((tab) => [tab.textContent, tab.getAttribute('href')])).toEqual([
    [text('news.tabs.wall'), '/mural/news'],
    [text('news.tabs.desk'), '/mural'],
    [text('news.tabs.categories'), '/mural/categories'],
    [text('news.tabs.trash'), '/mural/trash'],
  ]);
  expect(tabs.filter((tab) => tab.getAttribute('aria-current') === 'page').map((tab) => tab.getAttribute('href'))).toEqual([current]);
}
afterEach(() => window.history.replaceState(null, '', '/'));

/** The categories' names in the order shown. */
const shownNames = () =>
  screen
    .getAllByRole('listitem')
    .filter((li) => li.dataset.slot === 'category-row')
    .map((li) => li.querySelector('span')?.textContent);

describe.each(RENDER_MODES)('news categories (%s)', (_mode, wrap) => {
  const renderPage = () => render(wrap(withToaster(<NewsCategoriesPage />)));

  it('lists the categories with their post counts; an empty or taken name is refused before asking, the server’s 422 after, and what was typed stays', async () => {
    window.history.replaceState(null, '', '/mural/categories');
    api.script['GET /news-categories'] = [categoriesBody(CATEGORIES)];
    renderPage();
    await screen.findByText('Actividades');
    expectShell(text('pages.newsCategories'), '/mural/categories');
    expect(shownNames()).toEqual(['Actividades', 'Reuniones', 'Deportes']);
    expect(screen.getByText('Actividades').closest('li')?.textContent).toContain(text('newsAdmin.categories.posts', { count: 3 }));

    const field = screen.getByLabelText(text('newsAdmin.categories.newLabel'));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: text('newsAdmin.categories.create') })));
    expect(await screen.findByText(NEWS_MESSAGES.categoryRequired)).toBeTruthy();
    expect(field.getAttribute('aria-invalid')).toBe('true');
    await waitFor(() => expect(document.activeElement).toBe(field));
    await act(async () => fireEvent.change(field, { target: { value: 'deportés' } }));
    expect(screen.queryByText(NEWS_MESSAGES.categoryRequired)).toBeNull();
    await act(async () => fireEvent.submit(field.closest('form') as HTMLFormElement));
    expect(screen.getByText(NEWS_MESSAGES.categoryTaken)).toBeTruthy();
    expect(api.calls('POST', '/news-categories')).toHaveLength(0);

    // Another manager took it meanwhile: the server's text, the name kept.
    api.script['POST /news-categories'] = [
      json(422, { message: 'Los datos no son válidos.', code: 'validation.failed', errors: { name: [NEWS_MESSAGES.categoryTaken] } }),
    ];
    await act(async () => fireEvent.change(field, { target: { value: 'Talleres' } }));
    await act(async () => fireEvent.submit(field.closest('form') as HTMLFormElement));
    await screen.findByText(NEWS_MESSAGES.categoryTaken);
    expect((field as HTMLInputElement).value).toBe('Talleres');
    expect(api.calls('POST', '/news-categories').map((r) => r.body)).toEqual([{ name: 'Talleres' }]);

    api.script['POST /news-categories'] = [json(201, { data: newsCategory({ id: 4, name: 'Talleres ', position: 4 }) })];
    await act(async () => fireEvent.submit(field.closest('form') as HTMLFormElement));
    await screen.findByText(text('newsAdmin.categories.created'));
    expect(shownNames()).toEqual(['Actividades', 'Reuniones', 'Deportes', 'Talleres ']);
    expect((field as HTMLInputElement).value).toBe('');
  });

  it('renames in place: Escape cancels and gives the focus back, Enter saves; a failure keeps what was typed', async () => {
    api.script['GET /news-categories'] = [categoriesBody(CATEGORIES)];
    renderPage();
    await screen.findByText('Reuniones');
    const rename = screen.getByRole('button', { name: `${text('newsAdmin.categories.rename')}: Reuniones` });
    await act(async () => fireEvent.click(rename));
    const input = screen.getByLabelText(text('newsAdmin.categories.nameLabel')) as HTMLInputElement;
    await waitFor(() => expect(document.activeElement).toBe(input));
    expect(input.value).toBe('Reuniones');
    await act(async () => fireEvent.change(input, { target: { value: 'Reuniones de curso' } }));
    await act(async () => fireEvent.keyDown(input, { key: 'Escape' }));
    expect(screen.queryByLabelText(text('newsAdmin.categories.nameLabel'))).toBeNull();
    expect(screen.getByText('Reuniones')).toBeTruthy();
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: `${text('newsAdmin.categories.rename')}: Reuniones` })),
    );

    api.script['PATCH /news-categories/2'] = [
      serverError(),
      json(200, { data: newsCategory({ id: 2, name: 'Reuniones de curso', position: 2 }) }),
    ];
    await act(async () => fireEvent.click(screen.getByRole('button', { name: `${text('newsAdmin.categories.rename')}: Reuniones` })));
    const again = screen.getByLabelText(text('newsAdmin.categories.nameLabel')) as HTMLInputElement;
    await act(async () => fireEvent.change(again, { target: { value: 'Reuniones de curso' } }));
    // Enter in the field submits its form.
    await act(async () => fireEvent.submit(again.closest('form') as HTMLFormElement));
    await screen.findByText(text('error.request'));
    expect((screen.getByLabelText(text('newsAdmin.categories.nameLabel')) as HTMLInputElement).value).toBe('Reuniones de curso');
    await act(async () => fireEvent.submit(again.closest('form') as HTMLFormElement));
    await screen.findByText(text('newsAdmin.categories.renamed'));
    expect(screen.getByText('Reuniones de curso')).toBeTruthy();
    expect(api.calls('PATCH', '/news-categories/2').map((r) => r.body)).toEqual([
      { name: 'Reuniones de curso' },
      { name: 'Reuniones de curso' },
    ]);
  });

  it('Subir moves a category at once and sends the whole order; refused, the order comes back with a toast; the top one cannot go up', async () => {
    api.script['GET /news-categories'] = [categoriesBody(CATEGORIES)];
    let refuse: () => void = () => {};
    const held = new Promise<void>((resolve) => (refuse = resolve));
    api.script['PUT /news-categories/order'] = [(() => held.then(() => serverError())) as unknown as () => Response];
    renderPage();
    await screen.findByText('Deportes');
    expect((screen.getByRole('button', { name: `${text('newsAdmin.categories.up')}: Actividades` }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    const up = screen.getByRole('button', { name: `${text('newsAdmin.categories.up')}: Deportes` });
    await act(async () => fireEvent.click(up));
    expect(shownNames()).toEqual(['Actividades', 'Deportes', 'Reuniones']);
    expect(api.calls('PUT', '/news-categories/order').map((r) => r.body)).toEqual([{ ids: [1, 3, 2] }]);
    // While the order is saved the buttons stay focusable, but do nothing.
    expect(up.getAttribute('aria-disabled')).toBe('true');
    await act(async () => refuse());
    await screen.findByText(text('newsAdmin.categories.reorderFailed'));
    expect(shownNames()).toEqual(['Actividades', 'Reuniones', 'Deportes']);
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: `${text('newsAdmin.categories.up')}: Deportes` })),
    );
  });

  it('a category with posts says how many instead of asking; an empty one is deleted after the question; a 409 says why', async () => {
    api.script['GET /news-categories'] = [categoriesBody([...CATEGORIES, newsCategory({ id: 5, name: 'Antiguas', position: 4 })])];
    renderPage();
    await screen.findByText('Actividades');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: `${text('newsAdmin.categories.delete')}: Actividades` })));
    expect(screen.getByRole('alert').textContent).toContain(NEWS_TEXTS.categoryInUse(3));
    expect(screen.queryByRole('alertdialog')).toBeNull();

    api.script['DELETE /news-categories/2'] = [new Response(null, { status: 204 })];
    await act(async () => fireEvent.click(screen.getByRole('button', { name: `${text('newsAdmin.categories.delete')}: Reuniones` })));
    const question = screen.getByRole('alertdialog', { name: text('newsAdmin.categories.deleteQuestion', { name: 'Reuniones' }) });
    await act(async () => fireEvent.keyDown(question, { key: 'Escape' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(api.calls('DELETE', '/news-categories/2')).toHaveLength(0);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: `${text('newsAdmin.categories.delete')}: Reuniones` })));
    await act(async () =>
      fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: text('newsAdmin.categories.delete') })),
    );
    await screen.findByText(text('newsAdmin.categories.deleted'));
    expect(shownNames()).toEqual(['Actividades', 'Deportes', 'Antiguas']);

    // The list said 0 but a post took it meanwhile.
    api.script['DELETE /news-categories/5'] = [json(409, { message: NEWS_TEXTS.categoryInUse(1), code: 'news.category_in_use' })];
    await act(async () => fireEvent.click(screen.getByRole('button', { name: `${text('newsAdmin.categories.delete')}: Antiguas` })));
    await act(async () =>
      fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: text('newsAdmin.categories.delete') })),
    );
    await screen.findByText(NEWS_TEXTS.categoryInUse(1));
    expect(shownNames()).toContain('Antiguas');
  });

  it('with no categories says how to start; a failed load offers Reintentar', async () => {
    api.script['GET /news-categories'] = [serverError(), categoriesBody([])];
    renderPage();
    await screen.findByText(text('newsAdmin.categories.loadFailed'));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: text('newsAdmin.categories.retry') })));
    await screen.findByText(text('newsAdmin.categories.empty'));
  });
});

describe.each(RENDER_MODES)('news trash (%s)', (_mode, wrap) => {
  const A = trashedPost({ id: 7, title: 'Feria científica', deleted_by: { id: 3, name: 'Ana Directora' } });
  const B = trashedPost({ id: 8, title: 'Acto del 21 de mayo', category: null });
  const renderPage = () => render(wrap(withToaster(<NewsTrashPage />)));
  const rowOf = (title: string) => screen.getByText(title).closest('li') as HTMLElement;

  it('shows who deleted each post and when; Restaurar brings it back; «Cargar más» follows the cursor', async () => {
    window.history.replaceState(null, '', '/mural/trash');
    api.script['GET /news/trash'] = [cursorPage([A], 'c2', 2), cursorPage([B], null, 2)];
    renderPage();
    await screen.findByText(A.title);
    expectShell(text('pages.newsTrash'), '/mural/trash');
    expect(rowOf(A.title).textContent).toMatch(/Eliminada por Ana Directora el \d/);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: text('newsAdmin.trash.loadMore') })));
    await screen.findByText(B.title);
    expect(rowOf(B.title).textContent).toContain(text('newsAdmin.trash.noCategory'));
    expect(api.calls('GET', '/news/trash').map((r) => new URL(r.url, 'http://x').searchParams.get('cursor'))).toEqual([null, 'c2']);

    api.script['POST /news/7/restore'] = [json(200, { data: { ...A, status: 'published', deleted_at: null, deleted_by: null } })];
    await act(async () =>
      fireEvent.click(within(rowOf(A.title)).getByRole('button', { name: `${text('newsAdmin.trash.restore')}: ${A.title}` })),
    );
    await screen.findByText(text('newsAdmin.trash.restored'));
    await waitFor(() => expect(screen.queryByText(A.title)).toBeNull());
  });

  it('«Eliminar definitivamente» asks first (Cancelar gives the focus back); confirmed, the post is gone', async () => {
    api.script['GET /news/trash'] = [cursorPage([A, B], null, 2)];
    renderPage();
    await screen.findByText(B.title);
    const purge = `${text('newsAdmin.trash.purge')}: ${B.title}`;
    await act(async () => fireEvent.click(screen.getByRole('button', { name: purge })));
    const question = screen.getByRole('alertdialog', { name: text('newsAdmin.trash.purgeQuestion', { title: B.title }) });
    await act(async () => fireEvent.click(within(question).getByRole('button', { name: text('newsAdmin.trash.cancel') })));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: purge })));
    expect(api.calls('DELETE', '/news/8/forever')).toHaveLength(0);

    api.script['DELETE /news/8/forever'] = [new Response(null, { status: 204 })];
    await act(async () => fireEvent.click(screen.getByRole('button', { name: purge })));
    await act(async () =>
      fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: text('newsAdmin.trash.purge') })),
    );
    await screen.findByText(text('newsAdmin.trash.purged'));
    await waitFor(() => expect(screen.queryByText(B.title)).toBeNull());
    expect(api.calls('DELETE', '/news/8/forever')).toHaveLength(1);
  });

  it('an empty trash says so; a failed one offers Reintentar', async () => {
    api.script['GET /news/trash'] = [serverError(), cursorPage([], null, 0)];
    renderPage();
    await screen.findByText(text('newsAdmin.trash.loadFailed'));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: text('newsAdmin.trash.retry') })));
    await screen.findByText(text('newsAdmin.trash.empty'));
  });
});

describe.each(RENDER_MODES)('printable week (%s)', (_mode, wrap) => {
  afterEach(() => {
    vi.restoreAllMocks();
    history.replaceState(null, '', '/');
  });

  it('shows the week’s posts pinned first with whom each is for and the first image from the API, a QR code to the wall as one path, and the weeks around; Imprimir opens the print dialog', async () => {
    history.replaceState(null, '', '/mural/news/week?date=2026-03-04');
    api.script['GET /news/week'] = [json(200, { data: newsWeek() })];
    const print = vi.spyOn(window, 'print').mockImplementation(() => {});
    const { container } = render(wrap(<NewsWeekPage />));
    await screen.findByText('Reunión de apoderados');
    expect(new URL(api.calls('GET', '/news/week')[0]!.url, 'http://x').searchParams.get('date')).toBe('2026-03-04');
    const titles = [...container.querySelectorAll('[data-slot="week-post"] h2')].map((h) => h.textContent);
    expect(titles).toEqual(['Reunión de apoderados', 'Feria científica']);
    const [pinned, withImage] = [...container.querySelectorAll('[data-slot="week-post"]')];
    expect(pinned?.querySelector('img')).toBeNull();
    // No school logo without one.
    expect(container.querySelector('[data-slot="school-logo"]')).toBeNull();
    expect(pinned?.textContent).toContain(text('newsAdmin.week.pinned'));
    // The week and each post's day in the school's zone: the Sunday-night post is inside the heading's week.
    expect(screen.getByText('Semana del 02-03-2026 al 08-03-2026')).toBeTruthy();
    expect(pinned?.querySelector('time')?.textContent).toBe('08-03-2026');
    // Whom each post is for, as the wall says it.
    expect(pinned?.textContent).toContain('Para: 3° Básico A');
    expect(withImage?.textContent).toContain('Para: todo el colegio');
    // The picture is fetched where the API serves files, not from the app's own pages.
    expect(withImage?.querySelector('img')?.getAttribute('src')).toBe('/api/attachments/7');
    const qr = screen.getByRole('img', { name: text('newsAdmin.week.qrLabel', { url: 'https://hermes.example/mural/news' }) });
    expect(qr.querySelectorAll('path')).toHaveLength(1);
    expect(qr.querySelector('path')?.getAttribute('d')).toMatch(/^M\d+ \d+h\d+v1h-\d+z/);
    expect(container.querySelector('[style]')).toBeNull();
    expect(screen.getByText(text('newsAdmin.week.readMore'))).toBeTruthy();
    expect(screen.getByRole('link', { name: new RegExp(text('newsAdmin.week.previous')) }).getAttribute('href')).toBe(
      '/mural/news/week?date=2026-02-23',
    );
    expect(screen.getByRole('link', { name: new RegExp(text('newsAdmin.week.next')) }).getAttribute('href')).toBe(
      '/mural/news/week?date=2026-03-09',
    );

    await act(async () => fireEvent.click(screen.getByRole('button', { name: text('newsAdmin.week.print') })));
    await waitFor(() => expect(print).toHaveBeenCalledTimes(1));
  });

  it('the school’s logo heads the sheet beside its name when the school has one', async () => {
    api.script['POST /login'] = [
      json(200, {
        data: { token_expires_at: Date.now() + 3_600_000, refresh_expires_at: Date.now() + 7_200_000 },
        user: { ...ADMIN, institution: { ...ADMIN.institution, logo_url: '/school/logo?v=0123456789abcdef' } },
        policies: ['hermes-acceder-sistema'],
      }),
    ];
    await act(async () => sessionActor.send({ type: 'session.login', email: ADMIN.email, password: 'Hermes.2026' }));
    await waitFor(() => expect(selectIsLoggedIn(sessionActor.getSnapshot())).toBe(true));
    try {
      history.replaceState(null, '', '/mural/news/week?date=2026-03-04');
      api.script['GET /news/week'] = [json(200, { data: newsWeek() })];
      const { container } = render(wrap(<NewsWeekPage />));
      await screen.findByText('Reunión de apoderados');
      const logo = container.querySelector('[data-slot="week-sheet"] header img[data-slot="school-logo"]');
      expect(logo?.getAttribute('src')).toBe('/api/school/logo?v=0123456789abcdef');
      // The school's name is written beside it: the image adds nothing to read aloud.
      expect(logo?.getAttribute('alt')).toBe('');
    } finally {
      api.script['GET /logout'] = [json(200, {})];
      await act(async () => sessionActor.send({ type: 'session.logout' }));
      await waitFor(() => expect(selectIsLoggedIn(sessionActor.getSnapshot())).toBe(false));
    }
  });

  it('a refusal says the server’s text and offers Reintentar; an empty week says so', async () => {
    api.script['GET /news/week'] = [
      json(403, { message: NEWS_TEXTS.device, code: 'news.device' }),
      json(200, { data: newsWeek({ posts: [] }) }),
    ];
    render(wrap(<NewsWeekPage />));
    await screen.findByText(NEWS_TEXTS.device);
    expect(new URL(api.calls('GET', '/news/week')[0]!.url, 'http://x').searchParams.get('date')).toBeNull();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: text('newsAdmin.week.retry') })));
    await screen.findByText(text('newsAdmin.week.empty'));
  });
});

describe('qrPathOf', () => {
  it('draws each row’s runs of dark modules as one rectangle', () => {
    expect(
      qrPathOf([
        [true, true, false, true],
        [false, false, false, false],
        [false, true, true, true],
      ]),
    ).toBe('M0 0h2v1h-2zM3 0h1v1h-1zM1 2h3v1h-3z');
  });
});
