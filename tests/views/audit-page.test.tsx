// /audit (under StrictMode and without it): the real machines over a scripted API. Each entry with its action,
// who and about whom in the screen's words (the gone, the system and the signed-out said neutrally); «Ver solo…»
// narrows the query and leaves a chip that drops it; an action box asks for that action; the CSV link carries
// the filters; a reversed range is said and not asked for; a failed first page offers Reintentar.
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AuditRow } from '../../shared/audit-contract';
import { AuditPage } from '../../src/views/pages/audit/audit-page';
import { json } from '../fixtures/fake-fetch';
import { text } from '../fixtures/texts';
import { RENDER_MODES, setUpScreenTest } from './screen-test';

const api = setUpScreenTest();

// Radix's checkbox measures itself; jsdom has no ResizeObserver (browsers do).
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

const CHANGED: AuditRow = {
  id: 3,
  at: '2026-11-30T12:00:00.000Z',
  action: 'person.changed',
  actor: { kind: 'user', id: 7, name: 'Ana Pérez' },
  ip: '10.0.0.1',
  subject: { kind: 'apoderado', id: 12, name: 'Juan Soto' },
  detail: { fields: ['email'] },
};
const ERASED: AuditRow = {
  id: 2,
  at: '2026-11-29T12:00:00.000Z',
  action: 'person.erased',
  actor: { kind: 'user', id: 9, name: null },
  ip: '10.0.0.2',
  subject: { kind: 'estudiante', id: 40, name: null },
  detail: null,
};
const SWEEP: AuditRow = {
  id: 1,
  at: '2026-11-28T12:00:00.000Z',
  action: 'retention.applied',
  actor: { kind: 'system', id: null, name: null },
  ip: null,
  subject: null,
  detail: { rows: 4 },
};

const page = (data: AuditRow[]) =>
  json(200, { data, meta: { current_page: 1, last_page: 1, per_page: 50, total: data.length }, links: { next: null, prev: null } });
const queryOf = (url: string) => Object.fromEntries(new URL(url, 'http://localhost').searchParams);
const rowOf = (id: number) => document.querySelectorAll('[data-slot="audit-row"]')[[3, 2, 1].indexOf(id)] as HTMLElement;

describe.each(RENDER_MODES)('audit screen (%s)', (_mode, wrap) => {
  const renderPage = async (path = '/audit') => {
    window.history.replaceState(null, '', path);
    render(wrap(<AuditPage />));
  };

  it('shows each entry in words, the gone and the system said neutrally', async () => {
    api.script['GET /audit'] = [page([CHANGED, ERASED, SWEEP])];
    await renderPage();
    await screen.findByText('Juan Soto');
    expect(screen.getByText(text('audit.total', { count: 3 }))).toBeTruthy();
    const changed = rowOf(3);
    expect(within(changed).getByRole('heading', { name: text('audit.action.person.changed') })).toBeTruthy();
    expect(within(changed).getByText('Ana Pérez')).toBeTruthy();
    expect(within(changed).getByText(`${text('audit.detail.fields')}: ${text('audit.field.email')}`)).toBeTruthy();
    expect(within(changed).getByText(text('audit.row.ip', { ip: '10.0.0.1' }))).toBeTruthy();
    const erased = rowOf(2);
    expect(within(erased).getByText(text('audit.who.goneAccount'))).toBeTruthy();
    expect(within(erased).getByText(text('audit.who.gonePerson'))).toBeTruthy();
    const sweep = rowOf(1);
    expect(within(sweep).getByText(text('audit.who.system'))).toBeTruthy();
    // The system did it: there is no one to narrow to.
    expect(within(sweep).queryAllByRole('button')).toEqual([]);
    expect(queryOf(api.calls('GET', '/audit')[0]!.url)).toEqual({ page: '1', per_page: '50' });
  });

  it('says every detail in Spanish: keys, codes, field names and roles; ids, counts and days as they are', async () => {
    const by = { kind: 'user', id: 7, name: 'Ana Pérez' } as const;
    const rows: AuditRow[] = [
      {
        id: 15,
        at: '2026-11-30T12:00:00.000Z',
        action: 'roster.imported',
        actor: by,
        ip: null,
        subject: { kind: 'importacion', id: 4, name: null },
        detail: {
          school_year: 2026,
          students_added: 30,
          students_changed: 2,
          students_withdrawn: 1,
          guardians_added: 25,
          guardians_changed: 3,
          courses_added: 1,
          links_written: 40,
        },
      },
      {
        id: 14,
        at: '2026-11-30T11:00:00.000Z',
        action: 'staff.changed',
        actor: by,
        ip: null,
        subject: { kind: 'usuario', id: 8, name: 'Luis Rojas' },
        detail: {
          fields: ['roles', 'device'],
          roles_before: ['docente'],
          roles_after: ['docente', 'colegio-utp'],
          device_before: 'cl',
          device_after: 'latam',
        },
      },
      {
        id: 13,
        at: '2026-11-30T10:00:00.000Z',
        action: 'session.sign_in_failed',
        actor: { kind: 'anonymous', id: null, name: null },
        ip: '10.0.0.9',
        subject: null,
        detail: { method: 'password', reason: 'invalid_credentials' },
      },
      {
        id: 12,
        at: '2026-11-30T09:00:00.000Z',
        action: 'person.erased',
        actor: by,
        ip: null,
        subject: { kind: 'apoderado', id: 5, name: null },
        detail: {
          mensajes_escritos: 2,
          adjuntos: 1,
          mensajes_recibidos: 14,
          entregas: 20,
          sesiones: 3,
          historial_contacto: 4,
          mensajes_entrantes: 0,
          listas: 1,
        },
      },
      {
        id: 11,
        at: '2026-11-30T08:00:00.000Z',
        action: 'retention.applied',
        actor: { kind: 'system', id: null, name: null },
        ip: null,
        subject: { kind: 'colegio', id: 1, name: null },
        detail: { mensajes: 3, respuestas: 0, entregas: 9, adjuntos: 0, recibidos: 1, auditoria: 0, fecha: '2026-11-30T08:00:00.000Z' },
      },
      {
        id: 10,
        at: '2026-11-30T07:00:00.000Z',
        action: 'person.contacts_viewed',
        actor: by,
        ip: null,
        subject: null,
        // `alcance` is a key no writer uses today (a newer writer's): it still reads, in a generic form.
        detail: { view: 'people_list', people: 50, course_id: 3, page: 1, alcance: 'todo_el_colegio', guardian_added: true },
      },
    ];
    api.script['GET /audit'] = [page(rows)];
    await renderPage();
    await screen.findByText('Luis Rojas');
    const texts = [...document.querySelectorAll('[data-slot="audit-row"]')].map((row) => row.textContent ?? '');
    expect(texts).toHaveLength(rows.length);
    const ENGLISH =
      /\b(password|invalid|credentials|people|list|students?|guardians?|courses?|links|role|device|session|method|reason|view|export|roster|imports?|true|false|null|undefined|school|year|added|changed|written)\b/i;
    for (const row of texts) {
      expect(row).not.toMatch(/[a-z]+_[a-z]+/);
      expect(row).not.toMatch(ENGLISH);
    }
    const [roster, staff, failed, erased, sweep, viewed] = texts;
    expect(roster).toContain(`${text('audit.detail.students_added')}: 30`);
    expect(staff).toContain(`${text('audit.detail.roles_after')}: ${text('audit.role.docente')}, ${text('audit.role.colegio-utp')}`);
    expect(staff).toContain(`${text('audit.detail.fields')}: ${text('audit.field.roles')}, ${text('audit.field.device')}`);
    expect(failed).toContain(`${text('audit.detail.reason')}: ${text('audit.value.invalid_credentials')}`);
    expect(erased).toContain(`${text('audit.detail.mensajes_escritos')}: 2`);
    expect(sweep).toContain(`${text('audit.detail.fecha')}: 2026-11-30T08:00:00.000Z`);
    expect(viewed).toContain(`${text('audit.detail.view')}: ${text('audit.value.people_list')}`);
    expect(viewed).toContain('Alcance: todo el colegio');
    expect(viewed).toContain(`${text('audit.detail.guardian_added')}: ${text('audit.yes')}`);
  });

  it('narrows to a person and an action, and the CSV link carries the filters', async () => {
    api.script['GET /audit'] = [page([CHANGED, ERASED, SWEEP]), page([CHANGED]), page([CHANGED]), page([CHANGED, ERASED, SWEEP])];
    await renderPage();
    await screen.findByText('Juan Soto');
    fireEvent.click(within(rowOf(3)).getByRole('button', { name: text('audit.row.onlySubject', { name: 'Juan Soto' }) }));
    await waitFor(() =>
      expect(queryOf(api.calls('GET', '/audit').at(-1)!.url)).toMatchObject({ subject_kind: 'apoderado', subject_id: '12' }),
    );
    expect(screen.getByText(text('audit.filters.subject', { name: 'Juan Soto' }))).toBeTruthy();
    fireEvent.click(screen.getByRole('checkbox', { name: text('audit.action.person.changed') }));
    await waitFor(() => expect(queryOf(api.calls('GET', '/audit').at(-1)!.url)).toMatchObject({ action: 'person.changed' }));
    const link = screen.getByRole('link', { name: text('audit.filters.export') });
    expect(link.getAttribute('href')).toBe('/api/audit/export.csv?action=person.changed&subject_kind=apoderado&subject_id=12');
    fireEvent.click(screen.getByRole('button', { name: text('audit.filters.clear') }));
    await waitFor(() => expect(queryOf(api.calls('GET', '/audit').at(-1)!.url)).toEqual({ page: '1', per_page: '50' }));
    expect(screen.queryByText(text('audit.filters.subject', { name: 'Juan Soto' }))).toBeNull();
  });

  it('says a reversed range and does not ask for it', async () => {
    api.script['GET /audit'] = [page([CHANGED])];
    await renderPage();
    await screen.findByText('Juan Soto');
    const calls = api.calls('GET', '/audit').length;
    fireEvent.change(screen.getByLabelText(text('audit.filters.from')), { target: { value: '2026-11-30' } });
    fireEvent.change(screen.getByLabelText(text('audit.filters.to')), { target: { value: '2026-11-01' } });
    expect(await screen.findByText(text('audit.filters.reversed'))).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 400));
    // Only the start was asked for (the debounce joins the two changes into one query at most).
    for (const call of api.calls('GET', '/audit').slice(calls)) expect(queryOf(call.url).to).toBeUndefined();
  });

  it('opens on the person the address names', async () => {
    api.script['GET /audit'] = [page([CHANGED])];
    await renderPage('/audit?subject_kind=apoderado&subject_id=12');
    await screen.findByText('Juan Soto');
    expect(queryOf(api.calls('GET', '/audit')[0]!.url)).toMatchObject({ subject_kind: 'apoderado', subject_id: '12' });
  });

  it('offers Reintentar when the first page fails', async () => {
    api.script['GET /audit'] = [json(500, { message: 'x', code: 'server.error' }), page([CHANGED])];
    await renderPage();
    fireEvent.click(await screen.findByRole('button', { name: text('audit.retry') }));
    await screen.findByText('Juan Soto');
  });
});
