// The members' statement of `GET /recipient-lists/{id}/users` (server/recipient-lists/users.ts membersSql) stays
// linear in the members whatever the planner believes of the tables: PGlite has no autovacuum, and the
// seed leaves students, staff and list members unanalyzed, so a join the planner cannot hash became a
// nested loop comparing every member with every student and every staff member (2,985 × 2,500 rows on the
// large seed, ~1 s). Checked on the plan itself (EXPLAIN ANALYZE, the rows each join filter threw away),
// for a list with guardians, students and staff, beside the answer's members of each kind.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RecipientPick } from '../../shared/compose-contract';
import type { RecipientListMember, RecipientListSummary } from '../../shared/recipient-lists-contract';
import { membersSql, withMembersPlanner } from '../../server/recipient-lists/users';
import { rowsOf } from '../../server/db/sql';
import { one, rows } from './support/compose';
import { signedIn, startServer, type Client, type TestServer } from './support/server';

let server: TestServer;
let admin: Client;
let sanAndres: number;

beforeAll(async () => {
  server = await startServer();
  admin = await signedIn(() => server)('administrador@sanandres.cl');
  sanAndres = (await one<{ id: number }>(server.db, sql`select id from institutions where name = 'Colegio San Andrés de Ñuñoa'`)).id;
});
afterAll(async () => {
  await server?.close();
});

interface PlanNode {
  'Node Type': string;
  'Rows Removed by Join Filter'?: number;
  'Actual Loops'?: number;
  Plans?: PlanNode[];
}

/** Every node of a JSON plan, depth first. */
const nodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodes)];

async function planOf(listId: number): Promise<PlanNode> {
  // As `listUsers` reads it (server/recipient-lists/users.ts withMembersPlanner).
  const [row] = await withMembersPlanner(server.db, async (tx) =>
    rowsOf<Record<string, unknown>>(
      await tx.execute(sql`explain (analyze, format json, costs off, timing off) ${membersSql(sanAndres, listId)}`),
    ),
  );
  const value = Object.values(row!)[0];
  const json = (typeof value === 'string' ? JSON.parse(value) : value) as { Plan: PlanNode }[];
  return json[0]!.Plan;
}

it('reads a list of every guardian, student and staff member with join filters linear in the members', async () => {
  const levels = await rows<{ id: number }>(server.db, sql`select id from levels where institution_id = ${sanAndres} order by id`);
  const positions = await rows<{ id: number }>(
    server.db,
    sql`select distinct position_id as id from staff where institution_id = ${sanAndres} and position_id is not null order by 1`,
  );
  const picks: RecipientPick[] = [
    ...levels.map((l): RecipientPick => ({ kind: 'level', id: Number(l.id), audience: 'apoderados' })),
    ...levels.map((l): RecipientPick => ({ kind: 'level', id: Number(l.id), audience: 'estudiantes' })),
    ...positions.map((p): RecipientPick => ({ kind: 'appointment', id: Number(p.id) })),
  ];
  const res = await admin.fetch('/api/recipient-lists', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Todo el colegio', picks }),
  });
  expect(res.status).toBe(201);
  const list = ((await res.json()) as { data: RecipientListSummary }).data;

  const users = ((await (await admin.get(`/api/recipient-lists/${list.id}/users`)).json()) as { data: RecipientListMember[] }).data;
  const kinds = new Map<string, number>();
  for (const u of users) kinds.set(u.user_type, (kinds.get(u.user_type) ?? 0) + 1);
  expect(users).toHaveLength(list.users_count);
  const students = Number(
    (
      await one<{ n: number }>(
        server.db,
        sql`select count(*)::int as n from students where institution_id = ${sanAndres} and withdrawn_at is null`,
      )
    ).n,
  );
  const staff = Number(
    (
      await one<{ n: number }>(
        server.db,
        sql`select count(*)::int as n from staff where institution_id = ${sanAndres} and position_id is not null`,
      )
    ).n,
  );
  expect(kinds.get('estudiante')).toBe(students);
  expect(kinds.get('funcionario')).toBe(staff);
  expect(kinds.get('apoderado')).toBeGreaterThan(students / 2);

  const plan = await planOf(list.id);
  const removed = nodes(plan).reduce((sum, n) => sum + (n['Rows Removed by Join Filter'] ?? 0), 0);
  // At most one row thrown away per member and join (a member is one kind); a members × people loop throws
  // away members × people.
  expect(removed, JSON.stringify(plan)).toBeLessThanOrEqual(2 * users.length);
});
