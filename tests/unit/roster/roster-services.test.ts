// The roster screen's conflicts come from the server's own filter (`change=conflicts`), every page of it,
// and nothing is asked when the preview counted none.
import { describe, expect, it } from 'vitest';
import { createActor, toPromise, type AnyActorLogic } from 'xstate';
import type { PreviewPerson } from '../../../shared/roster-contract';
import { fetchRosterConflicts, type RosterConflict } from '../../../src/services/roster/roster';
import { installFakeFetch, json } from '../../fixtures/fake-fetch';

const run = <T>(logic: AnyActorLogic, input?: unknown) => toPromise(createActor(logic, { input }).start()) as Promise<T>;

const guardian = (id: number, phone: string): PreviewPerson => ({
  kind: 'guardian',
  change: 'changed',
  match: 'document',
  id,
  name: `Apoderada ${id}`,
  document: null,
  course: null,
  lines: [id],
  changes: [
    { field: 'email', from: 'a@b.cl', to: 'c@d.cl', manual: false },
    { field: 'fono_celular', from: '+56990000000', to: phone, manual: true },
  ],
});
const page = (data: PreviewPerson[], current: number, last: number) => ({
  data,
  meta: { current_page: current, last_page: last, per_page: 500, total: 2 },
  links: { next: null, prev: null },
});

describe('the conflicts of a preview', () => {
  const fake = installFakeFetch();

  it('are read with change=conflicts at the largest page, page after page until the last', async () => {
    fake.answer = (url) => {
      const n = Number(new URL(url, 'http://x').searchParams.get('page'));
      return json(200, page([guardian(n, `+5698765430${n}`)], n, 2));
    };
    const conflicts = await run<RosterConflict[]>(fetchRosterConflicts, { importId: 7, expected: 2 });
    expect(conflicts).toEqual([
      { key: 'guardian:1:fono_celular', name: 'Apoderada 1', field: 'fono_celular', hermes: '+56990000000', file: '+56987654301' },
      { key: 'guardian:2:fono_celular', name: 'Apoderada 2', field: 'fono_celular', hermes: '+56990000000', file: '+56987654302' },
    ]);
    const asked = fake.requests.map((r) => {
      const url = new URL(r.url, 'http://x');
      return [url.pathname, Object.fromEntries(url.searchParams)];
    });
    expect(asked).toEqual([
      ['/api/roster/imports/7/people', { page: '1', change: 'conflicts', per_page: '500' }],
      ['/api/roster/imports/7/people', { page: '2', change: 'conflicts', per_page: '500' }],
    ]);
  });

  it('are not asked for when the preview counted none', async () => {
    expect(await run<RosterConflict[]>(fetchRosterConflicts, { importId: 7, expected: 0 })).toEqual([]);
    expect(fake.requests).toEqual([]);
  });
});
