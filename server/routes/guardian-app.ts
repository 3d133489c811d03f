// The guardian app API (the app-mobile channel's receiving end), mounted at /api/app: sign-in by a code
// sent by SMS, then a bearer token; the inbox of app deliveries (per child, searched), reading (which
// reports received / read), a message's files, and replying when the author allowed it, the children, the
// school's news wall for this guardian's children (server/news/posts.ts), and this device's Web Push
// subscription (shared/push-contract.ts). A session spans every guardian row of its phone, in every school
// (docs/decisions/0208). Rules and queries live in server/app-api/, server/news/ and server/push/.
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { hit, rateLimits, unhit } from '../auth/rate-limit';
import type { ServerConfig } from '../config';
import type { Db } from '../db/client';
import { clientIp } from '../http/client-ip';
import type { AppEnv } from '../http/env';
import type { ChannelAdapter } from '../delivery/channel';
import { apiError, invalid, MESSAGES, notFound, readJson } from '../http/errors';
import { isId, parseId } from '../http/params';
import { checkCode, issueCode, phoneCandidates, type CodeGuardian } from '../app-api/codes';
import { authenticate, openSession, revokeToken, type GuardianAuth } from '../app-api/tokens';
import { findMessageFile, INBOX_PAGE_SIZE, listInbox, openMessage, readMessage } from '../app-api/inbox';
import { isSessionChild, listChildren, sessionSchools } from '../app-api/children';
import { REPLY_MAX_LENGTH, sendReply } from '../app-api/reply';
import { smsText } from '../../shared/sms-text';
import type { FamilyReplyAnswer, FamilySession } from '../../shared/family-contract';
import { NEWS_PAGE_SIZE } from '../../shared/news-contract';
import { sendFile } from '../http/download';
import { findGuardianWallFile } from '../news/files';
import { findPost, guardianWallPage, type NewsReader } from '../news/posts';
import type { AttachmentStore } from '../storage/attachments';
import { type FieldErrors, hasFieldErrors } from '../http/field-errors';
import { vapidKeys } from '../push/keys';
import { checkEndpointOnly, checkSubscription, removeSubscription, saveSubscription } from '../push/subscriptions';
import { PUSH_API, type PushKeyAnswer, type PushSubscriptionAnswer } from '../../shared/push-contract';
import {
  FAMILY_DEVICES_API,
  FAMILY_DEVICES_TEXTS,
  type FamilyNotifications,
  type PhoneSessionsEnded,
} from '../../shared/family-devices-contract';
import { endPhoneSessions, guardiansOfPhone } from '../app-api/phone-sessions';
import { childNotices, setChildNotices } from '../push/mutes';

export interface GuardianAppOptions {
  /** Sends the sign-in code by SMS (the server's SMS adapter). */
  sms: ChannelAdapter;
  /** The per-IP limits and whether the client IP comes from a trusted proxy. */
  config: ServerConfig;
  /** The clock (tests move it). */
  now?: () => Date;
  /** The attachment files (the wall's images and documents); without it the wall's files are not found. */
  store?: AttachmentStore;
}

function inMinutes(seconds: number): string {
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} ${minutes === 1 ? 'minuto' : 'minutos'}`;
}

const APP_MESSAGES = {
  phoneRequired: 'El teléfono es obligatorio.',
  phoneInvalid: 'El teléfono no es válido.',
  codeRequired: 'El código es obligatorio.',
  codeInvalid: 'El código no es válido o venció. Solicita uno nuevo.',
  throttled: (seconds: number) => `Demasiadas solicitudes de código. Inténtalo de nuevo en ${inMinutes(seconds)}.`,
  // "Tu red": behind one school Wi-Fi many families share the IP, so it may not be this phone's doing.
  ipThrottled: (seconds: number) => `Demasiadas solicitudes de código desde tu red. Inténtalo de nuevo en ${inMinutes(seconds)}.`,
  wrongCodesThrottled: (seconds: number) => `Demasiados códigos incorrectos desde tu red. Inténtalo de nuevo en ${inMinutes(seconds)}.`,
  codeSent: 'Si el teléfono está registrado, te enviamos un código por SMS.',
  page: 'La página debe ser un número entero mayor o igual a 1.',
  contentRequired: 'La respuesta no puede estar vacía.',
  contentTooLong: `La respuesta no puede superar los ${REPLY_MAX_LENGTH} caracteres.`,
  repliesClosed: 'Este mensaje no admite respuestas.',
  student: 'El estudiante debe ser un número entero.',
} as const;

/** Longest search the inbox takes; more is cut (a phone keyboard cannot mean more). */
const SEARCH_MAX = 200;

// Through smsText like every SMS: the "ó" would otherwise make the provider send UCS-2.
const smsCodeText = (code: string) => smsText(`Tu código de Hermes es ${code}. Vence en 10 minutos.`, null).text;

type GuardianEnv = { Variables: { guardian: GuardianAuth } };

/**
 * Who a session's push subscription is kept for: a row per school (a browser is one row per school,
 * server/push/subscriptions.ts), the token's own row in its school and the newest row in each other.
 */
function pushOwners(auth: GuardianAuth): { guardianId: number; institutionId: number }[] {
  const bySchool = new Map<number, number>();
  for (const row of auth.rows) if (!bySchool.has(row.institutionId)) bySchool.set(row.institutionId, row.guardianId);
  return [...bySchool].map(([institutionId, guardianId]) => ({ guardianId, institutionId }));
}

/** `?page=` of a numbered list: a whole number from 1 (default 1), or null. */
function readPage(raw: string | undefined): number | null {
  const text = raw ?? '1';
  return /^[1-9][0-9]{0,5}$/.test(text) ? Number(text) : null;
}

/** `meta` and `links` of a numbered page (Laravel style). */
function numbered(path: string, page: number, perPage: number, total: number, query?: URLSearchParams) {
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  // The filters the page was asked with stay in its links, before the page.
  const link = (p: number) => `${path}?${query && query.size > 0 ? `${query.toString()}&` : ''}page=${p}`;
  return {
    meta: { current_page: page, last_page: lastPage, per_page: perPage, total },
    links: {
      first: link(1),
      last: link(lastPage),
      prev: page > 1 ? link(Math.min(page - 1, lastPage)) : null,
      next: page < lastPage ? link(page + 1) : null,
    },
  };
}

const CODE_PATTERN = /^\d{6}$/;

/** `phone` of a body, read as E.164 candidates; an error message when it cannot be a phone. */
function readPhone(body: unknown): { phones: string[] } | { error: string } {
  const raw = (body as { phone?: unknown } | null)?.phone;
  if (typeof raw !== 'string' || raw.trim() === '') return { error: APP_MESSAGES.phoneRequired };
  const phones = phoneCandidates(raw);
  return phones.length > 0 ? { phones } : { error: APP_MESSAGES.phoneInvalid };
}

const unauthenticated = (c: Context) => apiError(c, 401, 'auth.unauthenticated', MESSAGES.unauthenticated);

export function guardianAppRoutes(db: Db, options: GuardianAppOptions): Hono<AppEnv> {
  const now = options.now ?? (() => new Date());
  const app = new Hono<AppEnv>();
  const limits = rateLimits(options.config);
  const throttled = (c: Context, seconds: number, message: (seconds: number) => string) => {
    c.header('Retry-After', String(seconds));
    return apiError(c, 429, 'auth.throttled', message(seconds));
  };

  app.post('/session/code', async (c) => {
    const phone = readPhone(await readJson(c));
    if ('error' in phone) return invalid(c, { phone: [phone.error] });
    // Per IP across phones, before the per-phone rule: one client asking codes for many phones (each a
    // paid SMS to a family) is stopped whichever phones it picks.
    const wait = await hit(db, limits.appCodeIp, clientIp(c, options.config.trustProxy), now());
    if (wait > 0) return throttled(c, wait, APP_MESSAGES.ipThrottled);
    const outcome = await issueCode(db, phone.phones, now());
    if (outcome.kind === 'throttled') return throttled(c, outcome.retryAfterS, APP_MESSAGES.throttled);
    if (outcome.guardian) sendCode(options.sms, outcome.codeId, outcome.code, outcome.guardian);
    return c.json({ data: { message: APP_MESSAGES.codeSent } }, 202);
  });

  app.post('/session', async (c) => {
    const body = await readJson(c);
    const phone = readPhone(body);
    const code = (body as { code?: unknown } | null)?.code;
    const errors: FieldErrors = {};
    if ('error' in phone) errors.phone = [phone.error];
    if (typeof code !== 'string' || code.trim() === '') errors.code = [APP_MESSAGES.codeRequired];
    if (hasFieldErrors(errors) || 'error' in phone) return invalid(c, errors);
    const trimmed = (code as string).trim();
    const at = now();
    // Counted as wrong before the check, so guesses sent at once cannot all pass; a right one is taken back.
    const ip = clientIp(c, options.config.trustProxy);
    const wait = await hit(db, limits.appWrongCodeIp, ip, at);
    if (wait > 0) return throttled(c, wait, APP_MESSAGES.wrongCodesThrottled);
    // A malformed code still costs an attempt: it is a guess like any other.
    const checked = await checkCode(db, phone.phones, CODE_PATTERN.test(trimmed) ? trimmed : 'x', at);
    if (!checked.ok) return apiError(c, 401, 'auth.invalid_credentials', APP_MESSAGES.codeInvalid);
    await unhit(db, limits.appWrongCodeIp, ip);
    const session = await openSession(db, checked.guardian, at);
    const answer: FamilySession = {
      token: session.token,
      expires_at: session.expiresAt.toISOString(),
      guardian: {
        id: checked.guardian.id,
        name: checked.guardian.name,
        // The app speaks this school's locale; every school of the phone is the session's.
        school: { name: checked.guardian.institutionName, locale: checked.guardian.institutionLocale },
        schools: await sessionSchools(db, checked.guardian),
      },
    };
    return c.json({ data: answer });
  });

  const guarded = new Hono<GuardianEnv>();
  const requireGuardian: MiddlewareHandler<GuardianEnv> = async (c, next) => {
    const match = /^Bearer\s+(\S+)$/i.exec(c.req.header('Authorization') ?? '');
    const auth = match ? await authenticate(db, match[1]!, now()) : null;
    if (!auth) return unauthenticated(c);
    c.set('guardian', auth);
    await next();
  };
  // Per path, not '*': mounted at '/', a catch-all would also run in front of the public sign-in routes.
  guarded.use('/messages', requireGuardian);
  guarded.use('/messages/*', requireGuardian);
  guarded.use('/wall', requireGuardian);
  guarded.use('/wall/*', requireGuardian);
  guarded.use('/push/*', requireGuardian);
  guarded.use('/children', requireGuardian);

  guarded.delete('/session', requireGuardian, async (c) => {
    await revokeToken(db, c.var.guardian.tokenId, now());
    return c.body(null, 204);
  });

  guarded.get('/messages', async (c) => {
    const page = readPage(c.req.query('page'));
    if (page === null) return invalid(c, { page: [APP_MESSAGES.page] });
    const rawStudent = c.req.query('student');
    const studentId = rawStudent === undefined || rawStudent === '' ? null : parseId(rawStudent);
    if (studentId === null && rawStudent) return invalid(c, { student: [APP_MESSAGES.student] });
    // Another family's child is not found, like any foreign id (not an empty list that would confirm it).
    if (studentId !== null && !(await isSessionChild(db, c.var.guardian, studentId, now()))) return notFound(c);
    const q = (c.req.query('q') ?? '').slice(0, SEARCH_MAX);
    const { items, total, unread } = await listInbox(db, c.var.guardian, { studentId, q }, page, now());
    const base = new URLSearchParams();
    if (studentId !== null) base.set('student', String(studentId));
    if (q.trim() !== '') base.set('q', q);
    const { meta, links } = numbered('/api/app/messages', page, INBOX_PAGE_SIZE, total, base);
    return c.json({ data: items, meta: { ...meta, unread }, links });
  });

  guarded.get('/children', async (c) => c.json({ data: await listChildren(db, c.var.guardian, now()) }));

  guarded.get('/messages/:id/attachments/:attachmentId', async (c) => {
    const id = parseId(c.req.param('id'));
    const attachmentId = parseId(c.req.param('attachmentId'));
    if (id === null || attachmentId === null || !options.store) return notFound(c);
    const file = await findMessageFile(db, c.var.guardian, id, attachmentId);
    return file ? sendFile(c, options.store, file) : notFound(c);
  });

  // The school's news wall as this session may read it (shared/news-contract.ts GUARDIAN_WALL_API): every
  // school of its phone, each guardian row reading its own school's.
  const wallReaders = (g: GuardianAuth): (NewsReader & { kind: 'guardian' })[] =>
    g.rows.map((row) => ({ kind: 'guardian', institutionId: row.institutionId, guardianId: row.guardianId }));
  guarded.get('/wall', async (c) => {
    const page = readPage(c.req.query('page'));
    if (page === null) return invalid(c, { page: [APP_MESSAGES.page] });
    const { items, total } = await guardianWallPage(db, wallReaders(c.var.guardian), page, NEWS_PAGE_SIZE, now());
    return c.json({ data: items, ...numbered('/api/app/wall', page, NEWS_PAGE_SIZE, total) });
  });

  guarded.get('/wall/:id', async (c) => {
    const id = parseId(c.req.param('id'));
    if (id === null) return notFound(c);
    for (const reader of wallReaders(c.var.guardian)) {
      const post = await findPost(db, reader, id, now());
      if (post) return c.json({ data: post });
    }
    return notFound(c);
  });

  guarded.get('/wall/:id/attachments/:attachmentId', async (c) => {
    const id = parseId(c.req.param('id'));
    const attachmentId = parseId(c.req.param('attachmentId'));
    if (id === null || attachmentId === null || !options.store) return notFound(c);
    for (const reader of wallReaders(c.var.guardian)) {
      const file = await findGuardianWallFile(db, reader, id, attachmentId, now());
      if (file) return sendFile(c, options.store, file);
    }
    return notFound(c);
  });

  guarded.get('/messages/:id', async (c) => {
    const id = parseId(c.req.param('id'));
    const detail = id === null ? null : await openMessage(db, c.var.guardian, id, now());
    return detail ? c.json({ data: detail }) : notFound(c);
  });

  guarded.post('/messages/:id/read', async (c) => {
    const id = parseId(c.req.param('id'));
    const read = id === null ? null : await readMessage(db, c.var.guardian, id, now());
    return read ? c.json({ data: read }) : notFound(c);
  });

  guarded.post('/messages/:id/reply', async (c) => {
    const id = parseId(c.req.param('id'));
    if (id === null) return notFound(c);
    const content = ((await readJson(c)) as { content?: unknown } | null)?.content;
    if (typeof content !== 'string' || content.trim() === '') return invalid(c, { content: [APP_MESSAGES.contentRequired] });
    if (content.length > REPLY_MAX_LENGTH) return invalid(c, { content: [APP_MESSAGES.contentTooLong] });
    const outcome = await sendReply(db, c.var.guardian, id, content, now());
    if (outcome.kind === 'not_found') return notFound(c);
    if (outcome.kind === 'closed') return apiError(c, 409, 'message.replies_closed', APP_MESSAGES.repliesClosed);
    return c.json({ data: { id: outcome.id, sent_at: outcome.sentAt.toISOString() } satisfies FamilyReplyAnswer }, 201);
  });

  // The same pair the app channel signs with (server/push/keys.ts), read once.
  const keys = vapidKeys(db, options.config.vapid);

  guarded.get(PUSH_API.key, async (c) => {
    const { publicKey } = await keys();
    return c.json({ data: { public_key: publicKey } satisfies PushKeyAnswer });
  });

  guarded.post(PUSH_API.subscriptions, async (c) => {
    const checked = checkSubscription(await readJson(c));
    if (!checked.ok) return invalid(c, checked.errors);
    // One subscription per school of the session (a school pushes to its own guardian row); the answer is
    // the token's own school's, as before sessions spanned schools.
    const [own, ...others] = pushOwners(c.var.guardian);
    const saved = await saveSubscription(db, own!, checked.value, c.req.header('User-Agent'), now());
    for (const owner of others) await saveSubscription(db, owner, checked.value, c.req.header('User-Agent'), now());
    return c.json({ data: { id: saved.id, endpoint: saved.endpoint } satisfies PushSubscriptionAnswer }, saved.created ? 201 : 200);
  });

  guarded.delete(PUSH_API.subscriptions, async (c) => {
    const checked = checkEndpointOnly(await readJson(c));
    if (!checked.ok) return invalid(c, checked.errors);
    let removed = false;
    for (const owner of pushOwners(c.var.guardian)) removed = (await removeSubscription(db, owner, checked.endpoint)) || removed;
    return removed ? c.body(null, 204) : notFound(c);
  });

  // «No es mi teléfono» and «Avisos» (shared/family-devices-contract.ts).
  guarded.use(FAMILY_DEVICES_PATHS.sessions, requireGuardian);
  guarded.use(FAMILY_DEVICES_PATHS.notifications, requireGuardian);

  guarded.delete(FAMILY_DEVICES_PATHS.sessions, async (c) => {
    const phoneGuardians = await guardiansOfPhone(db, guardianIdsOf(c.var.guardian));
    const ended: PhoneSessionsEnded = await endPhoneSessions(db, phoneGuardians, now());
    return c.json({ data: ended });
  });

  guarded.get(FAMILY_DEVICES_PATHS.notifications, async (c) => {
    const answer: FamilyNotifications = { children: await childNotices(db, guardianIdsOf(c.var.guardian)) };
    return c.json({ data: answer });
  });

  guarded.put(FAMILY_DEVICES_PATHS.notifications, async (c) => {
    const changes = readNoticeChanges(await readJson(c));
    if (changes === null) return invalid(c, { children: [FAMILY_DEVICES_TEXTS.childrenInvalid] });
    const ids = guardianIdsOf(c.var.guardian);
    if (!(await setChildNotices(db, ids, changes))) return invalid(c, { children: [FAMILY_DEVICES_TEXTS.childNotYours] });
    const answer: FamilyNotifications = { children: await childNotices(db, ids) };
    return c.json({ data: answer });
  });

  app.route('/', guarded);
  return app;
}

/** The guardian records a session speaks for: every school's record of its phone. */
const guardianIdsOf = (g: GuardianAuth): number[] => g.rows.map((row) => row.guardianId);

/** Paths of shared/family-devices-contract.ts, relative to this router's /api/app. */
const FAMILY_DEVICES_PATHS = {
  sessions: FAMILY_DEVICES_API.sessions.replace(/^\/app/, ''),
  notifications: FAMILY_DEVICES_API.notifications.replace(/^\/app/, ''),
};

/** `{ children: [{ student_id, push }] }`, at least one, each child once; null when malformed. */
function readNoticeChanges(body: unknown): { studentId: number; push: boolean }[] | null {
  const children = (body as { children?: unknown } | null)?.children;
  if (!Array.isArray(children) || children.length === 0 || children.length > 100) return null;
  const changes: { studentId: number; push: boolean }[] = [];
  for (const child of children as unknown[]) {
    const { student_id: studentId, push } = (child ?? {}) as { student_id?: unknown; push?: unknown };
    if (!isId(studentId) || typeof push !== 'boolean' || changes.some((c) => c.studentId === studentId)) return null;
    changes.push({ studentId, push });
  }
  return changes;
}

/**
 * Fire and forget: waiting for the provider would make known phones answer slower than unknown ones (an
 * enumeration by timing), and a failed SMS is answered like a sent one anyway; the guardian asks again.
 */
function sendCode(sms: ChannelAdapter, codeId: number, code: string, guardian: CodeGuardian): void {
  sms
    .send({
      deliveryId: 0,
      key: `app-code-${codeId}`,
      channel: 'sms',
      address: guardian.phone,
      messageId: 0,
      title: 'Código de acceso',
      text: smsCodeText(code),
      senderName: 'Hermes',
      institutionName: guardian.institutionName,
      attachments: [],
    })
    .catch(() => {});
}
