// The signature settings screen's wiring (under StrictMode and without it): the real machine
// and service over a scripted fetch. The shell's two links with aria-current; the signature in use, the
// field's live Spanish error, the preview of an SMS and an e-mail by the shared rule and the cost; a save
// sends is_active as 1 or 0 and says SPEC §8's success; a failed save keeps what was typed and the
// signature in use, with SPEC §8's failure; a school with no signature row gets no form and no PATCH.
import { StrictMode, type ReactNode } from 'react';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { toast } from 'react-hot-toast/headless';
import { text } from '../fixtures/texts';
import { SettingsSignaturePage } from '../../src/views/pages/settings/signature-page';
import { Toaster } from '../../src/views/layout/toaster';
import { json, installFakeFetch } from '../fixtures/fake-fetch';
import { signature } from '../fixtures/compose';
import { SIGNATURE_MESSAGES } from '../../shared/signature-rules';
import { smsText, withSignature } from '../../shared/sms-text';
import type { Signature } from '../../shared/signature-contract';
import { startApp } from './app';

let rows: Signature[] = [signature({ id: 7, signature: 'CSA', is_active: true })];
let onPatch: (body: { signature: string; is_active: number }) => Response = () => json(500, {});
const fake = installFakeFetch();
fake.answer = ((url: string) => {
  const { pathname } = new URL(url, 'http://localhost');
  const method = fake.requests.at(-1)?.method ?? 'GET';
  if (method === 'GET' && pathname === '/api/institutions-signatures') return json(200, { data: rows });
  if (method === 'PATCH' && pathname === '/api/institutions-signatures/7') return onPatch(fake.requests.at(-1)?.body as never);
  return json(404, { message: 'No encontrado', code: 'not_found' });
}) as (url: string) => Response;

// Radix's switch measures itself inside a form; jsdom has no ResizeObserver (browsers do).
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

beforeAll(startApp);
afterEach(() => {
  cleanup();
  act(() => toast.remove());
  rows = [signature({ id: 7, signature: 'CSA', is_active: true })];
});

const modes: Array<[string, (node: ReactNode) => ReactNode]> = [
  ['StrictMode', (node) => <StrictMode>{node}</StrictMode>],
  ['plain', (node) => node],
];

const SAMPLE = text('signature.preview.sample');
const patches = () => fake.requests.filter((r) => r.method === 'PATCH');

describe.each(modes)('signature settings (%s)', (_mode, wrap) => {
  const renderPage = async () => {
    window.history.replaceState(null, '', '/settings/message-signature');
    render(
      wrap(
        <>
          <SettingsSignaturePage />
          <Toaster />
        </>,
      ),
    );
    return (await screen.findByLabelText(text('signature.field'))) as HTMLInputElement;
  };

  it('shows the shell with the current link marked, the signature in use, its preview and its cost', async () => {
    const field = await renderPage();
    expect(screen.getByRole('heading', { level: 1, name: text('settingsShell.heading') })).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: text('settingsShell.sections') });
    const quota = within(nav).getByRole('link', { name: text('settingsShell.quota') });
    const sig = within(nav).getByRole('link', { name: text('settingsShell.signature') });
    expect([quota.getAttribute('href'), quota.getAttribute('aria-current')]).toEqual(['/settings/message-quota', null]);
    expect([sig.getAttribute('href'), sig.getAttribute('aria-current')]).toEqual(['/settings/message-signature', 'page']);
    expect(field.value).toBe('CSA');
    expect(screen.getByTestId('signature-in-use').textContent).toBe(text('signature.currentActive', { signature: 'CSA' }));
    expect(screen.getByTestId('signature-preview-sms').textContent).toBe(smsText(SAMPLE, 'CSA').text);
    expect(screen.getByTestId('signature-preview-email').textContent).toBe(withSignature(SAMPLE, 'CSA'));
    expect(screen.getByTestId('signature-cost').textContent).toBe('La firma usa 6 caracteres de cada SMS: quedan 154 para el mensaje.');
    // Nothing to save: said by aria-disabled (a disabled button would drop the focus after a save).
    expect(screen.getByRole('button', { name: text('signature.save') }).getAttribute('aria-disabled')).toBe('true');
  });

  it('says what is wrong while typing, sends nothing refused, and saves with is_active as 0', async () => {
    const field = await renderPage();
    await act(async () => fireEvent.change(field, { target: { value: 'AB' } }));
    expect(screen.getByRole('alert').textContent).toBe(SIGNATURE_MESSAGES.length);
    expect(field.getAttribute('aria-invalid')).toBe('true');
    // Still active: the cost stays SPEC's 6 while the text is being fixed (it never reads "sin firma").
    expect(screen.getByTestId('signature-cost').textContent).toBe(text('signature.cost', { count: 6, limit: 154 }));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: text('signature.save') })));
    expect(patches()).toEqual([]);
    await waitFor(() => expect(document.activeElement).toBe(field));

    await act(async () => fireEvent.change(field, { target: { value: 'LBV' } }));
    expect(screen.queryByRole('alert')).toBeNull();
    await act(async () => fireEvent.click(screen.getByRole('switch', { name: text('signature.active') })));
    // Inactive: the preview ends without a signature and the whole SMS is the message's.
    expect(screen.getByTestId('signature-preview-sms').textContent).toBe(smsText(SAMPLE, null).text);
    expect(screen.getByTestId('signature-cost').textContent).toBe(text('signature.noCost', { limit: 160 }));
    onPatch = (body) => json(200, { data: { ...rows[0], signature: body.signature, is_active: body.is_active === 1 } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: text('signature.save') })));
    await screen.findByText('Firma actualizada correctamente');
    expect(patches().map((r) => r.body)).toEqual([{ signature: 'LBV', is_active: 0 }]);
    expect(screen.getByTestId('signature-in-use').textContent).toBe(text('signature.currentInactive', { signature: 'LBV' }));
  });

  it('a failed save keeps what was typed and the previous signature, with SPEC §8’s failure', async () => {
    const field = await renderPage();
    await act(async () => fireEvent.change(field, { target: { value: 'XYZW' } }));
    onPatch = () => json(500, { message: 'Error interno', code: 'server.error' });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: text('signature.save') })));
    await screen.findByText('Ha ocurrido un error al actualizar la firma');
    expect(field.value).toBe('XYZW');
    expect(screen.getByTestId('signature-in-use').textContent).toBe(text('signature.currentActive', { signature: 'CSA' }));
    expect(screen.getByText(text('signature.failed'))).toBeTruthy();
    // The server's 422 text goes on the field.
    onPatch = () =>
      json(422, {
        message: 'Los datos enviados no son válidos.',
        code: 'validation.failed',
        errors: { signature: [SIGNATURE_MESSAGES.characters] },
      });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: text('signature.save') })));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(SIGNATURE_MESSAGES.characters));
    expect(field.value).toBe('XYZW');
  });

  it('a school with no signature row gets an explanation, no form and no PATCH', async () => {
    rows = [];
    window.history.replaceState(null, '', '/settings/message-signature');
    render(wrap(<SettingsSignaturePage />));
    expect((await screen.findByTestId('signature-missing')).textContent).toBe(text('signature.missing'));
    expect(screen.queryByLabelText(text('signature.field'))).toBeNull();
    expect(screen.queryByRole('button', { name: text('signature.save') })).toBeNull();
    expect(patches()).toEqual([]);
  });
});
