// The school's own settings (shared/school-contract.ts): `GET /school` and `PATCH /school`, for the admin
// roles, and its logo: `PUT` and `DELETE /school/logo` for them, `GET /school/logo` for any of its staff
// (the printed pages show it). Always the signed-in user's own school, so there is no id to be foreign.
// Rules in server/schools/settings.ts and server/school-logo/logo.ts.
import { auditActorOf } from '../http/audit-actor';
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { ADMIN_ROLES } from '../../shared/codes';
import { LOGO_MAX_BYTES } from '../../shared/school-contract';
import type { Db } from '../db/client';
import { requireAuth } from '../http/auth';
import type { AppEnv } from '../http/env';
import { apiError, invalid, notFound, readJson } from '../http/errors';
import { requireRole } from '../http/roles';
import { refuseBadText } from '../http/text-guard';
import { checkLogo, LOGO_MESSAGES, logoImage, removeLogo, saveLogo } from '../school-logo/logo';
import { changeSchoolSettings, schoolSettings } from '../schools/settings';

const FORBIDDEN = 'Solo la dirección y los administradores del colegio pueden ver y cambiar su configuración.';

/** Room for the multipart envelope (boundary, part headers) around a logo of exactly the maximum size. */
const MULTIPART_OVERHEAD = 16 * 1024;

/**
 * The versioned URL never changes its bytes, so browsers keep it for a year; the plain one is asked again
 * each time. `private`: only the school's signed-in staff may have it, never a shared cache.
 */
const FOREVER = 'private, max-age=31536000, immutable';
const EVERY_TIME = 'private, no-cache';

const logoTooLarge = (c: Context) => {
  // The rest of the body is never read, so this connection cannot carry another request: say so (server/app.ts).
  c.header('Connection', 'close');
  return apiError(c, 413, 'attachment.too_large', LOGO_MESSAGES.tooLarge, { file: [LOGO_MESSAGES.tooLarge] });
};

export function schoolRoutes(db: Db): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const guard = [requireAuth(db), requireRole(...ADMIN_ROLES).withMessage(FORBIDDEN)] as const;

  app.get('/', ...guard, async (c) => {
    const settings = await schoolSettings(db, c.var.auth.institutionId);
    return settings ? c.json({ data: settings }) : notFound(c);
  });

  app.patch('/', ...guard, async (c) => {
    const change = await changeSchoolSettings(db, c.var.auth.institutionId, await readJson(c), auditActorOf(c));
    if (change.ok) return c.json({ data: change.settings });
    return 'errors' in change ? invalid(c, change.errors) : notFound(c);
  });

  app.get('/logo', requireAuth(db), async (c) => {
    const logo = await logoImage(db, c.var.auth.institutionId);
    const version = c.req.query('v');
    // A version that is not the current one (replaced, or another school's) is gone.
    if (!logo || (version !== undefined && version !== logo.hash)) return notFound(c);
    const etag = `"${logo.hash}"`;
    const headers = {
      'Content-Type': logo.contentType,
      'Cache-Control': version === undefined ? EVERY_TIME : FOREVER,
      ETag: etag,
      'X-Content-Type-Options': 'nosniff',
    };
    if (c.req.header('If-None-Match') === etag) return c.body(null, 304, headers);
    return c.body(new Uint8Array(logo.content), 200, { ...headers, 'Content-Length': String(logo.content.length) });
  });

  // The app-wide 1 MB JSON limit skips this route (server/app.ts), so a file too large gets the logo's own
  // answer; the text check (its file name) runs here, after the limit.
  app.put(
    '/logo',
    ...guard,
    bodyLimit({ maxSize: LOGO_MAX_BYTES + MULTIPART_OVERHEAD, onError: logoTooLarge }),
    refuseBadText,
    async (c) => {
      let body: Record<string, unknown>;
      try {
        body = await c.req.parseBody();
      } catch {
        return invalid(c, { file: [LOGO_MESSAGES.missing] });
      }
      const file = body.file;
      if (!(file instanceof File)) return invalid(c, { file: [LOGO_MESSAGES.missing] });
      const bytes = new Uint8Array(await file.arrayBuffer());
      const checked = checkLogo(bytes);
      if (!checked.ok) {
        if (checked.status === 422) return invalid(c, { file: [checked.message] });
        return apiError(c, checked.status, checked.status === 413 ? 'attachment.too_large' : 'attachment.type', checked.message, {
          file: [checked.message],
        });
      }
      return c.json({ data: await saveLogo(db, c.var.auth.institutionId, { bytes, ...checked }, auditActorOf(c)) });
    },
  );

  app.delete('/logo', ...guard, async (c) => {
    await removeLogo(db, c.var.auth.institutionId, auditActorOf(c));
    return c.body(null, 204);
  });

  return app;
}
