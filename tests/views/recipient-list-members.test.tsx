// /recipient-list/:id at school scale (the real machine and services over a scripted fetch): a list of
// 300 members renders the first 100 and says so; the search finds members beyond that slice by name
// (accents and case ignored), RUT without punctuation, phone and course; "Mostrar más" adds 100 and puts
// focus on the first new row; removing and editing work on a searched row; the stale banner counts every
// member and its "Quitar" still works; a search that finds nobody says so and "Limpiar búsqueda" returns.
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { text } from '../fixtures/texts';
import { RecipientListPage } from '../../src/views/pages/recipient-lists/recipient-list-page';
import { json } from '../fixtures/fake-fetch';
import { listSummary, manyMembers, userToEdit } from '../fixtures/recipient-lists';
import type { RecipientListMember } from '../../shared/recipient-lists-contract';
import { RENDER_MODES, setUpScreenTest } from './screen-test';

const ALL = manyMembers(300);
const api = setUpScreenTest();
/** The server's members: a removal or "Quitar" of the stale ones changes what the next reads answer. */
let members: RecipientListMember[] = ALL;
const staleCount = () => members.filter((m) => m.stale !== null).length;
function serve() {
  members = ALL;
  api.script['GET /recipient-lists/1'] = [
    () => json(200, { data: listSummary({ users_count: members.length, stale_count: staleCount() }) }),
  ];
  api.script['GET /recipient-lists/1/users'] = [() => json(200, { data: members })];
  api.script['POST /recipient-lists/1/members/remove-stale'] = [
    () => {
      const removed = staleCount();
      members = members.filter((m) => m.stale === null);
      return json(200, { data: { removed } });
    },
  ];
}
/** One member's contact record and removal, as the server answers them. */
function serveMember(member: RecipientListMember) {
  api.script[`GET /recipient-lists/1/users/${member.id}`] = [
    json(200, {
      data: userToEdit({ id: member.user_id, name: member.name, fono_celular: member.phone, email: member.email, dni: member.dni }),
    }),
  ];
  api.script[`DELETE /recipient-lists/1/members/${member.id}`] = [
    () => {
      members = members.filter((m) => m.id !== member.id);
      return new Response(null, { status: 204 });
    },
  ];
}

const rowNames = () => [...document.querySelectorAll('[data-slot=member-row] [data-slot=member-name]')].map((n) => n.textContent);
const count = () => document.querySelector('[data-slot=members-count]')?.textContent;
const search = (value: string) =>
  act(async () => fireEvent.change(screen.getByLabelText(text('recipientLists.memberSearch')), { target: { value } }));
/** The ASCII, lower-case spelling of a name: what someone types in a hurry. */
const plain = (name: string) =>
  name
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();

// Rendering 100–300 rows in jsdom takes seconds on a shared machine.
describe.each(RENDER_MODES)('members of a 300-member list (%s)', { timeout: 30_000 }, (_mode, wrap) => {
  const open = async () => {
    serve();
    render(wrap(<RecipientListPage id={1} />));
    await screen.findByRole('heading', { name: 'Apoderados 3° Básico A' });
  };

  it('renders the first 100 rows and says how many of how many', async () => {
    await open();
    expect(rowNames()).toEqual(ALL.slice(0, 100).map((m) => m.name));
    expect(count()).toBe(text('recipientLists.membersShowing', { count: 300, shown: '100', total: '300' }));
    expect(count()).toBe('Mostrando 100 de 300 miembros');
    expect(screen.getByRole('button', { name: 'Mostrar 100 más' })).toBeTruthy();
  });

  it('phones read the international way, as on every screen: "+56 9 5000 0000"', async () => {
    await open();
    const phones = [...document.querySelectorAll('[data-slot=member-row] [data-slot=member-phone]')].map((n) => n.textContent);
    expect(phones[0]).toBe(`+56 9 ${ALL[0]!.phone!.slice(4, 8)} ${ALL[0]!.phone!.slice(8)}`);
    expect(phones.every((phone) => /^\+56 9 \d{4} \d{4}$/.test(phone ?? ''))).toBe(true);
  });

  it('a search finds a member beyond the first slice, without accents or case; by RUT, phone and course too', async () => {
    await open();
    const far = ALL[287]!; // "Agustín Silva Espinoza": not among the first 100
    expect(rowNames()).not.toContain(far.name);
    await search(plain(far.name));
    expect(rowNames()).toEqual([far.name]);
    expect(count()).toBe('Mostrando 1 de 1 miembro que coincide con la búsqueda (de 300 en la lista)');

    await search(far.dni!.replace(/[.-]/g, ''));
    expect(rowNames()).toEqual([far.name]);
    await search(far.phone!.slice(-8).replace(/(\d{4})(\d{4})/, '$1 $2'));
    expect(rowNames()).toEqual([far.name]);
    await search('4° MEDIO c');
    expect(rowNames()).toEqual(ALL.filter((m) => m.course === '4° Medio C').map((m) => m.name));
    expect(count()).toBe('Mostrando 25 de 25 miembros que coinciden con la búsqueda (de 300 en la lista)');
    expect(screen.queryByRole('button', { name: /^Mostrar \d+ más$/ })).toBeNull();
  });

  it('"Mostrar más" adds the next 100 and puts focus on the first of them; the last slice is what is left', async () => {
    await open();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Mostrar 100 más' })));
    expect(rowNames()).toHaveLength(200);
    expect(count()).toBe('Mostrando 200 de 300 miembros');
    await waitFor(() => expect(document.activeElement?.id).toBe(`member-row-${ALL[100]!.id}`));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Mostrar 100 más' })));
    expect(rowNames()).toHaveLength(300);
    expect(screen.queryByRole('button', { name: /^Mostrar \d+ más$/ })).toBeNull();
  });

  it('a searched member is removed and edited from their row; the count follows', async () => {
    await open();
    const far = ALL[250]!;
    serveMember(far);
    await search(far.email!);
    const row = screen.getByText(far.name).closest('li') as HTMLElement;
    await act(async () =>
      fireEvent.click(within(row).getByRole('button', { name: text('recipientLists.editMember', { name: far.name }) })),
    );
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(api.calls('GET', `/recipient-lists/1/users/${far.id}`)).toHaveLength(1));
    await act(async () => fireEvent.keyDown(dialog, { key: 'Escape' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await act(async () =>
      fireEvent.click(
        within(screen.getByText(far.name).closest('li') as HTMLElement).getByRole('button', {
          name: text('recipientLists.removeMember', { name: far.name }),
        }),
      ),
    );
    await waitFor(() => expect(rowNames()).toEqual([]));
    expect(api.calls('DELETE', `/recipient-lists/1/members/${far.id}`)).toHaveLength(1);
    expect(count()).toBe(`Ningún miembro coincide con «${far.email}».`);
    await search('');
    expect(count()).toBe('Mostrando 100 de 299 miembros');
  });

  it('the stale banner counts every member, not the slice, and its "Quitar" removes them', async () => {
    await open();
    const stale = ALL.filter((m) => m.stale !== null);
    expect(stale.length).toBe(3);
    expect(stale.filter((m) => rowNames().includes(m.name))).toHaveLength(1);
    const banner = document.querySelector('[data-slot=stale-banner]') as HTMLElement;
    expect(banner.textContent).toContain(text('recipientLists.staleBanner', { count: 3 }));
    await search(plain(stale[2]!.name));
    await act(async () => fireEvent.click(within(banner).getByRole('button', { name: text('recipientLists.removeStale') })));
    await waitFor(() => expect(document.querySelector('[data-slot=stale-banner]')).toBeNull());
    expect(rowNames()).toEqual([]);
    await search('');
    expect(count()).toBe('Mostrando 100 de 297 miembros');
  });

  it('a search that finds nobody says so; "Limpiar búsqueda" shows everyone again with focus in the search', async () => {
    await open();
    await search('zzz');
    expect(count()).toBe('Ningún miembro coincide con «zzz».');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: text('recipientLists.memberSearchClear') })));
    expect(rowNames()).toHaveLength(100);
    expect((screen.getByLabelText(text('recipientLists.memberSearch')) as HTMLInputElement).value).toBe('');
    await waitFor(() => expect(document.activeElement?.id).toBe('recipient-list-member-search'));
  });
});
