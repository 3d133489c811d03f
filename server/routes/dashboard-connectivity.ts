// `GET /dashboard/connectivity`, `GET /dashboard/connectivity/courses/:id` and its `/call-list` (JSON or
// CSV): the families' connectivity for the admin roles (server/dashboard/connectivity/). A course of
// another school, or an id that is not one, is a 404; a bad `messages` or `format` a 422.
import { auditActorOf } from '../http/audit-actor';
import { recordAudit } from '../audit/record';
import { recordContactsViewed } from '../audit/views';
import { Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import { ADMIN_ROLES } from '../../shared/codes';
import { COOKIE, type Locale } from '../../shared/contract';
import type { Db } from '../db/client';
import { parseCallListQuery, readCallList } from '../dashboard/connectivity/call-list';
import { callListCsv, callListFilename } from '../dashboard/connectivity/call-list-csv';
import { readCourseConnectivity } from '../dashboard/connectivity/course';
import { CONNECTIVITY_MESSAGES, readConnectivity } from '../dashboard/connectivity/figures';
import { installLinkFigures } from '../app-api/install-link';
import type { Connectivity } from '../../shared/dashboard-contract';
import { requireAuth } from '../http/auth';
import type { AppEnv } from '../http/env';
import { invalid, notFound } from '../http/errors';
import { parseId } from '../http/params';
import { requireRole } from '../http/roles';
import { schoolLocale } from '../templates/templates';
import { institutionTimezone } from '../db/time';

/** The locale the user reads the screen in: their own choice (the locale cookie), else the school's. */
const readerLocale = (choice: string | undefined): Locale | null => (choice === 'es-CL' || choice === 'es-MX' ? choice : null);

export function dashboardConnectivityRoutes(db: Db): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use('*', requireAuth(db), requireRole(...ADMIN_ROLES).withMessage(CONNECTIVITY_MESSAGES.forbidden));

  app.get('/', async (c) => {
    const { institutionId } = c.var.auth;
    const [figures, installLink] = await Promise.all([readConnectivity(db, institutionId), installLinkFigures(db, institutionId)]);
    return c.json({ data: { ...figures, install_link: installLink } satisfies Connectivity });
  });

  app.get('/courses/:id', async (c) => {
    const id = parseId(c.req.param('id'));
    const data = id === null ? null : await readCourseConnectivity(db, c.var.auth.institutionId, id, c.var.auth.userId);
    if (!data) return notFound(c);
    // The course's page lists its guardians' phones and e-mails: one entry per view (decision 0262).
    const guardians = data.students.reduce((n, s) => n + s.guardians.length, 0);
    await recordContactsViewed(db, auditActorOf(c), 'course_connectivity', guardians, { course_id: id! });
    return c.json({ data });
  });

  app.get('/courses/:id/call-list', async (c) => {
    const id = parseId(c.req.param('id'));
    if (id === null) return notFound(c);
    const query = parseCallListQuery(c.req.query());
    if (!query.ok) return invalid(c, query.errors);
    const list = await readCallList(db, c.var.auth.institutionId, id, query.value.messages);
    if (!list) return notFound(c);
    if (query.value.format === 'json') {
      await recordContactsViewed(db, auditActorOf(c), 'call_list', list.rows.length, { course_id: id, messages: query.value.messages });
      return c.json({ data: list });
    }
    await recordAudit(db, auditActorOf(c), {
      action: 'export.call_list',
      detail: { format: 'csv', course_id: id, messages: query.value.messages, rows: list.rows.length },
    });
    const filename = callListFilename(list.course.name);
    const locale = readerLocale(getCookie(c, COOKIE.locale)) ?? (await schoolLocale(db, c.var.auth.institutionId));
    const timezone = await institutionTimezone(db, c.var.auth.institutionId);
    return c.body(callListCsv(list, locale, timezone), 200, {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${filename}"; filename*=UTF-8''${encodeURIComponent(filename)}`,
      'Cache-Control': 'no-store',
    });
  });
  return app;
}
