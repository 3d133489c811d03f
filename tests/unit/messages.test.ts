// Message services against a stubbed global fetch (bodies checked by the structs) and the lifecycle rule
// table.
import { describe, expect, it, vi } from 'vitest';
import { json, installFakeFetch } from '../fixtures/fake-fetch';
import { createActor, toPromise, type AnyActorLogic } from 'xstate';
import { toApiFailure } from '../../src/services/http/client';
import { canTransition, folderOfKind, kindOfFolder, MESSAGE_ACTIONS, type MessageAction } from '../../shared/message-rules';
import {
  cancelSchedule,
  deleteMessages,
  fetchFolderListPage,
  fetchMessage,
  markRead,
  purgeMessages,
} from '../../src/services/messages/messages';
import { fetchFolderCounts, restoreMessages } from '../../src/services/messages/folder-info';
import { attachmentSummary, messageDetail, messagePage, messageSummary } from '../fixtures/messages';
import type { MessageKind } from '../../shared/codes';

const SUMMARY = messageSummary({ id: 7, has_attachments: true, unread: true });
const DETAIL = messageDetail({ ...SUMMARY, attachments: [attachmentSummary(1, { name: 'citacion.pdf' })] });
// A next page, so the list's cursor and total are read from it.
const PAGE = messagePage([SUMMARY], 'abc', 51);

const fake = installFakeFetch();
const requests = fake.requests;

const run = <T extends AnyActorLogic>(logic: T, input?: unknown) => toPromise(createActor(logic, { input } as never).start());
const failureOf = async (promise: Promise<unknown>) =>
  toApiFailure(
    await promise.then(
      () => 'resolved',
      (error: unknown) => error,
    ),
  );

describe('message services', () => {
  it("fetchFolderListPage asks for one folder page with the search and cursor, in the list's shape", async () => {
    fake.answer = () => json(200, PAGE);
    await expect(run(fetchFolderListPage, { query: { folder: 'inbox', q: 'reunión' }, after: 'abc' })).resolves.toEqual({
      items: PAGE.data,
      total: PAGE.meta.total,
      next: PAGE.meta.next_cursor,
    });
    expect(requests).toHaveLength(1);
    const url = new URL(requests[0]?.url ?? '', 'http://x');
    expect(url.pathname).toBe('/api/messages');
    expect(Object.fromEntries(url.searchParams)).toEqual({ folder: 'inbox', q: 'reunión', cursor: 'abc', limit: '50' });
  });

  it('fetchFolderListPage leaves out an empty search and a missing cursor', async () => {
    fake.answer = () => json(200, PAGE);
    await run(fetchFolderListPage, { query: { folder: 'trash', q: '' }, after: null });
    expect(requests[0]?.url).toBe('/api/messages?folder=trash&limit=50');
  });

  it('fetchFolderListPage rejects a page that breaks the contract', async () => {
    fake.answer = () => json(200, { data: [{ ...SUMMARY, kind: 'archived' }], meta: PAGE.meta, links: PAGE.links });
    expect(await failureOf(run(fetchFolderListPage, { query: { folder: 'inbox', q: '' }, after: null }))).toMatchObject({
      code: 'response.invalid',
    });
  });

  it('fetchMessage returns the checked detail', async () => {
    fake.answer = () => json(200, { data: { ...DETAIL, extra: 1 } });
    await expect(run(fetchMessage, { id: 7 })).resolves.toMatchObject(DETAIL);
    expect(requests).toEqual([{ method: 'GET', url: '/api/messages/7', body: undefined }]);
  });

  it('fetchMessage passes a 404 on as a failure', async () => {
    fake.answer = () => json(404, { code: 'not_found', message: 'No encontrado' });
    expect(await failureOf(run(fetchMessage, { id: 8 }))).toMatchObject({ status: 404, code: 'not_found' });
  });

  it('markRead posts and returns the summary', async () => {
    fake.answer = () => json(200, { data: { ...SUMMARY, unread: false } });
    await expect(run(markRead, { id: 7 })).resolves.toMatchObject({ id: 7, unread: false });
    expect(requests).toEqual([{ method: 'POST', url: '/api/messages/7/read', body: undefined }]);
  });

  it.each([
    ['delete', deleteMessages, { moved: 2 }],
    ['restore', restoreMessages, { restored: 2 }],
    ['purge', purgeMessages, { purged: 2 }],
  ] as const)('%s posts the ids and returns how many changed', async (path, logic, data) => {
    fake.answer = () => json(200, { data });
    await expect(run(logic, { ids: [1, 2] })).resolves.toBe(2);
    expect(requests).toEqual([{ method: 'POST', url: `/api/messages/${path}`, body: { ids: [1, 2] } }]);
  });

  it('an illegal transition is a 409 failure with the server message', async () => {
    fake.answer = () =>
      json(409, { code: 'message.illegal_transition', message: 'Solo se eliminan definitivamente mensajes en la papelera.' });
    expect(await failureOf(run(purgeMessages, { ids: [1] }))).toMatchObject({ status: 409, code: 'message.illegal_transition' });
  });

  it('cancelSchedule posts to the message', async () => {
    fake.answer = () => json(200, { data: { ...SUMMARY, kind: 'draft', folder: 'draft' } });
    await expect(run(cancelSchedule, { id: 9 })).resolves.toMatchObject({ kind: 'draft', folder: 'draft' });
    expect(requests).toEqual([{ method: 'POST', url: '/api/messages/9/cancel-schedule', body: undefined }]);
  });

  it('fetchFolderCounts returns the checked counters', async () => {
    const counts = [{ type: 'received', unreads: 2, total: 10 }];
    fake.answer = () => json(200, { data: counts });
    await expect(run(fetchFolderCounts)).resolves.toEqual(counts);
    expect(requests[0]?.url).toBe('/api/messages/info');
  });

  it('fetchFolderCounts rejects an unknown folder type', async () => {
    fake.answer = () => json(200, { data: [{ type: 'trash', unreads: 0, total: 1 }] });
    expect(await failureOf(run(fetchFolderCounts))).toMatchObject({ code: 'response.invalid' });
  });

  it('stopping the actor aborts the request', async () => {
    let seen: AbortSignal | undefined;
    vi.stubGlobal(
      'fetch',
      vi.fn((_input: RequestInfo | URL, init?: RequestInit) => {
        seen = init?.signal ?? undefined;
        return new Promise<Response>(() => undefined);
      }),
    );
    const actor = createActor(fetchFolderCounts).start();
    await Promise.resolve();
    actor.stop();
    expect(seen?.aborted).toBe(true);
  });
});

describe('canTransition (messages-contract.ts rules)', () => {
  const TABLE: Record<MessageKind, MessageAction[]> = {
    draft: ['save', 'schedule', 'send', 'delete'],
    scheduled: ['cancelSchedule', 'delete'],
    sent: ['delete'],
    received: ['read', 'delete'],
    deleted: ['restore', 'purge'],
  };
  for (const [kind, allowed] of Object.entries(TABLE) as Array<[MessageKind, MessageAction[]]>) {
    for (const action of MESSAGE_ACTIONS) {
      const ok = allowed.includes(action);
      it(`${kind} ${ok ? 'allows' : 'refuses'} ${action}`, () => {
        expect(canTransition(kind, action)).toBe(ok);
      });
    }
  }

  it('maps folders and kinds both ways', () => {
    expect(folderOfKind('received')).toBe('inbox');
    expect(folderOfKind('draft')).toBe('draft');
    expect(kindOfFolder('inbox')).toBe('received');
    expect(kindOfFolder('scheduled')).toBe('scheduled');
  });
});
