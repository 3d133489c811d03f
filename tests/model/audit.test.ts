// /audit (audit/audit.ts) around its hosted list: actions toggled (kept in the contract's order) or all
// again, days (a reversed range is kept as typed and not asked for), a person or an account picked from a row
// and dropped, every filter cleared, more and retry told to the list; a crashed list is a failure with
// Reintentar that starts it again on the same filters. The CSV link always carries the filters asked for.
import { createActor, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { expect } from 'vitest';
import { AUDIT_ACTIONS, type AuditAction, type AuditRow } from '../../shared/audit-contract';
import {
  auditMachine,
  selectAuditItems,
  selectExportHref,
  selectHasFilters,
  selectRangeReversed,
  type AuditSnapshot,
} from '../../src/machines/audit/audit';
import { defineModelTests, send, type StepEnv } from './harness';
import { listExecutors, listStandIn, showing, toldList } from './list-stand-in';

const st = (snapshot: AnyMachineSnapshot) => snapshot as unknown as AuditSnapshot;

const ROW: AuditRow = {
  id: 7,
  at: '2026-11-30T12:00:00.000Z',
  action: 'person.changed',
  actor: { kind: 'user', id: 3, name: 'Ana Pérez' },
  ip: '10.0.0.1',
  subject: { kind: 'apoderado', id: 12, name: 'Juan Soto' },
  detail: { fields: ['email'] },
};
const ROWS = showing('1', [ROW]);
const NONE = showing('none', []);

interface Ctx {
  actions: AuditAction[];
  subject: { kind: string; id: number; name: string | null } | null;
  actor: { id: number; name: string | null } | null;
  from: string;
  to: string;
}

/** What the server is asked for, in the test's own words: a reversed range is asked as no range. */
function asked(c: Ctx) {
  const reversed = c.from !== '' && c.to !== '' && c.to < c.from;
  return {
    actions: c.actions,
    subject: c.subject ? { kind: c.subject.kind, id: c.subject.id } : null,
    actorId: c.actor?.id ?? null,
    from: reversed ? '' : c.from,
    to: reversed ? '' : c.to,
  };
}

const anyFilter = (c: Ctx) => c.actions.length > 0 || c.subject !== null || c.actor !== null || c.from !== '' || c.to !== '';

/** The context after the step, in the test's own words (null: no change). */
function nextFilters(c: Ctx, event: AnyEventObject): Ctx | null {
  switch (event.type) {
    case 'audit.toggleAction': {
      const on = c.actions.includes(event.action) ? c.actions.filter((a) => a !== event.action) : [...c.actions, event.action];
      return { ...c, actions: AUDIT_ACTIONS.filter((a) => on.includes(a)) };
    }
    case 'audit.clearActions':
      return c.actions.length > 0 ? { ...c, actions: [] } : null;
    case 'audit.dates':
      return { ...c, from: event.from, to: event.to };
    case 'audit.pickSubject':
      return { ...c, subject: event.subject };
    case 'audit.pickActor':
      return { ...c, actor: event.actor };
    case 'audit.dropSubject':
      return c.subject ? { ...c, subject: null } : null;
    case 'audit.dropActor':
      return c.actor ? { ...c, actor: null } : null;
    case 'audit.clear':
      return anyFilter(c) ? { actions: [], subject: null, actor: null, from: '', to: '' } : null;
    default:
      return null;
  }
}

/** What the screen told its list in a step: a new query only when what is asked changed (dates), or always (the rest). */
function expectedTold({ from, event }: StepEnv): AnyEventObject[] {
  if (!from.matches('shown')) return [];
  if (event.type === 'audit.loadMore') return [{ type: 'list.more' }];
  if (event.type === 'audit.retry') return [{ type: 'list.reload' }];
  const before = from.context as Ctx;
  const after = nextFilters(before, event);
  if (!after) return [];
  if (event.type === 'audit.dates' && JSON.stringify(asked(after)) === JSON.stringify(asked(before))) return [];
  return [{ type: 'list.query', query: asked(after) }];
}

/** The CSV link of what is asked, built by the test. */
function expectedHref(c: Ctx): string {
  const q = asked(c);
  const params = new URLSearchParams();
  if (q.actions.length > 0) params.set('action', q.actions.join(','));
  if (q.subject) {
    params.set('subject_kind', q.subject.kind);
    params.set('subject_id', String(q.subject.id));
  }
  if (q.actorId !== null) params.set('actor_id', String(q.actorId));
  if (q.from) params.set('from', q.from);
  if (q.to) params.set('to', q.to);
  const text = params.toString();
  return `/api/audit/export.csv${text ? `?${text}` : ''}`;
}

defineModelTests({
  name: 'audit',
  machine: auditMachine,
  oracle: {
    initial: 'shown',
    targets: {
      shown: { 'xstate.error.actor.list': 'crashed' },
      crashed: { 'audit.retry': 'shown' },
    },
  },
  traversal: {
    input: {},
    events: [
      // In the contract's order the second comes first: the filter keeps that order whatever the clicks'.
      { type: 'audit.toggleAction', action: 'staff.changed' },
      { type: 'audit.toggleAction', action: 'session.signed_in' },
      { type: 'audit.clearActions' },
      { type: 'audit.dates', from: '2026-11-01', to: '2026-11-30' },
      { type: 'audit.dates', from: '2026-11-30', to: '2026-11-01' },
      { type: 'audit.dates', from: '', to: '2026-11-30' },
      { type: 'audit.dates', from: '', to: '' },
      { type: 'audit.pickSubject', subject: { kind: 'apoderado', id: 12, name: 'Juan Soto' } },
      { type: 'audit.pickActor', actor: { id: 3, name: 'Ana Pérez' } },
      { type: 'audit.dropSubject' },
      { type: 'audit.dropActor' },
      { type: 'audit.clear' },
      { type: 'audit.loadMore' },
      { type: 'audit.retry' },
    ],
    internal: [NONE, ROWS, { type: 'xstate.error.actor.list', error: new Error('list: a bug') }],
    filterEvents: (s, event) => (s.matches('crashed') ? event.type === 'audit.retry' || event.type === 'audit.clear' : true),
    serializeState: (s) =>
      JSON.stringify([
        s.value,
        s.context.items.length > 0,
        s.context.actions,
        s.context.subject !== null,
        s.context.actor !== null,
        s.context.from,
        s.context.to,
      ]),
    limit: 50_000,
  },
  createActor: ({ inspect, machine }) => createActor(machine.provide({ actors: { list: listStandIn as never } }), { input: {}, inspect }),
  states: {
    shown: (s, env) => {
      expect(toldList(env)).toEqual(expectedTold(env));
      const list = s.children.list as { getSnapshot: () => AnyMachineSnapshot } | undefined;
      expect(list, 'hosted list').toBeDefined();
      expect(selectAuditItems(st(s))).toBe(list?.getSnapshot().context.items);
      if (env.event.type === 'xstate.init' || env.from.matches('crashed'))
        expect(list?.getSnapshot().context.input).toEqual({ query: asked(s.context as Ctx) });
      const after = nextFilters(env.from.context as Ctx, env.event);
      if (env.from.matches('shown') && after) expect(s.context).toMatchObject(after);
      const c = s.context as Ctx;
      expect(selectRangeReversed(st(s))).toBe(c.from !== '' && c.to !== '' && c.to < c.from);
      expect(selectHasFilters(st(s))).toBe(anyFilter(c));
      expect(selectExportHref(st(s))).toBe(expectedHref(c));
      expect(s.hasTag('busy')).toBe(false);
    },
    crashed: (s, env) => {
      expect(s.children.list).toBeUndefined();
      expect(selectAuditItems(st(s))).toEqual([]);
      // The filters stay as they were: Reintentar starts the list on them.
      const c = s.context as Ctx;
      const before = env.from.context as Ctx;
      expect([c.actions, c.subject, c.actor, c.from, c.to]).toEqual([before.actions, before.subject, before.actor, before.from, before.to]);
    },
  },
  events: {
    'audit.toggleAction': send,
    'audit.clearActions': send,
    'audit.dates': send,
    'audit.pickSubject': send,
    'audit.pickActor': send,
    'audit.dropSubject': send,
    'audit.dropActor': send,
    'audit.clear': send,
    'audit.loadMore': send,
    'audit.retry': send,
    ...listExecutors,
  },
  emits: () => [],
});
