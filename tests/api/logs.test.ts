// Privacy of the error log: a failing query's parameters (message texts, e-mails, phones), the database's
// own echo of the failing row and the query's literals never reach the log; the route, the error's class,
// its SQLSTATE and the constraint or table do. The database faults are real, injected in this file's
// private copy of the seeded database.
import { format } from 'node:util';
import { sql } from 'drizzle-orm';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi, type MockInstance } from 'vitest';
import { createLogger } from '../../server/log';
import { DEMO_PASSWORD } from '../../shared/demo';
import { composeInput } from '../fixtures/compose';
import { startServer, type Client, type TestServer } from './support/server';

let server: TestServer;
let logging: Awaited<ReturnType<TestServer['sibling']>>;
let errorSpy: MockInstance<typeof console.error>;
/** What console.error printed, as the terminal shows it. */
let printed: string[] = [];

beforeAll(async () => {
  server = await startServer();
  // The same app with error logging on, as in production.
  logging = await server.sibling({ config: { log: 'error' } });
});
afterAll(async () => {
  await server?.close();
});
beforeAll(() => {
  errorSpy = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    printed.push(format(...args));
  });
});
afterEach(() => {
  printed = [];
});
afterAll(() => {
  errorSpy.mockRestore();
});

const log = () => printed.join('\n');

function expectNone(text: string, secrets: string[]) {
  for (const secret of secrets) expect(text, secret).not.toContain(secret);
  expect(text).not.toMatch(/params|Failing row|Failed query/i);
}

const TITLE = 'Reunión privada con la familia Pérez Soto';
const CONTENT = 'Juana, la llamo al +56 9 8765 4321 o le escribo a juana.perez@correo.cl por lo de Tomás.';

describe('error log', () => {
  it('keeps the route and the constraint of a failed insert, not the title or content it carried', async () => {
    const client: Client = logging.client();
    expect((await client.login('docente@sanandres.cl')).status).toBe(200);
    await server.db.execute(sql.raw(`alter table messages add constraint hermes_log_fault check (title not like '%privada%')`));
    try {
      const res = await client.post('/api/messages/drafts', composeInput({ title: TITLE, content: CONTENT }));
      expect(res.status).toBe(500);
    } finally {
      await server.db.execute(sql.raw('alter table messages drop constraint hermes_log_fault'));
    }
    const text = log();
    expect(text).toContain('POST /api/messages/drafts');
    expect(text).toContain('DrizzleQueryError');
    expect(text).toContain('23514');
    expect(text).toContain('hermes_log_fault');
    expectNone(text, [TITLE, 'privada', 'Juana', '8765', 'juana.perez@correo.cl', 'Tomás', 'tomas']);
  });

  it('keeps the route of a failed sign-in, not the e-mail or the password', async () => {
    const client = logging.client();
    await client.get('/api/csrf-cookie');
    await server.db.execute(sql.raw('alter table users rename column password_hash to password_hash_fault'));
    try {
      const res = await client.post('/api/login', { email: 'docente@sanandres.cl', password: DEMO_PASSWORD });
      expect(res.status).toBe(500);
    } finally {
      await server.db.execute(sql.raw('alter table users rename column password_hash_fault to password_hash'));
    }
    const text = log();
    expect(text).toContain('POST /api/login');
    expect(text).toContain('42703');
    expectNone(text, ['docente@sanandres.cl', DEMO_PASSWORD]);
  });

  it('reduces a real failed query to its class, code, table and constraint', async () => {
    const email = 'juana.perez@correo.cl';
    const phone = '+56 9 8765 4321';
    const failure: unknown = await server.db
      .execute(
        sql`insert into guardians (institution_id, first_names, last_name_father, last_name_mother, email, phone)
            values (1, 'Juana Andrea', 'Pérez', 'Soto', ${email}, ${phone})`,
      )
      .then(
        () => null,
        (err: unknown) => err,
      );
    expect(failure).toBeInstanceOf(DrizzleQueryError);
    expect(String((failure as Error).message)).toContain(email); // what the log must not repeat
    createLogger('error').error('POST /api/guardians/7 falló', failure);
    const text = log();
    expect(text).toContain('POST /api/guardians/7 falló');
    expect(text).toMatch(/DrizzleQueryError.*23514.*guardians.*guardians_phone_e164_check/s);
    expectNone(text, [email, phone, '8765', 'Juana', 'Andrea', 'Pérez', 'Soto']);
  });

  it('keeps an unexpected error’s class and codes, not its message, which may echo an address', () => {
    const smtp = Object.assign(
      new Error('Can’t send mail - all recipients were rejected: 550 5.1.1 <juana.perez@correo.cl>: unknown user'),
      {
        code: 'EENVELOPE',
        responseCode: 550,
        command: 'RCPT TO',
        rejected: ['juana.perez@correo.cl'],
      },
    );
    createLogger('error').error('Canal e-mail: error inesperado en el envío 41', smtp);
    const text = log();
    expect(text).toContain('Canal e-mail: error inesperado en el envío 41');
    expect(text).toMatch(/Error.*EENVELOPE.*550/);
    expectNone(text, ['juana', 'correo.cl', 'recipients were rejected']);
  });
});
