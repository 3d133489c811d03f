// drizzle-kit reads this for `npm run db:generate`. Generation works offline from the schema alone; the
// server applies the SQL files itself at start-up (server/db/client.ts), for PGlite and Postgres alike.
// The schema is one file per domain under server/db/schema/; a new domain file is picked up by the glob.
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './server/db/schema/*.ts',
  out: './server/db/migrations',
});
