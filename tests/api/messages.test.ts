// Mail folders, read side (messages-contract.ts): lists, cursor pagination, search, counters, one message,
// mark read, attachments, and isolation between users and schools.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FolderCount, MessageDetail, MessageSummary } from '../../shared/messages-contract';
import { MAILBOX_SIZES } from '../../server/seed/messages';
import { folderIds, list } from './support/mail';
import { startServer, type Client, type TestServer } from './support/server';
import { FOLDERS } from '../../shared/codes';

const ADMIN = 'administrador@sanandres.cl';
const DOCENTE = 'docente@sanandres.cl';
const ELQUI = 'administrador@liceoelqui.cl';

let server: TestServer;
let admin: Client;
let docente: Client;
let elqui: Client;

beforeAll(async () => {
  server = await startServer();
  admin = server.client();
  docente = server.client();
  elqui = server.client();
  expect((await admin.login(ADMIN)).status).toBe(200);
  expect((await docente.login(DOCENTE)).status).toBe(200);
  expect((await elqui.login(ELQUI)).status).toBe(200);
});
afterAll(async () => {
  await server?.close();
});

const isoUtc = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('GET /api/messages', () => {
  it('lists every folder newest first with the summary shape and the folder total', async () => {
    const kinds = { inbox: 'received', sent: 'sent', scheduled: 'scheduled', draft: 'draft', trash: 'deleted' } as const;
    for (const folder of FOLDERS) {
      const page = await list(admin, `folder=${folder}`);
      // Enviados also holds the school year of activity the seed wrote for them (server/seed/activity.ts).
      const total = folder === 'sent' ? (await folderIds(server.db, ADMIN, 'sent')).length : MAILBOX_SIZES[folder];
      if (folder === 'sent') expect(total).toBeGreaterThan(MAILBOX_SIZES.sent);
      expect(page.meta.total, folder).toBe(total);
      expect(page.data, folder).toHaveLength(Math.min(total, 50));
      expect(page.meta).toMatchObject({ per_page: 50, prev_cursor: null });
      expect(page.meta.next_cursor === null, folder).toBe(total <= 50);
      expect(page.links.prev).toBeNull();
      const dates = page.data.map((m) => m.date);
      expect(dates, folder).toEqual([...dates].sort().reverse());
      for (const m of page.data) {
        expect(m).toEqual({
          id: expect.any(Number),
          folder,
          kind: kinds[folder],
          title: expect.any(String),
          snippet: expect.any(String),
          counterpart: expect.any(String),
          channels: expect.any(Array),
          has_attachments: expect.any(Boolean),
          unread: expect.any(Boolean),
          date: expect.stringMatching(isoUtc),
          deleted_from: folder === 'trash' ? expect.stringMatching(/^(inbox|sent|scheduled|draft)$/) : null,
          // The sent folder's rows carry their delivery progress.
          progress: folder === 'sent' ? expect.objectContaining({ total: expect.any(Number), state: expect.any(String) }) : null,
        });
        expect(m.snippet.length).toBeLessThanOrEqual(140);
        if (folder !== 'inbox' && !(folder === 'trash' && m.deleted_from === 'inbox')) expect(m.unread).toBe(false);
      }
    }
    const inbox = await list(admin, 'folder=inbox');
    expect(inbox.data.some((m) => m.unread)).toBe(true);
    expect(inbox.data.some((m) => m.has_attachments)).toBe(true);
    expect(inbox.data.some((m) => m.title.startsWith('Re: '))).toBe(true);
    const scheduled = await list(admin, 'folder=scheduled');
    for (const m of scheduled.data) expect(Date.parse(m.date)).toBeGreaterThan(Date.parse('2027-01-01T00:00:00Z'));
  });

  it('defaults to the inbox', async () => {
    const page = await list(admin, '');
    expect(page.data.every((m) => m.folder === 'inbox')).toBe(true);
  });

  it('walks every page through the cursor without duplicates or gaps', async () => {
    const expected = await folderIds(server.db, ADMIN, 'inbox');
    const seen: number[] = [];
    let url = '/api/messages?folder=inbox&limit=7';
    for (let pages = 0; pages < 20; pages++) {
      const res = await admin.get(url);
      expect(res.status).toBe(200);
      const page = (await res.json()) as {
        data: MessageSummary[];
        meta: { next_cursor: string | null; total: number; per_page: number };
        links: { next: string | null };
      };
      expect(page.meta.total).toBe(MAILBOX_SIZES.inbox);
      expect(page.meta.per_page).toBe(7);
      seen.push(...page.data.map((m) => m.id));
      if (!page.meta.next_cursor) {
        expect(page.links.next).toBeNull();
        break;
      }
      expect(page.links.next).toContain(`cursor=${page.meta.next_cursor}`);
      url = page.links.next!;
    }
    expect(seen).toEqual(expected);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('walks back with prev_cursor to the same pages', async () => {
    const first = await list(admin, 'folder=inbox&limit=6');
    expect(first.meta.prev_cursor).toBeNull();
    const second = await list(admin, `folder=inbox&limit=6&cursor=${first.meta.next_cursor}`);
    const third = await list(admin, `folder=inbox&limit=6&cursor=${second.meta.next_cursor}`);
    expect(third.meta.prev_cursor).not.toBeNull();
    expect(third.links.prev).toContain(`cursor=${third.meta.prev_cursor}`);
    const back2 = await list(admin, `folder=inbox&limit=6&cursor=${third.meta.prev_cursor}`);
    expect(back2.data.map((m) => m.id)).toEqual(second.data.map((m) => m.id));
    expect(back2.meta.next_cursor).toBe(second.meta.next_cursor);
    const back1 = await list(admin, `folder=inbox&limit=6&cursor=${back2.meta.prev_cursor}`);
    expect(back1.data.map((m) => m.id)).toEqual(first.data.map((m) => m.id));
    expect(back1.meta.prev_cursor).toBeNull();
    expect(back1.links.prev).toBeNull();
  });

  it('searches title, content and counterpart ignoring case and accents', async () => {
    const page = await list(admin, 'folder=sent&q=reunion');
    expect(page.data.length).toBeGreaterThan(0);
    expect(page.meta.total).toBe(page.data.length);
    for (const m of page.data) expect(m.title + m.snippet).toMatch(/reuni[oó]n/i);
    expect(page.data.some((m) => m.title.includes('Reunión'))).toBe(true);

    const upper = await list(admin, `folder=sent&q=${encodeURIComponent('REUNIÓN')}`);
    expect(upper.data.map((m) => m.id)).toEqual(page.data.map((m) => m.id));

    const museo = await list(admin, 'folder=inbox&q=autorizacion%20salida');
    expect(museo.data.some((m) => m.title === 'Autorización salida pedagógica al Museo de Historia Natural')).toBe(true);

    const inbox = await list(admin, 'folder=inbox');
    const sender = inbox.data[0]!.counterpart;
    const bySender = await list(
      admin,
      `folder=inbox&q=${encodeURIComponent(
        sender
          .normalize('NFD')
          .replace(/\p{Diacritic}/gu, '')
          .toUpperCase(),
      )}`,
    );
    expect(bySender.data.map((m) => m.id)).toContain(inbox.data[0]!.id);

    expect((await list(admin, 'folder=inbox&q=%25')).meta.total).toBe(0);
    expect((await list(admin, 'folder=inbox&q=zzzxxyy')).data).toEqual([]);
  });

  it('validates folder, limit and cursor with Spanish errors', async () => {
    for (const query of ['folder=spam', 'limit=0', 'limit=101', 'limit=abc', 'cursor=%%%', 'cursor=bm9wZQ']) {
      const res = await admin.get(`/api/messages?${query}`);
      expect(res.status, query).toBe(422);
      const body = (await res.json()) as { code: string; message: string; errors: Record<string, string[]> };
      expect(body.code).toBe('validation.failed');
      expect(Object.values(body.errors).flat()[0]).toMatch(/[a-z]/);
    }
    expect((await list(admin, 'folder=inbox&limit=100')).meta.per_page).toBe(100);
  });

  it('requires a session', async () => {
    expect((await server.client().get('/api/messages?folder=inbox')).status).toBe(401);
    expect((await server.client().get('/api/messages/info')).status).toBe(401);
  });
});

describe('GET /api/messages/info', () => {
  it('counts each live folder, unread only for received, trash not counted', async () => {
    const res = await docente.get('/api/messages/info');
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: FolderCount[] };
    const inbox = await list(docente, 'folder=inbox');
    expect(data).toEqual([
      { type: 'received', total: MAILBOX_SIZES.inbox, unreads: inbox.data.filter((m) => m.unread).length },
      { type: 'sent', total: (await folderIds(server.db, DOCENTE, 'sent')).length, unreads: 0 },
      { type: 'scheduled', total: MAILBOX_SIZES.scheduled, unreads: 0 },
      { type: 'draft', total: MAILBOX_SIZES.draft, unreads: 0 },
    ]);
    expect(data[0]!.unreads).toBeGreaterThan(0);
  });
});

describe('GET /api/messages/:id', () => {
  it('answers a received message with sender, recipients, attachments and time zone', async () => {
    const inbox = await list(admin, 'folder=inbox');
    const withFile = inbox.data.find((m) => m.has_attachments)!;
    const res = await admin.get(`/api/messages/${withFile.id}`);
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: MessageDetail };
    expect(data).toMatchObject({ ...withFile, reception: null, scheduled_at: null, timezone: 'America/Santiago' });
    expect(data.content.startsWith(withFile.snippet)).toBe(true);
    expect(data.sender.name).toBe(withFile.counterpart);
    expect(['apoderado', 'funcionario']).toContain(data.sender.kind);
    expect(data.attachments.length).toBeGreaterThan(0);
    expect(data.attachments[0]).toEqual({
      id: expect.any(Number),
      name: expect.any(String),
      size: expect.any(Number),
      content_type: expect.any(String),
      url: `/attachments/${data.attachments[0]!.id}`,
    });
    const reply = inbox.data.find((m) => m.title.startsWith('Re: '))!;
    const { data: replyDetail } = (await (await admin.get(`/api/messages/${reply.id}`)).json()) as { data: MessageDetail };
    expect(replyDetail.reply_to_id).toEqual(expect.any(Number));
  });

  it('answers a sent message with reception counts and a scheduled one with its date', async () => {
    const sent = await list(admin, 'folder=sent');
    const { data } = (await (await admin.get(`/api/messages/${sent.data[0]!.id}`)).json()) as { data: MessageDetail };
    expect(data.reception).not.toBeNull();
    const r = data.reception!;
    // One delivery per person and channel, every one settled.
    expect(r.total).toBe(data.recipients_summary.total * data.channels.length);
    expect(r.received + r.read + r.not_received + r.error + r.failed).toBe(r.total);
    expect(data.recipients_summary.label).toBe(data.counterpart);
    expect(data.recipients_summary.groups.reduce((s, g) => s + g.count, 0)).toBe(data.recipients_summary.total);
    expect(data.sender.kind).toBe('funcionario');

    const scheduled = await list(admin, 'folder=scheduled');
    const { data: s } = (await (await admin.get(`/api/messages/${scheduled.data[0]!.id}`)).json()) as { data: MessageDetail };
    expect(s.scheduled_at).toBe(scheduled.data[0]!.date);
    expect(s.reception).toBeNull();
  });

  it('Mexican schools get their own time zone', async () => {
    const mx = server.client();
    await mx.login('administrador@benitojuarez.edu.mx');
    const page = await list(mx, 'folder=inbox');
    const { data } = (await (await mx.get(`/api/messages/${page.data[0]!.id}`)).json()) as { data: MessageDetail };
    expect(data.timezone).toBe('America/Mexico_City');
  });
});

describe('POST /api/messages/:id/read', () => {
  it('marks read, is idempotent, and lowers the unread counter', async () => {
    const before = ((await (await admin.get('/api/messages/info')).json()) as { data: FolderCount[] }).data[0]!;
    const unread = (await list(admin, 'folder=inbox')).data.find((m) => m.unread)!;
    const res = await admin.post(`/api/messages/${unread.id}/read`);
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: MessageSummary };
    expect(data).toEqual({ ...unread, unread: false });
    const { data: detail } = (await (await admin.get(`/api/messages/${unread.id}`)).json()) as { data: MessageDetail };
    expect(detail.read_at).toMatch(isoUtc);

    const again = await admin.post(`/api/messages/${unread.id}/read`);
    expect(again.status).toBe(200);
    const { data: detail2 } = (await (await admin.get(`/api/messages/${unread.id}`)).json()) as { data: MessageDetail };
    expect(detail2.read_at).toBe(detail.read_at);

    const after = ((await (await admin.get('/api/messages/info')).json()) as { data: FolderCount[] }).data[0]!;
    expect(after.unreads).toBe(before.unreads - 1);
    expect(after.total).toBe(before.total);
  });

  it('only applies to received messages (409 otherwise)', async () => {
    const [sentId] = await folderIds(server.db, ADMIN, 'sent');
    const res = await admin.post(`/api/messages/${sentId}/read`);
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({
      code: 'message.illegal_transition',
      message: 'Solo se pueden marcar como leídos los mensajes recibidos.',
    });
  });

  it('enforces CSRF', async () => {
    const [id] = await folderIds(server.db, ADMIN, 'inbox');
    const res = await admin.post(`/api/messages/${id}/read`, undefined, { csrf: false });
    expect(res.status).toBe(419);
  });
});

describe('another user’s or school’s messages do not exist', () => {
  it('answers 404 for get, read, delete, restore, purge and cancel-schedule', async () => {
    const notMine = [
      ...(await folderIds(server.db, DOCENTE, 'inbox')).slice(0, 1),
      ...(await folderIds(server.db, DOCENTE, 'trash')).slice(0, 1),
      ...(await folderIds(server.db, ELQUI, 'inbox')).slice(0, 1),
      ...(await folderIds(server.db, ELQUI, 'scheduled')).slice(0, 1),
    ];
    const notFound = { message: 'El recurso solicitado no existe.', code: 'not_found' };
    for (const id of notMine) {
      for (const res of [
        await admin.get(`/api/messages/${id}`),
        await admin.post(`/api/messages/${id}/read`),
        await admin.post(`/api/messages/${id}/cancel-schedule`),
        await admin.post('/api/messages/delete', { ids: [id] }),
        await admin.post('/api/messages/restore', { ids: [id] }),
        await admin.post('/api/messages/purge', { ids: [id] }),
      ]) {
        expect(res.status, `${id} ${res.url}`).toBe(404);
        expect(await res.json()).toEqual(notFound);
      }
    }
    // One foreign id in a batch fails the whole batch and changes nothing.
    const [mine] = await folderIds(server.db, ADMIN, 'inbox');
    expect((await admin.post('/api/messages/delete', { ids: [mine, notMine[0]] })).status).toBe(404);
    expect((await folderIds(server.db, ADMIN, 'inbox'))[0]).toBe(mine);
    for (const id of ['999999', '0', 'abc']) expect((await admin.get(`/api/messages/${id}`)).status).toBe(404);
  });
});

describe('GET /api/attachments/:id', () => {
  it('downloads the file with attachment headers', async () => {
    const inbox = await list(docente, 'folder=inbox');
    const withFile = inbox.data.find((m) => m.has_attachments)!;
    const { data } = (await (await docente.get(`/api/messages/${withFile.id}`)).json()) as { data: MessageDetail };
    const file = data.attachments[0]!;
    const url = `/api${file.url}`;
    const res = await docente.get(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(file.content_type);
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="${file.name.normalize('NFD').replace(/[^\x20-\x7e]/g, '')}"; filename*=UTF-8''${encodeURIComponent(file.name)}`,
    );
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.length).toBe(file.size);
    if (file.content_type === 'application/pdf') expect(bytes.subarray(0, 8).toString('latin1')).toBe('%PDF-1.4');
    else expect(bytes.toString('utf8')).toContain(withFile.title);

    // Not for other users or schools, nor without a session.
    expect((await elqui.get(url)).status).toBe(404);
    expect((await admin.get(url)).status).toBe(404);
    expect((await server.client().get(url)).status).toBe(401);
    expect((await docente.get('/api/attachments/999999')).status).toBe(404);
  });
});
