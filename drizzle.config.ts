// drizzle-kit reads this for `npm run db:generate`. Generation works offline from the schema alone; the
// server applies the SQL files itself at start-up (server/db/client.ts), for PGlite and Postgres alike.
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './server/db/schema.ts',
  out: './server/db/migrations',
});
