// The roster screen's conflict search against a stubbed fetch: a conflict is a hand correction the file would
// undo, and a student enrolled again by hand whom the file leaves out is listed among the withdrawn, not the
// changed (decision 0193), so the search reads both until it has every conflict the preview counted.
import { describe, expect, it } from 'vitest';
import { createActor, toPromise } from 'xstate';
import type { PreviewPerson } from '../../shared/roster-contract';
import { fetchRosterConflicts, type RosterConflict } from '../../src/services/roster/roster';
import { installFakeFetch, json } from '../fixtures/fake-fetch';

const page = (data: PreviewPerson[]) =>
  json(200, { data, meta: { current_page: 1, last_page: 1, per_page: 50, total: data.length }, links: { next: null, prev: null } });

const PHONE: PreviewPerson = {
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
const ENROLLED_BY_HAND: PreviewPerson = {
  kind: 'student',
  change: 'withdrawn',
  match: 'document',
  id: 12,
  name: 'Tomás Rojas',
  document: '23220064-2',
  course: '2° Básico A',
  lines: [],
  changes: [{ field: 'estado', from: 'matriculado', to: 'retirado', manual: true }],
};

describe('the conflicts of a preview', () => {
  const fake = installFakeFetch();

  it('are found among the changed and then the withdrawn people, keyed as apply takes them', async () => {
    fake.answer = (url) => {
      const change = new URL(url, 'http://x').searchParams.get('change');
      return page(change === 'changed' ? [PHONE] : change === 'withdrawn' ? [ENROLLED_BY_HAND] : []);
    };
    const conflicts = await toPromise(createActor(fetchRosterConflicts, { input: { importId: 41, expected: 2 } }).start());
    expect(conflicts).toEqual<RosterConflict[]>([
      { key: 'guardian:7:fono_celular', name: 'María Pérez', field: 'fono_celular', hermes: '+56987654321', file: '+56911112222' },
      { key: 'student:12:estado', name: 'Tomás Rojas', field: 'estado', hermes: 'matriculado', file: 'retirado' },
    ]);
  });

  it('stop reading once every counted conflict is found', async () => {
    fake.answer = () => page([PHONE]);
    await toPromise(createActor(fetchRosterConflicts, { input: { importId: 41, expected: 1 } }).start());
    expect(fake.requests.map((r) => new URL(r.url, 'http://x').searchParams.get('change'))).toEqual(['changed']);
  });
});
