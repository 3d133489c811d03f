// The news compose screen's wiring (under StrictMode and without it): the real machine and
// service over a scripted API. The categories with "Sin categoría"; Publicar on an empty form shows the
// shared rules' Spanish texts and focuses the title; a past end date is refused as typed and on save the
// focus goes to it, nothing is sent; the audience picker by keyboard sends one course and "Publicación
// creada"; a scheduled post says when; a 422 lands on its field; a reload brings back what was typed.
import type { ReactNode } from 'react';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NEWS_MESSAGES } from '../../shared/news-rules';
import { NewsComposeScreen } from '../../src/views/pages/news/compose-page';
import { Toaster } from '../../src/views/layout/toaster';
import { json } from '../fixtures/fake-fetch';
import { newsComposeStart, newsPost } from '../fixtures/news-compose';
import { thirdGrade } from '../fixtures/recipients';
import { es, text } from '../fixtures/texts';
import { RENDER_MODES, setUpScreenTest } from './screen-test';

const api = setUpScreenTest();
const TZ = 'America/Santiago';
const T = es.newsCompose;

// Radix's switch measures itself inside a form; jsdom has no ResizeObserver (browsers do).
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

afterEach(() => {
  localStorage.clear();
  vi.useRealTimers();
});

function script() {
  api.script['GET /news-categories'] = [json(200, { data: newsComposeStart().categories })];
  // The audience needs the levels and courses, never the whole school's directory of people.
  const { levels, courses } = thirdGrade();
  const groups = courses.map(({ id, nombre, grupo_type, level_id }) => ({ id, nombre, grupo_type, level_id }));
  api.script['GET /recipients/courses'] = [json(200, { data: { levels, courses: groups } })];
}

async function renderPage(wrap: (node: ReactNode) => ReactNode, postId: number | null = null) {
  const { hook } = memoryLocation({ path: '/mural/news/compose' });
  const view = render(
    wrap(
      <Router hook={hook}>
        <NewsComposeScreen postId={postId} backupKey={`news:1:${postId ?? 'new'}`} timezone={TZ} />
        <Toaster />
      </Router>,
    ),
  );
  const title = (await screen.findByLabelText(T.title)) as HTMLInputElement;
  return { view, title };
}

const change = (element: HTMLElement, value: string) => act(async () => void fireEvent.change(element, { target: { value } }));
const posts = () => api.calls('POST', '/news');
const alertOf = (element: HTMLElement) =>
  (element.getAttribute('aria-describedby') ?? '')
    .split(/\s+/)
    .map((id) => document.getElementById(id))
    .filter((node) => node?.getAttribute('role') === 'alert')
    .map((node) => node?.textContent)
    .join(' ');

describe.each(RENDER_MODES)('mural compose (%s)', (_mode, wrap) => {
  it('offers the categories with "Sin categoría" first, and an empty Publicar says what is missing with the focus on the title', async () => {
    script();
    const { title } = await renderPage(wrap);
    const select = screen.getByLabelText(T.category) as HTMLSelectElement;
    expect([...select.options].map((o) => o.textContent)).toEqual([T.noCategory, 'Eventos', 'Comunicados']);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: T.publish })));
    expect(alertOf(title)).toBe(NEWS_MESSAGES.titleRequired);
    expect(alertOf(screen.getByLabelText(T.body))).toBe(NEWS_MESSAGES.bodyRequired);
    await waitFor(() => expect(document.activeElement).toBe(title));
    expect(title.getAttribute('aria-invalid')).toBe('true');
    expect(posts()).toHaveLength(0);
    expect(api.calls('GET', '/recipients')).toHaveLength(0);
  });

  it('refuses an end date already past as it is typed and on save puts the focus on it, sending nothing', async () => {
    script();
    const { title } = await renderPage(wrap);
    await change(title, 'Feria científica');
    await change(screen.getByLabelText(T.body), 'El jueves exponen los cursos.');
    const ends = screen.getByRole('group', { name: T.ends });
    const date = within(ends).getByLabelText(T.date);
    await change(date, '2020-01-01');
    expect(alertOf(date)).toBe(NEWS_MESSAGES.endsPast);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: T.publish })));
    await waitFor(() => expect(document.activeElement).toBe(date));
    expect(posts()).toHaveLength(0);
  });

  it('sends one course chosen by keyboard, the category, the pin, and says "Publicación creada"', async () => {
    script();
    api.script['POST /news'] = [json(201, { data: newsPost({ id: 90 }) })];
    const { title } = await renderPage(wrap);
    await change(title, '  Feria científica ');
    await change(screen.getByLabelText(T.body), 'El jueves exponen.');
    await change(screen.getByLabelText(T.category), '3');
    await act(async () => fireEvent.click(screen.getByRole('radio', { name: new RegExp(T.groups) })));
    // No course yet: the audience says so at once.
    expect(screen.getByText(NEWS_MESSAGES.audienceEmpty)).toBeTruthy();
    const courses = screen.getByRole('list', { name: text('newsCompose.levelCourses', { level: '3° Básico' }) });
    await act(async () => fireEvent.click(within(courses).getByRole('checkbox', { name: '3° Básico B' })));
    expect(screen.queryByText(NEWS_MESSAGES.audienceEmpty)).toBeNull();
    await act(async () => fireEvent.click(screen.getByRole('switch', { name: T.pinned })));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: T.publish })));
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(posts()[0]?.body).toEqual({
      title: 'Feria científica',
      body: 'El jueves exponen.',
      category_id: 3,
      audience: { scope: 'groups', level_ids: [], course_ids: [11] },
      attachment_ids: [],
      publish_at: null,
      ends_at: null,
      pinned: true,
    });
    expect(await screen.findByText(T.toast.created)).toBeTruthy();
    // Saved: nothing is kept in the browser any more.
    expect(localStorage.getItem('hermes.compose.news:1:new')).toBeNull();
  });

  it('a scheduled post is sent at the school clock’s instant and the toast says when', async () => {
    script();
    api.script['POST /news'] = [json(201, { data: newsPost({ id: 91, status: 'scheduled', publish_at: '2030-03-10T11:00:00.000Z' }) })];
    const { title } = await renderPage(wrap);
    await change(title, 'Reunión');
    await change(screen.getByLabelText(T.body), 'Reunión de apoderados.');
    await act(async () => fireEvent.click(screen.getByRole('radio', { name: T.at })));
    const when = screen.getByRole('group', { name: T.when });
    await change(within(when).getByLabelText(T.date), '2030-03-10');
    await change(within(when).getByLabelText(T.time), '08:00');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: T.schedule })));
    await waitFor(() => expect(posts()).toHaveLength(1));
    // 08:00 in Santiago on 10 March 2030 (summer time, UTC−3).
    expect((posts()[0]!.body as { publish_at: string }).publish_at).toBe('2030-03-10T11:00:00.000Z');
    expect(await screen.findByText(text('newsCompose.toast.scheduled', { date: '10-03-2030', time: '08:00' }))).toBeTruthy();
  });

  it('puts a 422 on its field and keeps everything typed', async () => {
    script();
    api.script['POST /news'] = [
      json(422, {
        message: 'Los datos enviados no son válidos.',
        code: 'validation.failed',
        errors: { title: ['Ya hay una publicación con ese título.'] },
      }),
    ];
    const { title } = await renderPage(wrap);
    await change(title, 'Feria');
    await change(screen.getByLabelText(T.body), 'Texto');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: T.publish })));
    await waitFor(() => expect(alertOf(title)).toBe('Ya hay una publicación con ese título.'));
    await waitFor(() => expect(document.activeElement).toBe(title));
    expect(title.value).toBe('Feria');
  });

  it('brings back what was typed after a reload, and says so', async () => {
    script();
    const first = await renderPage(wrap);
    await change(first.title, 'Feria a medio escribir');
    first.view.unmount();
    script();
    const { title } = await renderPage(wrap);
    expect(title.value).toBe('Feria a medio escribir');
    expect(screen.getByText(T.restored)).toBeTruthy();
  });
});
