// The first start (`POST /setup`): with the printed code, creates the first school and its administrator in
// one transaction that also spends the code, so two browsers racing each other make one school. Every field
// is checked at once, so the page shows all that is wrong together; wrong codes count against the client's
// IP (rate_limit_hits), right ones with other mistakes do not.
import { sql } from 'drizzle-orm';
import { SCHOOL_ADMIN_ROLE } from '../../shared/codes';
import { passwordError } from '../../shared/password-rules';
import { isCountry, isSchoolLocale, personProblems, schoolProblems } from '../../shared/school-rules';
import type { SetupInput } from '../../shared/setup-contract';
import { recordAudit } from '../audit/record';
import { hashPassword } from '../auth/password';
import { hit, type RateLimit, unhit } from '../auth/rate-limit';
import type { Db } from '../db/client';
import { addFieldError, type FieldErrors, hasFieldErrors } from '../http/field-errors';
import { createAdministrator, createSchool, emailTaken, hasSchool } from '../schools/schools';
import { codeMatches, normalizeCode, spendSetupCode } from './code';

const WRONG_CODE = 'El código de configuración no es correcto. Cópialo del registro (log) del servidor.';
const EMAIL_TAKEN = 'Ya existe una cuenta con ese correo electrónico.';

export type SetupOutcome =
  | { kind: 'done' }
  | { kind: 'throttled'; waitS: number }
  | { kind: 'invalid'; errors: FieldErrors }
  | { kind: 'created'; userId: number; institutionId: number };

const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
const trimmed = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

/** The body's fields checked (not the code): the input, or Spanish errors keyed `school.name`, `admin.email`… */
function checkSetupFields(body: unknown): { input: SetupInput } | { errors: FieldErrors } {
  const { code, school: rawSchool, admin: rawAdmin } = record(body);
  const school = record(rawSchool);
  const admin = record(rawAdmin);
  const errors: FieldErrors = {};
  if (trimmed(code) === '') addFieldError(errors, 'code', 'Escribe el código de configuración que muestra el registro del servidor.');
  for (const [field, message] of Object.entries(schoolProblems(school))) addFieldError(errors, `school.${field}`, message);
  for (const [field, message] of Object.entries(personProblems(admin))) addFieldError(errors, `admin.${field}`, message);
  const password = typeof admin.password === 'string' ? admin.password : '';
  if (password === '') addFieldError(errors, 'admin.password', 'La contraseña es obligatoria.');
  else {
    const problem = passwordError(password, { name: trimmed(admin.name), email: trimmed(admin.email), school: trimmed(school.name) });
    if (problem) addFieldError(errors, 'admin.password', problem);
  }
  if (hasFieldErrors(errors) || !isCountry(school.country) || !isSchoolLocale(school.locale)) return { errors };
  return {
    input: {
      code: trimmed(code),
      school: {
        name: trimmed(school.name),
        country: school.country,
        timezone: school.timezone as string,
        locale: school.locale,
        homeUrl: trimmed(school.homeUrl),
      },
      admin: { name: trimmed(admin.name), email: trimmed(admin.email).toLowerCase(), password },
    },
  };
}

export async function runSetup(db: Db, limit: RateLimit, body: unknown, ip: string | null): Promise<SetupOutcome> {
  if (await hasSchool(db)) return { kind: 'done' };
  const key = ip ?? 'unknown';
  const typed = normalizeCode(trimmed(record(body).code));
  // Counted before the code is looked at, so guesses sent at once cannot all pass (as the login's limit).
  const wait = typed === '' ? 0 : await hit(db, limit, key, new Date());
  if (wait > 0) return { kind: 'throttled', waitS: wait };
  const rightCode = typed !== '' && (await codeMatches(db, typed));
  if (rightCode) await unhit(db, limit, key);
  const checked = checkSetupFields(body);
  const errors = 'errors' in checked ? checked.errors : {};
  if (typed !== '' && !rightCode) addFieldError(errors, 'code', WRONG_CODE);
  if ('input' in checked && (await emailTaken(db, checked.input.admin.email))) addFieldError(errors, 'admin.email', EMAIL_TAKEN);
  if (hasFieldErrors(errors) || !('input' in checked)) return { kind: 'invalid', errors };

  const { school, admin } = checked.input;
  const passwordHash = await hashPassword(admin.password);
  return db.transaction(async (tx): Promise<SetupOutcome> => {
    // One setup at a time across every server: the second waits, then finds the school (or the code spent).
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('hermes-setup'))`);
    if (await hasSchool(tx)) return { kind: 'done' };
    if (!(await spendSetupCode(tx, typed))) return { kind: 'invalid', errors: { code: [WRONG_CODE] } };
    const institutionId = await createSchool(tx, school);
    const userId = await createAdministrator(tx, { institutionId, name: admin.name, email: admin.email, passwordHash });
    // The first account is on the record as staff joining the school, by the person who set it up.
    await recordAudit(
      tx,
      { institutionId, actorUserId: userId, ip },
      { action: 'staff.invited', subject: { kind: 'usuario', id: userId }, detail: { roles_after: [SCHOOL_ADMIN_ROLE], method: 'setup' } },
    );
    return { kind: 'created', userId, institutionId };
  });
}
