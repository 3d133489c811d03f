// The templates screen's wiring (under StrictMode and without it): the real machine, its list
// and the template services over a scripted fetch. Each template with its SMS size and its fields as
// chips; a new template starts empty; a merge field goes in at the caret; a save the server refuses keeps
// everything typed with the server's message on the field and SPEC §8's failure toast; a good save says
// "Plantilla creada" and lists it; closing with unsaved changes asks first, an untouched editor closes at
// once; read-only templates offer only the copy.
import { StrictMode, type ReactNode } from 'react';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { toast } from 'react-hot-toast/headless';
import { text } from '../fixtures/texts';
import { TemplatesPage } from '../../src/views/pages/templates/templates-page';
import { Toaster } from '../../src/views/layout/toaster';
import { json, installFakeFetch } from '../fixtures/fake-fetch';
import { productTemplate, template } from '../fixtures/templates';
import { smsText } from '../../shared/sms-text';
import type { Template } from '../../shared/templates-contract';
import { startApp } from './app';

const OWN = template({ id: 1, name: 'Reunión', content: 'Hola {apoderado}: {estudiante} tiene reunión.' });
const CITATION = productTemplate(11, { name: 'Citación', content: 'Se cita al apoderado de {estudiante}.' });

let mine: Template[] = [OWN];
let onPost: (body: unknown) => Response = () => json(500, {});
const fake = installFakeFetch();
fake.answer = ((url: string) => {
  const { pathname, searchParams } = new URL(url, 'http://localhost');
  const method = fake.requests.at(-1)?.method ?? 'GET';
  if (method === 'POST' && pathname === '/api/templates') return onPost(fake.requests.at(-1)?.body);
  if (method === 'GET' && pathname === '/api/templates') {
    return json(200, { data: searchParams.get('repository') === 'hermes' ? [CITATION] : mine });
  }
  return json(404, { message: 'No encontrado', code: 'not_found' });
}) as (url: string) => Response;

beforeAll(startApp);
afterEach(() => {
  cleanup();
  act(() => toast.remove());
  mine = [OWN];
});

const modes: Array<[string, (node: ReactNode) => ReactNode]> = [
  ['StrictMode', (node) => <StrictMode>{node}</StrictMode>],
  ['plain', (node) => node],
];

describe.each(modes)('templates screen (%s)', (_mode, wrap) => {
  const renderPage = () =>
    render(
      wrap(
        <>
          <TemplatesPage />
          <Toaster />
        </>,
      ),
    );

  it('lists the own templates with their SMS size and fields as chips, asking for Mis plantillas', async () => {
    renderPage();
    const card = (await screen.findByRole('heading', { name: 'Reunión' })).closest('li') as HTMLElement;
    expect(card.querySelector('[data-slot=sms-size]')?.textContent).toBe(
      text('templates.sms.size', { chars: smsText(OWN.content, null).units, count: 1 }),
    );
    expect([...card.querySelectorAll('[data-slot=merge-field]')].map((chip) => chip.getAttribute('data-field'))).toEqual([
      'apoderado',
      'estudiante',
    ]);
    expect(within(card).getByRole('button', { name: text('templates.editLabel', { name: 'Reunión' }) })).toBeTruthy();
    const gets = fake.requests.filter((r) => r.method === 'GET');
    expect(gets.map((r) => new URL(r.url, 'http://localhost').search)).toEqual(['?repository=mis-plantillas']);
  });

  it('a new template starts empty; a refused save keeps what was typed with the field error; then it is created', async () => {
    renderPage();
    await screen.findByRole('heading', { name: 'Reunión' });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: text('templates.new') })));
    const dialog = await screen.findByRole('dialog');
    const name = within(dialog).getByLabelText(text('templates.editor.name')) as HTMLInputElement;
    const content = within(dialog).getByLabelText(text('templates.editor.content')) as HTMLTextAreaElement;
    expect([name.value, content.value]).toEqual(['', '']);

    await act(async () => fireEvent.change(name, { target: { value: 'Reunión' } }));
    await act(async () => fireEvent.change(content, { target: { value: 'Hola  mañana' } }));
    // The caret after "Hola ": the chip writes the field there.
    content.setSelectionRange(5, 5);
    await act(async () =>
      fireEvent.click(
        within(dialog).getByRole('button', {
          name: text('templates.mergeFields.insert', { field: text('templates.mergeFields.estudiante') }),
        }),
      ),
    );
    expect(content.value).toBe('Hola {estudiante} mañana');

    onPost = () =>
      json(422, {
        message: 'Los datos no son válidos.',
        code: 'validation.failed',
        errors: { name: ['Ya tienes una plantilla con ese nombre.'] },
      });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: text('templates.editor.save') })));
    await within(dialog).findByText('Ya tienes una plantilla con ese nombre.');
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect([name.value, content.value]).toEqual(['Reunión', 'Hola {estudiante} mañana']);
    await screen.findByText(text('templates.toast.failed'));
    expect(fake.requests.find((r) => r.method === 'POST')?.body).toEqual({ name: 'Reunión', content: 'Hola {estudiante} mañana' });

    const created = template({ id: 2, name: 'Reunión 2', content: 'Hola {estudiante} mañana' });
    onPost = () => {
      mine = [created, OWN];
      return json(201, { data: created });
    };
    await act(async () => fireEvent.change(name, { target: { value: 'Reunión 2' } }));
    expect(name.getAttribute('aria-invalid')).toBeNull();
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: text('templates.editor.save') })));
    await screen.findByText(text('templates.toast.created'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await screen.findByRole('heading', { name: 'Reunión 2' });
  });

  it('closing an editor with unsaved changes asks «¿Descartar los cambios?» in it; Escape keeps editing, Descartar closes; untouched closes at once', async () => {
    renderPage();
    await screen.findByRole('heading', { name: 'Reunión' });
    const newButton = screen.getByRole('button', { name: text('templates.new') });
    await act(async () => fireEvent.click(newButton));
    const dialog = await screen.findByRole('dialog');
    const name = within(dialog).getByLabelText(text('templates.editor.name')) as HTMLInputElement;
    await act(async () => fireEvent.change(name, { target: { value: 'Salida pedagógica' } }));
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: text('templates.editor.cancel') })));

    const question = within(dialog).getByRole('alertdialog', { name: text('templates.discardConfirm.title') });
    expect(question.textContent).toContain(text('templates.discardConfirm.bodyNew'));
    const keep = within(question).getByRole('button', { name: text('templates.discardConfirm.keep') });
    await waitFor(() => expect(document.activeElement).toBe(keep));
    // The editor's own buttons give way to the question.
    expect(within(dialog).queryByRole('button', { name: text('templates.editor.save') })).toBeNull();

    // Escape answers "Seguir editando": the text is there, focus back on the field that holds it.
    await act(async () => fireEvent.keyDown(keep, { key: 'Escape' }));
    expect(within(dialog).queryByRole('alertdialog')).toBeNull();
    expect(screen.getByRole('dialog')).toBe(dialog);
    expect(name.value).toBe('Salida pedagógica');
    await waitFor(() => expect(document.activeElement).toBe(name));

    await act(async () => fireEvent.keyDown(name, { key: 'Escape' }));
    const again = within(dialog).getByRole('alertdialog', { name: text('templates.discardConfirm.title') });
    await act(async () => fireEvent.click(within(again).getByRole('button', { name: text('templates.discardConfirm.discard') })));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(newButton));
    expect(fake.requests.some((r) => r.method === 'POST')).toBe(false);

    // Untouched: Escape closes at once, no question.
    await act(async () => fireEvent.click(screen.getByRole('button', { name: text('templates.editLabel', { name: 'Reunión' }) })));
    const editor = await screen.findByRole('dialog');
    expect((within(editor).getByLabelText(text('templates.editor.name')) as HTMLInputElement).value).toBe('Reunión');
    await act(async () => fireEvent.keyDown(within(editor).getByLabelText(text('templates.editor.name')), { key: 'Escape' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('the product tab shows read-only templates under the product name, offering the copy and not the editor', async () => {
    renderPage();
    await screen.findByRole('heading', { name: 'Reunión' });
    const tab = screen.getByRole('tab', { name: 'Hermes' });
    await act(async () => {
      fireEvent.mouseDown(tab);
      fireEvent.click(tab);
    });
    const card = (await screen.findByRole('heading', { name: 'Citación' })).closest('li') as HTMLElement;
    expect(within(card).getByRole('button', { name: text('templates.copyLabel', { name: 'Citación' }) })).toBeTruthy();
    expect(within(card).queryByRole('button', { name: text('templates.editLabel', { name: 'Citación' }) })).toBeNull();
    expect(
      within(card)
        .getByRole('link', { name: text('templates.useLabel', { name: 'Citación' }) })
        .getAttribute('href'),
    ).toBe('/new?template=11');
  });
});
