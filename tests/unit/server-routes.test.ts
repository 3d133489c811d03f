// Route files parse and answer; rules and SQL live in the domain modules (README "How to add a screen",
// server step). Read from the sources, so a query written into a handler fails here.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROUTES = resolve(__dirname, '../../server/routes');

/** What a route file must not do, each as a pattern over its text. */
const FORBIDDEN: [string, RegExp][] = [
  ['imports drizzle-orm', /from\s+['"]drizzle-orm(\/[^'"]*)?['"]/],
  ['imports the schema', /from\s+['"][./]*\/db\/schema\/[^'"]*['"]/],
  ['imports SQL helpers', /from\s+['"][./]*\/db\/(sql|arrays)['"]/],
  ['imports database values (not just the Db type)', /import\s+(?!type\b)[^;]*from\s+['"][./]*\/db\/client['"]/],
  ['writes an sql`` template', /\bsql\s*`/],
  ['queries a database', /\b(db|tx|trx)\s*\.\s*(select|selectDistinct|insert|update|delete|execute|transaction|query)\s*\(/],
  ['runs a transaction', /\b(transactionRetrying|readTogether)\s*\(/],
];

function violations(name: string, text: string): string[] {
  return FORBIDDEN.filter(([, pattern]) => pattern.test(text)).map(([what]) => `${name} ${what}`);
}

describe('route files', () => {
  it('hold no SQL: no drizzle, no schema, no queries on a db', () => {
    const files = readdirSync(ROUTES).filter((name) => name.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(10);
    expect(files.flatMap((name) => violations(name, readFileSync(join(ROUTES, name), 'utf8')))).toEqual([]);
  });

  it('the check sees a query through a chained call, and not a route registered with app.delete', () => {
    const handler = `app.delete('/:id', auth, async (c) => {\n  const [row] = await db\n    .select({ id: courses.id })\n    .from(courses);\n});`;
    expect(violations('x.ts', handler)).toEqual(['x.ts queries a database']);
    expect(violations('y.ts', `app.delete('/:id', auth, async (c) => c.body(null, 204));`)).toEqual([]);
    expect(violations('z.ts', `import type { Db } from '../db/client';`)).toEqual([]);
    expect(violations('w.ts', `import { sql } from 'drizzle-orm';\nimport { users } from '../db/schema/auth';`)).toEqual([
      'w.ts imports drizzle-orm',
      'w.ts imports the schema',
    ]);
  });
});
