// Schools and their first administrator, created by the first start's setup page and by the operators'
// command line (server/cli/): the institution with what its country decides, the channels every new school
// starts with, and an administrator with the SPEC's admin role and policies (the setup page's, with the
// password typed there; the command line invites its administrator through server/staff/invitations.ts).
// Listing them is the CLI's.
import { and, asc, count, eq, sql } from 'drizzle-orm';
import { CHANNEL_CODES, ROLE_NAMES, SCHOOL_ADMIN_ROLE, type ChannelCode } from '../../shared/codes';
import { COUNTRY_DEFAULTS, type Country } from '../../shared/school-rules';
import type { SchoolInput } from '../../shared/setup-contract';
import type { Queryable } from '../db/client';
import { userPolicies, userRoles, users } from '../db/schema/auth';
import { institutionChannels } from '../db/schema/compose';
import { institutions } from '../db/schema/institutions';
import { rowsOf } from '../db/sql';
import { ADMIN_POLICIES, BASE_POLICIES, grantSchoolChannels, scopeFor } from '../staff/policies';
import { addColleague } from '../staff/colleague';

const ADMIN_ROLE = { code: SCHOOL_ADMIN_ROLE, name: ROLE_NAMES[SCHOOL_ADMIN_ROLE] };

/**
 * A new school can send what needs no contract: the guardian app and e-mail. SMS and WhatsApp wait until a
 * provider and a quota are set up for it.
 */
const NEW_SCHOOL_CHANNELS: readonly ChannelCode[] = ['app-mobile', 'e-mail'];

/** Whether the install has any school: until it does, `/setup` is the only way in. */
export async function hasSchool(db: Queryable): Promise<boolean> {
  const [row] = rowsOf<{ found: boolean }>(await db.execute(sql`select exists (select 1 from ${institutions}) as found`));
  return row?.found === true;
}

/** Creates the school (input already checked: shared/school-rules.ts `schoolProblems`); its id. */
export async function createSchool(tx: Queryable, input: SchoolInput): Promise<number> {
  const country: Country = input.country;
  const byCountry = COUNTRY_DEFAULTS[country];
  const [row] = await tx
    .insert(institutions)
    .values({
      name: input.name.trim(),
      country,
      locale: input.locale,
      timezone: input.timezone,
      domain: byCountry.domain,
      phonePrefix: byCountry.phonePrefix,
      homeUrl: input.homeUrl.trim(),
      chatEnabled: false,
    })
    .returning({ id: institutions.id });
  const institutionId = row!.id;
  await tx
    .insert(institutionChannels)
    .values(CHANNEL_CODES.map((channel) => ({ institutionId, channel, enabled: NEW_SCHOOL_CHANNELS.includes(channel) })));
  return institutionId;
}

export interface NewAdministrator {
  institutionId: number;
  name: string;
  /** Lower-cased by the caller. */
  email: string;
  /** `hashPassword`'s result: the setup page's administrator chose it there (the CLI invites instead). */
  passwordHash: string;
}

/** Whether an account already uses the e-mail (login is by e-mail alone, so it is unique across schools). */
export async function emailTaken(db: Queryable, email: string): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
  return row !== undefined;
}

/**
 * The administrator of the school with this e-mail who has not opened their account yet (the command line
 * sends them a new link instead of refusing), or null.
 */
export async function invitedAdministrator(db: Queryable, institutionId: number, email: string): Promise<number | null> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .innerJoin(userRoles, and(eq(userRoles.userId, users.id), eq(userRoles.code, SCHOOL_ADMIN_ROLE)))
    .where(and(eq(users.institutionId, institutionId), eq(users.email, email), eq(users.status, 'invited')));
  return row?.id ?? null;
}

/** Creates a school's administrator: the admin role, every staff and admin policy, the school's channels. */
export async function createAdministrator(tx: Queryable, admin: NewAdministrator): Promise<number> {
  const [school] = await tx
    .select({ domain: institutions.domain, homeUrl: institutions.homeUrl })
    .from(institutions)
    .where(eq(institutions.id, admin.institutionId));
  if (!school) throw new Error(`No existe el colegio ${admin.institutionId}`);
  const [row] = await tx
    .insert(users)
    .values({
      institutionId: admin.institutionId,
      email: admin.email,
      passwordHash: admin.passwordHash,
      name: admin.name.trim(),
      // Administrators of the demo schools are on latam, which is what shows them the news wall too.
      device: 'latam',
      domain: school.domain,
      scope: scopeFor([SCHOOL_ADMIN_ROLE]),
      options: { url: { home: school.homeUrl } },
    })
    .returning({ id: users.id });
  const userId = row!.id;
  await tx.insert(userRoles).values({ userId, ...ADMIN_ROLE });
  await tx.insert(userPolicies).values([...BASE_POLICIES, ...ADMIN_POLICIES].map((name) => ({ userId, name })));
  await grantSchoolChannels(tx, admin.institutionId, userId, [SCHOOL_ADMIN_ROLE]);
  await addColleague(tx, { institutionId: admin.institutionId, userId, name: admin.name, email: admin.email, role: SCHOOL_ADMIN_ROLE });
  return userId;
}

export interface SchoolSummary {
  id: number;
  name: string;
  country: Country;
  /** Staff accounts (users) of the school. */
  staff: number;
}

export async function listSchools(db: Queryable): Promise<SchoolSummary[]> {
  return db
    .select({ id: institutions.id, name: institutions.name, country: institutions.country, staff: count(users.id) })
    .from(institutions)
    .leftJoin(users, eq(users.institutionId, institutions.id))
    .groupBy(institutions.id)
    .orderBy(asc(institutions.id));
}

export async function schoolExists(db: Queryable, id: number): Promise<{ name: string } | null> {
  const [row] = await db.select({ name: institutions.name }).from(institutions).where(eq(institutions.id, id));
  return row ?? null;
}
