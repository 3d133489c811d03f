// Fuzz of the whole API against the real server, with the delivery engine (so the guardian app is mounted).
// The routes come from the Hono app itself (`app.routes`), so a new route is fuzzed without touching this
// file: every POST/PUT/PATCH/DELETE gets junk bodies (wrong types, control characters, lone surrogates,
// ~1 MB strings, 10k levels of nesting, numbers out of range, broken JSON, forms), every GET junk in each
// query parameter it reads (found by watching which ones it asks for) and every path parameter real seeded
// ids and junk. It runs as a seeded administrator with a valid XSRF token, a guardian's bearer token under
// /api/app and a valid signature on half of the provider reports, so the junk gets past the doors.
//
// Nothing may answer 5xx, and every /api error is JSON with a message. Deterministic: a failure names its
// case; HERMES_FUZZ_SEED=<n> runs another sequence, HERMES_FUZZ_TRACE=<file> writes every case and its answer.
import { createHmac } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { HonoRequest } from 'hono/request';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_HEADER } from '../../shared/compose-contract';
import { COOKIE } from '../../shared/contract';
import { createApp } from '../../server/app';
import { openSession } from '../../server/app-api/tokens';
import { SIGNATURE_HEADER } from '../../server/delivery/provider';
import { AttachmentStore } from '../../server/storage/attachments';
import { rows, send as sendMessage } from './support/compose';
import { startServer, testConfig, type Client, type TestServer } from './support/server';

const SEED = Number(process.env.HERMES_FUZZ_SEED ?? 20_260_311);
const ADMIN = 'administrador@sanandres.cl';
/** Cases per route with a body, per query parameter of a GET route, and per path parameter. */
const BODY_CASES = 64;
const QUERY_CASES = 5;
const PATH_CASES = 6;
/** Query parameters the API uses somewhere, tried on every GET route besides the ones it is seen reading. */
const COMMON_QUERY = ['q', 'page', 'per_page', 'limit', 'cursor', 'folder', 'status'];

// --- deterministic randomness ---------------------------------------------------------------------------

/** mulberry32: small, fast and good enough to pick junk; the same seed gives the same run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
const rng = prng(SEED);
const int = (n: number) => Math.floor(rng() * n);
const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;

// --- junk --------------------------------------------------------------------------------------------

const NASTY_STRINGS = [
  '',
  ' ',
  'a',
  '\u0000',
  'a\u0000b',
  '\u0001',
  '\u0007',
  '\u001b[31m',
  '\u007f',
  '\u0085',
  '\u009f',
  '\t\r\n',
  '\r',
  '\ud800',
  '\udfff',
  'x\ud83d',
  '\ude00x',
  '\ud83d\ude00',
  '🎉',
  'ñandú',
  'Ω≈ç√∫',
  '\u202eabc',
  '\ufeff',
  '\uffff',
  '\u2028',
  "' OR 1=1 --",
  '"; drop table messages; --',
  '%00',
  '%',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  '__proto__',
  'constructor',
  'null',
  'true',
  '0',
  '-1',
  '1e309',
  'NaN',
  '2026-03-10T12:00:00Z',
  '2026-02-30T25:61:00Z',
  '9999-12-31T23:59:59.999Z',
  '+275760-09-13T00:00:00.000Z',
  '0000-01-01T00:00:00Z',
  'administrador@sanandres.cl',
  'a@b.c',
  '+56912345678',
  '912345678',
  '123456',
  'sms',
  'e-mail',
  'app-mobile',
  'whatsapp',
  'course',
  'staff',
  'apoderados',
  'inbox',
  'trash',
  'hermes-1-0',
  'hermes-99999999999999999999-0',
  'delivered',
  'read',
];
/** Text the database cannot keep, alone and inside ordinary words: drawn often, the edge must see it everywhere. */
const BAD_TEXT = [
  '\u0000',
  'Reunión\u0000',
  'a\u0001b',
  '\u000b',
  '\u000c',
  '\u001f',
  'fin\u007f',
  '\u0085',
  '\ud800',
  'fin \udc00',
  'x\ud83d',
];
/** Times PostgreSQL cannot store, though JavaScript parses them. */
const BAD_TIMES = [
  '0000-01-01T00:00:00Z',
  '0001-01-01T00:00:00+01:00',
  '-000001-01-01T00:00:00Z',
  '+275760-09-13T00:00:00.000Z',
  '9999-12-31T23:00:00-02:00',
];
const text = () => {
  const roll = rng();
  return roll < 0.35 ? pick(BAD_TEXT) : roll < 0.45 ? pick(BAD_TIMES) : pick(NASTY_STRINGS);
};
/** Numbers as JSON text: JSON.parse reads 1e400 as Infinity and keeps -0, things JSON.stringify never writes. */
const NASTY_NUMBERS = [
  '0',
  '-0',
  '1',
  '-1',
  '1.5',
  '2147483647',
  '2147483648',
  '-2147483649',
  '9007199254740993',
  '1e308',
  '-1e308',
  '1e400',
  '-1e400',
  '5e-324',
  '1e-400',
  '0.1',
  '123456789012345678901234567890',
];
/** No lone surrogate (encodeURIComponent and File names cannot carry one). */
const wellFormed = (text: string) => !/\p{Cs}/u.test(text);
const FIELD_NAMES = [
  'title',
  'content',
  'channels',
  'recipients',
  'attachment_ids',
  'allow_replies',
  'copy_to_sender',
  'scheduled_at',
  'draft_id',
  'reply_to_id',
  'ids',
  'email',
  'password',
  'phone',
  'code',
  'signature',
  'is_active',
  'reference',
  'status',
  'at',
  'kind',
  'id',
  'audience',
  'label',
  'file',
  'name',
  '__proto__',
  'constructor',
  '',
  'a\u0000',
  '\ud800',
];

/** Values too big for anyone to type: near and past the 1 MB body limit, 10k levels deep, 50k items. */
function hugeJson(): string {
  switch (int(6)) {
    case 0:
      return JSON.stringify('x'.repeat(900_000));
    case 1:
      return JSON.stringify('ñ'.repeat(600_000)); // Over 1 MB in UTF-8, under it in characters.
    case 2:
      return '['.repeat(10_000) + ']'.repeat(10_000);
    case 3:
      return `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`;
    case 4:
      return `[${Array.from({ length: 50_000 }, (_, i) => i).join(',')}]`;
    default:
      return JSON.stringify(Array.from({ length: 2_000 }, () => pick(NASTY_STRINGS)));
  }
}

/** A random JSON value, as text. */
function jsonText(depth = 0): string {
  const roll = rng();
  if (roll < 0.03) return hugeJson();
  if (depth > 3 || roll < 0.4) {
    switch (int(5)) {
      case 0:
      case 1:
        return JSON.stringify(text());
      case 2:
        return pick(NASTY_NUMBERS);
      case 3:
        return pick(['true', 'false', 'null']);
      default:
        return String(pick(realIds.any));
    }
  }
  if (roll < 0.7) return `[${Array.from({ length: int(4) }, () => jsonText(depth + 1)).join(',')}]`;
  return objectText(depth + 1);
}

function objectText(depth: number, keys: readonly string[] = FIELD_NAMES): string {
  const entries = Array.from({ length: 1 + int(4) }, () => `${JSON.stringify(pick(keys))}:${jsonText(depth)}`);
  return `{${entries.join(',')}}`;
}

/** Every place in a value (its own root excluded), as key paths. */
function placesIn(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  if (typeof value !== 'object' || value === null) return [];
  const entries: [string | number, unknown][] = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
  return entries.flatMap(([key, child]) => [[...at, key], ...placesIn(child, [...at, key])]);
}

/**
 * The route's real body with one to three places spoiled (a leaf or a branch, deep ones too, e.g. a pick's
 * label): junk text, any JSON, or gone. Junk goes in as raw JSON text through a placeholder, so it can be
 * what JSON.stringify never writes (1e400, 10k levels).
 */
function spoil(base: Record<string, unknown>): string {
  const body = structuredClone(base);
  const junk = new Map<string, string>();
  for (let n = pick([1, 1, 1, 2, 2, 3]); n > 0; n--) {
    const places = placesIn(body);
    const path = rng() < 0.85 && places.length > 0 ? pick(places) : [pick(FIELD_NAMES)];
    const parent = path.slice(0, -1).reduce<unknown>((v, k) => (v as Record<string | number, unknown>)?.[k], body);
    if (typeof parent !== 'object' || parent === null) continue;
    const key = path.at(-1)!;
    const roll = rng();
    if (roll < 0.1 && !Array.isArray(parent)) delete (parent as Record<string | number, unknown>)[key];
    else if (roll < 0.55) (parent as Record<string | number, unknown>)[key] = text();
    else {
      const token = `\ue000${junk.size}\ue000`;
      junk.set(JSON.stringify(token), jsonText(1));
      (parent as Record<string | number, unknown>)[key] = token;
    }
  }
  let json = JSON.stringify(body);
  for (const [token, raw] of junk) json = json.replace(token, raw);
  return json;
}

/** A body for a route: mostly its real shape with a few places spoiled, sometimes anything at all. */
function bodyFor(base: Record<string, unknown> | null): { body: string | FormData; type?: string; note: string } {
  const roll = rng();
  if (base && roll < 0.55) return { body: spoil(base), note: 'spoiled' };
  if (roll < 0.72) return { body: objectText(0, base ? [...Object.keys(base), ...FIELD_NAMES] : FIELD_NAMES), note: 'object' };
  if (roll < 0.85) return { body: jsonText(), note: 'json' };
  switch (int(7)) {
    case 0:
      return { body: '', note: 'empty' };
    case 1:
      return { body: JSON.stringify(base ?? {}).slice(0, -1 - int(5)), note: 'truncated' };
    case 2:
      return { body: String.fromCharCode(...Array.from({ length: 64 }, () => int(256))), type: 'application/octet-stream', note: 'bytes' };
    case 3:
      return {
        body: `title=a%00b&content=${encodeURIComponent(pick(NASTY_STRINGS.filter(wellFormed)))}&ids=1`,
        type: 'application/x-www-form-urlencoded',
        note: 'urlencoded',
      };
    case 4:
      return {
        body: JSON.stringify(base ?? {}),
        type: pick(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']),
        note: 'mislabelled',
      };
    default: {
      const form = new FormData();
      const name = pick(['file', 'title', 'a\u0000', 'x']);
      if (rng() < 0.6)
        form.set(
          name,
          new File([pick(['hola', '%PDF-1.4\n', '\u0000\u0001'])], pick(NASTY_STRINGS.filter(wellFormed)) || 'x.txt', {
            type: pick(['text/plain', 'application/pdf', 'image/png', '', 'x/\u00e9']),
          }),
        );
      else form.set(name, text());
      return { body: form, note: 'multipart' };
    }
  }
}

const NASTY_QUERY = [
  '',
  '%00',
  'a%00b',
  '%01',
  '%7F',
  '%C2%85',
  '%ED%A0%80',
  '%F0%9F%8E%89',
  '%C0%AF',
  '%FF',
  '%',
  '%zz',
  '+',
  '%2B',
  '%26',
  '%3D',
  '-1',
  '0',
  '1',
  '2147483648',
  '99999999999999999999',
  '1.5',
  '1e3',
  'NaN',
  'abc',
  'inbox',
  'sent',
  'all',
  'failed',
  'x'.repeat(7_000),
  '%2F..%2F',
  'eyJ4IjoxfQ',
  'bnVsbA',
  '__proto__',
];
const NASTY_PATH = [
  '0',
  '-1',
  '00',
  '1.0',
  '1e3',
  '2147483648',
  '99999999999999999999',
  'abc',
  '%00',
  '1%00',
  '%ED%A0%80',
  '%C0%AF',
  '%FF',
  '%20',
  '..',
  '%2e%2e',
  '%2F',
  'null',
  '%F0%9F%92%A5',
  'a'.repeat(3_000),
  'sms',
  'whatsapp',
];

// --- the seeded world --------------------------------------------------------------------------------

let server: TestServer;
let client: Client;
const realIds = { any: [1] as number[], byRoute: [] as [RegExp, number[]][] };
const guardian = { id: 0, institutionId: 0, phone: '' };
const seeded = { staff: 0, drafts: [] as number[], references: [] as string[] };
const secret = testConfig().webhookSecret;
const signature = (body: string) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

async function ids(query: ReturnType<typeof sql>): Promise<number[]> {
  return (await rows<{ id: number }>(server.db, query)).map((r) => Number(r.id));
}

beforeAll(async () => {
  server = await startServer({ delivery: true });
  client = server.client();
  expect((await client.login(ADMIN)).status).toBe(200);
  const [admin] = await rows<{ id: number; institution_id: number }>(
    server.db,
    sql`select id, institution_id from users where email = ${ADMIN}`,
  );
  const [g] = await rows<{ id: number; institution_id: number; phone: string }>(
    server.db,
    sql`select id, institution_id, phone from guardians where institution_id = ${admin!.institution_id}
      and app_installed_at is not null and phone is not null order by id limit 1`,
  );
  Object.assign(guardian, { id: g!.id, institutionId: g!.institution_id, phone: g!.phone });
  // One message to that guardian by SMS and the app (replies allowed): a real provider reference for the
  // webhook and a message in the guardian's app for its routes.
  const message = {
    title: 'Aviso',
    content: 'Mañana no hay clases.',
    channels: ['sms', 'app-mobile'],
    recipients: [{ kind: 'guardian', id: g!.id }],
    allow_replies: true,
  };
  expect((await sendMessage(client, message)).status).toBe(201);

  const mine = await ids(sql`select message_id as id from mailbox_entries where user_id = ${admin!.id} order by id limit 30`);
  seeded.drafts = await ids(
    sql`select message_id as id from mailbox_entries where user_id = ${admin!.id} and folder = 'draft' order by id limit 10`,
  );
  seeded.staff = (
    await ids(sql`select id from staff where institution_id = ${admin!.institution_id} and user_id is not null order by id limit 1`)
  )[0]!;
  seeded.references = (
    await rows<{ id: number; generation: number }>(server.db, sql`select id, generation from deliveries where channel = 'sms' order by id`)
  ).map((d) => `hermes-${d.id}-${d.generation}`);
  // Own ids and other schools' (a 404 is a path too), per resource; anything else gets small integers.
  realIds.byRoute = [
    [/^\/api\/messages\/drafts\//, seeded.drafts],
    [/^\/api\/messages\//, mine],
    [/^\/api\/attachments\//, await ids(sql`select id from message_attachments order by id limit 20`)],
    [/^\/api\/courses\//, await ids(sql`select id from courses order by institution_id desc, id limit 20`)],
    [/^\/api\/recipient-lists\//, await ids(sql`select id from recipient_lists order by id limit 20`)],
    // Students and guardians of the fuzzer's school and of others, for the people routes.
    [/^\/api\/people\//, await ids(sql`select id from students order by institution_id desc, id limit 20`)],
    [/^\/api\/institutions-signatures\//, await ids(sql`select id from institution_signatures order by id limit 10`)],
    [/^\/api\/templates\//, await ids(sql`select id from templates order by id limit 30`)],
    [
      /^\/api\/app\/messages\//,
      await ids(
        sql`select distinct r.message_id as id from message_recipients r join deliveries d on d.recipient_id = r.id where d.address = ${`guardian:${g!.id}`} order by 1 limit 20`,
      ),
    ],
  ];
  realIds.any = [...new Set(realIds.byRoute.flatMap(([, list]) => list.slice(0, 5)))];
});
afterAll(async () => {
  await server?.close();
});

/** The real shape of each route's body, spoiled by the fuzzer; a route not listed gets arbitrary objects. */
function baseBody(method: string, path: string): Record<string, unknown> | null {
  const compose = {
    title: 'Reunión',
    content: 'Hola',
    channels: ['e-mail'],
    recipients: [{ kind: 'staff', id: seeded.staff, label: 'Colega' }],
    attachment_ids: [],
    allow_replies: true,
    copy_to_sender: false,
    scheduled_at: null,
    draft_id: null,
    reply_to_id: null,
  };
  const bases: Record<string, Record<string, unknown>> = {
    // A wrong password: the fuzzer must not sign itself in as someone else.
    'POST /api/login': { email: 'docente@sanandres.cl', password: 'incorrecta' },
    'POST /api/messages/drafts': compose,
    'PUT /api/messages/drafts/:id': compose,
    'POST /api/messages/estimate': compose,
    'POST /api/messages/send': compose,
    'POST /api/messages/schedule': { ...compose, scheduled_at: new Date(Date.now() + 86_400_000).toISOString() },
    'POST /api/messages/delete': { ids: realIds.any.slice(0, 3) },
    'POST /api/messages/restore': { ids: realIds.any.slice(0, 3) },
    'POST /api/messages/purge': { ids: realIds.any.slice(0, 3) },
    'PATCH /api/institutions-signatures/:id': { signature: 'CSA', is_active: true },
    'POST /api/templates': { name: 'Plantilla', content: 'Hola {estudiante}' },
    'PATCH /api/templates/:id': { name: 'Otra plantilla', content: 'Hola' },
    'POST /api/recipient-lists': { name: 'Lista', picks: [{ kind: 'staff', id: seeded.staff }], shared: false },
    'PATCH /api/recipient-lists/:id': { name: 'Otra lista', shared: true },
    'POST /api/recipient-lists/:id/members': { picks: [{ kind: 'staff', id: seeded.staff }] },
    'PATCH /api/recipient-lists/:id/users/:memberId': {
      nombres: 'Ana',
      apellido_paterno: 'Pérez',
      email: 'ana@example.cl',
      fono_celular: '+56 9 8765 4321',
      dni: '12.345.678-5',
      tipo_documento_id: 1,
    },
    'POST /api/recipient-lists/:id/users/:memberId/correction': { note: 'El celular correcto es +56 9 9747 3752.' },
    'PATCH /api/people/:kind/:id': { nombres: 'Ana', email: 'ana@example.cl', fono_celular: '+56 9 8765 4321' },
    'POST /api/people/estudiante/:id/guardians': {
      nombres: 'Ana',
      apellido_paterno: 'Pérez',
      fono_celular: '+56 9 8765 4321',
      dni: '12.345.678-5',
      tipo_documento_id: 1,
      rol_adulto_id: 2,
      relationship: 'Madre',
    },
    'POST /api/webhooks/provider/:channel': { reference: seeded.references[0], status: 'delivered', at: new Date().toISOString() },
    'POST /api/app/session/code': { phone: guardian.phone },
    'POST /api/app/session': { phone: guardian.phone, code: '123456' },
    'POST /api/app/messages/:id/reply': { content: 'Gracias' },
  };
  return bases[`${method} ${path}`] ?? null;
}

/** Fills a route's path parameters: a real id of its resource most times, junk otherwise. */
function fillPath(path: string, junk: boolean): string {
  const real = realIds.byRoute.find(([re]) => re.test(path))?.[1] ?? [];
  return path.replace(/:(\w+)(\{[^}]*\})?/g, (_, name: string) => {
    if (junk) return pick(NASTY_PATH);
    if (name === 'channel') return pick(['sms', 'whatsapp']);
    if (name === 'kind') return pick(['estudiante', 'apoderado']);
    return String(real.length > 0 ? pick(real) : 1 + int(20));
  });
}

// --- sending and checking ---------------------------------------------------------------------------

interface Failure {
  case: string;
  status: number;
  answer: string;
}
const failures: Failure[] = [];
let sent = 0;

const describeBody = (body: unknown) =>
  body instanceof FormData
    ? `multipart(${[...body.keys()].map((k) => JSON.stringify(k)).join(',')})`
    : JSON.stringify(String(body ?? '').slice(0, 160));

async function send(method: string, url: string, init: { body?: string | FormData; type?: string; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { ...init.headers };
  if (init.type) headers['Content-Type'] = init.type;
  else if (typeof init.body === 'string') headers['Content-Type'] = 'application/json';
  if (url.startsWith('/api/app/')) headers.Authorization = `Bearer ${(await openSession(server.db, guardian, new Date())).token}`;
  if (url.startsWith('/api/webhooks/') && typeof init.body === 'string' && rng() < 0.5) headers[SIGNATURE_HEADER] = signature(init.body);
  const label = `#${sent++} ${method} ${url.length > 200 ? `${url.slice(0, 200)}…` : url} ${init.body === undefined ? '' : describeBody(init.body)}`;
  let res: Response;
  let answer: string;
  try {
    res = await client.fetch(url, { method, headers, body: init.body });
    answer = await res.text();
  } catch (error) {
    if (process.env.HERMES_FUZZ_TRACE) appendFileSync(process.env.HERMES_FUZZ_TRACE, `ERR ${label.slice(0, 150)}\n`);
    failures.push({ case: label, status: 0, answer: `${String(error)} ${String((error as { cause?: unknown }).cause)}` });
    return null;
  }
  // 431: Node's HTTP parser refuses a request line over 16 KB itself, before the app sees it.
  const apiError = url.startsWith('/api/') && res.status >= 400 && res.status !== 431 && !isApiError(answer);
  if (process.env.HERMES_FUZZ_TRACE)
    appendFileSync(
      process.env.HERMES_FUZZ_TRACE,
      `${res.status} ${label.slice(0, 150)} len=${typeof init.body === 'string' ? init.body.length : '-'} → ${answer.slice(0, 120)}\n`,
    );
  if (res.status >= 500 || apiError) failures.push({ case: label, status: res.status, answer: answer.slice(0, 300) });
  return res;
}

function isApiError(text: string): boolean {
  try {
    const body = JSON.parse(text) as { message?: unknown };
    return typeof body.message === 'string' && body.message !== '';
  } catch {
    return false;
  }
}

/** Signs the fuzzer in again when a case ended its session (logout, a refused refresh…). */
async function stillSignedIn() {
  if (!client.jar.has(COOKIE.session)) expect((await client.login(ADMIN)).status).toBe(200);
}

/** Query parameters each request asks Hono for, to fuzz the ones a GET route reads. */
function watchQueries(): { taken(): string[]; stop(): void } {
  const proto = HonoRequest.prototype as unknown as Record<'query' | 'queries', (this: HonoRequest, key?: string) => unknown>;
  const original = { query: proto.query, queries: proto.queries };
  const seen = new Set<string>();
  for (const name of ['query', 'queries'] as const) {
    proto[name] = function (this: HonoRequest, key?: string) {
      if (key !== undefined) seen.add(key);
      return original[name].call(this, key);
    };
  }
  return {
    taken: () => {
      const keys = [...seen];
      seen.clear();
      return keys;
    },
    stop: () => Object.assign(proto, original),
  };
}

/** A query value as it goes on the wire: junk already percent-encoded, or text encoded when it can be. */
function queryValue(): string {
  if (rng() < 0.6) return pick(NASTY_QUERY);
  const value = text();
  return wellFormed(value) ? encodeURIComponent(value) : '%ED%A0%80';
}

// --- what it found, kept as plain tests ---------------------------------------------------------------

describe('found by the fuzzer', () => {
  it('a draft scheduled outside the years the database holds is a field error, not a 500', async () => {
    const draft = { title: 'Acto', content: 'Hola', scheduled_at: '' };
    for (const at of ['0000-01-01T00:00:00Z', '0001-01-01T00:00:00+01:00', '9999-12-31T23:00:00-02:00']) {
      const res = await client.post('/api/messages/drafts', { ...draft, scheduled_at: at });
      expect(res.status, at).toBe(422);
      expect(((await res.json()) as { errors: Record<string, string[]> }).errors).toEqual({
        scheduled_at: ['La fecha de envío no es válida.'],
      });
    }
    expect((await client.post('/api/messages/drafts', { ...draft, scheduled_at: '0001-01-01T00:00:00Z' })).status).toBe(201);
  });

  it('a signed provider report timed outside those years counts from now, as one with no time does', async () => {
    for (const at of BAD_TIMES) {
      const body = JSON.stringify({ reference: seeded.references[0], status: 'delivered', at });
      const res = await client.fetch('/api/webhooks/provider/sms', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', [SIGNATURE_HEADER]: signature(body) },
        body,
      });
      expect(res.status, at).toBe(200);
    }
  });

  it('a body over 1 MB gets its 413 and closes the connection, so the next request does not fail on it', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await client.post('/api/messages/drafts', { title: 'x'.repeat(1_200_000 * (i + 1)) });
      expect(res.status).toBe(413);
      expect(res.headers.get('connection')).toBe('close');
      await res.text();
      expect((await client.post('/api/messages/drafts', { title: 'Acto' })).status).toBe(201);
    }
  });

  it('a webhook that answers before reading a large body (a channel it does not serve) leaves the connection fit for the next request', async () => {
    const big = JSON.stringify({ file: Array.from({ length: 120_000 }, (_, i) => i) });
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${server.url}/api/webhooks/provider/1.0/incoming`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: big,
      });
      expect(res.status).toBe(404);
      await res.text();
      const next = await fetch(`${server.url}/api/webhooks/provider/sms/incoming`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{}',
      });
      expect(next.status).toBe(401);
      await next.text();
    }
  });
});

// --- the run -----------------------------------------------------------------------------------------

describe('fuzz', () => {
  it('no route answers 5xx, whatever it is sent', { timeout: 180_000 }, async () => {
    const started = performance.now();
    // A twin of the server's app, built the same way, only to list its routes.
    const app = createApp({
      db: server.db,
      distDir: server.distDir,
      config: testConfig({ attachmentsDir: server.attachmentsDir }),
      store: new AttachmentStore(server.attachmentsDir),
      delivery: server.delivery!,
    });
    const routes = [
      ...new Map(app.routes.filter((r) => r.method !== 'ALL' && !r.path.includes('*')).map((r) => [`${r.method} ${r.path}`, r])).values(),
    ];
    expect(routes.length).toBeGreaterThan(30);
    const unsafe = routes.filter((r) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method));
    const gets = routes.filter((r) => r.method === 'GET');

    for (const route of unsafe) {
      const base = baseBody(route.method, route.path);
      for (let i = 0; i < BODY_CASES; i++) {
        const { body, type, note } = bodyFor(base);
        const headers =
          route.path.endsWith('/send') || route.path.endsWith('/schedule')
            ? { [IDEMPOTENCY_HEADER]: pick([`fuzz-${SEED}-${sent}`, 'corta', 'x'.repeat(101), `fuzz-${note}-${i}`]) }
            : undefined;
        await send(route.method, fillPath(route.path, rng() < 0.25), { body, ...(type ? { type } : {}), ...(headers ? { headers } : {}) });
      }
      await stillSignedIn();
    }

    const watch = watchQueries();
    try {
      for (const route of gets) {
        watch.taken();
        await send('GET', fillPath(route.path, false));
        const names = [...new Set([...watch.taken(), ...COMMON_QUERY])];
        for (const name of names) {
          for (let i = 0; i < QUERY_CASES; i++) {
            const others = names.filter((n) => n !== name && rng() < 0.3).map((n) => `${n}=${queryValue()}`);
            const junkName = rng() < 0.2 ? [`${pick(['%00', 'x', '%ED%A0%80', 'a%01b'])}=1`] : [];
            const query = [`${name}=${queryValue()}`, ...others, ...junkName].join('&');
            await send('GET', `${fillPath(route.path, false)}?${query}`);
          }
        }
        if (route.path.includes(':')) for (let i = 0; i < PATH_CASES; i++) await send('GET', fillPath(route.path, true));
        await stillSignedIn();
      }
    } finally {
      watch.stop();
    }

    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.info(`fuzz seed ${SEED}: ${sent} requests over ${routes.length} routes in ${seconds} s`);
    expect(failures, `seed ${SEED}`).toEqual([]);
  });
});
