// The audit log for the school's administrators (decision 0258): the filtered list, paged, newest first, and
// the same filters as a CSV file, which is itself written to the log. Nothing here edits or deletes an
// entry: the database refuses it anyway (migration 0032). Rules and SQL: server/audit/.
import { Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import { AUDIT_API, AUDIT_EXPORT_MAX, type AuditPage } from '../../shared/audit-contract';
import { ADMIN_ROLES } from '../../shared/codes';
import { COOKIE } from '../../shared/contract';
import { auditActorOf } from '../http/audit-actor';
import { auditCsv, auditCsvFilename } from '../audit/csv';
import { entriesOfAudit, filterParams, pageOfAudit } from '../audit/list';
import { parseAuditFilters, parseAuditQuery } from './audit-query';
import { recordAudit } from '../audit/record';
import { AUDIT_MESSAGES } from '../audit/texts';
import type { Db } from '../db/client';
import { institutionTimezone } from '../db/time';
import { requireAuth } from '../http/auth';
import type { AppEnv } from '../http/env';
import { apiError, invalid } from '../http/errors';
import { numberedPage } from '../http/pages';
import { requireRole } from '../http/roles';
import { schoolLocale } from '../templates/templates';

export function auditRoutes(db: Db): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  // Per route, not `use('*')`: an unknown path under the prefix stays a 404 for anyone.
  const admin = [requireAuth(db), requireRole(...ADMIN_ROLES).withMessage(AUDIT_MESSAGES.forbidden)] as const;

  app.get('/', ...admin, async (c) => {
    const query = parseAuditQuery(c.req.query());
    if (!query.ok) return invalid(c, query.errors);
    const { page, perPage } = query.value;
    const { items, total } = await pageOfAudit(db, c.var.auth.institutionId, query.value);
    const body: AuditPage = numberedPage(items, total, page, perPage, AUDIT_API.entries, filterParams(query.value));
    return c.json(body);
  });

  app.get('/export.csv', ...admin, async (c) => {
    const filters = parseAuditFilters(c.req.query());
    if (!filters.ok) return invalid(c, filters.errors);
    const { institutionId } = c.var.auth;
    const rows = await entriesOfAudit(db, institutionId, filters.value, AUDIT_EXPORT_MAX);
    if (rows.length > AUDIT_EXPORT_MAX)
      return apiError(c, 422, 'validation.failed', AUDIT_MESSAGES.tooMany(AUDIT_EXPORT_MAX), {
        to: [AUDIT_MESSAGES.tooMany(AUDIT_EXPORT_MAX)],
      });
    const timezone = await institutionTimezone(db, institutionId);
    // The reader's Spanish (the locale they chose), else the school's, as the call list's CSV.
    const choice = getCookie(c, COOKIE.locale);
    const locale = choice === 'es-CL' || choice === 'es-MX' ? choice : await schoolLocale(db, institutionId);
    // Written after the rows are read, so the file never lists its own export; the filters say what it held.
    // The filters are codes, ids and days: nothing personal (decision 0257).
    const filtersUsed = Object.fromEntries(filterParams(filters.value));
    await recordAudit(db, auditActorOf(c), { action: 'audit.exported', detail: { rows: rows.length, ...filtersUsed } });
    const filename = auditCsvFilename(new Date(), timezone);
    return c.body(auditCsv(rows, timezone, locale), 200, {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${filename}"; filename*=UTF-8''${encodeURIComponent(filename)}`,
      'Cache-Control': 'no-store',
    });
  });

  return app;
}
