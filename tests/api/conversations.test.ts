// A conversation as staff read it (GET /api/messages/:id): a guardian's message names whose guardian the
// sender is (each child and course, from the school's own records), and the conversation carries every
// message whole, not its first words.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessageDetail } from '../../shared/messages-contract';
import { composeInput } from '../fixtures/compose';
import { one, rows, send } from './support/compose';
import { startServer, type Client, type TestServer } from './support/server';

let server: TestServer;
let admin: Client;

beforeAll(async () => {
  server = await startServer();
  admin = server.client();
  expect((await admin.login('administrador@sanandres.cl')).status).toBe(200);
});
afterAll(async () => {
  await server?.close();
});

async function detailOf(id: number): Promise<MessageDetail> {
  const res = await admin.get(`/api/messages/${id}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: MessageDetail }).data;
}

/** The guardian's enrolled children as the school registered them: the titular ones first, then by name. */
function childrenOf(guardianId: number) {
  return rows<{ student: string; course: string; relationship: string }>(
    server.db,
    sql`select s.first_names || ' ' || s.last_name_father || ' ' || s.last_name_mother as student, c.name as course, sg.relationship
        from student_guardians sg join students s on s.id = sg.student_id join courses c on c.id = s.course_id
        where sg.guardian_id = ${guardianId} and s.withdrawn_at is null
        order by sg.role, s.first_names, s.last_name_father, s.last_name_mother, s.id`,
  );
}

describe('a conversation with a family', () => {
  it('names whose guardian wrote: each child and course, in the message and in the conversation; staff senders name none', async () => {
    // An answer from a guardian to one of the administrator's messages (the seed's «Re: …»).
    const answer = await one<{ id: number; guardian: number; original: number }>(
      server.db,
      sql`select m.id, m.sender_ref_id as guardian, m.reply_to_id as original from messages m
          join mailbox_entries e on e.message_id = m.id and e.folder = 'inbox'
          join users u on u.id = e.user_id and u.email = 'administrador@sanandres.cl'
          where m.sender_kind = 'apoderado' and m.reply_to_id is not null order by m.id limit 1`,
    );
    const children = await childrenOf(answer.guardian);
    expect(children.length).toBeGreaterThan(0);
    const detail = await detailOf(answer.id);
    expect(detail.sender.kind).toBe('apoderado');
    expect(detail.sender_of).toEqual(children);

    // The administrator's own message names no child; in its conversation, the answer names them.
    const original = await detailOf(answer.original);
    expect(original.sender_of).toEqual([]);
    const inThread = original.thread.find((m) => m.id === answer.id)!;
    expect(inThread.sender_of).toEqual(children);
    expect(detail.thread.find((m) => m.id === answer.original)!.sender_of).toEqual([]);
  });

  it('carries every message of the conversation whole, however long', async () => {
    const question = await one<{ id: number; guardian: number; content: string }>(
      server.db,
      sql`select m.id, m.sender_ref_id as guardian, m.content from messages m
          join mailbox_entries e on e.message_id = m.id and e.folder = 'inbox'
          join users u on u.id = e.user_id and u.email = 'administrador@sanandres.cl'
          where m.sender_kind = 'apoderado' and m.reply_to_id is null order by m.id limit 1`,
    );
    const long = [
      'Estimada familia: recibimos el justificativo y quedó registrado en el libro de clases.',
      '',
      'Les recordamos que las evaluaciones pendientes se recuperan el martes a las 15:30 en la biblioteca, con el',
      'profesor de la asignatura. Si no puede asistir ese día, avísenos por este medio y buscamos otra fecha.',
    ].join('\n');
    expect(long.length).toBeGreaterThan(280);
    const sent = await send(admin, {
      ...composeInput({
        title: 'Re: justificativo',
        content: long,
        channels: ['e-mail'],
        recipients: [{ kind: 'guardian', id: question.guardian }],
        allow_replies: true,
      }),
      reply_to_id: question.id,
    });
    expect(sent.status).toBe(201);
    const reply = ((await sent.json()) as { data: { id: number } }).data.id;

    const asked = await detailOf(question.id);
    expect(asked.thread.find((m) => m.id === reply)?.content).toBe(long);
    const answered = await detailOf(reply);
    expect(answered.thread.find((m) => m.id === question.id)?.content).toBe(question.content);
  });
});
