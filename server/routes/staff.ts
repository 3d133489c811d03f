// The school's staff accounts (shared/staff-contract.ts), for its administrators only: the paged list,
// one account, invitations (one or many; resend, revoke), roles and device, deactivation with what to hand
// over, reactivation. Another school's account, or no one's, is a 404. Rules and SQL: server/staff/.
import { auditActorOf } from '../http/audit-actor';
import { recordContactsViewed } from '../audit/views';
import { Hono, type Context } from 'hono';
import { STAFF_ADMIN_ROLES } from '../../shared/codes';
import {
  SORT_ORDERS,
  STAFF_API,
  STAFF_PER_PAGE,
  STAFF_PER_PAGE_MAX,
  STAFF_Q_MAX,
  STAFF_SORTS,
  STAFF_STATES,
  type SortOrder,
  type StaffPage,
  type StaffSort,
  type StaffState,
} from '../../shared/staff-contract';
import type { Db } from '../db/client';
import { numberedPage } from '../http/pages';
import { requireAuth } from '../http/auth';
import type { AppEnv } from '../http/env';
import { apiError, invalid, notFound, readJson } from '../http/errors';
import type { FieldErrors } from '../http/field-errors';
import { intParam, parseId } from '../http/params';
import { requireRole } from '../http/roles';
import { changeAccount, deactivateAccount, parseChange, reactivateAccount, type AccountChange } from '../staff/accounts';
import { invite, parseInviteBody, resendInvitation, revokeInvitation, type InvitationChange } from '../staff/invitations';
import type { AccountMailer } from '../staff/mail';
import { findMember, handoverOf, pageOfStaff, type StaffScope } from '../staff/members';
import { STAFF_MAX_PAGE, STAFF_MESSAGES } from '../staff/texts';

const scopeOf = (c: Context<AppEnv>): StaffScope => ({ userId: c.var.auth.userId, institutionId: c.var.auth.institutionId, ip: c.var.ip });

/** A query value among `allowed`: `fallback` when absent, null when anything else. */
function oneOf<T extends string>(raw: string | undefined, allowed: readonly T[], fallback: T | null): T | null | undefined {
  if (raw === undefined || raw === '') return fallback;
  return (allowed as readonly string[]).includes(raw) ? (raw as T) : undefined;
}

export function staffRoutes(db: Db, mailer: AccountMailer): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  // Per route, not `use('*')`: an unknown path under the prefix stays a 404 for anyone.
  const admin = [requireAuth(db), requireRole(...STAFF_ADMIN_ROLES).withMessage(STAFF_MESSAGES.forbidden)] as const;

  /** The path's account when it is one of the administrator's school, or null (404). */
  const memberOf = async (c: Context<AppEnv>) => {
    const id = parseId(c.req.param('id'));
    return id === null ? null : findMember(db, scopeOf(c), id);
  };
  /** The account after a change, or the change's refusal. */
  const answerChange = async (c: Context<AppEnv>, id: number, change: AccountChange) => {
    if (change.kind === 'not_found') return notFound(c);
    if (change.kind === 'invalid') return invalid(c, change.errors);
    if (change.kind === 'conflict') return apiError(c, 409, change.code, change.message);
    const member = await findMember(db, scopeOf(c), id);
    return member ? c.json({ data: member }) : notFound(c);
  };
  const answerInvitation = async (c: Context<AppEnv>, id: number, change: InvitationChange) => {
    if (change.kind === 'not_found') return notFound(c);
    if (change.kind === 'not_invited') return apiError(c, 409, 'staff.not_invited', STAFF_MESSAGES.notInvited);
    if (change.kind === 'no_pending') return apiError(c, 409, 'staff.not_invited', STAFF_MESSAGES.noPending);
    const member = await findMember(db, scopeOf(c), id);
    if (!member) return notFound(c);
    return change.mailSent === null ? c.json({ data: member }) : c.json({ data: member, mail_sent: change.mailSent });
  };

  app.get('/', ...admin, async (c) => {
    const page = intParam(c.req.query('page'), 1, STAFF_MAX_PAGE);
    const perPage = intParam(c.req.query('per_page'), STAFF_PER_PAGE, STAFF_PER_PAGE_MAX);
    const q = c.req.query('q') ?? '';
    const state = oneOf<StaffState>(c.req.query('state'), STAFF_STATES, null);
    const sort = oneOf<StaffSort>(c.req.query('sort'), STAFF_SORTS, 'name');
    const order = oneOf<SortOrder>(c.req.query('order'), SORT_ORDERS, 'asc');
    const errors: FieldErrors = {};
    if (page === null) errors.page = [STAFF_MESSAGES.page];
    if (perPage === null) errors.per_page = [STAFF_MESSAGES.perPage];
    if (q.length > STAFF_Q_MAX) errors.q = [STAFF_MESSAGES.q];
    if (state === undefined) errors.state = [STAFF_MESSAGES.state];
    if (!sort) errors.sort = [STAFF_MESSAGES.sort];
    if (!order) errors.order = [STAFF_MESSAGES.order];
    if (page === null || perPage === null || state === undefined || !sort || !order || errors.q) return invalid(c, errors);

    const { items, total } = await pageOfStaff(db, scopeOf(c), { q, state, sort, order, page, perPage });
    await recordContactsViewed(db, auditActorOf(c), 'staff_list', items.length, { page });
    const params = new URLSearchParams({ sort, order });
    if (q.trim() !== '') params.set('q', q.trim());
    if (state) params.set('state', state);
    const body: StaffPage = numberedPage(items, total, page, perPage, STAFF_API.staff, params);
    return c.json(body);
  });

  app.post('/invitations', ...admin, async (c) => {
    const parsed = parseInviteBody(await readJson(c));
    if ('errors' in parsed) return invalid(c, parsed.errors);
    return c.json({ data: await invite(db, scopeOf(c), parsed.people, mailer) });
  });

  app.get('/:id', ...admin, async (c) => {
    const member = await memberOf(c);
    return member ? c.json({ data: member }) : notFound(c);
  });

  app.patch('/:id', ...admin, async (c) => {
    const member = await memberOf(c);
    if (!member) return notFound(c);
    const parsed = parseChange(await readJson(c));
    if ('errors' in parsed) return invalid(c, parsed.errors);
    return answerChange(c, member.id, await changeAccount(db, scopeOf(c), member.id, parsed.input));
  });

  app.post('/:id/invitation', ...admin, async (c) => {
    const member = await memberOf(c);
    if (!member) return notFound(c);
    return answerInvitation(c, member.id, await resendInvitation(db, scopeOf(c), member.id, mailer));
  });

  app.delete('/:id/invitation', ...admin, async (c) => {
    const member = await memberOf(c);
    if (!member) return notFound(c);
    return answerInvitation(c, member.id, await revokeInvitation(db, scopeOf(c), member.id));
  });

  app.get('/:id/handover', ...admin, async (c) => {
    const member = await memberOf(c);
    if (!member) return notFound(c);
    return c.json({ data: await handoverOf(db, scopeOf(c), member.id) });
  });

  app.post('/:id/deactivate', ...admin, async (c) => {
    const member = await memberOf(c);
    if (!member) return notFound(c);
    const change = await deactivateAccount(db, scopeOf(c), member.id);
    if (change.kind !== 'done') return answerChange(c, member.id, change);
    const [after, handover] = [await findMember(db, scopeOf(c), member.id), await handoverOf(db, scopeOf(c), member.id)];
    return after ? c.json({ data: { member: after, handover } }) : notFound(c);
  });

  app.post('/:id/reactivate', ...admin, async (c) => {
    const member = await memberOf(c);
    if (!member) return notFound(c);
    return answerChange(c, member.id, await reactivateAccount(db, scopeOf(c), member.id));
  });

  return app;
}
