// /settings/roster (under StrictMode and without it): the real machines over a scripted API and a fake
// XMLHttpRequest for the upload. Step 1 offers the school's country's template first and the history (as a file
// once there is one); a file of another kind is refused by its field with nothing sent; the upload shows its
// bytes, then the lines the server has read; step 2 prefilled with the server's suggestion sends the columns as
// assigned; the preview asks the server for its conflicts alone; «Aplicar» waits for the conflict's choice, sends
// it and shows the rows written as the server tells them; a failed apply keeps the choice, a stale preview asks
// for the file again.
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PreviewPerson, RosterImport } from '../../shared/roster-contract';
import { Toaster } from '../../src/views/layout/toaster';
import { SettingsRosterPage } from '../../src/views/pages/roster/roster-page';
import { json } from '../fixtures/fake-fetch';
import { FakeXhr } from '../fixtures/fake-xhr';
import { text } from '../fixtures/texts';
import { RENDER_MODES, setUpScreenTest } from './screen-test';

const api = setUpScreenTest();

/** The upload's and apply's XMLHttpRequest, keeping the form (or JSON) it was sent. */
class RosterXhr extends FakeXhr {
  body: FormData | null = null;
  json: unknown = null;
  override send(body?: FormData | string) {
    if (typeof body === 'string') this.json = JSON.parse(body);
    else this.body = body ?? null;
    super.send();
  }
}

const IMPORT: RosterImport = {
  id: 41,
  state: 'previewed',
  file_name: 'nomina-2027.csv',
  file_hash: 'ab'.repeat(32),
  school_year: 2027,
  created_at: '2026-11-29T23:00:00Z',
  created_by: 'Marcela Fuentes',
  applied_at: null,
  counts: {
    students: { new: 2, changed: 1, unchanged: 0, withdrawn: 1 },
    guardians: { new: 2, changed: 1, unchanged: 0 },
    courses: { new: 1, unchanged: 1 },
    rows: { read: 5, valid: 4, refused: 1 },
    conflicts: 1,
  },
};
const PAST: RosterImport = { ...IMPORT, id: 40, file_name: 'nomina-2026.csv', state: 'applied', applied_at: '2026-03-01T12:00:00Z' };
const GUARDIAN: PreviewPerson = {
  kind: 'guardian',
  change: 'changed',
  match: 'document',
  id: 7,
  name: 'María Pérez',
  document: '15111222-6',
  course: null,
  lines: [3],
  changes: [{ field: 'fono_celular', from: '+56987654321', to: '+56911112222', manual: true }],
};
const page = <T,>(data: T[]) =>
  json(200, { data, meta: { current_page: 1, last_page: 1, per_page: 50, total: data.length }, links: { next: null, prev: null } });
const csv = () => new File(['RUN;Nombres\n'], 'nomina-2027.csv', { type: 'text/csv' });

beforeEach(() => {
  FakeXhr.sent = [];
  vi.stubGlobal('XMLHttpRequest', RosterXhr);
  document.cookie = 'XSRF-TOKEN=token; path=/';
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const lastUpload = () => FakeXhr.sent.at(-1) as RosterXhr;
const APPLIED = { ...IMPORT, state: 'applied', applied_at: '2026-11-29T23:05:00Z' };
/** The determinate bar's value, null while it waits. */
const barValue = (slot: string) =>
  document.querySelector(`[data-slot="${slot}"] [role="progressbar"]`)?.getAttribute('aria-valuenow') ?? null;

describe.each(RENDER_MODES)('roster import screen (%s)', (_mode, wrap) => {
  const renderPage = async () => {
    window.history.replaceState(null, '', '/settings/roster');
    render(
      wrap(
        <>
          <SettingsRosterPage />
          <Toaster />
        </>,
      ),
    );
    await screen.findByRole('heading', { level: 2, name: text('roster.heading') });
  };
  const choose = async (file: File) => {
    await act(async () => fireEvent.change(document.getElementById('roster-file') as HTMLInputElement, { target: { files: [file] } }));
  };
  const toPreview = async () => {
    api.script['GET /roster/imports'] = [page([])];
    api.script['GET /roster/imports/41/people'] = [page([GUARDIAN])];
    await renderPage();
    await choose(csv());
    await act(async () => lastUpload().respond(200, { status: 'preview', import: IMPORT }));
    return screen.findByRole('heading', { name: text('roster.preview.heading', { name: IMPORT.file_name }) });
  };

  it('offers Chile’s templates first and the history; refuses a file of another kind by its field, sending nothing', async () => {
    api.script['GET /roster/imports'] = [page([PAST])];
    await renderPage();
    const links = within(document.querySelector('[data-slot="roster-templates"]') as HTMLElement).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual([
      text('roster.template.link', { country: text('roster.country.CL'), type: 'CSV' }),
      text('roster.template.link', { country: text('roster.country.CL'), type: 'XLSX' }),
      text('roster.template.link', { country: text('roster.country.MX'), type: 'CSV' }),
      text('roster.template.link', { country: text('roster.country.MX'), type: 'XLSX' }),
    ]);
    expect(links[0]?.getAttribute('href')).toBe('/api/roster/template.csv?country=CL');
    const row = await screen.findByText('nomina-2026.csv');
    expect(row.closest('li')?.textContent).toContain(text('roster.history.states.applied'));
    const history = within(document.querySelector('[data-slot="roster-history"]') as HTMLElement);
    expect(history.getByRole('link', { name: text('roster.history.download') }).getAttribute('href')).toBe('/api/roster/imports.csv');
    await choose(new File(['%PDF'], 'nomina.pdf', { type: 'application/pdf' }));
    expect(screen.getByRole('alert').textContent).toBe(text('roster.file.refused.type'));
    expect(document.getElementById('roster-file')?.getAttribute('aria-invalid')).toBe('true');
    expect(FakeXhr.sent).toHaveLength(0);
  });

  it('takes a file dropped on the zone as one chosen', async () => {
    api.script['GET /roster/imports'] = [page([])];
    await renderPage();
    await screen.findByText(text('roster.history.empty'));
    // Nothing imported yet: no history to download.
    expect(screen.queryByRole('link', { name: text('roster.history.download') })).toBeNull();
    const zone = document.querySelector('[data-slot="roster-drop"]') as HTMLElement;
    await act(async () => fireEvent.drop(zone, { dataTransfer: { files: [csv()] } }));
    expect(FakeXhr.sent).toHaveLength(1);
    expect((lastUpload().body?.get('file') as File | undefined)?.name).toBe('nomina-2027.csv');
  });

  it('shows the bytes sent, then the columns prefilled, and sends them as assigned with the same file', async () => {
    api.script['GET /roster/imports'] = [page([])];
    await renderPage();
    const file = csv();
    await choose(file);
    await act(async () => lastUpload().upload.onprogress?.({ loaded: 50, total: 100, lengthComputable: true }));
    expect(screen.getByText(text('roster.file.sending', { name: file.name, percent: 50 }))).toBeTruthy();
    await act(async () =>
      lastUpload().respond(200, {
        status: 'mapping',
        headers: ['RUN', 'Observaciones'],
        suggested: ['student_run', 'ignore'],
        header_line: 2,
      }),
    );
    const notes = (await screen.findByLabelText(text('roster.mapping.column', { header: 'Observaciones' }))) as HTMLSelectElement;
    expect(notes.value).toBe('ignore');
    expect(within(notes).getByRole('option', { name: text('roster.field.ignore') })).toBeTruthy();
    fireEvent.change(notes, { target: { value: 'guardian_phone' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: text('roster.mapping.submit') })));
    expect(FakeXhr.sent).toHaveLength(2);
    const sent = lastUpload().body?.get('file') as File;
    expect([sent.name, await sent.text()]).toEqual([file.name, await file.text()]);
    expect(JSON.parse(String(lastUpload().body?.get('mapping')))).toEqual(['student_run', 'guardian_phone']);
  });

  it('shows the lines the server has read as it tells them, after the bytes', async () => {
    api.script['GET /roster/imports'] = [page([])];
    api.script['GET /roster/imports/41/people'] = [page([GUARDIAN])];
    await renderPage();
    await choose(csv());
    expect(lastUpload().headers.Accept).toBe('application/x-ndjson, application/json');
    await act(async () => lastUpload().upload.onprogress?.({ loaded: 100, total: 100, lengthComputable: true }));
    await act(async () => lastUpload().lines([{ progress: { phase: 'reading', done: 0, total: 2500 } }]));
    await act(async () => lastUpload().lines([{ progress: { phase: 'reading', done: 1000, total: 2500 } }]));
    expect(screen.getByText('1.000 de 2.500 filas leídas')).toBeTruthy();
    expect(barValue('roster-progress')).toBe('40');
    await act(async () => lastUpload().lines([{ answer: { status: 200, body: { status: 'preview', import: IMPORT } } }], true));
    await screen.findByRole('heading', { name: text('roster.preview.heading', { name: IMPORT.file_name }) });
  });

  it('asks the server for the conflicts alone; waits for their choice before «Aplicar», sends it, shows the rows written', async () => {
    await toPreview();
    const apply = screen.getByRole('button', { name: text('roster.preview.apply') }) as HTMLButtonElement;
    const fileChoice = await screen.findByRole('radio', { name: text('roster.conflicts.useFile') });
    const asked = api.calls('GET', '/roster/imports/41/people').map((r) => Object.fromEntries(new URL(r.url, 'http://x').searchParams));
    expect(asked).toContainEqual({ page: '1', change: 'conflicts', per_page: '500' });
    expect(apply.disabled).toBe(true);
    expect(screen.getByText(text('roster.preview.refusedText', { count: 1 }))).toBeTruthy();
    expect(screen.getByRole('link', { name: text('roster.preview.problems') }).getAttribute('href')).toBe(
      '/api/roster/imports/41/problems.csv',
    );
    await act(async () => fireEvent.click(fileChoice));
    expect(apply.disabled).toBe(false);
    await act(async () => fireEvent.click(apply));
    expect(lastUpload().json).toEqual({ conflicts: { 'guardian:7:fono_celular': 'file' } });
    // Until the server tells its rows, the bar waits.
    expect(screen.getByText(text('roster.preview.applying'))).toBeTruthy();
    expect(barValue('roster-apply-progress')).toBeNull();
    await act(async () => lastUpload().lines([{ progress: { phase: 'writing', done: 0, total: 1 } }]));
    expect(screen.getByText('0 de 1 fila escrita')).toBeTruthy();
    await act(async () => lastUpload().lines([{ progress: { phase: 'writing', done: 1, total: 1 } }]));
    expect(screen.getByText('1 de 1 fila escrita')).toBeTruthy();
    expect(barValue('roster-apply-progress')).toBe('100');
    await act(async () => lastUpload().lines([{ answer: { status: 200, body: { data: APPLIED } } }], true));
    await screen.findByRole('heading', { name: text('roster.applied.heading') });
    expect(screen.getByText(text('roster.applied.studentsNew', { count: 2 }))).toBeTruthy();
  });

  it('keeps the choice when applying fails, and asks for the file again when the preview is stale', async () => {
    await toPreview();
    await act(async () => fireEvent.click(await screen.findByRole('radio', { name: text('roster.conflicts.keep') })));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: text('roster.preview.apply') })));
    await act(async () => lastUpload().lines([{ answer: { status: 503, body: { message: 'Service Unavailable' } } }], true));
    await screen.findByText(text('roster.error.failed'));
    expect((screen.getByRole('radio', { name: text('roster.conflicts.keep') }) as HTMLInputElement).checked).toBe(true);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: text('roster.preview.apply') })));
    expect(lastUpload().json).toEqual({ conflicts: { 'guardian:7:fono_celular': 'keep' } });
    const stale = { message: 'La nómina del colegio cambió después de esta vista previa.', code: 'roster.stale' };
    await act(async () => lastUpload().lines([{ answer: { status: 409, body: stale } }], true));
    await screen.findByRole('heading', { name: text('roster.stale.heading') });
  });
});
