// /settings/people and a person's record (under StrictMode and without it): the real machines over a scripted
// API. The list opens with what its address says and puts each choice back there; a student's row says
// «Retirado»; the record refuses in the browser what the shared rules refuse, keeps what was typed when the
// server refuses it (its words under the field, aria-invalid), adds a suplente, and asks before withdrawing.
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PERSON_ERRORS } from '../../shared/person-rules';
import { Toaster } from '../../src/views/layout/toaster';
import { SettingsPeoplePage } from '../../src/views/pages/people/people-page';
import { SettingsPersonPage } from '../../src/views/pages/people/person-page';
import { json } from '../fixtures/fake-fetch';
import { GUARDIAN_RECORD, GUARDIAN_ROW, peoplePage, personRecord, summaryOf } from '../fixtures/people';
import { text } from '../fixtures/texts';
import { RENDER_MODES, setUpScreenTest } from './screen-test';

const api = setUpScreenTest();

const WITHDRAWN = personRecord({ withdrawn_at: '2026-03-02T12:00:00.000Z' });
const queryOf = (url: string) => Object.fromEntries(new URL(url, 'http://localhost').searchParams);
const field = (label: string) => screen.getByLabelText(label, { selector: 'input,select' }) as HTMLInputElement;

describe.each(RENDER_MODES)('people screens (%s)', (_mode, wrap) => {
  it('opens with the address, shows «Retirado», and puts a filter back in the address', async () => {
    window.history.replaceState(null, '', '/settings/people?q=nunez&status=all');
    api.script['GET /people'] = [json(200, peoplePage([summaryOf(WITHDRAWN), summaryOf(GUARDIAN_RECORD)]))];
    render(wrap(<SettingsPeoplePage />));
    const row = (await screen.findByText(WITHDRAWN.name)).closest('[data-slot="people-row"]') as HTMLElement;
    expect(within(row).getByText(text('people.withdrawn'))).toBeTruthy();
    expect(within(row).getByRole('link').getAttribute('href')).toBe('/settings/people/estudiante/7');
    expect((screen.getByRole('searchbox') as HTMLInputElement).value).toBe('nunez');
    expect(queryOf(api.calls('GET', '/people')[0]!.url)).toMatchObject({ q: 'nunez', status: 'all', page: '1' });
    // A guardian's row names no standing.
    const guardian = screen.getByText(GUARDIAN_RECORD.name).closest('[data-slot="people-row"]') as HTMLElement;
    expect(within(guardian).queryByText(text('people.withdrawn'))).toBeNull();

    await act(async () => fireEvent.change(field(text('people.kind.label')), { target: { value: 'apoderado' } }));
    await waitFor(() => expect(queryOf(api.calls('GET', '/people').at(-1)!.url)).toMatchObject({ kind: 'apoderado', q: 'nunez' }));
    expect(window.location.pathname + window.location.search).toBe('/settings/people?q=nunez&kind=apoderado&status=all');
  });

  it('says so when nobody matches the search', async () => {
    window.history.replaceState(null, '', '/settings/people?q=zzz');
    api.script['GET /people'] = [json(200, peoplePage([]))];
    render(wrap(<SettingsPeoplePage />));
    expect(await screen.findByText(text('people.noMatch', { q: 'zzz' }))).toBeTruthy();
  });

  it('an address past the last page offers «Anterior» to the last one', async () => {
    window.history.replaceState(null, '', '/settings/people?page=9');
    api.script['GET /people'] = [
      json(200, { ...peoplePage([], 9, 3), meta: { current_page: 9, last_page: 3, per_page: 25, total: 60 } }),
      json(200, peoplePage([summaryOf(personRecord())], 3, 3)),
    ];
    render(wrap(<SettingsPeoplePage />));
    const previous = await screen.findByRole('button', { name: text('people.pages.previous') });
    expect((previous as HTMLButtonElement).disabled).toBe(false);
    await act(async () => fireEvent.click(previous));
    await screen.findByText(personRecord().name);
    expect(queryOf(api.calls('GET', '/people').at(-1)!.url)).toMatchObject({ page: '3' });
    expect(window.location.search).toBe('?page=3');
  });

  it("refuses a student's phone before sending, and keeps what was typed under the server's refusal", async () => {
    window.history.replaceState(null, '', '/settings/people/estudiante/7');
    api.script['GET /people/estudiante/7'] = [json(200, { data: personRecord() })];
    api.script['PATCH /people/estudiante/7'] = [
      json(422, { message: 'Revisa los campos', code: 'validation.failed', errors: { apellido_materno: ['Ese apellido no es válido.'] } }),
    ];
    render(wrap(<SettingsPersonPage kind="estudiante" id={7} />));
    await screen.findByRole('heading', { name: new RegExp(personRecord().name) });
    const phone = field(text('recipientLists.editor.phone'));
    await act(async () => fireEvent.change(phone, { target: { value: '912345678' } }));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: text('people.record.save') })));
    expect(screen.getByText(PERSON_ERRORS.phoneStudent)).toBeTruthy();
    expect(phone.getAttribute('aria-invalid')).toBe('true');
    expect(api.calls('PATCH', '/people/estudiante/7')).toHaveLength(0);

    await act(async () => fireEvent.change(phone, { target: { value: '' } }));
    const surname = field(text('recipientLists.editor.apellido_materno'));
    await act(async () => fireEvent.change(surname, { target: { value: 'Díaz Soto' } }));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: text('people.record.save') })));
    expect(await screen.findByText('Ese apellido no es válido.')).toBeTruthy();
    expect(surname.value).toBe('Díaz Soto');
    expect(surname.getAttribute('aria-invalid')).toBe('true');
    expect(api.calls('PATCH', '/people/estudiante/7')[0]!.body).toMatchObject({ apellido_materno: 'Díaz Soto', fono_celular: null });
  });

  it('adds a suplente, then asks before withdrawing and says what it means', async () => {
    window.history.replaceState(null, '', '/settings/people/estudiante/7');
    const suplente = { id: 22, name: 'Pedro Núñez', rol_adulto_id: 2 as const, relationship: 'Padre', fono_celular: null, email: null };
    api.script['GET /people/estudiante/7'] = [json(200, { data: personRecord() })];
    api.script['POST /people/estudiante/7/guardians'] = [json(201, { data: personRecord({ guardians: [{ ...GUARDIAN_ROW }, suplente] }) })];
    api.script['POST /people/estudiante/7/withdrawal'] = [
      json(200, { data: personRecord({ guardians: [{ ...GUARDIAN_ROW }, suplente], withdrawn_at: '2026-03-02T12:00:00.000Z' }) }),
    ];
    render(
      wrap(
        <>
          <SettingsPersonPage kind="estudiante" id={7} />
          <Toaster />
        </>,
      ),
    );
    await act(async () => fireEvent.click(await screen.findByRole('button', { name: text('people.guardians.add') })));
    const dialog = await screen.findByRole('dialog');
    const inDialog = (label: string) => within(dialog).getByLabelText(label, { selector: 'input,select' }) as HTMLInputElement;
    // The titular is taken: the suplente is offered.
    expect(inDialog(text('people.addGuardian.role')).value).toBe('2');
    await act(async () => fireEvent.change(inDialog(text('recipientLists.editor.nombres')), { target: { value: 'Pedro' } }));
    await act(async () => fireEvent.change(inDialog(text('recipientLists.editor.apellido_paterno')), { target: { value: 'Núñez' } }));
    await act(async () => fireEvent.change(inDialog(text('people.addGuardian.relationship')), { target: { value: 'Padre' } }));
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: text('people.addGuardian.save') })));
    expect(await screen.findByText(text('people.toast.guardianAdded', { name: 'Pedro' }))).toBeTruthy();
    expect(api.calls('POST', '/people/estudiante/7/guardians')[0]!.body).toMatchObject({
      nombres: 'Pedro',
      apellido_paterno: 'Núñez',
      rol_adulto_id: 2,
      relationship: 'Padre',
    });
    expect(await screen.findByRole('link', { name: 'Pedro Núñez' })).toBeTruthy();
    // Both roles taken: nothing more to add, and the screen says why.
    expect(screen.queryByRole('button', { name: text('people.guardians.add') })).toBeNull();
    expect(screen.getByText(text('people.guardians.full'))).toBeTruthy();

    await act(async () => fireEvent.click(screen.getByRole('button', { name: text('people.standing.withdraw') })));
    const question = await screen.findByRole('alertdialog');
    expect(within(question).getByText(text('people.confirm.withdrawBody'))).toBeTruthy();
    await act(async () => fireEvent.click(within(question).getByRole('button', { name: text('people.confirm.withdraw') })));
    expect(await screen.findByRole('button', { name: text('people.standing.enrol') })).toBeTruthy();
    expect(api.calls('POST', '/people/estudiante/7/withdrawal')).toHaveLength(1);
  });
});
