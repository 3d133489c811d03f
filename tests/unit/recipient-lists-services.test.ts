// Recipient-list calls against a stubbed fetch (bodies checked by their structs), and compose opening on a
// saved list ("Usar en mensaje nuevo": /new?list=ID).
import { describe, expect, it } from 'vitest';
import { createActor, toPromise, type AnyActorLogic } from 'xstate';
import { json, installFakeFetch } from '../fixtures/fake-fetch';
import { fetchComposeStart } from '../../src/services/compose/compose';
import { restoredForm } from '../../src/machines/compose/start-rules';
import { fetchListDetail, fetchListsPage, saveMemberUser } from '../../src/services/recipient-lists/recipient-lists';
import { ApiFailureError } from '../../src/services/http/client';
import { channelList, channelPermissions, quota, signature } from '../fixtures/compose';
import { listMember, listSummary, userToEdit } from '../fixtures/recipient-lists';
import { conflictOf } from '../../src/machines/recipient-lists/recipient-list-rules';

const run = <T>(logic: AnyActorLogic, input?: unknown) => toPromise(createActor(logic, { input }).start()) as Promise<T>;
const page = <T>(data: T[], current = 1, last = 2) => ({
  data,
  meta: { current_page: current, last_page: last, per_page: 25, total: 30 },
  links: { next: null, prev: null },
});

describe('recipient-list calls', () => {
  const fake = installFakeFetch();

  it('pages the lists with the search trimmed, and says where the next page is', async () => {
    fake.answer = () => json(200, page([listSummary()], 2, 2));
    const result = await run<{ items: unknown[]; next: string | null; total: number }>(fetchListsPage, {
      query: { q: '  Básico ' },
      after: '2',
    });
    expect(result).toMatchObject({ next: null, total: 30 });
    const url = new URL(fake.requests[0]!.url, 'http://x');
    expect(url.pathname).toBe('/api/recipient-lists');
    expect(Object.fromEntries(url.searchParams)).toEqual({ page: '2', per_page: '25', q: 'Básico' });
  });

  it('refuses a page whose rows lack the summary fields', async () => {
    fake.answer = () => json(200, page([{ id: 1, name: 'x', users_count: 1 }]));
    await expect(run(fetchListsPage, { query: { q: '' }, after: null })).rejects.toMatchObject({ code: 'response.invalid' });
  });

  it('reads a list with its members (device colour and stale reason)', async () => {
    fake.answer = (url) =>
      json(
        200,
        url.endsWith('/users') ? { data: [listMember({ stale: 'course_changed', device_status: null })] } : { data: listSummary() },
      );
    const detail = await run<{ members: { stale: string }[] }>(fetchListDetail, { id: 1 });
    expect(detail.members[0]!.stale).toBe('course_changed');
  });

  it('saves a member with PATCH and the fields as typed', async () => {
    fake.answer = () => json(200, { data: userToEdit() });
    await run(saveMemberUser, { listId: 1, memberId: 10, changes: { fono_celular: '+56987654321' } });
    expect(fake.requests[0]).toMatchObject({ method: 'PATCH', body: { fono_celular: '+56987654321' } });
    expect(fake.requests[0]!.url).toContain('/recipient-lists/1/users/10');
  });

  it('reads a 409 as the scheduled message that uses the list', () => {
    const error = new ApiFailureError({
      status: 409,
      code: 'list.scheduled',
      message: 'En uso',
      fieldErrors: { list: ['«Reunión» del 12-03-2026 18:00'], message_id: ['44'] },
    });
    expect(conflictOf(error)).toEqual({ text: '«Reunión» del 12-03-2026 18:00', messageId: 44 });
    expect(conflictOf(new ApiFailureError({ status: 409, code: 'list.scheduled', message: 'En uso', fieldErrors: {} }))).toEqual({
      text: 'En uso',
      messageId: null,
    });
    expect(conflictOf(new ApiFailureError({ status: 500, code: 'x', message: 'x', fieldErrors: {} }))).toBeNull();
  });

  it('starts a new message addressed to the saved list', async () => {
    const answers: Record<string, unknown> = {
      '/channels': { data: channelList([]) },
      '/communication-permission/user': { data: channelPermissions([]) },
      '/institutions-signatures': { data: [signature()] },
      '/quota': { data: quota(100, 3) },
      '/recipient-lists/5': { data: listSummary({ id: 5, name: 'Familias 3° A' }) },
    };
    fake.answer = (url) => json(200, answers[new URL(url, 'http://x').pathname.replace(/^\/api/, '')] ?? {});
    const start = await run<Parameters<typeof restoredForm>[0]>(fetchComposeStart, {
      draftId: null,
      replyToId: null,
      backupKey: 'compose:7:list-5',
      listId: 5,
    });
    expect(start.list).toEqual({ kind: 'recipient-list', id: 5, label: 'Familias 3° A' });
    expect(restoredForm(start, null).form.recipients).toEqual([{ kind: 'recipient-list', id: 5, label: 'Familias 3° A' }]);
  });
});
