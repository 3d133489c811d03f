// The school's own settings (shared/school-contract.ts): read and changed by its administrators. A change
// is checked whole, as the school would be after it (a new country needs a zone of that country; the
// support chat only exists for domain cl), and a new country moves the school's domain and phone prefix,
// and its staff accounts' domain, with it. The logo is changed on its own (logo.ts) and shown here.
import { recordAudit, type AuditActor } from '../audit/record';
import { eq } from 'drizzle-orm';
import type { SchoolLogo, SchoolSettings } from '../../shared/school-contract';
import { COUNTRY_DEFAULTS, isCountry, isSchoolLocale, schoolProblems } from '../../shared/school-rules';
import type { Db } from '../db/client';
import { users } from '../db/schema/auth';
import { institutions } from '../db/schema/institutions';
import { addFieldError, type FieldErrors, hasFieldErrors } from '../http/field-errors';
import { schoolLogo } from '../school-logo/logo';

const FIELDS = ['name', 'country', 'timezone', 'locale', 'home_url', 'chat_enabled'] as const;
const CHAT_ONLY_CL = 'El chat de soporte solo está disponible para colegios de Chile.';

type Row = typeof institutions.$inferSelect;

const settingsOf = (row: Row, logo: SchoolLogo | null): SchoolSettings => ({
  name: row.name,
  country: row.country,
  timezone: row.timezone,
  locale: row.locale,
  home_url: row.homeUrl,
  chat_enabled: row.chatEnabled,
  chat_available: row.domain === 'cl',
  logo,
});

async function rowOf(db: Db, institutionId: number): Promise<Row | null> {
  const [row] = await db.select().from(institutions).where(eq(institutions.id, institutionId));
  return row ?? null;
}

export async function schoolSettings(db: Db, institutionId: number): Promise<SchoolSettings | null> {
  const row = await rowOf(db, institutionId);
  return row ? settingsOf(row, await schoolLogo(db, institutionId)) : null;
}

export type SettingsChange = { ok: true; settings: SchoolSettings } | { ok: false; errors: FieldErrors } | { ok: false; missing: true };

export async function changeSchoolSettings(db: Db, institutionId: number, body: unknown, actor: AuditActor): Promise<SettingsChange> {
  const input = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const errors: FieldErrors = {};
  for (const key of Object.keys(input))
    if (!(FIELDS as readonly string[]).includes(key)) addFieldError(errors, key, 'Este campo no se puede cambiar aquí.');
  if ('chat_enabled' in input && typeof input.chat_enabled !== 'boolean')
    addFieldError(errors, 'chat_enabled', 'Indica si el chat de soporte está activado (sí o no).');
  const current = await rowOf(db, institutionId);
  if (!current) return { ok: false, missing: true };
  const next = {
    name: 'name' in input ? input.name : current.name,
    country: 'country' in input ? input.country : current.country,
    timezone: 'timezone' in input ? input.timezone : current.timezone,
    locale: 'locale' in input ? input.locale : current.locale,
    homeUrl: 'home_url' in input ? input.home_url : current.homeUrl,
  };
  for (const [field, message] of Object.entries(schoolProblems(next)))
    addFieldError(errors, field === 'homeUrl' ? 'home_url' : field, message);
  const { name, country, timezone, locale, homeUrl } = next;
  // schoolProblems found nothing, so these hold; said again for the types.
  if (
    hasFieldErrors(errors) ||
    !isCountry(country) ||
    !isSchoolLocale(locale) ||
    typeof name !== 'string' ||
    typeof timezone !== 'string' ||
    typeof homeUrl !== 'string'
  )
    return { ok: false, errors };
  const checked = { name, country, timezone, locale, homeUrl };
  const byCountry = COUNTRY_DEFAULTS[checked.country];
  const chatEnabled = typeof input.chat_enabled === 'boolean' ? input.chat_enabled : current.chatEnabled && byCountry.domain === 'cl';
  if (chatEnabled && byCountry.domain !== 'cl') return { ok: false, errors: { chat_enabled: [CHAT_ONLY_CL] } };

  const updated = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(institutions)
      .set({
        name: checked.name.trim(),
        country: checked.country,
        timezone: checked.timezone,
        locale: checked.locale,
        homeUrl: checked.homeUrl.trim(),
        chatEnabled,
        domain: byCountry.domain,
        phonePrefix: byCountry.phonePrefix,
      })
      .where(eq(institutions.id, institutionId))
      .returning();
    if (current.domain !== byCountry.domain)
      await tx.update(users).set({ domain: byCountry.domain }).where(eq(users.institutionId, institutionId));
    const fields = (
      [
        ['name', current.name, row!.name],
        ['country', current.country, row!.country],
        ['timezone', current.timezone, row!.timezone],
        ['locale', current.locale, row!.locale],
        ['home_url', current.homeUrl, row!.homeUrl],
        ['chat_enabled', current.chatEnabled, row!.chatEnabled],
      ] as const
    ).flatMap(([field, before, after]) => (before === after ? [] : [field]));
    if (fields.length > 0) {
      await recordAudit(tx, actor, {
        action: 'settings.changed',
        subject: { kind: 'colegio', id: institutionId },
        detail: { settings: 'school', fields },
      });
    }
    return row!;
  });
  return { ok: true, settings: settingsOf(updated, await schoolLogo(db, institutionId)) };
}
