// Whether a guardian is reachable through the families' app — the blue device status, the app address of
// the expansion and of a retry, the connectivity's "con app" (decision 0216). Not "signed in once" (that
// is `guardians.app_installed_at`, kept as the first sign-in): a phone that uninstalled the app or whose
// push service said the subscription is gone must stop counting, or the school believes it reached
// families it did not. Reachable means either
// - a live Web Push subscription (server/push/subscriptions.ts; the push service's 404/410 removes it), or
// - a session of the app that is still valid and was used in the last APP_RECENT_USE_DAYS (the app fetches
//   its inbox on every start; server/app-api/tokens.ts refreshes `last_used_at`): the row's own, or one
//   opened with the row's phone in another school (a session reaches every school's record of its phone).
// SQL only: every reader is a query over many guardians, and both tests are indexed probes.

import { sql, type SQL } from 'drizzle-orm';

/** Days of app use without a push subscription that still count as reachable. */
const APP_RECENT_USE_DAYS = 30;

/** The rule over a guardian row aliased `g`, as SQL text (for the status `case` written with sql.raw). */
export const appReachableText = (g: string): string => {
  const inUse = `t.expires_at > now() and coalesce(t.last_used_at, t.created_at) > now() - interval '${APP_RECENT_USE_DAYS} days'`;
  // Two probes, not one `or`: each is an index lookup (by person, by phone).
  return `(exists (select 1 from push_subscriptions ps where ps.guardian_id = ${g}.id)
    or exists (select 1 from app_tokens t where t.person_kind = 'apoderado' and t.person_id = ${g}.id
      and (t.phone is null or t.phone = ${g}.phone) and ${inUse})
    or (${g}.phone is not null
      and exists (select 1 from app_tokens t where t.person_kind = 'apoderado' and t.phone = ${g}.phone and ${inUse})))`;
};

/** The rule over a guardian row aliased `g`. */
export const appReachableSql = (g = 'g'): SQL => sql.raw(appReachableText(g));
