// Tenant isolation. Every school-owned table has `institution_id`; routes get a `Tenant` for the signed-in
// user and build their WHERE clauses through it, so "another school's id" is simply "not found".
import { and, eq, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

export interface TenantOwned {
  institutionId: AnyPgColumn;
}

export class Tenant {
  constructor(readonly institutionId: number) {}

  /**
   * `table.institution_id = <this school>` AND every extra condition. Use it as the WHERE of any query on
   * a school-owned table: `db.select().from(courses).where(tenant.owns(courses, eq(courses.id, id)))`.
   */
  owns(table: TenantOwned, ...conditions: (SQL | undefined)[]): SQL {
    return and(eq(table.institutionId, this.institutionId), ...conditions) as SQL;
  }
}
