// Attachments on disk (POST/DELETE/GET /api/attachments): the 22 MB limit, the type check (declared type,
// extension and content), who may delete or download, and files removed when their message is purged.
import { existsSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ATTACHMENT_MAX_BYTES } from '../../shared/compose-contract';
import { COOKIE, XSRF_HEADER } from '../../shared/contract';
import { AttachmentStore } from '../../server/storage/attachments';
import { ABANDONED_UPLOAD_AGE_MS, deleteAbandonedUploads } from '../../server/storage/sweep';
import { composeInput } from '../fixtures/compose';
import { docxFile, elfFile, exeFile, oleFile, pptxFile, xlsxFile, zipFile } from '../fixtures/files';
import { MB, one, pdfBytes, rows, upload, uploadOk } from './support/compose';
import { startServer, type Client, type TestServer } from './support/server';

let server: TestServer;
let admin: Client;
let docente: Client;

beforeAll(async () => {
  server = await startServer();
  admin = server.client();
  docente = server.client();
  expect((await admin.login('administrador@sanandres.cl')).status).toBe(200);
  expect((await docente.login('docente@sanandres.cl')).status).toBe(200);
});
afterAll(async () => {
  await server?.close();
});

const storageKey = async (id: number) =>
  (await one<{ key: string | null }>(server.db, sql`select storage_key as key from message_attachments where id = ${id}`)).key;

describe('POST /api/attachments', () => {
  it('accepts a file of exactly 22 MB, stores it on disk and lets the owner download it', async () => {
    expect(ATTACHMENT_MAX_BYTES).toBe(22 * MB);
    const bytes = pdfBytes(22 * MB);
    bytes[22 * MB - 1] = 0x2a;
    const file = await uploadOk(admin, 'Circular de fin de año.pdf', 'application/pdf', bytes);
    expect(file).toEqual({
      id: expect.any(Number),
      name: 'Circular de fin de año.pdf',
      size: 22 * MB,
      content_type: 'application/pdf',
      url: `/attachments/${file.id}`,
    });
    const key = await storageKey(file.id);
    expect(key).toMatch(/^\d{4}\/\d{2}\/[0-9a-f-]{36}$/);
    const onDisk = readFileSync(path.join(server.attachmentsDir, key!));
    expect(onDisk.length).toBe(22 * MB);
    expect(onDisk[22 * MB - 1]).toBe(0x2a);
    const row = await one<{ owner: number; message: number | null; content: unknown }>(
      server.db,
      sql`select owner_user_id as owner, message_id as message, content from message_attachments where id = ${file.id}`,
    );
    expect(row.message).toBeNull();
    expect(row.content).toBeNull();

    const res = await admin.get(`/api/attachments/${file.id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-length')).toBe(String(22 * MB));
    const downloaded = new Uint8Array(await res.arrayBuffer());
    expect(downloaded.length).toBe(22 * MB);
    expect(downloaded[22 * MB - 1]).toBe(0x2a);
    // A colleague cannot download someone else's pending upload.
    expect((await docente.get(`/api/attachments/${file.id}`)).status).toBe(404);
  });

  it('refuses 22 MB + 1 byte with 413 attachment.too_large and stores nothing', async () => {
    const before = await one<{ n: number }>(server.db, sql`select count(*)::int as n from message_attachments`);
    const res = await upload(admin, 'grande.pdf', 'application/pdf', pdfBytes(22 * MB + 1));
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ code: 'attachment.too_large', message: 'El archivo supera el máximo de 22 MB.' });
    const after = await one<{ n: number }>(server.db, sql`select count(*)::int as n from message_attachments`);
    expect(after.n).toBe(before.n);
  });

  it('refuses a far larger body by its Content-Length before reading it', async () => {
    // Headers only: the server must answer without waiting for 50 MB that never come.
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${server.url}/api/attachments`, {
        method: 'POST',
        headers: {
          'Content-Type': 'multipart/form-data; boundary=x',
          'Content-Length': String(50 * MB),
          Cookie: [...admin.jar].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; '),
          [XSRF_HEADER]: admin.jar.get(COOKIE.xsrf)!,
        },
      });
      req.on('response', (res) => {
        resolve(res.statusCode!);
        res.resume();
        req.destroy();
      });
      req.on('error', reject);
      req.flushHeaders();
    });
    expect(status).toBe(413);
  });

  it('checks the declared type, the extension and the content', async () => {
    const text = new TextEncoder().encode('esto no es un PDF');
    const refused: [string, string, Uint8Array<ArrayBuffer>][] = [
      ['falso.pdf', 'application/pdf', text],
      ['programa.exe', 'application/x-msdownload', pdfBytes(100)],
      ['foto.jpg', 'image/png', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0])],
      ['foto.png', 'image/png', new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0, 0, 0])],
      ['sin-extension', 'text/plain', text],
    ];
    for (const [name, type, bytes] of refused) {
      const res = await upload(admin, name, type, bytes);
      expect(res.status, name).toBe(415);
      expect(((await res.json()) as { code: string }).code).toBe('attachment.type');
    }
    const accepted: [string, string, Uint8Array<ArrayBuffer>][] = [
      ['notas.txt', 'text/plain', text],
      ['foto.JPG', 'image/jpeg', new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0, 0, 0])],
      ['lista.csv', 'text/csv; charset=utf-8', new TextEncoder().encode('a,b\n1,2\n')],
    ];
    for (const [name, type, bytes] of accepted) {
      const file = await uploadOk(admin, name, type, bytes);
      expect(file.content_type).toBe(type.split(';')[0]);
    }
  });

  it('checks Office files by their container and parts, and text for binary bytes', async () => {
    const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
    const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
    const PPTX = 'application/vnd.openxmlformats-officedocument.presentationml.presentation';
    const latin1 = (s: string) => Uint8Array.from([...s].map((ch) => ch.charCodeAt(0)));
    const utf16 = (s: string) => Uint8Array.from([0xff, 0xfe, ...[...s].flatMap((ch) => [ch.charCodeAt(0), 0])]);
    const before = await one<{ n: number }>(server.db, sql`select count(*)::int as n from message_attachments`);
    const refused: [string, string, Uint8Array<ArrayBuffer>][] = [
      ['programa.docx', DOCX, exeFile()],
      ['programa.txt', 'text/plain', exeFile()],
      ['programa.csv', 'text/csv', elfFile()],
      ['programa.xlsx', XLSX, elfFile()],
      ['programa.doc', 'application/msword', exeFile()],
      // A ZIP that is not an Office document: an executable packed inside, no [Content_Types].xml.
      ['instalador.docx', DOCX, zipFile({ 'setup.exe': exeFile() })],
      // An Office container of another kind than its name says.
      ['planilla.docx', DOCX, xlsxFile()],
      ['documento.pptx', PPTX, docxFile()],
      // A compound file without the stream its kind needs.
      ['vacio.doc', 'application/msword', oleFile([])],
      ['libro.doc', 'application/msword', oleFile(['Workbook'])],
      // The container's first bytes and nothing else.
      ['roto.docx', DOCX, docxFile().slice(0, 100)],
      ['nulos.txt', 'text/plain', new TextEncoder().encode('hola\u0000mundo')],
      ['control.csv', 'text/csv', new TextEncoder().encode('a,b\u0007\n')],
    ];
    for (const [name, type, bytes] of refused) {
      const res = await upload(admin, name, type, bytes);
      expect(res.status, name).toBe(415);
      expect(await res.json(), name).toEqual({
        code: 'attachment.type',
        message: 'El tipo de archivo no está permitido, o su extensión o contenido no corresponden a su tipo.',
      });
    }
    expect((await one<{ n: number }>(server.db, sql`select count(*)::int as n from message_attachments`)).n).toBe(before.n);

    const accepted: [string, string, Uint8Array<ArrayBuffer>][] = [
      ['Citación.docx', DOCX, docxFile()],
      ['Notas 3°B.xlsx', XLSX, xlsxFile()],
      ['Charla.pptx', PPTX, pptxFile()],
      ['Acta.doc', 'application/msword', oleFile(['WordDocument', '\u0001CompObj'])],
      ['Notas.xls', 'application/vnd.ms-excel', oleFile(['Workbook'])],
      ['Notas 1998.xls', 'application/vnd.ms-excel', oleFile(['Book'])],
      ['Charla.ppt', 'application/vnd.ms-powerpoint', oleFile(['PowerPoint Document', 'Current User'])],
      ['curso.csv', 'text/csv', new TextEncoder().encode('\ufeffNombre;Curso\r\nAna Muñoz;3° Básico A\r\n')],
      // What Excel on Windows writes as CSV (Windows-1252) and as "Texto Unicode" (UTF-16 with its mark).
      ['excel.csv', 'text/csv', latin1('Nombre;Comuna\r\nJosé Peña;Ñuñoa\r\n')],
      ['unicode.txt', 'text/plain', utf16('Nombre\tComuna\r\nJosé\tÑuñoa\r\n')],
    ];
    for (const [name, type, bytes] of accepted) {
      const file = await uploadOk(admin, name, type, bytes);
      expect(file.content_type, name).toBe(type);
    }
  });

  it('answers 422 without a file and 401 without a session', async () => {
    const form = new FormData();
    form.set('other', 'x');
    const res = await admin.fetch('/api/attachments', { method: 'POST', body: form });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { errors: Record<string, string[]> }).errors.file).toEqual([
      'Debes adjuntar un archivo en el campo file.',
    ]);
    const anonymous = server.client();
    await anonymous.get('/api/csrf-cookie');
    expect((await upload(anonymous, 'a.txt', 'text/plain', new Uint8Array([65]))).status).toBe(401);
  });
});

describe('DELETE /api/attachments/:id', () => {
  it('deletes the owner’s pending upload and its file; others get 404', async () => {
    const file = await uploadOk(admin, 'borrar.txt', 'text/plain', new TextEncoder().encode('hola'));
    const onDisk = path.join(server.attachmentsDir, (await storageKey(file.id))!);
    expect(existsSync(onDisk)).toBe(true);
    expect((await docente.fetch(`/api/attachments/${file.id}`, { method: 'DELETE' })).status).toBe(404);
    const res = await admin.fetch(`/api/attachments/${file.id}`, { method: 'DELETE' });
    expect(res.status).toBe(204);
    expect(existsSync(onDisk)).toBe(false);
    expect((await admin.fetch(`/api/attachments/${file.id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await admin.get(`/api/attachments/${file.id}`)).status).toBe(404);
  });

  it('deletes an attachment of a draft but refuses one of a sent message with 409', async () => {
    const file = await uploadOk(admin, 'borrador.txt', 'text/plain', new TextEncoder().encode('borrador'));
    const draft = await admin.post('/api/messages/drafts', composeInput({ attachment_ids: [file.id] }));
    expect(draft.status).toBe(201);
    expect((await admin.fetch(`/api/attachments/${file.id}`, { method: 'DELETE' })).status).toBe(204);

    const seeded = await one<{ id: number }>(
      server.db,
      sql`select a.id from message_attachments a join messages m on m.id = a.message_id
          join users u on u.id = a.owner_user_id
          where m.kind = 'sent' and u.email = 'administrador@sanandres.cl' limit 1`,
    );
    const res = await admin.fetch(`/api/attachments/${seeded.id}`, { method: 'DELETE' });
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({
      code: 'attachment.in_use',
      message: 'El adjunto pertenece a un mensaje enviado o programado y no se puede eliminar.',
    });
    // The seeded files live on disk too and still download.
    const download = await admin.get(`/api/attachments/${seeded.id}`);
    expect(download.status).toBe(200);
    expect((await download.arrayBuffer()).byteLength).toBeGreaterThan(0);
  });

  it('removes the files of a draft purged from the trash', async () => {
    const file = await uploadOk(admin, 'purgar.txt', 'text/plain', new TextEncoder().encode('purgar'));
    const onDisk = path.join(server.attachmentsDir, (await storageKey(file.id))!);
    const res = await admin.post('/api/messages/drafts', composeInput({ attachment_ids: [file.id] }));
    const { data } = (await res.json()) as { data: { id: number } };
    expect((await admin.post('/api/messages/delete', { ids: [data.id] })).status).toBe(200);
    expect(existsSync(onDisk)).toBe(true);
    expect((await admin.post('/api/messages/purge', { ids: [data.id] })).status).toBe(200);
    expect(existsSync(onDisk)).toBe(false);
    const left = await one<{ n: number }>(server.db, sql`select count(*)::int as n from message_attachments where id = ${file.id}`);
    expect(left.n).toBe(0);
  });
});

describe('abandoned uploads', () => {
  it('deletes pending uploads older than the cut-off with their files, and nothing attached or recent', async () => {
    const old = await uploadOk(admin, 'olvidado.txt', 'text/plain', new TextEncoder().encode('olvidado'));
    const recent = await uploadOk(admin, 'reciente.txt', 'text/plain', new TextEncoder().encode('reciente'));
    const kept = await uploadOk(admin, 'en-borrador.txt', 'text/plain', new TextEncoder().encode('borrador'));
    expect((await admin.post('/api/messages/drafts', composeInput({ attachment_ids: [kept.id] }))).status).toBe(201);
    const longAgo = new Date(Date.now() - ABANDONED_UPLOAD_AGE_MS - 3600_000);
    await server.db.execute(sql`update message_attachments set created_at = ${longAgo} where id in (${old.id}, ${kept.id})`);
    const oldFile = path.join(server.attachmentsDir, (await storageKey(old.id))!);
    const keptFile = path.join(server.attachmentsDir, (await storageKey(kept.id))!);

    const removed = await deleteAbandonedUploads(
      server.db,
      new AttachmentStore(server.attachmentsDir),
      new Date(Date.now() - ABANDONED_UPLOAD_AGE_MS),
    );

    expect(removed).toBe(1);
    expect(existsSync(oldFile)).toBe(false);
    expect(existsSync(keptFile)).toBe(true);
    const left = await rows<{ id: number }>(
      server.db,
      sql`select id from message_attachments where id in (${old.id}, ${recent.id}, ${kept.id}) order by id`,
    );
    expect(left.map((row) => row.id)).toEqual([recent.id, kept.id]);
  });
});

describe('legacy attachments', () => {
  it('still downloads rows whose bytes are in the database', async () => {
    const seeded = await one<{ id: number; key: string }>(
      server.db,
      sql`select a.id, a.storage_key as key from message_attachments a join mailbox_entries e on e.message_id = a.message_id
          join users u on u.id = e.user_id where u.email = 'administrador@sanandres.cl' and a.storage_key is not null limit 1`,
    );
    const bytes = readFileSync(path.join(server.attachmentsDir, seeded.key));
    await server.db.execute(sql`update message_attachments set content = ${bytes}, storage_key = null where id = ${seeded.id}`);
    const res = await admin.get(`/api/attachments/${seeded.id}`);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
  });
});
