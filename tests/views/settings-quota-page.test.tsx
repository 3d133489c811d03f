// The quota screen's wiring (under StrictMode and without it): the real machines and the quota
// services over a scripted fetch. This month's figures, projection and balances; the chart with its table
// equal to the bars and the year arrows; top senders and courses; a save the server refuses keeps what was
// typed with the server's text on the field and SPEC §8's "limit not updated"; a good save says so, sends
// only what changed and asks for the bars again; no element has a style attribute.
import { Suspense } from 'react';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { text } from '../fixtures/texts';
import { SettingsQuotaPage } from '../../src/views/pages/settings/quota-page';
import { Toaster } from '../../src/views/layout/toaster';
import { json } from '../fixtures/fake-fetch';
import { quotaSettings, quotaUsage } from '../fixtures/quota';
import { RENDER_MODES, setUpScreenTest } from './screen-test';
import { ROUTES, type RouteDef } from '../../src/views/routes';

const SETTINGS = quotaSettings();
let onPatch: (body: unknown) => Response = () => json(500, {});
let usageFails = false;
const api = setUpScreenTest();

/** The usage the server would answer for the query asked. */
function usageAnswer(): Response {
  if (usageFails) return json(500, { message: 'Error', code: 'server.error' });
  const { searchParams } = new URL(api.requests.at(-1)?.url ?? '', 'http://localhost');
  const view = (searchParams.get('view') ?? 'monthly') as 'monthly' | 'annual';
  return json(200, {
    data: quotaUsage(view, Number(searchParams.get('year') ?? 2026), (searchParams.get('calendar') ?? 'civil') as 'civil' | 'school'),
  });
}

beforeEach(() => {
  onPatch = () => json(500, {});
  usageFails = false;
  api.script = {
    'GET /quota/settings': [() => json(200, { data: SETTINGS })],
    'PATCH /quota/settings': [() => onPatch(api.requests.at(-1)?.body)],
    'GET /quota/usage': [usageAnswer],
  };
});

describe.each(RENDER_MODES)('quota screen (%s)', (_mode, wrap) => {
  const renderPage = () =>
    render(
      wrap(
        <>
          <SettingsQuotaPage />
          <Toaster />
        </>,
      ),
    );

  it('shows this month, the projection, the balances, the chart with its table and the top senders and courses', async () => {
    const { container } = renderPage();
    await screen.findByText(text('quota.month.runsOut', { date: '23 de octubre' }));
    expect(screen.getByRole('heading', { name: 'Uso de octubre de 2026' })).toBeTruthy();
    const figures = [...container.querySelectorAll('[data-figure] dd')].map((n) => n.textContent);
    expect(figures).toEqual(['1.234', '3.766', '5.000']);
    expect(screen.getByRole('meter', { name: text('quota.month.meter') }).getAttribute('aria-valuetext')).toBe('1.234 de 5.000 SMS');
    // WhatsApp has a balance, e-mail has none (null): only WhatsApp is shown.
    expect([...container.querySelectorAll('[data-balance]')].map((n) => n.getAttribute('data-balance'))).toEqual(['whatsapp']);
    expect(screen.getByText(text('quota.month.reservedNote', { reserved: '500', percent: 10 }))).toBeTruthy();

    const chart = await screen.findByRole('img', { name: /SMS por mes, 2026/ });
    expect(chart.querySelectorAll('[data-slot=bar]')).toHaveLength(12);
    const usage = quotaUsage('monthly', 2026);
    const table = screen.getByRole('table', { name: 'SMS por mes, 2026' });
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => [...row.children].map((cell) => cell.textContent));
    expect(rows.map((row) => row[1])).toEqual(usage.bars.map((bar) => new Intl.NumberFormat('es-CL').format(bar.used)));
    expect(rows[0]?.[0]).toBe('enero de 2026');
    // Octubre: the peak of the fixture (300 + 9 × 410).
    expect(screen.getByText(text('quota.chart.peakMonth', { period: 'Octubre de 2026', used: '3.990', limit: '5.000' }))).toBeTruthy();
    expect(screen.getByRole('region', { name: text('quota.top.senders') }).textContent).toContain('Ana Pérez640 SMS4 mensajes');
    expect(screen.getByRole('region', { name: text('quota.top.courses') }).textContent).toContain('3° Básico A420 SMS');
    // This year is the newest: no next year; the previous one is offered and asked for.
    expect((screen.getByRole('button', { name: text('quota.chart.next') }) as HTMLButtonElement).disabled).toBe(true);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: text('quota.chart.previous') })));
    await screen.findByRole('img', { name: /SMS por mes, 2025/ });
    const asked = api.requests.filter((r) => r.url.includes('/quota/usage')).map((r) => new URL(r.url, 'http://localhost').search);
    expect(asked).toEqual(['?view=monthly&calendar=civil', '?view=monthly&calendar=civil&year=2025']);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: text('quota.chart.annual') })));
    await screen.findByRole('img', { name: /SMS por año/ });
    expect(screen.queryByRole('button', { name: text('quota.chart.previous') })).toBeNull();
    expect(container.querySelectorAll('[style]')).toHaveLength(0);
  });

  it('a refused limit keeps what was typed with the server text and "limit not updated"; a good save sends what changed', async () => {
    renderPage();
    const limit = (await screen.findByLabelText(text('quota.form.limit'))) as HTMLInputElement;
    const reserve = screen.getByLabelText(text('quota.form.reserve')) as HTMLInputElement;
    expect([limit.value, reserve.value]).toEqual(['5000', '10']);
    const save = screen.getByRole('button', { name: text('quota.form.save') }) as HTMLButtonElement;
    // Nothing changed: nothing to save.
    expect(save.disabled).toBe(true);

    // A check in the browser first: a reserve over the bound is refused without a request.
    await act(async () => fireEvent.change(reserve, { target: { value: '80' } }));
    await act(async () => fireEvent.click(save));
    expect(await screen.findByText(text('quota.errors.reserve', { max: 50 }))).toBeTruthy();
    expect(reserve.getAttribute('aria-invalid')).toBe('true');
    expect(api.requests.some((r) => r.method === 'PATCH')).toBe(false);

    await act(async () => fireEvent.change(reserve, { target: { value: '10' } }));
    await act(async () => fireEvent.change(limit, { target: { value: '6.000' } }));
    onPatch = () =>
      json(422, {
        message: 'Los datos no son válidos.',
        code: 'validation.failed',
        errors: { sms_monthly_limit: ['Este mes ya se usaron 6.100 SMS; el límite no puede ser menor.'] },
      });
    await act(async () => fireEvent.click(save));
    expect(await screen.findByText('Este mes ya se usaron 6.100 SMS; el límite no puede ser menor.')).toBeTruthy();
    await screen.findByText(text('quota.toast.failed'));
    expect(limit.value).toBe('6.000');
    expect(limit.getAttribute('aria-invalid')).toBe('true');
    expect(api.requests.filter((r) => r.method === 'PATCH').map((r) => r.body)).toEqual([{ sms_monthly_limit: 6000 }]);

    const saved = quotaSettings({ limit: 7000, remaining: 5766, reserved: 700 });
    onPatch = () => json(200, { data: saved });
    await act(async () => fireEvent.change(limit, { target: { value: '7000' } }));
    const before = api.requests.filter((r) => r.url.includes('/quota/usage')).length;
    await act(async () => fireEvent.click(save));
    await screen.findByText(text('quota.toast.saved'));
    expect(limit.value).toBe('7000');
    expect(limit.getAttribute('aria-invalid')).toBeNull();
    expect(api.requests.filter((r) => r.method === 'PATCH').at(-1)?.body).toEqual({ sms_monthly_limit: 7000 });
    // The chart is asked again (this month's limit changed).
    await act(async () => {});
    expect(api.requests.filter((r) => r.url.includes('/quota/usage')).length).toBe(before + 1);
  });

  it('is what the route row shows, with its texts loaded (not "Próximamente")', async () => {
    const route: RouteDef | undefined = ROUTES.find((row) => row.name === 'settings-message-quota');
    render(wrap(<Suspense fallback={null}>{route?.screen({})}</Suspense>));
    expect(await screen.findByRole('heading', { level: 2, name: text('quota.heading') })).toBeTruthy();
    // Inside the settings shell, its tab marked as the page shown.
    expect(screen.getByRole('heading', { level: 1, name: text('settingsShell.heading') })).toBeTruthy();
  });

  it('says so when the chart cannot load, and Reintentar asks again', async () => {
    usageFails = true;
    renderPage();
    await screen.findByText(text('quota.chart.failed'));
    usageFails = false;
    await act(async () => fireEvent.click(screen.getAllByRole('button', { name: text('quota.retry') })[0] as HTMLElement));
    await screen.findByRole('img', { name: /SMS por mes, 2026/ });
  });
});
