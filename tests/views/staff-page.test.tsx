// /settings/staff (under StrictMode and without it): the real machines over a scripted API. Each account's
// facts and only the actions its state allows; the search and order sent to the server; roles and device
// refused by the server with its words kept in the dialog; «Desactivar» asking first, then naming what is left
// to hand over; «Invitar personal» previewing pasted lines with their problems, and one person's outcome.
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { StaffMember } from '../../shared/staff-contract';
import { SettingsStaffPage } from '../../src/views/pages/staff/staff-page';
import { Toaster } from '../../src/views/layout/toaster';
import { json } from '../fixtures/fake-fetch';
import { GONE, INVITED, ME, TEACHER_ROW } from '../fixtures/staff-members';
import { text } from '../fixtures/texts';
import { RENDER_MODES, setUpScreenTest } from './screen-test';

const api = setUpScreenTest();

// Radix's checkbox measures itself inside a form; jsdom has no ResizeObserver (browsers do).
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

const page = (data: StaffMember[]) =>
  json(200, { data, meta: { current_page: 1, last_page: 1, per_page: 25, total: data.length }, links: { next: null, prev: null } });
const queryOf = (url: string) => Object.fromEntries(new URL(url, 'http://localhost').searchParams);
const rowOf = (email: string) => screen.getByText(email).closest('[data-slot="staff-row"]') as HTMLElement;
const buttonsOf = (row: HTMLElement) =>
  within(row)
    .queryAllByRole('button')
    .map((button) => button.textContent);

describe.each(RENDER_MODES)('staff screen (%s)', (_mode, wrap) => {
  const renderPage = async () => {
    window.history.replaceState(null, '', '/settings/staff');
    render(
      wrap(
        <>
          <SettingsStaffPage />
          <Toaster />
        </>,
      ),
    );
    await screen.findByText(ME.email);
  };

  it('shows each account with its facts and only what its state allows', async () => {
    api.script['GET /staff'] = [page([ME, TEACHER_ROW, INVITED, GONE])];
    await renderPage();
    expect(screen.getByText(text('staff.total', { count: 4 }))).toBeTruthy();
    expect(within(rowOf(ME.email)).getByText(text('staff.you'))).toBeTruthy();
    expect(buttonsOf(rowOf(ME.email))).toEqual([text('staff.actions.edit')]);
    expect(buttonsOf(rowOf(TEACHER_ROW.email))).toEqual([text('staff.actions.edit'), text('staff.actions.deactivate')]);
    expect(buttonsOf(rowOf(INVITED.email))).toEqual([
      text('staff.actions.edit'),
      text('staff.actions.resend'),
      text('staff.actions.revoke'),
      text('staff.actions.deactivate'),
    ]);
    expect(buttonsOf(rowOf(GONE.email))).toEqual([text('staff.actions.reactivate')]);
    expect(within(rowOf(INVITED.email)).getByText(text('staff.lastSignIn.never'))).toBeTruthy();
    expect(within(rowOf(GONE.email)).getByText(text('staff.state.deactivated'))).toBeTruthy();
    // The first page asked for by name, ascending.
    expect(queryOf(api.calls('GET', '/staff')[0]!.url)).toMatchObject({ page: '1', sort: 'name', order: 'asc' });
  });

  it('asks the server for the order chosen and the search typed', async () => {
    api.script['GET /staff'] = [page([ME, TEACHER_ROW])];
    await renderPage();
    fireEvent.change(screen.getByLabelText(text('staff.sort.label')), { target: { value: 'last_sign_in_desc' } });
    fireEvent.change(screen.getByRole('searchbox', { name: text('staff.search') }), { target: { value: 'ana' } });
    await waitFor(() =>
      expect(queryOf(api.calls('GET', '/staff').at(-1)!.url)).toMatchObject({ q: 'ana', sort: 'last_sign_in', order: 'desc' }),
    );
  });

  it("keeps the server's refusal of roles in the dialog, with what was picked", async () => {
    api.script['GET /staff'] = [page([ME, TEACHER_ROW])];
    api.script['PATCH /staff/1'] = [
      json(422, {
        message: 'Revisa',
        code: 'validation.failed',
        errors: { roles: ['El colegio debe conservar al menos un administrador.'] },
      }),
    ];
    await renderPage();
    await act(async () => fireEvent.click(within(rowOf(TEACHER_ROW.email)).getByRole('button', { name: text('staff.actions.edit') })));
    const dialog = await screen.findByRole('dialog');
    const utp = within(dialog).getByRole('checkbox', { name: text('staff.role.colegio-utp') });
    await act(async () => fireEvent.click(utp));
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: text('staff.edit.save') })));
    expect(await within(dialog).findByRole('alert')).toHaveProperty('textContent', 'El colegio debe conservar al menos un administrador.');
    expect(utp.getAttribute('aria-checked')).toBe('true');
    expect(api.calls('PATCH', '/staff/1').map((request) => request.body)).toEqual([{ roles: ['colegio-utp', 'docente'] }]);
  });

  it('asks before deactivating, then names the shared lists and scheduled messages left', async () => {
    api.script['GET /staff'] = [page([ME, TEACHER_ROW])];
    api.script['POST /staff/1/deactivate'] = [
      json(200, {
        data: {
          member: { ...TEACHER_ROW, state: 'deactivated' },
          handover: {
            shared_lists: [{ id: 5, name: 'Apoderados 3° A', users_count: 30 }],
            scheduled_messages: [{ id: 8, title: 'Reunión de apoderados', scheduled_at: '2026-03-10T12:00:00.000Z' }],
          },
        },
      }),
    ];
    await renderPage();
    await act(async () =>
      fireEvent.click(within(rowOf(TEACHER_ROW.email)).getByRole('button', { name: text('staff.actions.deactivate') })),
    );
    const question = await screen.findByRole('alertdialog');
    expect(question.textContent).toContain(text('staff.deactivate.body'));
    expect(api.calls('POST', '/staff/1/deactivate')).toHaveLength(0);
    await act(async () => fireEvent.click(within(question).getByRole('button', { name: text('staff.deactivate.confirm') })));
    const handover = await screen.findByRole('dialog', { name: text('staff.handover.title', { name: TEACHER_ROW.name }) });
    expect(within(handover).getByText(/Apoderados 3° A/).textContent).toContain(text('staff.handover.members', { count: 30 }));
    expect(within(handover).getByText(/Reunión de apoderados/)).toBeTruthy();
    await act(async () => fireEvent.click(within(handover).getByRole('button', { name: text('staff.handover.close') })));
    await waitFor(() => expect(buttonsOf(rowOf(TEACHER_ROW.email))).toEqual([text('staff.actions.reactivate')]));
  });

  it('previews pasted lines with their problems, and says what became of one person invited', async () => {
    api.script['GET /staff'] = [page([ME])];
    api.script['POST /staff/invitations'] = [
      json(200, {
        data: [
          {
            index: 0,
            email: 'eva@sanandres.cl',
            outcome: 'refused',
            field: 'email',
            reason: 'Ese correo ya tiene una cuenta en otra institución.',
          },
        ],
      }),
    ];
    await renderPage();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: text('staff.invite') })));
    const dialog = await screen.findByRole('dialog');
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: text('invite.mode.many') })));
    fireEvent.change(within(dialog).getByLabelText(text('invite.text')), {
      target: { value: 'Ana;ana@x.cl;docente\nBeto;beto;jardinero' },
    });
    expect(within(dialog).getByText(text('invite.preview.problems', { count: 1 }))).toBeTruthy();
    expect(within(dialog).getByText(text('invite.problem.roleUnknown', { role: 'jardinero' }))).toBeTruthy();
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: text('invite.send', { count: 2 }) })));
    expect(api.calls('POST', '/staff/invitations')).toHaveLength(0);

    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: text('invite.mode.one') })));
    fireEvent.change(within(dialog).getByLabelText(text('invite.name')), { target: { value: 'Eva Luna' } });
    fireEvent.change(within(dialog).getByLabelText(text('invite.email')), { target: { value: 'eva@sanandres.cl' } });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: text('invite.send', { count: 1 }) })));
    expect(
      await within(dialog).findByText(text('invite.result.refused', { reason: 'Ese correo ya tiene una cuenta en otra institución.' })),
    ).toBeTruthy();
    expect(api.calls('POST', '/staff/invitations').map((request) => request.body)).toEqual([
      { people: [{ name: 'Eva Luna', email: 'eva@sanandres.cl', role: 'docente' }] },
    ]);
  });
});
