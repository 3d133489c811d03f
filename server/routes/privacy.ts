// A person's data rights, the access part (shared/privacy-contract.ts PRIVACY_API), for the school's
// administrators (decision 0264): find the person a request names, everything Hermes holds about them, and
// that as one ZIP. Seeing and exporting are written to the audit log. Another school's person, or a kind
// or id that names no one, is a 404. Rules and SQL: server/privacy/.
import { Hono, type Context } from 'hono';
import { ADMIN_ROLES } from '../../shared/codes';
import { PRIVACY_KINDS, PRIVACY_Q_MAX, PRIVACY_Q_MIN, type PrivacyKind, type PrivacySearch } from '../../shared/privacy-contract';
import { auditActorOf } from '../http/audit-actor';
import { recordAudit } from '../audit/record';
import { recordContactsViewed } from '../audit/views';
import type { Db } from '../db/client';
import { dayIn } from '../db/time';
import { requireAuth } from '../http/auth';
import type { AppEnv } from '../http/env';
import { invalid, notFound } from '../http/errors';
import { requireRole } from '../http/roles';
import { parseId } from '../http/params';
import { exportSchoolOf, exportStream } from '../privacy/export';
import { identityOf, inventoryOf } from '../privacy/inventory';
import { searchPeople } from '../privacy/search';
import { PRIVACY_TEXTS } from '../privacy/texts';
import type { AttachmentStore } from '../storage/attachments';

export function privacyRoutes(db: Db, store: AttachmentStore): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  // Per route, not `use('*')`: the erasure routes mounted at the same prefix keep their own guards.
  const admins = [requireAuth(db), requireRole(...ADMIN_ROLES).withMessage(PRIVACY_TEXTS.forbidden)] as const;

  /** The path's person of the asker's school, or null. */
  const personOf = async (c: Context<AppEnv>) => {
    const kind = c.req.param('kind');
    const id = parseId(c.req.param('id'));
    if (!PRIVACY_KINDS.includes(kind as PrivacyKind) || id === null) return null;
    return identityOf(db, c.var.auth.institutionId, kind as PrivacyKind, id);
  };

  app.get('/people', ...admins, async (c) => {
    const q = (c.req.query('q') ?? '').trim();
    if (q.length > PRIVACY_Q_MAX) return invalid(c, { q: [PRIVACY_TEXTS.q] });
    const body: PrivacySearch = { data: q.length < PRIVACY_Q_MIN ? [] : await searchPeople(db, c.var.auth.institutionId, q) };
    // Its answer shows each match's RUT or CURP: a bulk view (decision 0283), counted, never the words asked.
    await recordContactsViewed(db, auditActorOf(c), 'privacy_search', body.data.length);
    return c.json(body);
  });

  app.get('/people/:kind/:id', ...admins, async (c) => {
    const person = await personOf(c);
    if (!person) return notFound(c);
    const inventory = await inventoryOf(db, c.var.auth.institutionId, person);
    await recordAudit(db, auditActorOf(c), { action: 'person.data_viewed', subject: { kind: person.kind, id: person.id } });
    return c.json({ data: inventory });
  });

  app.get('/people/:kind/:id/export', ...admins, async (c) => {
    const person = await personOf(c);
    if (!person) return notFound(c);
    const institutionId = c.var.auth.institutionId;
    const inventory = await inventoryOf(db, institutionId, person);
    const school = await exportSchoolOf(db, institutionId);
    const counts = Object.fromEntries(Object.entries(inventory.sections).map(([section, rows]) => [section, rows.length]));
    await recordAudit(db, auditActorOf(c), {
      action: 'person.exported',
      subject: { kind: person.kind, id: person.id },
      detail: { mensajes_recibidos: counts.mensajes_recibidos ?? 0, adjuntos: counts.adjuntos ?? 0 },
    });
    const day = dayIn(new Date(inventory.read_at), school.timezone);
    return new Response(exportStream(db, store, inventory, school), {
      headers: {
        'content-type': 'application/zip',
        'content-disposition': `attachment; filename="datos-${person.kind}-${person.id}-${day}.zip"`,
        'cache-control': 'no-store',
      },
    });
  });

  return app;
}
