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
    expect(within(changed).getByText(`${text('audit.detail.fields')}: email`)).toBeTruthy();
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
