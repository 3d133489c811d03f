// Message templates (shared/templates-contract.ts): the user's own ("Mis plantillas"), which they
// create, edit, delete and copy, and the product's read-only libraries (Hermes and Socioemocional), shown
// with the school's word for guardian (shared/guardian-term.ts) and copied to "Mis plantillas" as shown.
// Another user's own template, or another school's, is simply not found. No HTTP here: the routes
// (server/routes/templates.ts) map the outcomes to statuses.
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Locale } from '../../shared/contract';
import { fold } from '../../shared/fold';
import {
  PRODUCT_REPOSITORY,
  TEMPLATE_CONTENT_MAX,
  TEMPLATE_NAME_MAX,
  TEMPLATE_REPOSITORIES,
  type Template,
  type TemplateInput,
  type TemplateRepositoryCode,
} from '../../shared/templates-contract';
import { isUniqueViolation, type Queryable } from '../db/client';
import { institutions } from '../db/schema/institutions';
import { templates } from '../db/schema/templates';
import { libraryText } from './library-text';
import { escapeLike } from '../db/sql';
import { type FieldErrors, hasFieldErrors } from '../http/field-errors';

/** The longest search the list accepts; longer is a mistake, not a template. */
const TEMPLATE_QUERY_MAX = 200;

const TEMPLATE_MESSAGES = {
  body: 'El cuerpo de la solicitud debe ser un objeto JSON.',
  name: 'Debes escribir el nombre de la plantilla.',
  nameText: 'El nombre de la plantilla debe ser un texto.',
  nameLong: `El nombre de la plantilla no puede superar los ${TEMPLATE_NAME_MAX} caracteres.`,
  nameTaken: 'Ya tienes una plantilla con este nombre. Elige otro.',
  content: 'Debes escribir el contenido de la plantilla.',
  contentText: 'El contenido de la plantilla debe ser un texto.',
  contentLong: `El contenido de la plantilla no puede superar los ${TEMPLATE_CONTENT_MAX} caracteres.`,
  nothing: 'Indica el nombre o el contenido que quieres cambiar.',
  repository: `El tipo de plantilla debe ser ${TEMPLATE_REPOSITORIES.join(', ')}.`,
  query: `La búsqueda no puede superar los ${TEMPLATE_QUERY_MAX} caracteres.`,
} as const;

/** Who asks: the signed-in user, their school and its locale (library texts are shown in it). */
export interface TemplateUser {
  userId: number;
  institutionId: number;
  locale: Locale;
}

const REPOSITORY_NAMES: Readonly<Record<TemplateRepositoryCode, string>> = {
  'mis-plantillas': 'Mis plantillas',
  [PRODUCT_REPOSITORY.code]: PRODUCT_REPOSITORY.name,
  socioemocional: 'Socioemocional',
};

/** Names in one line: runs of spaces, tabs and line breaks become one space. */
const cleanName = (name: string) => name.replace(/\s+/g, ' ').trim();

/** Body of POST (both fields) or PATCH (either field) as a change, or the per-field errors. */
export function parseTemplateInput(
  body: unknown,
  mode: 'create' | 'update',
): { ok: true; value: Partial<TemplateInput> } | { ok: false; errors: FieldErrors } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, errors: { body: [TEMPLATE_MESSAGES.body] } };
  }
  const raw = body as Record<string, unknown>;
  const errors: FieldErrors = {};
  const value: Partial<TemplateInput> = {};
  if (mode === 'create' || raw.name !== undefined) {
    if (raw.name !== undefined && raw.name !== null && typeof raw.name !== 'string') errors.name = [TEMPLATE_MESSAGES.nameText];
    else {
      const name = cleanName((raw.name as string | null | undefined) ?? '');
      if (name === '') errors.name = [TEMPLATE_MESSAGES.name];
      else if (name.length > TEMPLATE_NAME_MAX) errors.name = [TEMPLATE_MESSAGES.nameLong];
      else value.name = name;
    }
  }
  if (mode === 'create' || raw.content !== undefined) {
    if (raw.content !== undefined && raw.content !== null && typeof raw.content !== 'string') {
      errors.content = [TEMPLATE_MESSAGES.contentText];
    } else {
      const content = ((raw.content as string | null | undefined) ?? '').trim();
      if (content === '') errors.content = [TEMPLATE_MESSAGES.content];
      else if (content.length > TEMPLATE_CONTENT_MAX) errors.content = [TEMPLATE_MESSAGES.contentLong];
      else value.content = content;
    }
  }
  if (mode === 'update' && raw.name === undefined && raw.content === undefined) {
    errors.name = [TEMPLATE_MESSAGES.nothing];
    errors.content = [TEMPLATE_MESSAGES.nothing];
  }
  return hasFieldErrors(errors) ? { ok: false, errors } : { ok: true, value };
}

/** `?repository=&q=` of the list, or the per-field errors. */
export function parseTemplateQuery(
  repository: string | undefined,
  q: string | undefined,
): { ok: true; value: { repository: TemplateRepositoryCode | null; q: string } } | { ok: false; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const known = repository === undefined || repository === '' || (TEMPLATE_REPOSITORIES as readonly string[]).includes(repository);
  if (!known) errors.repository = [TEMPLATE_MESSAGES.repository];
  if ((q ?? '').length > TEMPLATE_QUERY_MAX) errors.q = [TEMPLATE_MESSAGES.query];
  if (hasFieldErrors(errors)) return { ok: false, errors };
  return { ok: true, value: { repository: repository ? (repository as TemplateRepositoryCode) : null, q: (q ?? '').trim() } };
}

/** The school's locale: the language library templates are shown in. */
export async function schoolLocale(db: Queryable, institutionId: number): Promise<Locale> {
  const [row] = await db.select({ locale: institutions.locale }).from(institutions).where(eq(institutions.id, institutionId));
  return row?.locale ?? 'es-CL';
}

type Row = typeof templates.$inferSelect;

/**
 * The row of a template named `name` with `content`: an own one when `owner` is given, else a library's,
 * with its folded name (the per-owner and per-library key) and search text.
 */
export function templateValues(
  repository: TemplateRepositoryCode,
  { name, content }: TemplateInput,
  owner: { userId: number; institutionId: number } | null,
  at?: Date,
): typeof templates.$inferInsert {
  return {
    repository,
    institutionId: owner?.institutionId ?? null,
    ownerUserId: owner?.userId ?? null,
    name,
    nameKey: fold(name),
    content,
    search: fold(`${name}\n${content}`),
    ...(at ? { createdAt: at, updatedAt: at } : {}),
  };
}

/** A row as the contract's Template, library texts as the school reads them (server/templates/library.ts). */
function toTemplate(row: Row, locale: Locale): Template {
  const own = row.repository === 'mis-plantillas';
  return {
    id: row.id,
    ...(own ? { name: row.name, content: row.content } : libraryText(row, locale)),
    repository: { code: row.repository, name: REPOSITORY_NAMES[row.repository] },
    editable: own,
    updated_at: row.updatedAt.toISOString(),
  };
}

const byName = new Intl.Collator('es', { sensitivity: 'base', numeric: true });
const ownOf = (user: TemplateUser) =>
  and(eq(templates.ownerUserId, user.userId), eq(templates.institutionId, user.institutionId), eq(templates.repository, 'mis-plantillas'));

/**
 * The templates the user sees: their own, newest first, then each library by name (contract order of
 * repositories). `q` matches name and content ignoring case and accents; the libraries are matched on the
 * text as the school reads it ("padre" finds a Hermes template in Mexico), which is why they are filtered
 * here rather than in SQL: a few dozen product rows, the same for every school.
 */
export async function listTemplates(
  db: Queryable,
  user: TemplateUser,
  query: { repository: TemplateRepositoryCode | null; q: string },
): Promise<Template[]> {
  const needle = fold(query.q);
  const wantOwn = query.repository === null || query.repository === 'mis-plantillas';
  const libraries = TEMPLATE_REPOSITORIES.filter((r) => r !== 'mis-plantillas' && (query.repository ?? r) === r);
  const [own, library] = await Promise.all([
    wantOwn
      ? db
          .select()
          .from(templates)
          .where(and(ownOf(user), needle ? sql`${templates.search} like ${`%${escapeLike(needle)}%`}` : undefined))
          .orderBy(desc(templates.updatedAt), desc(templates.id))
      : [],
    libraries.length > 0 ? db.select().from(templates).where(inArray(templates.repository, libraries)) : [],
  ]);
  const shown = library
    .map((row) => toTemplate(row, user.locale))
    .filter((t) => !needle || fold(`${t.name}\n${t.content}`).includes(needle))
    .sort(
      (a, b) =>
        TEMPLATE_REPOSITORIES.indexOf(a.repository.code) - TEMPLATE_REPOSITORIES.indexOf(b.repository.code) ||
        byName.compare(a.name, b.name) ||
        a.id - b.id,
    );
  return [...own.map((row) => toTemplate(row, user.locale)), ...shown];
}

/** A template the user can see (their own, or a library's), or null. */
async function visibleRow(db: Queryable, user: TemplateUser, id: number): Promise<Row | null> {
  const [row] = await db.select().from(templates).where(eq(templates.id, id));
  if (!row) return null;
  if (row.repository !== 'mis-plantillas') return row;
  return row.ownerUserId === user.userId && row.institutionId === user.institutionId ? row : null;
}

export type SaveOutcome = { ok: true; template: Template } | { ok: false; errors: FieldErrors };

const nameTaken = (): SaveOutcome => ({ ok: false, errors: { name: [TEMPLATE_MESSAGES.nameTaken] } });

/** Whether another of the user's own templates already has this name (ignoring case and accents). */
async function hasName(db: Queryable, user: TemplateUser, name: string, exceptId: number | null): Promise<boolean> {
  const rows = await db
    .select({ id: templates.id })
    .from(templates)
    .where(and(eq(templates.ownerUserId, user.userId), eq(templates.nameKey, fold(name))));
  return rows.some((r) => r.id !== exceptId);
}

export async function createTemplate(db: Queryable, user: TemplateUser, input: TemplateInput): Promise<SaveOutcome> {
  if (await hasName(db, user, input.name, null)) return nameTaken();
  try {
    const [row] = await db
      .insert(templates)
      .values(templateValues('mis-plantillas', input, user))
      .returning();
    return { ok: true, template: toTemplate(row!, user.locale) };
  } catch (err) {
    // The same name saved at the same moment (two tabs): the unique index decides.
    if (isUniqueViolation(err)) return nameTaken();
    throw err;
  }
}

/** Changes one of the user's own templates; null when it is not theirs (a library's, another user's). */
export async function updateTemplate(
  db: Queryable,
  user: TemplateUser,
  id: number,
  change: Partial<TemplateInput>,
): Promise<SaveOutcome | null> {
  const [current] = await db
    .select()
    .from(templates)
    .where(and(ownOf(user), eq(templates.id, id)));
  if (!current) return null;
  const name = change.name ?? current.name;
  const content = change.content ?? current.content;
  if (change.name !== undefined && (await hasName(db, user, name, id))) return nameTaken();
  try {
    const [row] = await db
      .update(templates)
      .set({ name, nameKey: fold(name), content, search: fold(`${name}\n${content}`), updatedAt: new Date() })
      .where(and(ownOf(user), eq(templates.id, id)))
      .returning();
    return row ? { ok: true, template: toTemplate(row, user.locale) } : null;
  } catch (err) {
    if (isUniqueViolation(err)) return nameTaken();
    throw err;
  }
}

/** Deletes one of the user's own templates; false when it is not theirs. */
export async function deleteTemplate(db: Queryable, user: TemplateUser, id: number): Promise<boolean> {
  const rows = await db
    .delete(templates)
    .where(and(ownOf(user), eq(templates.id, id)))
    .returning({ id: templates.id });
  return rows.length > 0;
}

const COPY_SUFFIX = (n: number) => (n === 1 ? ' (copia)' : ` (copia ${n})`);
const COPY_ATTEMPTS = 3;

/**
 * `name (copia)`, else `name (copia 2)`, `(copia 3)`…: the first the user does not have, shortened to
 * fit TEMPLATE_NAME_MAX.
 */
async function copyName(db: Queryable, user: TemplateUser, name: string): Promise<string> {
  const base = (n: number) => name.slice(0, TEMPLATE_NAME_MAX - COPY_SUFFIX(n).length).trimEnd();
  const prefix = fold(base(99_999));
  const taken = new Set(
    (
      await db
        .select({ key: templates.nameKey })
        .from(templates)
        .where(and(eq(templates.ownerUserId, user.userId), sql`${templates.nameKey} like ${`${escapeLike(prefix)}%`}`))
    ).map((r) => r.key),
  );
  for (let n = 1; ; n++) {
    const candidate = base(n) + COPY_SUFFIX(n);
    if (!taken.has(fold(candidate))) return candidate;
  }
}

/**
 * A copy in "Mis plantillas" of any template the user can see, with the text as they see it (a library's
 * in the school's word for guardian); null when they cannot see it.
 */
export async function copyTemplate(db: Queryable, user: TemplateUser, id: number): Promise<Template | null> {
  const source = await visibleRow(db, user, id);
  if (!source) return null;
  const shown = toTemplate(source, user.locale);
  for (let attempt = 1; ; attempt++) {
    const name = await copyName(db, user, shown.name);
    const created = await createTemplate(db, user, { name, content: shown.content });
    if (created.ok) return created.template;
    // Only a name taken in between gets here (another copy at the same moment): look again.
    if (attempt >= COPY_ATTEMPTS) throw new Error('No se encontró un nombre libre para la copia');
  }
}
