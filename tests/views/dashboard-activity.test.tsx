// The activity screens' wiring (under StrictMode and without it): the real machines and
// services over a scripted fetch. /dashboard/users opens with what its address says, shows the staff table
// with the read-rate note, the activity percentage with SPEC §9's explanation and the summary (chart with
// its table, top staff and courses, the device mix with the legend); headers sort without asking again;
// period and cargo ask again and go in the address; a failing summary leaves the table standing. The
// rankings show position, value and change in words, explain the per-guardian rate, and switch to "por
// mejora" through the address. No element has a style attribute (CSP).
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DashboardUsersPage } from '../../src/views/pages/dashboard/users-page';
import { RankingPage } from '../../src/views/pages/dashboard/ranking-page';
import { json } from '../fixtures/fake-fetch';
import { activitySummary, periodFor, ranking, staffActivity } from '../fixtures/dashboard-activity';
import { text } from '../fixtures/texts';
import { RENDER_MODES, setUpScreenTest } from './screen-test';

const api = setUpScreenTest();
let summaryFails = false;
let usersFail = false;

const lastQuery = () => new URL(api.requests.at(-1)?.url ?? '', 'http://localhost').searchParams;
const periodAsked = (q: URLSearchParams) =>
  q.get('period') === 'school-year' ? periodFor('school-year', q.get('year')) : periodFor('month', q.get('month'));
const asked = (path: string) =>
  api.requests
    .filter((r) => new URL(r.url, 'http://localhost').pathname === `/api${path}`)
    .map((r) => new URL(r.url, 'http://localhost').search);
const here = () => window.location.pathname + window.location.search;

beforeEach(() => {
  summaryFails = false;
  usersFail = false;
  api.script = {
    'GET /dashboard/users': [
      () => {
        if (usersFail) return json(500, { message: 'Error', code: 'server.error' });
        const q = lastQuery();
        return json(200, { data: staffActivity(periodAsked(q), q.get('position_id') ? Number(q.get('position_id')) : null) });
      },
    ],
    'GET /dashboard/summary': [
      () =>
        summaryFails
          ? json(500, { message: 'Error', code: 'server.error' })
          : json(200, { data: activitySummary(lastQuery().get('year') ?? '2026') }),
    ],
    'GET /ranking/courses': [
      () =>
        json(200, {
          data: ranking(
            'courses',
            periodAsked(lastQuery()),
            (lastQuery().get('metric') ?? 'read') as never,
            (lastQuery().get('by') ?? 'value') as never,
          ),
        }),
    ],
    'GET /ranking/users': [
      () =>
        json(200, {
          data: ranking(
            'users',
            periodAsked(lastQuery()),
            (lastQuery().get('metric') ?? 'messages') as never,
            (lastQuery().get('by') ?? 'value') as never,
          ),
        }),
    ],
  };
});
afterEach(() => window.history.replaceState(null, '', '/'));

const rowsOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => [...row.children].map((cell) => cell.textContent?.trim()));

describe.each(RENDER_MODES)('/dashboard/users (%s)', (_mode, wrap) => {
  it('opens with the address, shows the table, the percentage with its note and the summary', async () => {
    window.history.replaceState(null, '', '/dashboard/users?period=month&month=2026-09&position_id=3');
    const { container } = render(wrap(<DashboardUsersPage />));
    const table = await screen.findByRole('table', { name: /Actividad por funcionario/ });
    expect(asked('/dashboard/users')).toEqual(['?period=month&month=2026-09&position_id=3']);
    // Cargo 3's two people, most messages first; Ana's 0,625 read as 62,5 %.
    expect(rowsOf(table)).toEqual([
      ['Ana PérezProfesor jefe', '42', '380', '62,5 %', '12'],
      ['Carla SotoProfesor jefe', '18', '95', '90 %', '9'],
    ]);
    expect(screen.getByText(text('activity.table.readNote'))).toBeTruthy();
    // Why the count can exceed what the Sent folder shows today (same messages, the school's clock).
    expect(text('activity.table.readNote')).toMatch(/carpeta Enviados .* hora del colegio, también los que después borró/);
    expect(container.querySelector('[data-slot=activity-percent-figure]')?.textContent).toBe('75 %');
    expect(screen.getByText(text('activity.percent.detail', { count: 4, active: 3 }))).toBeTruthy();
    expect(screen.getByText(text('activity.percent.note'))).toBeTruthy();
    expect((screen.getByRole('combobox', { name: text('activity.position') }) as HTMLSelectElement).value).toBe('3');
    expect(container.querySelector('[data-slot=period-name]')?.textContent).toBe('Septiembre de 2026');

    // The summary: the school year's months (this month's year, asked with no year), with its table.
    const chart = await screen.findByRole('img', { name: /Mensajes por mes, año escolar 2026/ });
    expect(chart.querySelectorAll('[data-slot=bar]')).toHaveLength(10);
    expect(asked('/dashboard/summary')).toEqual(['']);
    expect(screen.getByText(text('activity.summary.peak', { period: 'Octubre de 2026', messages: '330' }))).toBeTruthy();
    expect(screen.getByRole('region', { name: text('activity.summary.topStaff') }).textContent).toContain('Ana Pérez42 mensajes');
    expect(screen.getByRole('region', { name: text('activity.summary.topCourses') }).textContent).toContain('3° Básico A25 mensajes');
    expect([...container.querySelectorAll('[data-slot=device-mix] li')].map((li) => li.textContent)).toEqual([
      'Con la app, al día:410 apoderados',
      'Bueno (sin app, por celular):300 apoderados',
      'Irregular:45 apoderados',
      'No registrado:12 apoderados',
    ]);
    expect(container.querySelector('[data-slot=device-legend]')).not.toBeNull();
    expect(container.querySelectorAll('[style]')).toHaveLength(0);
  });

  it('sorts by a header without asking again; period and cargo ask again and go in the address', async () => {
    window.history.replaceState(null, '', '/dashboard/users');
    render(wrap(<DashboardUsersPage />));
    const table = await screen.findByRole('table', { name: /Actividad por funcionario/ });
    expect(rowsOf(table).map((r) => r[0])).toEqual([
      'Ana PérezProfesor jefe',
      'Carla SotoProfesor jefe',
      'Bruno DíazInspector',
      'Óscar RuizSin cargo',
    ]);
    // Bruno's SMS-only messages: no read rate, said in words.
    expect(rowsOf(table)[2]?.[3]).toBe(`${text('activity.table.noRate')}${text('activity.table.noRateLabel')}`);

    await act(async () => fireEvent.click(within(table).getByRole('button', { name: new RegExp(text('activity.table.readRate')) })));
    expect(rowsOf(table).map((r) => r[3]?.slice(0, 4))).toEqual(['90 %', '62,5', '—Sin', '—Sin']);
    expect(
      within(table)
        .getByRole('columnheader', { name: new RegExp(text('activity.table.readRate')) })
        .getAttribute('aria-sort'),
    ).toBe('descending');
    expect(here()).toBe('/dashboard/users?sort=read_rate&dir=desc');
    await act(async () => fireEvent.click(within(table).getByRole('button', { name: new RegExp(text('activity.table.name')) })));
    expect(rowsOf(table).map((r) => r[0]?.split(/(?=[A-Z])/)[0])).toEqual(['Ana ', 'Bruno ', 'Carla ', 'Óscar ']);
    expect(asked('/dashboard/users')).toEqual(['']);

    await act(async () => fireEvent.change(screen.getByRole('combobox', { name: text('activity.position') }), { target: { value: '5' } }));
    await waitFor(() => expect(asked('/dashboard/users')).toEqual(['', '?position_id=5']));
    expect(here()).toBe('/dashboard/users?position_id=5&sort=name&dir=asc');

    await act(async () =>
      fireEvent.change(screen.getByRole('combobox', { name: text('activity.period.kind') }), { target: { value: 'school-year' } }),
    );
    await screen.findByText('Año escolar 2026');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: text('activity.period.previousYear') })));
    await screen.findByText('Año escolar 2025');
    expect(asked('/dashboard/users').slice(2)).toEqual([
      '?period=school-year&position_id=5',
      '?period=school-year&year=2025&position_id=5',
    ]);
    expect(here()).toBe('/dashboard/users?period=school-year&year=2025&position_id=5&sort=name&dir=asc');
    // The summary follows the school year chosen.
    await screen.findByRole('img', { name: /Mensajes por mes, año escolar 2025/ });
    expect(asked('/dashboard/summary').at(-1)).toBe('?year=2025');
    // This school year (2026) is still ahead of 2025.
    expect((screen.getByRole('button', { name: text('activity.period.nextYear') }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('a failing summary leaves the table; a failing table leaves the summary; each retries alone', async () => {
    window.history.replaceState(null, '', '/dashboard/users');
    summaryFails = true;
    render(wrap(<DashboardUsersPage />));
    await screen.findByRole('table', { name: /Actividad por funcionario/ });
    const summaryFailure = await screen.findByText(text('activity.summary.failed'));
    summaryFails = false;
    await act(async () =>
      fireEvent.click(within(summaryFailure.closest('[role=alert]') as HTMLElement).getByRole('button', { name: text('activity.retry') })),
    );
    await screen.findByRole('img', { name: /Mensajes por mes/ });

    usersFail = true;
    await act(async () => fireEvent.change(screen.getByRole('combobox', { name: text('activity.position') }), { target: { value: '3' } }));
    // The old table stays, said to be out of date, and the summary is untouched.
    await screen.findByText(text('activity.staleFailed'));
    expect(screen.getByRole('table', { name: /Actividad por funcionario/ })).toBeTruthy();
    expect(screen.getByRole('img', { name: /Mensajes por mes/ })).toBeTruthy();
    usersFail = false;
    await act(async () => fireEvent.click(screen.getByRole('button', { name: text('activity.retry') })));
    await waitFor(() => expect(screen.queryByText(text('activity.staleFailed'))).toBeNull());
    expect(rowsOf(screen.getByRole('table', { name: /Actividad por funcionario/ }))).toHaveLength(2);
  });
});

describe.each(RENDER_MODES)('rankings (%s)', (_mode, wrap) => {
  it('courses: rate per guardian explained, change in words, "por mejora" through the address', async () => {
    window.history.replaceState(null, '', '/ranking/courses');
    const { container } = render(wrap(<RankingPage kind="courses" />));
    const table = await screen.findByRole('table', { name: /Ranking de cursos: Octubre de 2026/ });
    expect(screen.getByText(text('ranking.courses.intro'))).toBeTruthy();
    expect(screen.getByText('Comparado con septiembre de 2026.')).toBeTruthy();
    expect(rowsOf(table)).toEqual([
      ['1°', '3° Básico A38 apoderados', '82 %', '↑sube 5 pts.'],
      ['2°', '1° Medio B12 apoderados', '75 %', '↑sube 8 pts.'],
      ['3°', 'Kínder20 apoderados', '60 %', '–sin dato anterior'],
      ['4°', '2° Básico C1 apoderado', '50 %', '↓baja 20 pts.'],
    ]);
    const improvement = screen.getByRole('button', { name: text('ranking.by.improvement') });
    expect(improvement.getAttribute('aria-pressed')).toBe('false');
    await act(async () => fireEvent.click(improvement));
    await waitFor(() => expect(asked('/ranking/courses')).toEqual(['?metric=read&by=value', '?metric=read&by=improvement']));
    expect(here()).toBe('/ranking/courses?by=improvement');
    expect(improvement.getAttribute('aria-pressed')).toBe('true');
    // The server's order by improvement: the most improved first, whatever its rate.
    await waitFor(() =>
      expect(rowsOf(table).map((r) => `${r[0]} ${r[1]}`)).toEqual([
        '1° 1° Medio B12 apoderados',
        '2° 3° Básico A38 apoderados',
        '3° 2° Básico C1 apoderado',
        '4° Kínder20 apoderados',
      ]),
    );
    await act(async () =>
      fireEvent.change(screen.getByRole('combobox', { name: text('ranking.metric.label') }), { target: { value: 'reached' } }),
    );
    await waitFor(() => expect(here()).toBe('/ranking/courses?metric=reached&by=improvement'));
    expect(container.querySelectorAll('[style]')).toHaveLength(0);
  });

  it('users: opens a school year from a link, cargo beside the name, counts as numbers', async () => {
    window.history.replaceState(null, '', '/ranking/users?period=school-year&year=2025');
    render(wrap(<RankingPage kind="users" />));
    const table = await screen.findByRole('table', { name: /Ranking de funcionarios: Año escolar 2025/ });
    expect(asked('/ranking/users')).toEqual(['?period=school-year&year=2025&metric=messages&by=value']);
    expect(rowsOf(table)).toEqual([
      ['1°', 'Ana PérezProfesor jefe', '42', '↑sube 12'],
      ['2°', 'Carla SotoSin cargo', '18', '=sin cambio'],
    ]);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: text('activity.period.nextYear') })));
    await screen.findByRole('table', { name: /Año escolar 2026/ });
    expect(here()).toBe('/ranking/users?period=school-year&year=2026');
    expect((screen.getByRole('button', { name: text('activity.period.nextYear') }) as HTMLButtonElement).disabled).toBe(true);
  });
});
