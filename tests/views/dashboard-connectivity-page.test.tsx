// The connectivity screens' wiring (under StrictMode and without it): the real machines and
// services over a scripted fetch. The school's figures, the device mix as a 100 % bar with its table and
// the legend beside it, "cobertura efectiva", the table per level (a course cut off stands out; sort and
// level are events), a failure with Reintentar; a course's guardians with status text, what to fix and the
// messages that did not reach them; its call list with the CSV link for the N shown; a foreign course's
// 404; the print view cut into pages of 25; the route rows; and no style attribute anywhere.
import { Suspense } from 'react';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { beforeEach, describe, expect, it } from 'vitest';
import { text } from '../fixtures/texts';
import { json } from '../fixtures/fake-fetch';
import { callList, connectivity, courseConnectivity } from '../fixtures/dashboard';
import { DashboardConnectivityPage } from '../../src/views/pages/dashboard/connectivity-page';
import { ConnectivityCoursePage } from '../../src/views/pages/dashboard/connectivity-course-page';
import { CallListPrintPage } from '../../src/views/pages/dashboard/call-list-print-page';
import { ROUTES, type RouteDef } from '../../src/views/routes';
import type { CallListRow } from '../../shared/dashboard-contract';
import { RENDER_MODES, setUpScreenTest } from './screen-test';
import { formatShare, stackBoxes } from '../../src/views/charts/stacked-bar';

const api = setUpScreenTest();
const noStyle = (container: HTMLElement) => expect(container.querySelectorAll('[style]')).toHaveLength(0);

/** The call list the server would answer for the N asked. */
function callListAnswer(rows?: CallListRow[]): () => Response {
  return () => {
    const { searchParams } = new URL(api.requests.at(-1)?.url ?? '', 'http://localhost');
    const list = callList(12, Number(searchParams.get('messages') ?? 3));
    return json(200, { data: rows ? { ...list, rows } : list });
  };
}

beforeEach(() => {
  api.script = {
    'GET /dashboard/connectivity': [() => json(200, { data: connectivity() })],
    'GET /dashboard/connectivity/courses/12': [() => json(200, { data: courseConnectivity(12) })],
    'GET /dashboard/connectivity/courses/12/call-list': [callListAnswer()],
  };
});

const rowNames = (table: HTMLElement) =>
  within(table)
    .getAllByRole('rowheader')
    .map((cell) => within(cell).getByRole('link').textContent);

describe.each(RENDER_MODES)('connectivity dashboard (%s)', (_mode, wrap) => {
  it('says why figures that look alike differ: the app reach counts the irregular too, coverage is neither the ranking nor the call list', async () => {
    render(wrap(<DashboardConnectivityPage />));
    const figures = await screen.findByRole('region', { name: text('connectivity.school.title') });
    expect(figures.querySelector('[data-slot=reach-note]')?.textContent).toMatch(/con la app instalada, también los irregulares/);
    expect(figures.querySelector('[data-slot=reach-note]')?.textContent).toMatch(/solo si el colegio puede enviar por ese canal este mes/);
    const coverage = figures.querySelector('[data-slot=coverage]')!.textContent;
    expect(coverage).toMatch(/No es el ranking de cursos/);
    expect(coverage).toMatch(/lista de llamados/);
    // The device mix's "con la app" is only the blue ones, said as such.
    expect(figures.textContent).toMatch(/De 120 apoderados: 44 al día con la app/);
  });

  it('shows the school, the device mix with its legend, the coverage and a table per level with the course cut off marked', async () => {
    const { container } = render(wrap(<DashboardConnectivityPage />));
    const figures = await screen.findByRole('region', { name: text('connectivity.school.title') });
    expect([...figures.querySelectorAll('[data-figure] dd')].map((n) => n.textContent)).toEqual(['90', '120']);
    expect(figures.querySelector('[data-figure=coverage]')?.textContent).toBe('95 %');
    // Channel reach: 44 of 120 have the app.
    expect(
      within(figures)
        .getByRole('meter', { name: text('connectivity.reach.app-mobile') })
        .getAttribute('aria-valuetext'),
    ).toBe('44 de 120 apoderados');
    // The device mix: four segments in SPEC order, its table equal to the figures, the legend beside it.
    const bar = within(figures).getByRole('img', { name: new RegExp(text('connectivity.devices.title')) });
    expect(
      [...bar.querySelectorAll('[data-slot=stacked-bar-segment]')].map((n) => [n.getAttribute('data-key'), n.getAttribute('width')]),
    ).toEqual([
      ['blue', '36.7'],
      ['green', '28.3'],
      ['yellow', '16.7'],
      ['red', '18.3'],
    ]);
    const mix = within(figures).getByRole('table', { name: text('connectivity.devices.title') });
    expect(
      within(mix)
        .getAllByRole('row')
        .slice(1)
        .map((r) => [...r.children].map((c) => c.textContent)),
    ).toEqual([
      [text('device.legend.blue'), '44', '37 %'],
      [text('device.legend.green'), '34', '28 %'],
      [text('device.legend.yellow'), '20', '17 %'],
      [text('device.legend.red'), '22', '18 %'],
    ]);
    expect(within(figures).getByRole('group', { name: text('device.legend.title') }).textContent).toContain(text('device.legend.yellow'));

    const basica = screen.getByRole('table', { name: 'Básica' });
    expect(rowNames(basica)).toEqual(['1° Básico A', '1° Básico B']);
    const cutOff = basica.querySelector('[data-cut-off]') as HTMLElement;
    expect(within(cutOff).getByRole('link').textContent).toBe('1° Básico B');
    expect(within(cutOff).getByText(text('connectivity.table.cutOff'))).toBeTruthy();
    expect(within(cutOff).getByRole('link').getAttribute('href')).toBe('/connectivity/course/12');
    expect(basica.querySelectorAll('[data-cut-off]')).toHaveLength(1);
    // Colour never alone: each device count's dot is named.
    expect(within(cutOff).getByRole('img', { name: text('device.status.red') }).parentElement?.textContent).toBe('14');
    expect(screen.getByRole('table', { name: 'Media' }).querySelector('[data-coverage]')?.textContent).toBe('—');
    noStyle(container);
  });

  it('counts the families sent the app link and those who installed it since; says when none was sent yet', async () => {
    api.script['GET /dashboard/connectivity'] = [
      () => json(200, { data: { ...connectivity(), install_link: { sent: 40, installed: 1 } } }),
    ];
    render(wrap(<DashboardConnectivityPage />));
    const link = await screen.findByRole('region', { name: text('connectivity.installLink.title') });
    expect(link.querySelector('[data-figure=install-link]')?.textContent).toBe(
      'Enviado por SMS o WhatsApp a 40 apoderados sin la app. 1 la instaló desde entonces.',
    );
    cleanup();
    api.script['GET /dashboard/connectivity'] = [() => json(200, { data: { ...connectivity(), install_link: { sent: 0, installed: 0 } } })];
    render(wrap(<DashboardConnectivityPage />));
    expect(await screen.findByText(text('connectivity.installLink.none'))).toBeTruthy();
  });

  it('sorts the courses by coverage and shows one level alone, as events', async () => {
    render(wrap(<DashboardConnectivityPage />));
    expect(rowNames(await screen.findByRole('table', { name: 'Básica' }))).toEqual(['1° Básico A', '1° Básico B']);
    // Worst coverage first; then one level alone.
    await act(async () => fireEvent.change(screen.getByLabelText(text('connectivity.table.sort')), { target: { value: 'coverageAsc' } }));
    expect(rowNames(screen.getByRole('table', { name: 'Básica' }))).toEqual(['1° Básico B', '1° Básico A']);
    await act(async () => fireEvent.change(screen.getByLabelText(text('connectivity.table.level')), { target: { value: '2' } }));
    expect(screen.queryByRole('table', { name: 'Básica' })).toBeNull();
    expect(screen.getByRole('table', { name: 'Media' })).toBeTruthy();
  });

  it('sorts by coverage from its column header too: a button, least covered first, then the other way', async () => {
    render(wrap(<DashboardConnectivityPage />));
    const table = await screen.findByRole('table', { name: 'Básica' });
    const header = () =>
      within(screen.getByRole('table', { name: 'Básica' })).getByRole('columnheader', {
        name: new RegExp(text('connectivity.table.coverage')),
      });
    expect(header().getAttribute('aria-sort')).toBeNull();
    expect(rowNames(table)).toEqual(['1° Básico A', '1° Básico B']);
    await act(async () => fireEvent.click(within(header()).getByRole('button')));
    expect(header().getAttribute('aria-sort')).toBe('ascending');
    expect(rowNames(screen.getByRole('table', { name: 'Básica' }))).toEqual(['1° Básico B', '1° Básico A']);
    // The order chosen shows in the select too: one order, two ways to choose it.
    expect((screen.getByLabelText(text('connectivity.table.sort')) as HTMLSelectElement).value).toBe('coverageAsc');
    await act(async () => fireEvent.click(within(header()).getByRole('button')));
    expect(header().getAttribute('aria-sort')).toBe('descending');
    expect(header().textContent).toContain(text('connectivity.table.descending'));
    expect(rowNames(screen.getByRole('table', { name: 'Básica' }))).toEqual(['1° Básico A', '1° Básico B']);
  });

  it('says so when the figures cannot load, and Reintentar asks again', async () => {
    api.script['GET /dashboard/connectivity'] = [
      json(500, { message: 'Error', code: 'server.error' }),
      () => json(200, { data: connectivity() }),
    ];
    render(wrap(<DashboardConnectivityPage />));
    await screen.findByText(text('connectivity.loadFailed'));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: text('connectivity.retry') })));
    expect(await screen.findByRole('table', { name: 'Básica' })).toBeTruthy();
  });

  it('is what the route rows show, inside the data shell (not "Próximamente")', async () => {
    const route = ROUTES.find((row) => row.name === 'dashboard-connectivity') as RouteDef;
    render(wrap(<Suspense fallback={null}>{route.screen({})}</Suspense>));
    expect(await screen.findByRole('heading', { level: 1, name: text('pages.dashboardConnectivity') })).toBeTruthy();
    const tabs = screen.getByRole('navigation', { name: text('dashboardShell.sections') });
    expect(
      within(tabs)
        .getAllByRole('link')
        .map((a) => [a.textContent, a.getAttribute('href')]),
    ).toEqual([
      [text('dashboardShell.connectivity'), '/dashboard/connectivity'],
      [text('dashboardShell.users'), '/dashboard/users'],
      [text('dashboardShell.rankingCourses'), '/ranking/courses'],
      [text('dashboardShell.rankingUsers'), '/ranking/users'],
    ]);
  });

  // Every data screen: inside the shell, its tab current, one h1 that is the route's title (the tab title
  // says the same), the panels under it as h2.
  it.each([
    ['dashboard-connectivity', '/dashboard/connectivity', {}, 'dashboardShell.connectivity'],
    ['dashboard-users', '/dashboard/users', {}, 'dashboardShell.users'],
    ['ranking-courses', '/ranking/courses', {}, 'dashboardShell.rankingCourses'],
    ['ranking-users', '/ranking/users', {}, 'dashboardShell.rankingUsers'],
    ['connectivity-course', '/connectivity/course/12', { id: '12' }, 'dashboardShell.connectivity'],
  ] as const)('%s: in the shell, its tab current, its title as the one h1', async (name, path, params, tab) => {
    window.history.replaceState(null, '', path);
    const route = ROUTES.find((row) => row.name === name) as RouteDef;
    const { container } = render(wrap(<Suspense fallback={null}>{route.screen(params)}</Suspense>));
    expect(await screen.findByRole('heading', { level: 1, name: text(route.title) })).toBeTruthy();
    expect(container.querySelectorAll('h1')).toHaveLength(1);
    const tabs = screen.getByRole('navigation', { name: text('dashboardShell.sections') });
    expect(
      within(tabs)
        .getAllByRole('link')
        .filter((a) => a.getAttribute('aria-current') === 'page')
        .map((a) => a.textContent),
    ).toEqual([text(tab)]);
    window.history.replaceState(null, '', '/');
  });
});

describe.each(RENDER_MODES)('a course and its call list (%s)', (_mode, wrap) => {
  it('names a BAJA with its day, in what to fix and in the call list', async () => {
    const at = '2026-10-20T15:00:00Z';
    const course = courseConnectivity(12);
    const guardian = course.students[0]!.guardians[1]!;
    guardian.fix = ['sms_opted_out', 'whatsapp_opted_out', 'no_app'];
    guardian.opted_out = [
      { channel: 'sms', at },
      { channel: 'whatsapp', at },
    ];
    const list = callList(12, 3);
    api.script['GET /dashboard/connectivity/courses/12'] = [() => json(200, { data: course })];
    api.script['GET /dashboard/connectivity/courses/12/call-list'] = [
      callListAnswer([{ ...list.rows[0]!, reasons: ['sms_opted_out', 'no_app'], opted_out: [{ channel: 'sms', at }] }]),
    ];
    const { container } = render(wrap(<ConnectivityCoursePage id={12} />));
    await screen.findByRole('heading', { level: 2, name: '1° Básico B · Básica' });
    const row = container.querySelector(`[data-guardian="${guardian.id}"]`) as HTMLElement;
    expect(within(row).getByText(text('course.fix.sms_opted_out', { date: '20-10-2026' }))).toBeTruthy();
    expect(within(row).getByText('Se dio de baja por WhatsApp el 20-10-2026')).toBeTruthy();
    const callListRegion = screen.getByRole('region', { name: text('callList.title') });
    await within(callListRegion).findByText('Se dio de baja por SMS el 20-10-2026; No tiene la app');
  });

  it('lists each guardian with status, phone, e-mail and what to fix, and the call list with its CSV for the N shown', async () => {
    const { container } = render(wrap(<ConnectivityCoursePage id={12} />));
    expect(await screen.findByRole('heading', { level: 2, name: '1° Básico B · Básica' })).toBeTruthy();
    const red = container.querySelector('[data-guardian="902"]') as HTMLElement;
    expect(red.getAttribute('data-status')).toBe('red');
    expect(within(red).getByText(text('device.status.red'))).toBeTruthy();
    expect(within(red).getByText(text('course.students.noPhone'))).toBeTruthy();
    expect(within(red).getByText('pedro@example.cl')).toBeTruthy();
    expect(within(red).getByText(text('course.fix.phone_missing'))).toBeTruthy();
    // Phones read the international way, as on every screen.
    const blue = container.querySelector('[data-guardian="901"]') as HTMLElement;
    expect(within(blue).getByText('+56 9 9747 3752')).toBeTruthy();
    const yellow = container.querySelector('[data-guardian="903"]') as HTMLElement;
    expect(within(yellow).getByText(text('device.status.yellow'))).toBeTruthy();
    // Each missed message once, newest first, its channels' failures inside.
    expect([...yellow.querySelectorAll('[data-missed]')].map((li) => li.getAttribute('data-missed'))).toEqual(['7001', '7000']);
    expect(
      within(container.querySelector('[data-student="503"]') as HTMLElement).getByText(text('course.students.noGuardians')),
    ).toBeTruthy();

    const list = screen.getByRole('region', { name: text('callList.title') });
    await within(list).findByText(text('callList.count', { count: 2 }));
    const rows = within(list)
      .getAllByRole('row')
      .slice(1)
      .map((r) => [...r.children].map((c) => c.textContent));
    expect(rows[0]).toEqual([
      'Agustín Rojas',
      '1° Básico B',
      'Pedro Rojas',
      'suplente',
      text('course.fix.phone_missing'),
      '—',
      'pedro@example.cl',
      'Carla Rojas (titular): +56911112222',
    ]);
    const csv = within(list).getByRole('link', { name: text('callList.csv') });
    expect(csv.getAttribute('href')).toBe('/api/dashboard/connectivity/courses/12/call-list?messages=3&format=csv');
    expect(csv.hasAttribute('download')).toBe(true);
    await act(async () => fireEvent.change(within(list).getByLabelText(text('callList.messages')), { target: { value: '10' } }));
    expect(api.calls('GET', '/dashboard/connectivity/courses/12/call-list').map((r) => new URL(r.url, 'http://localhost').search)).toEqual([
      '?messages=3',
      '?messages=10',
    ]);
    expect(
      within(list)
        .getByRole('link', { name: text('callList.csv') })
        .getAttribute('href'),
    ).toBe('/api/dashboard/connectivity/courses/12/call-list?messages=10&format=csv');
    expect(
      within(list)
        .getByRole('link', { name: text('callList.print') })
        .getAttribute('href'),
    ).toBe('/connectivity/course/12/call-list?messages=10');
    noStyle(container);
  });

  it('shows each missed message in place (title, author, date, what failed per channel) and links to its reception status only for its author', async () => {
    const { container } = render(wrap(<ConnectivityCoursePage id={12} />));
    await screen.findByRole('heading', { level: 2, name: '1° Básico B · Básica' });
    const yellow = container.querySelector('[data-guardian="903"]') as HTMLElement;
    const theirs = yellow.querySelector('[data-missed="7001"]') as HTMLElement;
    const summary = theirs.querySelector('summary') as HTMLElement;
    expect(summary.textContent).toMatch(/^Reunión de apoderados · .*20.*10.*2026/);
    // Closed at first, opened by its summary (a native disclosure: Enter and Space on the keyboard).
    const details = theirs.querySelector('details') as HTMLDetailsElement;
    expect(details.open).toBe(false);
    await act(async () => fireEvent.click(summary));
    expect(details.open).toBe(true);
    const date = summary.textContent!.replace(/^Reunión de apoderados · /, '');
    expect(within(theirs).getByText(text('course.missed.sentBy', { author: 'Paula Jefa de Curso', date }))).toBeTruthy();
    expect([...theirs.querySelectorAll('[data-slot=missed-failures] li')].map((li) => li.textContent)).toEqual([
      'SMS: no recibido',
      'WhatsApp: fallido',
    ]);
    // Not written by the viewer: the server would answer its reception status 404, so no link, and who can.
    expect(within(theirs).queryByRole('link')).toBeNull();
    expect(within(theirs).getByText(text('course.missed.authorOnly', { author: 'Paula Jefa de Curso' }))).toBeTruthy();
    // The viewer's own message: its reception status is one link away.
    const own = yellow.querySelector('[data-missed="7000"]') as HTMLElement;
    expect([...own.querySelectorAll('[data-slot=missed-failures] li')].map((li) => li.textContent)).toEqual(['SMS: fallido']);
    const link = within(own).getByRole('link', { name: text('course.missed.open', { title: 'Salida pedagógica' }) });
    expect(link.getAttribute('href')).toBe('/sent/message/7000/reception');
    expect(within(yellow).getAllByRole('link')).toEqual([link]);
    noStyle(container);
  });

  it('says so when a missed message’s author has no account any more, with nothing to open', async () => {
    const body = courseConnectivity(12);
    const ana = body.students[1]!.guardians[0]!;
    ana.missed = ana.missed.map((m) => ({ ...m, author: null, can_view_reception: false }));
    api.script['GET /dashboard/connectivity/courses/12'] = [() => json(200, { data: body })];
    const { container } = render(wrap(<ConnectivityCoursePage id={12} />));
    await screen.findByRole('heading', { level: 2, name: '1° Básico B · Básica' });
    const yellow = container.querySelector('[data-guardian="903"]') as HTMLElement;
    expect(within(yellow).getAllByText(text('course.missed.authorOnlyGone'))).toHaveLength(2);
    expect(within(yellow).queryByRole('link')).toBeNull();
  });

  it('says when nobody is to be called', async () => {
    api.script['GET /dashboard/connectivity/courses/12/call-list'] = [callListAnswer([])];
    render(wrap(<ConnectivityCoursePage id={12} />));
    expect(await screen.findByText(text('callList.empty'))).toBeTruthy();
  });

  it('keeps the course when its call list fails, and Reintentar asks for the list again', async () => {
    api.script['GET /dashboard/connectivity/courses/12/call-list'] = [
      json(500, { message: 'Error', code: 'server.error' }),
      callListAnswer(),
    ];
    render(wrap(<ConnectivityCoursePage id={12} />));
    await screen.findByText(text('callList.loadFailed'));
    expect(screen.getByRole('heading', { level: 2, name: '1° Básico B · Básica' })).toBeTruthy();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: text('callList.retry') })));
    expect(await screen.findByText(text('callList.count', { count: 2 }))).toBeTruthy();
  });

  it("shows another school's course as not found", async () => {
    render(wrap(<ConnectivityCoursePage id={99} />));
    expect(await screen.findByRole('heading', { level: 2, name: text('course.notFound') })).toBeTruthy();
    expect(screen.getByText(text('course.notFoundBody'))).toBeTruthy();
    expect(screen.queryByRole('button', { name: text('connectivity.retry') })).toBeNull();
    cleanup();
    // Its print view too, with the page's heading kept and nothing to retry.
    render(wrap(<CallListPrintPage id={99} />));
    expect(await screen.findByRole('heading', { level: 2, name: text('course.notFound') })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: text('callList.title') })).toBeTruthy();
    expect(screen.queryByRole('button', { name: text('callList.retry') })).toBeNull();
  });

  it('prints the list in pages of 25 rows with the N asked, each page with its heading', async () => {
    const many = Array.from({ length: 30 }, (_, i) => ({ ...callList().rows[1]!, student: `Estudiante ${i + 1}` }));
    api.script['GET /dashboard/connectivity/courses/12/call-list'] = [callListAnswer(many)];
    const { hook, searchHook } = memoryLocation({ path: '/connectivity/course/12/call-list?messages=5' });
    const { container } = render(
      wrap(
        <Router hook={hook} searchHook={searchHook}>
          <CallListPrintPage id={12} />
        </Router>,
      ),
    );
    expect(await screen.findByRole('heading', { level: 1, name: text('callList.title') })).toBeTruthy();
    expect(api.calls('GET', '/dashboard/connectivity/courses/12/call-list').map((r) => new URL(r.url, 'http://localhost').search)).toEqual([
      '?messages=5',
    ]);
    const pages = [...container.querySelectorAll('[data-slot=call-list-page]')];
    expect(pages.map((p) => p.querySelectorAll('[data-slot=call-list-row]').length)).toEqual([25, 5]);
    expect(pages.map((p) => p.className.includes('print:break-after-page'))).toEqual([true, false]);
    expect(screen.getByRole('table', { name: `${text('callList.title')} · ${text('callList.page', { page: 2, pages: 2 })}` })).toBeTruthy();
    noStyle(container);
  });

  it('is what the route rows show: the course, its print view, and a malformed id is the 404', async () => {
    const course = ROUTES.find((row) => row.name === 'connectivity-course') as RouteDef;
    const { unmount } = render(wrap(<Suspense fallback={null}>{course.screen({ id: '12' })}</Suspense>));
    expect(await screen.findByRole('heading', { level: 2, name: '1° Básico B · Básica' })).toBeTruthy();
    unmount();
    const malformed = render(wrap(<Suspense fallback={null}>{course.screen({ id: '12abc' })}</Suspense>));
    expect(await screen.findByText('Error 404')).toBeTruthy();
    malformed.unmount();
    const print = ROUTES.find((row) => row.name === 'connectivity-call-list') as RouteDef;
    expect(print.path).toBe('/connectivity/course/:id/call-list');
    expect(print.roles).toEqual(course.roles);
    render(wrap(<Suspense fallback={null}>{print.screen({ id: '12' })}</Suspense>));
    expect(await screen.findByRole('heading', { level: 1, name: text('callList.title') })).toBeTruthy();
  });
});

describe('the 100 % bar', () => {
  it('lays the segments end to end on a 0–100 track, skipping empty ones', () => {
    expect(
      stackBoxes([
        { key: 'a', value: 1 },
        { key: 'b', value: 0 },
        { key: 'c', value: 2 },
      ]),
    ).toEqual([
      { key: 'a', x: 0, width: 33.3 },
      { key: 'c', x: 33.3, width: 66.7 },
    ]);
    expect(stackBoxes([{ key: 'a', value: 0 }])).toEqual([]);
    expect(formatShare(1, 3, 'es-CL')).toBe('33 %');
    expect(formatShare(0, 0, 'es-CL')).toBe('—');
  });
});
