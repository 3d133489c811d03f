// A staff account's entry among the school's people (the `staff` table), which is what compose offers as
// a colleague: grouped by cargo, reached at their e-mail and their Hermes inbox. Accounts made here (an
// invitation, the first administrator) get one at once, under the cargo named after their role, so a new
// teacher can be written to before any roster brings the school's cargos in.
import { and, eq } from 'drizzle-orm';
import { ROLE_NAMES, type RoleCode } from '../../shared/codes';
import type { Queryable } from '../db/client';
import { positions, staff } from '../db/schema/school';
import { splitFullName } from '../roster/read/names';

export interface NewColleague {
  institutionId: number;
  userId: number;
  name: string;
  email: string;
  role: RoleCode;
}

/** The school's cargo of that name, made when it has none yet. */
async function positionNamed(db: Queryable, institutionId: number, name: string): Promise<number> {
  const [made] = await db.insert(positions).values({ institutionId, name }).onConflictDoNothing().returning({ id: positions.id });
  if (made) return made.id;
  const [found] = await db
    .select({ id: positions.id })
    .from(positions)
    .where(and(eq(positions.institutionId, institutionId), eq(positions.name, name)));
  return found!.id;
}

export async function addColleague(db: Queryable, colleague: NewColleague): Promise<void> {
  const name = colleague.name.trim();
  // The account has one name field; the school's people keep names and surnames apart (a single word stays whole).
  const split = splitFullName(name) ?? { first_names: name, last_name_father: '', last_name_mother: '' };
  await db.insert(staff).values({
    institutionId: colleague.institutionId,
    userId: colleague.userId,
    positionId: await positionNamed(db, colleague.institutionId, ROLE_NAMES[colleague.role]),
    firstNames: split.first_names,
    lastNameFather: split.last_name_father,
    lastNameMother: split.last_name_mother,
    email: colleague.email,
  });
}
