// /recipient-list/:id's wiring (under StrictMode and without it): the real list machine, its
// contact editor and the services over a scripted API. The skeleton while it loads; 404 without retry and
// a failure with Reintentar; what the owner is offered and what a colleague's shared list is not; the
// rename text is kept while the members reload (and follows a saved rename); the delete question, its
// Cancelar giving focus back, a 409 naming the scheduled message; the contact editor putting focus on the
// first refused field (its own check and the server's 422), and back on "Editar" when it closes.
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PERSON_ERRORS } from '../../shared/person-rules';
import { RecipientListPage } from '../../src/views/pages/recipient-lists/recipient-list-page';
import { Toaster } from '../../src/views/layout/toaster';
import { json } from '../fixtures/fake-fetch';
import { listMember, listSummary, userToEdit } from '../fixtures/recipient-lists';
import { text } from '../fixtures/texts';
import { TEACHER } from '../fixtures/users';
import { sessionActor } from '../../src/views/actors';
import { selectIsLoggedIn } from '../../src/machines/session/selectors';
import { RENDER_MODES, setUpScreenTest } from './screen-test';

const LIST = listSummary({ id: 1, name: 'Apoderados 3° Básico A', users_count: 2, stale_count: 1 });
const CAROLINA = listMember({ id: 10, phone: '+56997473752' });
const JORGE = listMember({ id: 11, user_id: 101, name: 'Jorge Díaz', stale: 'not_enrolled', device_status: 'red', phone: null });
const api = setUpScreenTest();

/** The list and its members as the page reads them. */
function serve(list = LIST, members = [CAROLINA, JORGE]) {
  api.script['GET /recipient-lists/1'] = [json(200, { data: list })];
  api.script['GET /recipient-lists/1/users'] = [json(200, { data: members })];
}

describe.each(RENDER_MODES)('recipient list screen (%s)', (_mode, wrap) => {
  const renderPage = () =>
    render(
      wrap(
        <>
          <RecipientListPage id={1} />
          <Toaster />
        </>,
      ),
    );
  const heading = () => screen.findByRole('heading', { level: 1, name: LIST.name });
  /** The page with Carolina's contact editor open, her record loaded. */
  const openEditor = async () => {
    serve();
    api.script['GET /recipient-lists/1/users/10'] = [json(200, { data: userToEdit() })];
    renderPage();
    await heading();
    await act(async () => fireEvent.click(button('recipientLists.editMember', { name: 'Carolina Soto' })));
    const dialog = await screen.findByRole('dialog', { name: text('recipientLists.editor.title') });
    return { dialog, phone: (await within(dialog).findByLabelText(text('recipientLists.editor.phone'))) as HTMLInputElement };
  };
  const button = (key: Parameters<typeof text>[0], params?: Record<string, string | number>) =>
    screen.getByRole('button', { name: text(key, params) });

  it('shows a skeleton while it loads, then the members with their contact data, and offers the owner every action', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    serve();
    const users = api.script['GET /recipient-lists/1/users'];
    api.script['GET /recipient-lists/1/users'] = [
      (() => held.then(() => json(200, { data: [CAROLINA, JORGE] }))) as unknown as () => Response,
    ];
    renderPage();
    expect(await screen.findByRole('status', { name: text('recipientLists.detailLoading') })).toBeTruthy();
    expect(screen.queryByRole('heading', { level: 1 })).toBeNull();
    await act(async () => release());
    api.script['GET /recipient-lists/1/users'] = users ?? [];

    await heading();
    expect(screen.queryByRole('status', { name: text('recipientLists.detailLoading') })).toBeNull();
    const rows = screen.getAllByRole('listitem').filter((row) => row.getAttribute('data-slot') === 'member-row');
    expect(rows.map((row) => row.querySelector('[data-slot=member-name]')?.textContent)).toEqual(['Carolina Soto', 'Jorge Díaz']);
    expect(rows[0]?.querySelector('[data-slot=member-phone]')?.textContent).toBe('+56 9 9747 3752');
    // A guardian says whose: the role, the child and the child's course.
    expect(rows[0]?.querySelector('[data-slot=member-role]')?.textContent).toBe('Apoderado titular de Tomás Soto Araya · 3° Básico A');
    expect(rows[1]?.querySelector('[data-slot=member-phone]')?.textContent).toBe(text('recipientLists.noData'));
    expect(within(rows[1] as HTMLElement).getByText(text('recipientLists.staleReason.not_enrolled'))).toBeTruthy();
    expect(screen.getByText(text('recipientLists.staleBanner', { count: 1 }))).toBeTruthy();
    for (const [key, params] of [
      ['recipientLists.use', undefined],
      ['recipientLists.addMembers', undefined],
      ['recipientLists.delete', undefined],
      ['recipientLists.removeStale', undefined],
      ['recipientLists.editMember', { name: 'Carolina Soto' }],
      ['recipientLists.removeMember', { name: 'Jorge Díaz' }],
    ] as const) {
      expect((button(key, params) as HTMLButtonElement).disabled, key).toBe(false);
    }
    expect((screen.getByLabelText(text('recipientLists.rename')) as HTMLInputElement).value).toBe(LIST.name);
  });

  it("a colleague's shared list is read-only: only «Usar en mensaje nuevo», which opens a new message with the list", async () => {
    serve(listSummary({ ...LIST, is_owner: false, shared: true, owner_name: 'Pedro Rojas' }));
    renderPage();
    await heading();
    expect(screen.getByText(text('recipientLists.readOnly', { name: 'Pedro Rojas' }))).toBeTruthy();
    for (const key of [
      'recipientLists.addMembers',
      'recipientLists.delete',
      'recipientLists.removeStale',
      'recipientLists.renameSave',
    ] as const) {
      expect(screen.queryByRole('button', { name: text(key) }), key).toBeNull();
    }
    expect(screen.queryByRole('button', { name: text('recipientLists.editMember', { name: 'Carolina Soto' }) })).toBeNull();
    expect(screen.queryByLabelText(text('recipientLists.rename'))).toBeNull();
    await act(async () => fireEvent.click(button('recipientLists.use')));
    await waitFor(() => expect(location.pathname + location.search).toBe('/new?list=1'));
  });

  it("a list that is not the user's says so with a way back and no retry; a failed load offers Reintentar, which loads it", async () => {
    renderPage();
    await screen.findByText(text('recipientLists.notFound'));
    expect(screen.getByRole('link', { name: text('recipientLists.backToLists') }).getAttribute('href')).toBe('/recipient-lists');
    expect(screen.queryByRole('button', { name: text('recipientLists.retry') })).toBeNull();
    cleanup();

    api.script['GET /recipient-lists/1'] = [json(500, { message: 'Error interno', code: 'server.error' })];
    api.script['GET /recipient-lists/1/users'] = [json(200, { data: [CAROLINA] })];
    renderPage();
    await screen.findByText(text('recipientLists.detailFailed'));
    serve();
    await act(async () => fireEvent.click(button('recipientLists.retry')));
    await heading();
  });

  it('the name typed is kept while the members reload, even when the name changed meanwhile; a refused name gets its error and the focus; a saved one says so', async () => {
    serve();
    renderPage();
    await heading();
    const field = screen.getByLabelText(text('recipientLists.rename')) as HTMLInputElement;
    await act(async () => fireEvent.change(field, { target: { value: 'Familias 3° A' } }));

    // "Quitar" the stale members: the server removes them and the list is read again (renamed elsewhere).
    api.script['POST /recipient-lists/1/members/remove-stale'] = [json(200, { data: { removed: 1 } })];
    serve(listSummary({ ...LIST, name: 'Apoderados 3° A 2026', users_count: 1, stale_count: 0 }), [CAROLINA]);
    await act(async () => fireEvent.click(button('recipientLists.removeStale')));
    await screen.findByRole('heading', { level: 1, name: 'Apoderados 3° A 2026' });
    await screen.findByText(text('recipientLists.staleRemoved', { count: 1 }));
    expect((screen.getByLabelText(text('recipientLists.rename')) as HTMLInputElement).value).toBe('Familias 3° A');

    // An empty name: refused here, with its text on the field and the focus in it; nothing sent.
    await act(async () => fireEvent.change(screen.getByLabelText(text('recipientLists.rename')), { target: { value: '  ' } }));
    await act(async () => fireEvent.click(button('recipientLists.renameSave')));
    const renamed = screen.getByLabelText(text('recipientLists.rename'));
    await screen.findByText(text('recipientLists.error.nameRequired'));
    expect(renamed.getAttribute('aria-invalid')).toBe('true');
    await waitFor(() => expect(document.activeElement).toBe(renamed));
    expect(api.calls('PATCH', '/recipient-lists/1')).toHaveLength(0);

    // Typing clears the error; the rename is sent trimmed, and the field shows the saved name.
    await act(async () => fireEvent.change(renamed, { target: { value: ' Familias 3° A ' } }));
    expect(renamed.getAttribute('aria-invalid')).toBeNull();
    api.script['PATCH /recipient-lists/1'] = [
      json(200, { data: listSummary({ ...LIST, name: 'Familias 3° A', users_count: 1, stale_count: 0 }) }),
    ];
    await act(async () => fireEvent.submit(renamed.closest('form') as HTMLFormElement));
    await screen.findByText(text('recipientLists.renamed'));
    expect(api.calls('PATCH', '/recipient-lists/1').map((r) => r.body)).toEqual([{ name: 'Familias 3° A' }]);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Familias 3° A');
    expect((screen.getByLabelText(text('recipientLists.rename')) as HTMLInputElement).value).toBe('Familias 3° A');
  });

  it('Eliminar asks first; Cancelar gives the focus back to it; a 409 names the scheduled message with a link to it', async () => {
    serve();
    renderPage();
    await heading();
    const remove = button('recipientLists.delete');
    await act(async () => fireEvent.click(remove));
    const question = screen.getByRole('alertdialog', { name: text('recipientLists.deleteQuestion', { name: LIST.name }) });
    expect((remove as HTMLButtonElement).disabled).toBe(true);
    await act(async () => fireEvent.click(within(question).getByRole('button', { name: text('recipientLists.cancel') })));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(button('recipientLists.delete')));
    expect(api.calls('DELETE', '/recipient-lists/1')).toHaveLength(0);

    api.script['DELETE /recipient-lists/1'] = [
      json(409, {
        message: 'Lista en uso',
        code: 'list.scheduled',
        errors: { list: ['La usa el mensaje programado «Reunión» del 12-03-2026 18:00.'], message_id: ['44'] },
      }),
    ];
    await act(async () => fireEvent.click(button('recipientLists.delete')));
    await act(async () =>
      fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: text('recipientLists.deleteConfirm') })),
    );
    await screen.findByText('La usa el mensaje programado «Reunión» del 12-03-2026 18:00.');
    expect(screen.getByRole('link', { name: text('recipientLists.scheduledLink') }).getAttribute('href')).toBe('/scheduled/message/44');
    expect(screen.getByRole('heading', { level: 1, name: LIST.name })).toBeTruthy();
    await act(async () => fireEvent.click(button('recipientLists.dismiss')));
    expect(screen.queryByText('La usa el mensaje programado «Reunión» del 12-03-2026 18:00.')).toBeNull();
  });

  it("the contact editor puts the focus on the first refused field (its own check, then the server's 422), keeps what was typed, and gives it back to «Editar» when saved", async () => {
    const { dialog, phone } = await openEditor();
    const names = within(dialog).getByLabelText(text('recipientLists.editor.nombres')) as HTMLInputElement;
    expect(phone.value).toBe('911112222');

    // Its own check: the names (first in the form) and the phone refused; focus on the names.
    await act(async () => fireEvent.change(names, { target: { value: ' ' } }));
    await act(async () => fireEvent.change(phone, { target: { value: '12' } }));
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: text('recipientLists.editor.save') })));
    expect(within(dialog).getByText(PERSON_ERRORS.nombresRequired)).toBeTruthy();
    expect(within(dialog).getByText(PERSON_ERRORS.phoneShape)).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(names));
    expect(api.calls('PATCH', '/recipient-lists/1/users/10')).toHaveLength(0);

    // The server refuses the phone: its text under the number, the focus on it, everything typed kept.
    await act(async () => fireEvent.change(names, { target: { value: 'Carolina' } }));
    await act(async () => fireEvent.change(phone, { target: { value: '987654321' } }));
    api.script['PATCH /recipient-lists/1/users/10'] = [
      json(422, { message: 'Revisa los campos', code: 'validation.failed', errors: { fono_celular: [PERSON_ERRORS.phoneNotMobile] } }),
      json(200, { data: userToEdit({ fono_celular: '+56987654322' }) }),
    ];
    await act(async () => fireEvent.submit(phone.closest('form') as HTMLFormElement));
    await within(dialog).findByText(PERSON_ERRORS.phoneNotMobile);
    expect(phone.getAttribute('aria-invalid')).toBe('true');
    expect([names.value, phone.value]).toEqual(['Carolina', '987654321']);
    await waitFor(() => expect(document.activeElement).toBe(phone));

    await act(async () => fireEvent.change(phone, { target: { value: '987654322' } }));
    await act(async () => fireEvent.submit(phone.closest('form') as HTMLFormElement));
    await screen.findByText(text('recipientLists.memberSaved'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.calls('PATCH', '/recipient-lists/1/users/10').at(-1)?.body).toMatchObject({ fono_celular: '+56987654322' });
    const row = button('recipientLists.editMember', { name: 'Carolina Soto' }).closest('li') as HTMLElement;
    expect(row.querySelector('[data-slot=member-phone]')?.textContent).toBe('+56 9 8765 4322');
    await waitFor(() => expect(document.activeElement).toBe(button('recipientLists.editMember', { name: 'Carolina Soto' })));
  });

  it('the editor names each prefix by its country, the school’s first; its hint and its error both ask for the number without the prefix; it has the maternal surname', async () => {
    const { dialog, phone } = await openEditor();
    const prefix = within(dialog).getByLabelText(text('recipientLists.editor.prefix')) as HTMLSelectElement;
    expect([...prefix.options].map((o) => o.textContent)).toEqual([
      'Chile +56',
      'México +52',
      'Argentina +54',
      'Brasil +55',
      'Perú +51',
      'EE. UU. y Canadá +1',
    ]);
    expect(within(dialog).getByText('Elige el país y escribe el número sin el prefijo, por ejemplo 9 1234 5678.')).toBeTruthy();
    await act(async () => fireEvent.change(phone, { target: { value: '12' } }));
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: text('recipientLists.editor.save') })));
    expect(
      within(dialog).getByText('Revisa el número: después del prefijo del país van de 8 a 11 dígitos, por ejemplo 9 1234 5678.'),
    ).toBeTruthy();
    const maternal = within(dialog).getByLabelText('Apellido materno') as HTMLInputElement;
    expect(maternal.value).toBe('');
    await act(async () => fireEvent.change(maternal, { target: { value: 'Núñez' } }));
    await act(async () => fireEvent.change(phone, { target: { value: '+56 9 8765 4321' } }));
    api.script['PATCH /recipient-lists/1/users/10'] = [json(200, { data: userToEdit({ apellido_materno: 'Núñez' }) })];
    await act(async () => fireEvent.submit(phone.closest('form') as HTMLFormElement));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.calls('PATCH', '/recipient-lists/1/users/10').at(-1)?.body).toMatchObject({
      apellido_materno: 'Núñez',
      fono_celular: '+56987654321',
    });
  });

  it('someone who may not change the record reads it and asks the leadership with «Solicitar corrección»; nothing to save', async () => {
    serve();
    api.script['GET /recipient-lists/1/users/10'] = [json(200, { data: userToEdit({ can_edit: false, fono_celular: '+56997473752' }) })];
    renderPage();
    await heading();
    await act(async () => fireEvent.click(button('recipientLists.editMember', { name: 'Carolina Soto' })));
    const dialog = await screen.findByRole('dialog', { name: 'Datos de contacto' });
    expect(
      within(dialog).getByText(
        'Solo la dirección o la administración del colegio puede cambiar estos datos: son los del colegio y se usan en todas las listas y mensajes.',
      ),
    ).toBeTruthy();
    expect(within(dialog).getByText('+56 9 9747 3752')).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: text('recipientLists.editor.save') })).toBeNull();
    // Only the request is written: the record's fields are not inputs.
    expect(within(dialog).getAllByRole('textbox')).toHaveLength(1);
    const request = within(dialog).getByRole('button', { name: 'Solicitar corrección' }) as HTMLButtonElement;
    expect(request.disabled).toBe(true);
    const note = within(dialog).getByLabelText('¿Qué hay que corregir?');
    await act(async () => fireEvent.change(note, { target: { value: 'El celular correcto termina en 3753.' } }));
    api.script['POST /recipient-lists/1/users/10/correction'] = [json(201, { data: { message_id: 99 }, message: 'Enviada' })];
    await act(async () => fireEvent.click(request));
    await within(dialog).findByText('Solicitud enviada a la dirección y la administración del colegio. Te responderán por mensaje.');
    expect(api.calls('POST', '/recipient-lists/1/users/10/correction').map((c) => c.body)).toEqual([
      { note: 'El celular correcto termina en 3753.' },
    ]);
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Cerrar' })));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.calls('PATCH', '/recipient-lists/1/users/10')).toHaveLength(0);
  });

  it('a teacher’s rows offer «Ver datos», not «Editar»: they read the record and may ask for a correction', async () => {
    // The sign-in's answer says who signed in, with their policies.
    api.script['POST /login'] = [
      json(200, {
        data: { token_expires_at: Date.now() + 3_600_000, refresh_expires_at: Date.now() + 7_200_000 },
        user: TEACHER,
        policies: ['hermes-acceder-sistema'],
      }),
    ];
    await act(async () => sessionActor.send({ type: 'session.login', email: TEACHER.email, password: 'Hermes.2026' }));
    await waitFor(() => expect(selectIsLoggedIn(sessionActor.getSnapshot())).toBe(true));
    try {
      serve();
      renderPage();
      await heading();
      expect(screen.queryByRole('button', { name: 'Editar datos de Carolina Soto' })).toBeNull();
      const view = screen.getByRole('button', { name: 'Ver datos de Carolina Soto' });
      expect(view.textContent).toBe('Ver datos');
    } finally {
      api.script['GET /logout'] = [json(200, {})];
      await act(async () => sessionActor.send({ type: 'session.logout' }));
      await waitFor(() => expect(selectIsLoggedIn(sessionActor.getSnapshot())).toBe(false));
    }
  });

  it('Escape closes the contact editor without saving, focus back on «Editar»', async () => {
    const { phone } = await openEditor();
    await act(async () => fireEvent.keyDown(phone, { key: 'Escape' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(button('recipientLists.editMember', { name: 'Carolina Soto' })));
    expect(api.calls('PATCH', '/recipient-lists/1/users/10')).toHaveLength(0);
  });
});
