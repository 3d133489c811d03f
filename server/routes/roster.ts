// The roster import (shared/roster-contract.ts ROSTER_API), for the school's administrators only: a file
// uploaded and read into a preview (or a mapping to ask for), the imports newest first, one import, its
// people and refused lines, applying or discarding it. Another school's import, or no one's, is a 404.
// The preview and apply tell their progress as JSON lines when asked to (server/http/progress.ts).
// Rules and SQL: server/roster/.
import { auditActorOf } from '../http/audit-actor';
import { recordAudit } from '../audit/record';
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { STAFF_ADMIN_ROLES } from '../../shared/codes';
import {
  type ApplyInput,
  PEOPLE_CHANGE_FILTERS,
  type PreviewPeoplePage,
  ROSTER_API,
  ROSTER_FILE_MAX_BYTES,
  ROSTER_FILE_TYPES,
  type RosterImport,
  type RosterProgress,
  type RosterReadAnswer,
} from '../../shared/roster-contract';
import type { NumberedPage } from '../../shared/recipient-lists-contract';
import type { Db } from '../db/client';
import type { Logger } from '../log';
import { dayIn } from '../db/time';
import { numberedPage } from '../http/pages';
import { requireAuth } from '../http/auth';
import type { AppEnv } from '../http/env';
import { apiError, invalid, notFound, readJson } from '../http/errors';
import type { FieldErrors } from '../http/field-errors';
import { intParam, parseId } from '../http/params';
import { withProgress } from '../http/progress';
import { requireRole } from '../http/roles';
import { refuseBadText } from '../http/text-guard';
import { applyImport, type ConflictChoices, type RosterScope } from '../roster/apply';
import { importsCsv, problemsCsv } from '../roster/csv';
import { calendarYear, discardImport, findImport, importHistory, pageOfImports, pageOfPeople, problemsOf } from '../roster/imports';
import { parseMapping } from '../roster/mappings';
import { FILE_ERRORS } from '../roster/read/messages';
import { rosterTemplate } from '../roster/read/template';
import { schoolCountry } from '../recipient-lists/members';
import { ROSTER_MAX_PAGE, ROSTER_MESSAGES, ROSTER_PER_PAGE, ROSTER_PER_PAGE_MAX, SCHOOL_YEAR_MAX, SCHOOL_YEAR_MIN } from '../roster/texts';
import { importFile } from '../roster/upload';

/** Room for the multipart envelope (boundary, part headers, the mapping) around a file of the maximum size. */
const MULTIPART_OVERHEAD = 64 * 1024;
const KINDS = ['student', 'guardian'] as const;

const scopeOf = (c: Context<AppEnv>): RosterScope => ({ userId: c.var.auth.userId, institutionId: c.var.auth.institutionId, ip: c.var.ip });

/** The body's conflict choices, or null when they are not `{ "kind:id:field": "keep" | "file" }`. */
function parseChoices(body: unknown): ConflictChoices | null {
  if (body === null || body === undefined) return {};
  if (typeof body !== 'object' || Array.isArray(body)) return null;
  const conflicts = (body as ApplyInput).conflicts;
  if (conflicts === undefined) return {};
  if (typeof conflicts !== 'object' || conflicts === null || Array.isArray(conflicts)) return null;
  const entries = Object.entries(conflicts);
  return entries.every(([, v]) => v === 'keep' || v === 'file') ? Object.fromEntries(entries) : null;
}

export function rosterRoutes(db: Db, logger: Logger): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  // Per route, not `use('*')`: an unknown path under the prefix stays a 404 for anyone.
  const admin = [requireAuth(db), requireRole(...STAFF_ADMIN_ROLES).withMessage(ROSTER_MESSAGES.forbidden)] as const;
  const fileError = (c: Context, message: string) => invalid(c, { file: [message] });
  // The app-wide JSON limit skips this route (server/app.ts); this one stops reading past the file's maximum.
  const uploadLimit = bodyLimit({
    maxSize: ROSTER_FILE_MAX_BYTES + MULTIPART_OVERHEAD,
    onError: (c) => {
      // The rest of the body is never read: this connection cannot carry another request.
      c.header('Connection', 'close');
      return fileError(c, FILE_ERRORS.tooBig);
    },
  });

  app.post('/imports', ...admin, uploadLimit, refuseBadText, async (c) => {
    let body: Record<string, unknown>;
    try {
      body = await c.req.parseBody();
    } catch {
      return fileError(c, ROSTER_MESSAGES.fileMissing);
    }
    const file = body.file;
    if (!(file instanceof File)) return fileError(c, ROSTER_MESSAGES.fileMissing);
    const errors: FieldErrors = {};
    let mapping = null;
    if (typeof body.mapping === 'string' && body.mapping !== '') {
      try {
        mapping = parseMapping(JSON.parse(body.mapping), null);
      } catch {
        mapping = null;
      }
      if (mapping === null) errors.mapping = [ROSTER_MESSAGES.mapping];
    }
    let schoolYear: number | null = null;
    if (typeof body.school_year === 'string' && body.school_year !== '') {
      schoolYear = /^[0-9]{4}$/.test(body.school_year) ? Number(body.school_year) : Number.NaN;
      if (!(schoolYear >= SCHOOL_YEAR_MIN && schoolYear <= SCHOOL_YEAR_MAX)) errors.school_year = [ROSTER_MESSAGES.schoolYear];
    }
    if (errors.mapping || errors.school_year) return invalid(c, errors);
    const bytes = new Uint8Array(await file.arrayBuffer());
    if (bytes.byteLength > ROSTER_FILE_MAX_BYTES) return fileError(c, FILE_ERRORS.tooBig);
    return withProgress<RosterProgress>(c, logger, async (report) => {
      const outcome = await importFile(db, scopeOf(c), { bytes, fileName: file.name, mapping, schoolYear }, report);
      if (outcome.kind === 'file') return fileError(c, outcome.message);
      if (outcome.kind === 'school_year') return invalid(c, { school_year: [outcome.message] });
      const answer: RosterReadAnswer =
        outcome.kind === 'mapping'
          ? { status: 'mapping', headers: outcome.headers, suggested: outcome.suggested, header_line: outcome.headerLine }
          : { status: 'preview', import: outcome.import };
      return c.json(answer);
    });
  });

  app.get('/imports', ...admin, async (c) => {
    const page = intParam(c.req.query('page'), 1, ROSTER_MAX_PAGE);
    const perPage = intParam(c.req.query('per_page'), ROSTER_PER_PAGE, ROSTER_PER_PAGE_MAX);
    if (page === null || perPage === null) {
      return invalid(c, {
        ...(page === null ? { page: [ROSTER_MESSAGES.page] } : {}),
        ...(perPage === null ? { per_page: [ROSTER_MESSAGES.perPage] } : {}),
      });
    }
    const { items, total } = await pageOfImports(db, scopeOf(c), page, perPage);
    const body: NumberedPage<RosterImport> = numberedPage(items, total, page, perPage, ROSTER_API.imports);
    return c.json(body);
  });

  app.get('/imports.csv', ...admin, async (c) => {
    const { imports, timezone, country } = await importHistory(db, scopeOf(c));
    await recordAudit(db, auditActorOf(c), { action: 'export.csv', detail: { export: 'roster_imports', rows: imports.length } });
    return c.body(importsCsv(imports, timezone, country), 200, {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="importaciones-${dayIn(new Date(), timezone)}.csv"`,
      'Cache-Control': 'no-store',
    });
  });

  app.get('/imports/:id', ...admin, async (c) => {
    const id = parseId(c.req.param('id'));
    const found = id === null ? null : await findImport(db, scopeOf(c), id);
    return found ? c.json({ data: found }) : notFound(c);
  });

  app.get('/imports/:id/people', ...admin, async (c) => {
    const id = parseId(c.req.param('id'));
    if (id === null) return notFound(c);
    const page = intParam(c.req.query('page'), 1, ROSTER_MAX_PAGE);
    const perPage = intParam(c.req.query('per_page'), ROSTER_PER_PAGE, ROSTER_PER_PAGE_MAX);
    const rawChange = c.req.query('change') ?? '';
    const rawKind = c.req.query('kind') ?? '';
    const change = rawChange === '' ? null : (PEOPLE_CHANGE_FILTERS.find((k) => k === rawChange) ?? undefined);
    const kind = rawKind === '' ? null : (KINDS.find((k) => k === rawKind) ?? undefined);
    const errors: FieldErrors = {};
    if (page === null) errors.page = [ROSTER_MESSAGES.page];
    if (perPage === null) errors.per_page = [ROSTER_MESSAGES.perPage];
    if (change === undefined) errors.change = [ROSTER_MESSAGES.change];
    if (kind === undefined) errors.kind = [ROSTER_MESSAGES.kind];
    if (page === null || perPage === null || change === undefined || kind === undefined) return invalid(c, errors);
    const found = await pageOfPeople(db, scopeOf(c), id, { change, kind, page, perPage });
    if (!found) return notFound(c);
    const params = new URLSearchParams();
    if (change) params.set('change', change);
    if (kind) params.set('kind', kind);
    const body: PreviewPeoplePage = numberedPage(found.items, found.total, page, perPage, ROSTER_API.people(id), params);
    return c.json(body);
  });

  app.get('/imports/:id/problems.csv', ...admin, async (c) => {
    const id = parseId(c.req.param('id'));
    const found = id === null ? null : await problemsOf(db, scopeOf(c), id);
    if (!found) return notFound(c);
    await recordAudit(db, auditActorOf(c), {
      action: 'export.csv',
      subject: { kind: 'importacion', id: id! },
      detail: { export: 'roster_problems', import_id: id!, rows: found.problems.length },
    });
    const filename = `errores-${found.fileName.replace(/\.[^.]*$/, '')}.csv`;
    return c.body(problemsCsv(found.problems), 200, {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${filename.replace(/[^\x20-\x7e]|"/g, '_')}"; filename*=UTF-8''${encodeURIComponent(filename)}`,
      'Cache-Control': 'no-store',
    });
  });

  app.post('/imports/:id/apply', ...admin, async (c) => {
    const id = parseId(c.req.param('id'));
    if (id === null) return notFound(c);
    const choices = parseChoices(await readJson(c));
    if (choices === null) return invalid(c, { conflicts: [ROSTER_MESSAGES.choices] });
    const scope = scopeOf(c);
    return withProgress<RosterProgress>(c, logger, async (report) => {
      const outcome = await applyImport(db, scope, id, choices, await calendarYear(db, scope.institutionId, new Date()), report);
      if (outcome.kind === 'not_found') return notFound(c);
      if (outcome.kind === 'state') return apiError(c, 409, 'roster.state', ROSTER_MESSAGES.state);
      if (outcome.kind === 'stale')
        return apiError(c, 409, 'roster.stale', ROSTER_MESSAGES.stale[await schoolCountry(db, scope.institutionId)]);
      if (outcome.kind === 'conflicts') return invalid(c, { conflicts: [ROSTER_MESSAGES.conflicts(outcome.missing.length)] });
      const applied = await findImport(db, scope, id);
      return applied ? c.json({ data: applied }) : notFound(c);
    });
  });

  app.delete('/imports/:id', ...admin, async (c) => {
    const id = parseId(c.req.param('id'));
    if (id === null) return notFound(c);
    const outcome = await discardImport(db, scopeOf(c), id);
    if (outcome === 'not_found') return notFound(c);
    if (outcome === 'state') return apiError(c, 409, 'roster.state', ROSTER_MESSAGES.state);
    const found = await findImport(db, scopeOf(c), id);
    return found ? c.json({ data: found }) : notFound(c);
  });

  // The documented columns with an example row, for the school's country unless another is asked for.
  for (const type of ROSTER_FILE_TYPES) {
    app.get(`/template.${type}`, ...admin, async (c) => {
      const raw = c.req.query('country');
      if (raw !== undefined && raw !== 'CL' && raw !== 'MX') return invalid(c, { country: [ROSTER_MESSAGES.country] });
      const country = raw ?? (await schoolCountry(db, c.var.auth.institutionId));
      const template = await rosterTemplate(country, type);
      return c.body(new Uint8Array(template.bytes), 200, {
        'Content-Type': template.contentType,
        'Content-Disposition': `attachment; filename="${template.fileName}"`,
        'Cache-Control': 'no-store',
      });
    });
  }

  return app;
}
