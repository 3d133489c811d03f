// Message lifecycle (messages-contract.ts): delete → trash → restore, purge only from trash, cancel schedule,
// body validation, 409 message.illegal_transition for illegal moves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FolderCount, MessageDetail, MessageSummary } from '../../shared/messages-contract';
import { folderIds, list } from './support/mail';
import { startServer, type Client, type TestServer } from './support/server';

const ADMIN = 'administrador@sanandres.cl';

let server: TestServer;
let admin: Client;

beforeAll(async () => {
  server = await startServer();
  admin = server.client();
  expect((await admin.login(ADMIN)).status).toBe(200);
});
afterAll(async () => {
  await server?.close();
});

async function counts(): Promise<Record<string, FolderCount>> {
  const { data } = (await (await admin.get('/api/messages/info')).json()) as { data: FolderCount[] };
  return Object.fromEntries(data.map((c) => [c.type, c]));
}

const illegal = (message: string) => ({ code: 'message.illegal_transition', message });

describe('delete and restore', () => {
  it('moves messages of several folders to the trash and back to where they came from', async () => {
    const before = await counts();
    const inbox = (await list(admin, 'folder=inbox')).data;
    const unread = inbox.find((m) => m.unread)!;
    const [sentId] = await folderIds(server.db, ADMIN, 'sent');
    const [draftId] = await folderIds(server.db, ADMIN, 'draft');
    const ids = [unread.id, sentId!, draftId!];

    const res = await admin.post('/api/messages/delete', { ids });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: { moved: 3 } });

    const trash = (await list(admin, 'folder=trash')).data;
    expect(
      trash
        .slice(0, 3)
        .map((m) => m.id)
        .sort(),
    ).toEqual([...ids].sort());
    const trashed = trash.find((m) => m.id === unread.id)!;
    expect(trashed).toMatchObject({ folder: 'trash', kind: 'deleted', deleted_from: 'inbox', unread: true });
    expect(trash.find((m) => m.id === sentId)!.deleted_from).toBe('sent');
    expect(trash.find((m) => m.id === draftId)!.deleted_from).toBe('draft');
    expect((await list(admin, 'folder=inbox')).data.map((m) => m.id)).not.toContain(unread.id);

    const during = await counts();
    expect(during.received!.total).toBe(before.received!.total - 1);
    expect(during.received!.unreads).toBe(before.received!.unreads - 1);
    expect(during.sent!.total).toBe(before.sent!.total - 1);
    expect(during.draft!.total).toBe(before.draft!.total - 1);

    // Deleting again is illegal: it is already in the trash.
    const again = await admin.post('/api/messages/delete', { ids: [unread.id] });
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual(illegal('El mensaje ya está en la papelera.'));

    const restored = await admin.post('/api/messages/restore', { ids });
    expect(restored.status).toBe(200);
    expect(await restored.json()).toEqual({ data: { restored: 3 } });
    const inboxAfter = (await list(admin, 'folder=inbox')).data;
    expect(inboxAfter.map((m) => m.id)).toEqual(inbox.map((m) => m.id));
    expect(inboxAfter.find((m) => m.id === unread.id)).toEqual(unread);
    expect((await folderIds(server.db, ADMIN, 'sent'))[0]).toBe(sentId);
    expect((await folderIds(server.db, ADMIN, 'draft'))[0]).toBe(draftId);
    expect(await counts()).toEqual(before);
  });

  it('restores only trashed messages (409 otherwise, nothing changes)', async () => {
    const [inboxId] = await folderIds(server.db, ADMIN, 'inbox');
    const [trashId] = await folderIds(server.db, ADMIN, 'trash');
    const res = await admin.post('/api/messages/restore', { ids: [trashId, inboxId] });
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual(illegal('Solo se pueden restaurar mensajes que están en la papelera.'));
    expect(await folderIds(server.db, ADMIN, 'trash')).toContain(trashId);
  });
});

describe('the trash shows each message with its own date', () => {
  it("lists a trashed message under its sent, received or edited date, not the deletion's, in that order", async () => {
    const inbox = (await list(admin, 'folder=inbox&limit=100')).data;
    const old = inbox.at(-1)!;
    const [draftId] = await folderIds(server.db, ADMIN, 'draft');
    const draft = (await list(admin, 'folder=draft')).data.find((m) => m.id === draftId)!;
    expect((await admin.post('/api/messages/delete', { ids: [old.id, draftId] })).status).toBe(200);

    const trash = (await list(admin, 'folder=trash&limit=100')).data;
    expect(trash.find((m) => m.id === old.id)!.date).toBe(old.date);
    expect(trash.find((m) => m.id === draftId)!.date).toBe(draft.date);
    // Newest message first, as in every folder: the dates shown are in order.
    const dates = trash.map((m) => m.date);
    expect(dates).toEqual([...dates].sort().reverse());

    // And back where they were, with the same date.
    expect((await admin.post('/api/messages/restore', { ids: [old.id, draftId] })).status).toBe(200);
    expect((await list(admin, 'folder=inbox&limit=100')).data.at(-1)).toEqual(old);
  });
});

describe('purge', () => {
  it('only purges trashed messages; then they are gone', async () => {
    const [inboxId] = await folderIds(server.db, ADMIN, 'inbox');
    const refused = await admin.post('/api/messages/purge', { ids: [inboxId] });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual(illegal('Solo se pueden eliminar definitivamente mensajes que están en la papelera.'));
    expect((await admin.get(`/api/messages/${inboxId}`)).status).toBe(200);

    const trash = await folderIds(server.db, ADMIN, 'trash');
    expect(trash.length).toBeGreaterThan(0);
    const res = await admin.post('/api/messages/purge', { ids: trash });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: { purged: trash.length } });
    expect((await list(admin, 'folder=trash')).meta.total).toBe(0);
    for (const id of trash) {
      expect((await admin.get(`/api/messages/${id}`)).status).toBe(404);
      expect((await admin.post('/api/messages/restore', { ids: [id] })).status).toBe(404);
      expect((await admin.post('/api/messages/purge', { ids: [id] })).status).toBe(404);
    }
  });
});

describe('cancel schedule', () => {
  it('turns a scheduled message into a draft', async () => {
    const before = await counts();
    const [id] = await folderIds(server.db, ADMIN, 'scheduled');
    const res = await admin.post(`/api/messages/${id}/cancel-schedule`);
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: MessageSummary };
    expect(data).toMatchObject({ id, folder: 'draft', kind: 'draft', deleted_from: null });
    const { data: detail } = (await (await admin.get(`/api/messages/${id}`)).json()) as { data: MessageDetail };
    expect(detail.scheduled_at).toBeNull();
    expect((await list(admin, 'folder=draft')).data[0]!.id).toBe(id);
    const after = await counts();
    expect(after.scheduled!.total).toBe(before.scheduled!.total - 1);
    expect(after.draft!.total).toBe(before.draft!.total + 1);

    const again = await admin.post(`/api/messages/${id}/cancel-schedule`);
    expect(again.status).toBe(409);
  });

  it('answers 409 with a clear Spanish message for a sent message', async () => {
    const [sentId] = await folderIds(server.db, ADMIN, 'sent');
    const res = await admin.post(`/api/messages/${sentId}/cancel-schedule`);
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual(illegal('Solo se puede cancelar el envío de un mensaje programado.'));
  });
});

describe('bulk body validation and CSRF', () => {
  it('answers 422 with Spanish errors for a bad body', async () => {
    for (const path of ['/api/messages/delete', '/api/messages/restore', '/api/messages/purge']) {
      for (const body of [{}, { ids: [] }, { ids: 'x' }, { ids: [1.5] }, { ids: [0] }, { ids: ['1'] }, null]) {
        const res = await admin.post(path, body);
        expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(422);
        const json = (await res.json()) as { code: string; message: string; errors: { ids: string[] } };
        expect(json.code).toBe('validation.failed');
        expect(json.message).toBe('Los datos enviados no son válidos.');
        expect(json.errors.ids[0]).toMatch(/mensaje/);
      }
      const tooMany = await admin.post(path, { ids: Array.from({ length: 501 }, (_, i) => i + 1) });
      expect(tooMany.status).toBe(422);
    }
  });

  it('rejects a missing CSRF header with 419 and changes nothing', async () => {
    const [id] = await folderIds(server.db, ADMIN, 'inbox');
    const res = await admin.post('/api/messages/delete', { ids: [id] }, { csrf: false });
    expect(res.status).toBe(419);
    expect((await folderIds(server.db, ADMIN, 'inbox'))[0]).toBe(id);
    for (const path of ['/api/messages/restore', '/api/messages/purge', `/api/messages/${id}/cancel-schedule`]) {
      expect((await admin.post(path, { ids: [id] }, { csrf: false })).status).toBe(419);
    }
  });

  it('requires a session', async () => {
    const anon = server.client();
    await anon.get('/api/csrf-cookie');
    expect((await anon.post('/api/messages/delete', { ids: [1] })).status).toBe(401);
  });
});
