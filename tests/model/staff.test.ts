// /settings/staff (staff/staff.ts) around its hosted list and, while «Invitar personal» is open, the invite
// dialog: search, state, order, more and retry told to the list; one account at a time: roles and device
// (checked first: at least one role, and an administrator keeps their own admin role; nothing changed closes
// without asking), deactivate after a question and then what they leave to hand over, reactivate, resend and
// revoke an invitation; each change replaces the row without a reload; the server's refusals are said.
import { createActor, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { expect } from 'vitest';
import type { RoleCode } from '../../shared/codes';
import type { StaffMember } from '../../shared/staff-contract';
import { selectStaffItems, selectWorkingId, staffMachine, type StaffSnapshot } from '../../src/machines/staff/staff';
import { defineModelTests, send, settle, type StepEnv } from './harness';
import { failure } from './fixtures';
import { listExecutors, listStandIn, showing, toldList } from './list-stand-in';
import { EXPIRED, GONE, INVITED, ME, TEACHER_ROW } from '../fixtures/staff-members';

const st = (snapshot: AnyMachineSnapshot) => snapshot as unknown as StaffSnapshot;
const ROWS = showing('5', [ME, TEACHER_ROW, INVITED, EXPIRED, GONE]);
const NONE = showing('none', []);
const HANDOVER = { shared_lists: [{ id: 5, name: 'Apoderados 3° A', users_count: 30 }], scheduled_messages: [] };
const LAST_ADMIN = failure(409, 'staff.last_admin', 'No puedes desactivar al último administrador del colegio.');
const ROLES_REFUSED = failure(422, 'validation.failed', 'Revisa los campos', {
  roles: ['El colegio debe conservar al menos un administrador.'],
});
const OFFLINE = failure(0, 'network', 'Failed to fetch');

/** The rows as the list showed them (the path's snapshot events), to find what a row event names. */
const rowOf = (context: { items: StaffMember[] }, id: number) => context.items.find((member) => member.id === id);
const sameRoles = (a: readonly RoleCode[], b: readonly RoleCode[]) => [...a].sort().join() === [...b].sort().join();

/** What the test expects of a save, in its own words: at least one role, one's own admin role kept, and something changed. */
function saveOutcome(context: { target: StaffMember | null; roles: RoleCode[]; device: string }): 'problem' | 'unchanged' | 'save' {
  const target = context.target as StaffMember;
  if (context.roles.length === 0) return 'problem';
  if (target.is_self && target.roles.includes('colegio-administrador') && !context.roles.includes('colegio-administrador'))
    return 'problem';
  return sameRoles(target.roles, context.roles) && target.device === context.device ? 'unchanged' : 'save';
}

const rowFocus = (context: { target: StaffMember | null }) => ({ type: 'focus', target: `staff-row-${context.target?.id}` });
const toast = (key: string, name: string, kind = 'success') => ({ type: 'toast', kind, key, params: { name } });
const refusedToast = (error: unknown) =>
  (error as { status: number }).status === 0
    ? { type: 'toast', kind: 'error', key: 'staff.toast.failed' }
    : { type: 'toast', kind: 'error', key: 'staff.toast.refused', params: { reason: (error as Error).message } };

function emits({ from, event }: StepEnv): AnyEventObject[] {
  const context = from.context as { target: StaffMember | null; roles: RoleCode[]; device: string };
  switch (event.type) {
    case 'staff.save':
      if (!from.matches({ shown: { editing: 'open' } })) return [];
      return saveOutcome(context) === 'problem'
        ? [{ type: 'focus', target: 'staff-roles' }]
        : saveOutcome(context) === 'unchanged'
          ? [rowFocus(context)]
          : [];
    case 'staff.cancel':
      return from.matches({ shown: { editing: 'open' } }) || from.matches({ shown: 'confirmingDeactivate' }) ? [rowFocus(context)] : [];
    case 'staff.close':
      return from.matches({ shown: 'handover' }) ? [rowFocus(context)] : [];
    case 'xstate.done.actor.changeStaff':
      return [toast('staff.toast.changed', (event.output as StaffMember).name), rowFocus(context)];
    case 'xstate.error.actor.changeStaff':
      return [{ type: 'focus', target: 'staff-roles' }];
    case 'xstate.done.actor.deactivateStaff':
      return [toast('staff.toast.deactivated', (event.output as { member: StaffMember }).member.name)];
    case 'xstate.done.actor.reactivateStaff':
      return [toast('staff.toast.reactivated', (event.output as StaffMember).name)];
    case 'xstate.done.actor.resendInvitation': {
      const { member, mailSent } = event.output as { member: StaffMember; mailSent: boolean };
      return [mailSent ? toast('staff.toast.resent', member.name) : toast('staff.toast.resentNotSent', member.name, 'warning')];
    }
    case 'xstate.done.actor.revokeInvitation':
      return [toast('staff.toast.revoked', (event.output as StaffMember).name)];
    case 'xstate.error.actor.reactivateStaff':
    case 'xstate.error.actor.resendInvitation':
    case 'xstate.error.actor.revokeInvitation':
      return [refusedToast(event.error)];
    case 'invite.closed':
      return from.matches({ shown: 'inviting' }) ? [{ type: 'focus', target: 'staff-invite' }] : [];
    case 'xstate.error.actor.invite':
      return [{ type: 'focus', target: 'staff-invite' }];
    default:
      return [];
  }
}

/** What the screen told its list in a step, in the test's own account. */
function expectedTold({ from, event }: StepEnv): AnyEventObject[] {
  if (!from.matches('shown')) return [];
  const c = from.context as { q: string; state: string | null; sort: string; order: string };
  if (event.type === 'staff.search') return [{ type: 'list.query', query: { ...pick(c), q: event.q } }];
  if (event.type === 'staff.filter') return [{ type: 'list.query', query: { ...pick(c), state: event.state } }];
  if (event.type === 'staff.sort') return [{ type: 'list.query', query: { ...pick(c), sort: event.sort, order: event.order } }];
  if (event.type === 'staff.loadMore') return [{ type: 'list.more' }];
  if (event.type === 'staff.retry') return [{ type: 'list.reload' }];
  if (event.type === 'invite.closed' && from.matches({ shown: 'inviting' }) && (event.invited as number) > 0)
    return [{ type: 'list.reload' }];
  const fresher = (
    {
      'xstate.done.actor.changeStaff': () => event.output,
      'xstate.done.actor.deactivateStaff': () => (event.output as { member: StaffMember }).member,
      'xstate.done.actor.reactivateStaff': () => event.output,
      'xstate.done.actor.resendInvitation': () => (event.output as { member: StaffMember }).member,
      'xstate.done.actor.revokeInvitation': () => event.output,
    } as Record<string, () => unknown>
  )[event.type];
  return fresher ? [{ type: 'list.update', items: [fresher()] }] : [];
}
const pick = (c: { q: string; state: string | null; sort: string; order: string }) => ({
  q: c.q,
  state: c.state,
  sort: c.sort,
  order: c.order,
});

const when =
  (allows: (member: StaffMember) => boolean, target: string) =>
  ({ event, context, stay }: { event: { id: number }; context: { items: StaffMember[] }; stay: unknown }) => {
    const member = rowOf(context, event.id);
    return member && allows(member) ? target : (stay as string);
  };

defineModelTests({
  name: 'staff',
  machine: staffMachine,
  // The header: one account at a time; a dialog's cancel and a request's end come back to the list.
  oracle: {
    initial: 'shown.idle',
    targets: {
      shown: { 'xstate.error.actor.list': 'crashed' },
      crashed: { 'staff.retry': 'shown.idle' },
      'shown.idle': {
        // Roles and device of anyone not deactivated; deactivate anyone not deactivated but oneself;
        // reactivate the deactivated; resend to the invited; revoke a link that still works.
        'staff.edit': when((m) => m.state !== 'deactivated', 'shown.editing.open'),
        'staff.deactivate': when((m) => m.state !== 'deactivated' && !m.is_self, 'shown.confirmingDeactivate'),
        'staff.reactivate': when((m) => m.state === 'deactivated', 'shown.reactivating'),
        'staff.resend': when((m) => m.state === 'invited', 'shown.resending'),
        'staff.revoke': when((m) => m.state === 'invited' && m.invitation_state === 'pending', 'shown.revoking'),
        'staff.invite': 'shown.inviting',
      },
      'shown.editing.open': {
        'staff.save': ({ context, stay }) => {
          const outcome = saveOutcome(context);
          return outcome === 'problem' ? stay : outcome === 'unchanged' ? 'shown.idle' : 'shown.editing.saving';
        },
        'staff.cancel': 'shown.idle',
      },
      'shown.editing.saving': { 'xstate.done.actor.changeStaff': 'shown.idle', 'xstate.error.actor.changeStaff': 'shown.editing.open' },
      'shown.confirmingDeactivate': { 'staff.confirm': 'shown.deactivating', 'staff.cancel': 'shown.idle' },
      'shown.deactivating': {
        'xstate.done.actor.deactivateStaff': 'shown.handover',
        'xstate.error.actor.deactivateStaff': 'shown.confirmingDeactivate',
      },
      'shown.handover': { 'staff.close': 'shown.idle' },
      'shown.reactivating': { 'xstate.done.actor.reactivateStaff': 'shown.idle', 'xstate.error.actor.reactivateStaff': 'shown.idle' },
      'shown.resending': { 'xstate.done.actor.resendInvitation': 'shown.idle', 'xstate.error.actor.resendInvitation': 'shown.idle' },
      'shown.revoking': { 'xstate.done.actor.revokeInvitation': 'shown.idle', 'xstate.error.actor.revokeInvitation': 'shown.idle' },
      'shown.inviting': { 'invite.closed': 'shown.idle', 'xstate.error.actor.invite': 'shown.idle' },
    },
  },
  traversal: {
    input: {},
    events: [
      { type: 'staff.search', q: 'ana' },
      { type: 'staff.filter', state: 'invited' },
      { type: 'staff.sort', sort: 'last_sign_in', order: 'desc' },
      { type: 'staff.loadMore' },
      { type: 'staff.retry' },
      { type: 'staff.edit', id: 1 },
      { type: 'staff.edit', id: 9 },
      { type: 'staff.toggleRole', role: 'colegio-utp' },
      { type: 'staff.toggleRole', role: 'docente' },
      { type: 'staff.toggleRole', role: 'colegio-administrador' },
      { type: 'staff.device', device: 'latam' },
      { type: 'staff.save' },
      { type: 'staff.cancel' },
      { type: 'staff.deactivate', id: 1 },
      { type: 'staff.deactivate', id: 9 },
      { type: 'staff.confirm' },
      { type: 'staff.close' },
      { type: 'staff.reactivate', id: 3 },
      { type: 'staff.resend', id: 2 },
      { type: 'staff.revoke', id: 2 },
      { type: 'staff.revoke', id: 4 },
      { type: 'staff.invite' },
      { type: 'invite.closed', invited: 2 },
      { type: 'invite.closed', invited: 0 },
    ],
    internal: [
      NONE,
      ROWS,
      { type: 'xstate.done.actor.changeStaff', output: { ...TEACHER_ROW, roles: ['colegio-utp', 'docente'] } },
      { type: 'xstate.error.actor.changeStaff', error: ROLES_REFUSED },
      { type: 'xstate.error.actor.changeStaff', error: OFFLINE },
      { type: 'xstate.done.actor.deactivateStaff', output: { member: { ...TEACHER_ROW, state: 'deactivated' }, handover: HANDOVER } },
      { type: 'xstate.error.actor.deactivateStaff', error: LAST_ADMIN },
      { type: 'xstate.done.actor.reactivateStaff', output: { ...GONE, state: 'active' } },
      { type: 'xstate.error.actor.reactivateStaff', error: failure(409, 'staff.state', 'Esta persona no está desactivada.') },
      { type: 'xstate.done.actor.resendInvitation', output: { member: INVITED, mailSent: true } },
      { type: 'xstate.done.actor.resendInvitation', output: { member: INVITED, mailSent: false } },
      { type: 'xstate.error.actor.resendInvitation', error: OFFLINE },
      { type: 'xstate.done.actor.revokeInvitation', output: { ...INVITED, invitation_state: 'revoked' } },
      {
        type: 'xstate.error.actor.revokeInvitation',
        error: failure(409, 'staff.not_invited', 'Esta persona ya no tiene una invitación pendiente.'),
      },
      { type: 'xstate.error.actor.list', error: new Error('list: a bug') },
      { type: 'xstate.error.actor.invite', error: new Error('invite: a bug') },
    ],
    // Each state is offered its own events (and the list's, while nothing else is open): a row's guards are
    // checked with `state.can` in `shown.idle`'s invariants instead of by sending refused events everywhere.
    filterEvents: (s, event) => {
      if (event.type.startsWith('xstate.')) return true;
      if (s.matches('crashed')) return event.type === 'staff.retry';
      if (s.matches({ shown: 'idle' }))
        return !/^staff\.(toggleRole|device|save|cancel|confirm|close)$/.test(event.type) && event.type !== 'invite.closed';
      if (s.matches({ shown: { editing: 'open' } })) return /^staff\.(toggleRole|device|save|cancel)$/.test(event.type);
      if (s.matches({ shown: 'confirmingDeactivate' })) return /^staff\.(confirm|cancel)$/.test(event.type);
      if (s.matches({ shown: 'handover' })) return event.type === 'staff.close';
      if (s.matches({ shown: 'inviting' })) return event.type === 'invite.closed';
      return false;
    },
    // What can happen next: the state, whether there are rows, the account, and what a save would do.
    serializeState: (s) =>
      JSON.stringify([
        s.value,
        s.context.items.length > 0,
        s.context.target?.id ?? null,
        s.context.target ? saveOutcome(s.context) : null,
        s.context.problem !== null,
      ]),
    limit: 50_000,
  },
  createActor: ({ fakes, inspect, machine }) =>
    createActor(
      machine.provide({
        actors: {
          list: listStandIn as never,
          invite: listStandIn as never,
          changeStaff: fakes.promise(),
          deactivateStaff: fakes.promise(),
          reactivateStaff: fakes.promise(),
          resendInvitation: fakes.promise(),
          revokeInvitation: fakes.promise(),
        },
      }),
      { input: {}, inspect },
    ),
  states: {
    shown: (s, env) => {
      expect(toldList(env)).toEqual(expectedTold(env));
      const list = s.children.list as { getSnapshot: () => AnyMachineSnapshot } | undefined;
      expect(list, 'hosted list').toBeDefined();
      expect(selectStaffItems(st(s))).toBe(list?.getSnapshot().context.items);
      if (env.event.type === 'xstate.init' || env.from.matches('crashed'))
        expect(list?.getSnapshot().context.input).toEqual({
          query: { q: s.context.q, state: s.context.state, sort: s.context.sort, order: s.context.order },
        });
    },
    'shown.idle': (s, env) => {
      expect(s.context.target).toBeNull();
      expect(s.context.problem).toBeNull();
      expect(s.children.invite, 'no invite dialog').toBeUndefined();
      expect(selectWorkingId(st(s))).toBeNull();
      for (const id of ['changeStaff', 'deactivateStaff', 'reactivateStaff', 'resendInvitation', 'revokeInvitation'])
        expect(env.fakes.isRunning(id), id).toBe(false);
      // A row offers what its account allows (the rows shown: the test's own fixtures).
      if (s.context.items.length > 0) {
        expect(s.can({ type: 'staff.deactivate', id: 9 }), 'not oneself').toBe(false);
        expect(s.can({ type: 'staff.deactivate', id: 1 })).toBe(true);
        expect(s.can({ type: 'staff.reactivate', id: 3 })).toBe(true);
        expect(s.can({ type: 'staff.edit', id: 3 }), 'not the deactivated').toBe(false);
        expect(s.can({ type: 'staff.revoke', id: 4 }), 'not a link that ran out').toBe(false);
        expect(s.can({ type: 'staff.resend', id: 4 })).toBe(true);
      }
    },
    'shown.editing': (s, env) => {
      const target = s.context.target as StaffMember;
      // The dialog is about the row the event named, as shown then.
      if (env.event.type === 'staff.edit') expect(target).toEqual(rowOf(s.context, env.event.id as number));
      // The dialog opens on the account's own roles and device, and keeps what was picked after a refusal.
      if (env.event.type === 'staff.edit') expect([s.context.roles, s.context.device]).toEqual([target.roles, target.device]);
      if (env.event.type === 'xstate.error.actor.changeStaff')
        expect([s.context.roles, s.context.device]).toEqual([env.from.context.roles, env.from.context.device]);
    },
    'shown.editing.open': (s, env) => {
      expect(env.fakes.isRunning('changeStaff')).toBe(false);
      if (env.event.type === 'staff.save') {
        const roles = s.context.roles as RoleCode[];
        expect(s.context.problem).toEqual(roles.length === 0 ? { key: 'staff.error.rolesRequired' } : { key: 'staff.error.ownAdmin' });
      }
      if (env.event.type === 'xstate.error.actor.changeStaff')
        expect(s.context.problem).toEqual(
          (env.event.error as { status: number }).status === 422
            ? { text: 'El colegio debe conservar al menos un administrador.' }
            : { key: 'staff.error.changeFailed' },
        );
      if (env.event.type === 'staff.toggleRole' || env.event.type === 'staff.device') expect(s.context.problem).toBeNull();
    },
    'shown.editing.saving': (s, env) => {
      expect(s.hasTag('busy')).toBe(true);
      const target = s.context.target as StaffMember;
      const change = env.fakes.inputOf('changeStaff') as { id: number; change: Record<string, unknown> };
      expect(change.id).toBe(target.id);
      // Only what differs is sent.
      expect(change.change.roles === undefined).toBe(sameRoles(target.roles, s.context.roles));
      expect(change.change.device === undefined).toBe(target.device === s.context.device);
      expect(selectWorkingId(st(s))).toBe(target.id);
    },
    'shown.confirmingDeactivate': (s, env) => {
      expect((s.context.target as StaffMember).is_self).toBe(false);
      if (env.event.type === 'xstate.error.actor.deactivateStaff')
        expect(s.context.problem).toEqual({ text: 'No puedes desactivar al último administrador del colegio.' });
      if (env.event.type === 'staff.deactivate') expect(s.context.problem).toBeNull();
    },
    'shown.deactivating': (s, env) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(env.fakes.inputOf('deactivateStaff')).toEqual({ id: (s.context.target as StaffMember).id });
    },
    'shown.handover': (s) => {
      expect(s.context.handover).toEqual(HANDOVER);
    },
    'shown.reactivating': (s, env) => {
      expect(env.fakes.inputOf('reactivateStaff')).toEqual({ id: 3 });
      expect(s.hasTag('busy')).toBe(true);
    },
    'shown.resending': (s, env) => {
      expect((env.fakes.inputOf('resendInvitation') as { id: number }).id).toBe((s.context.target as StaffMember).id);
      expect((s.context.target as StaffMember).state).toBe('invited');
    },
    'shown.revoking': (_s, env) => {
      expect(env.fakes.inputOf('revokeInvitation')).toEqual({ id: 2 });
    },
    'shown.inviting': (s) => {
      const invite = s.children.invite as { getSnapshot: () => AnyMachineSnapshot } | undefined;
      expect(invite, 'the invite dialog runs while open').toBeDefined();
      expect(invite?.getSnapshot().context.input).toMatchObject({ parent: expect.anything() });
    },
    crashed: (s) => {
      expect(s.children.list).toBeUndefined();
      expect(selectStaffItems(st(s))).toEqual([]);
    },
  },
  events: {
    'staff.search': send,
    'staff.filter': send,
    'staff.sort': send,
    'staff.loadMore': send,
    'staff.retry': send,
    'staff.edit': send,
    'staff.toggleRole': send,
    'staff.device': send,
    'staff.save': send,
    'staff.cancel': send,
    'staff.deactivate': send,
    'staff.confirm': send,
    'staff.close': send,
    'staff.reactivate': send,
    'staff.resend': send,
    'staff.revoke': send,
    'staff.invite': send,
    'invite.closed': send,
    ...listExecutors,
    'xstate.error.actor.invite': (env: StepEnv) =>
      ((env.actor.getSnapshot() as AnyMachineSnapshot).children.invite as { send: (e: AnyEventObject) => void } | undefined)?.send({
        type: 'test.crash',
      }),
    'xstate.done.actor.changeStaff': settle,
    'xstate.error.actor.changeStaff': settle,
    'xstate.done.actor.deactivateStaff': settle,
    'xstate.error.actor.deactivateStaff': settle,
    'xstate.done.actor.reactivateStaff': settle,
    'xstate.error.actor.reactivateStaff': settle,
    'xstate.done.actor.resendInvitation': settle,
    'xstate.error.actor.resendInvitation': settle,
    'xstate.done.actor.revokeInvitation': settle,
    'xstate.error.actor.revokeInvitation': settle,
  },
  emits,
});
