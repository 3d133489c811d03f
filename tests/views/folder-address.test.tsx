// A folder as the address has it. The search lives in `?q=` (typing replaces the entry, so Back
// from a message finds the folder searched as it was), a change of the address by itself (Back, a link to
// the bare folder) searches what it says, and a draft opens straight in compose, ready to edit (an
// untitled one listed as "(Sin título)", not as an empty row).
import { StrictMode } from 'react';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { navigate } from 'wouter/use-browser-location';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FolderPage } from '../../src/views/pages/messages/folder-page';
import { json, installFakeFetch } from '../fixtures/fake-fetch';
import { messagePage, messageSummary } from '../fixtures/messages';
import { startApp } from './app';
import { es } from '../fixtures/texts';

const fake = installFakeFetch();
fake.answer = (url: string) => {
  const query = new URL(url, 'http://localhost').searchParams;
  const folder = query.get('folder') as 'inbox' | 'draft';
  // The draft has no title yet (drafts need none).
  const title = folder === 'draft' ? '' : `Fila ${query.get('q') ?? 'todo'}`;
  return json(200, messagePage([messageSummary({ id: folder === 'draft' ? 40 : 1, folder, title })]));
};

beforeAll(startApp);
afterEach(() => {
  cleanup();
  window.history.replaceState(null, '', '/');
});

const listQueries = () =>
  fake.requests
    .filter((r) => new URL(r.url, 'http://localhost').pathname === '/api/messages')
    .map((r) => new URL(r.url, 'http://localhost').searchParams.get('q'));

describe('folder and address', () => {
  it('opens with the search the address carries', async () => {
    window.history.replaceState(null, '', '/inbox?q=reuni%C3%B3n');
    render(
      <StrictMode>
        <FolderPage folder="inbox" />
      </StrictMode>,
    );
    expect(((await screen.findByRole('searchbox')) as HTMLInputElement).value).toBe('reunión');
    await screen.findByText('Fila reunión');
    expect(listQueries()).toEqual(['reunión']);
  });

  it('typing puts the search in the address, replacing the entry; a link to the bare folder clears it', async () => {
    window.history.replaceState(null, '', '/inbox');
    const entries = window.history.length;
    render(<FolderPage folder="inbox" />);
    await screen.findByText('Fila todo');
    const box = screen.getByRole('searchbox') as HTMLInputElement;
    for (const q of ['a', 'an', 'ana']) await act(async () => fireEvent.change(box, { target: { value: q } }));
    expect(window.location.pathname + window.location.search).toBe('/inbox?q=ana');
    expect(window.history.length).toBe(entries);
    expect(box.value).toBe('ana');
    await screen.findByText('Fila ana');

    // The sidebar's "Recibidos" (or Back to an unsearched entry): the address has no search any more.
    await act(async () => navigate('/inbox'));
    expect(box.value).toBe('');
    await waitFor(() => expect(listQueries().at(-1)).toBeNull());
    await screen.findByText('Fila todo');
  });

  it('a draft row opens compose with the draft, not a reading view; an untitled one says so', async () => {
    window.history.replaceState(null, '', '/draft');
    render(<FolderPage folder="draft" />);
    const link = (await screen.findByText(es.messages.untitled)).closest('a');
    expect(link?.getAttribute('href')).toBe('/new?draft=40');
  });
});
