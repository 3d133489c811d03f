// /audit (the school's administration): the audit log, newest first, paged with «Cargar más» (the list
// pattern, list/list.ts, hosted as the child `list`), filtered by actions, by the person or thing an entry is
// about and by who did it (picked from a row: «Ver solo …»), and by days. A range whose end comes before its
// start is kept as typed and said, without asking the server. The CSV is the same filters as a link
// (`selectExportHref`); the log itself cannot be changed from here.
import { assertEvent, assign, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { AuditAction, AuditRow, AuditSubjectKind } from '../../../shared/audit-contract';
import { auditExportHref, fetchAuditPage, type AuditListQuery } from '../../services/audit/audit';
import { listChild, listHostActions, listOf } from '../list/list';
import { isRangeOrdered, toggledAction } from './audit-rules';

const auditListMachine = listOf<AuditRow, AuditListQuery>(fetchAuditPage, (row) => row.id);
export type AuditListActor = ActorRefFrom<typeof auditListMachine>;
type AuditListSnapshot = SnapshotFrom<typeof auditListMachine>;

/** A person or thing picked from a row, with the name the row showed (null: gone). */
export interface AuditSubjectPick {
  kind: AuditSubjectKind;
  id: number;
  name: string | null;
}
export interface AuditActorPick {
  id: number;
  name: string | null;
}

export interface AuditContext {
  actions: AuditAction[];
  subject: AuditSubjectPick | null;
  actor: AuditActorPick | null;
  from: string;
  to: string;
  /** The list's rows (the list's own array). */
  items: AuditRow[];
}

export type AuditEvent =
  | { type: 'audit.toggleAction'; action: AuditAction }
  | { type: 'audit.clearActions' }
  | { type: 'audit.dates'; from: string; to: string }
  | { type: 'audit.pickSubject'; subject: AuditSubjectPick }
  | { type: 'audit.pickActor'; actor: AuditActorPick }
  | { type: 'audit.dropSubject' }
  | { type: 'audit.dropActor' }
  | { type: 'audit.clear' }
  | { type: 'audit.loadMore' }
  | { type: 'audit.retry' }
  | { type: 'xstate.snapshot.list'; snapshot: AuditListSnapshot };

/** A link from elsewhere (a person's data page) opens the log on that person. */
export interface AuditInput {
  subject?: { kind: AuditSubjectKind; id: number };
}

const queryOf = (context: AuditContext): AuditListQuery => ({
  actions: context.actions,
  subject: context.subject ? { kind: context.subject.kind, id: context.subject.id } : null,
  actorId: context.actor?.id ?? null,
  // A range the server would refuse is not asked for: the open ends stand until it is fixed.
  from: isRangeOrdered(context.from, context.to) ? context.from : '',
  to: isRangeOrdered(context.from, context.to) ? context.to : '',
});

export const auditMachine = setup({
  types: {
    context: {} as AuditContext,
    events: {} as AuditEvent,
    input: {} as AuditInput | undefined,
    children: {} as { list: 'list' },
  },
  actors: { list: auditListMachine },
  actions: {
    ...listHostActions<AuditContext, AuditEvent, AuditListQuery>(queryOf),
    forgetItems: assign({ items: [] }),
    assignItems: assign({
      items: ({ event }) => {
        assertEvent(event, 'xstate.snapshot.list');
        return event.snapshot.context.items;
      },
    }),
    toggleAction: assign({
      actions: ({ context, event }) => {
        assertEvent(event, 'audit.toggleAction');
        return toggledAction(context.actions, event.action);
      },
    }),
    clearActions: assign({ actions: [] }),
    assignDates: assign(({ event }) => {
      assertEvent(event, 'audit.dates');
      return { from: event.from, to: event.to };
    }),
    assignSubject: assign({
      subject: ({ event }) => {
        assertEvent(event, 'audit.pickSubject');
        return event.subject;
      },
    }),
    assignActor: assign({
      actor: ({ event }) => {
        assertEvent(event, 'audit.pickActor');
        return event.actor;
      },
    }),
    dropSubject: assign({ subject: null }),
    dropActor: assign({ actor: null }),
    clearFilters: assign({ actions: [], subject: null, actor: null, from: '', to: '' }),
  },
  guards: {
    /** The new dates ask the server something else: an ordered range that differs from the one asked. */
    isNewRange: ({ context, event }) => {
      assertEvent(event, 'audit.dates');
      const before = queryOf(context);
      const after = queryOf({ ...context, from: event.from, to: event.to });
      return before.from !== after.from || before.to !== after.to;
    },
    hasActions: ({ context }) => context.actions.length > 0,
    hasSubject: ({ context }) => context.subject !== null,
    hasActor: ({ context }) => context.actor !== null,
    hasFilters: ({ context }) =>
      context.actions.length > 0 || context.subject !== null || context.actor !== null || context.from !== '' || context.to !== '',
  },
}).createMachine({
  id: 'audit',
  initial: 'shown',
  context: ({ input }) => ({
    actions: [],
    subject: input?.subject ? { ...input.subject, name: null } : null,
    actor: null,
    from: '',
    to: '',
    items: [],
  }),
  states: {
    shown: {
      invoke: { ...listChild(queryOf), onError: { target: 'crashed', actions: 'forgetItems' } },
      on: {
        'audit.toggleAction': { actions: ['toggleAction', 'askQuery'] },
        'audit.clearActions': { guard: 'hasActions', actions: ['clearActions', 'askQuery'] },
        'audit.dates': [{ guard: 'isNewRange', actions: ['assignDates', 'askQuery'] }, { actions: 'assignDates' }],
        'audit.pickSubject': { actions: ['assignSubject', 'askQuery'] },
        'audit.pickActor': { actions: ['assignActor', 'askQuery'] },
        'audit.dropSubject': { guard: 'hasSubject', actions: ['dropSubject', 'askQuery'] },
        'audit.dropActor': { guard: 'hasActor', actions: ['dropActor', 'askQuery'] },
        'audit.clear': { guard: 'hasFilters', actions: ['clearFilters', 'askQuery'] },
        'audit.loadMore': { actions: 'askMore' },
        'audit.retry': { actions: 'askReload' },
      },
    },
    // The hosted list crashed (a bug, not a failed request: those it shows itself): a retry starts it again.
    crashed: {
      on: { 'audit.retry': { target: 'shown' } },
    },
  },
});

export type AuditSnapshot = SnapshotFrom<typeof auditMachine>;
export type AuditActor = ActorRefFrom<typeof auditMachine>;

// Selectors: primitives, or context references that change only with their value.
export const selectAuditList = (s: AuditSnapshot): AuditListActor | undefined => s.children.list;
export const selectAuditItems = (s: AuditSnapshot): AuditRow[] => s.context.items;
export const selectHasCrashed = (s: AuditSnapshot): boolean => s.matches('crashed');
export const selectActions = (s: AuditSnapshot): AuditAction[] => s.context.actions;
export const selectSubject = (s: AuditSnapshot): AuditSubjectPick | null => s.context.subject;
export const selectActorPick = (s: AuditSnapshot): AuditActorPick | null => s.context.actor;
export const selectFrom = (s: AuditSnapshot): string => s.context.from;
export const selectTo = (s: AuditSnapshot): string => s.context.to;
/** The end comes before the start: said beside the dates, and not asked for. */
export const selectRangeReversed = (s: AuditSnapshot): boolean => !isRangeOrdered(s.context.from, s.context.to);
export const selectHasFilters = (s: AuditSnapshot): boolean => s.can({ type: 'audit.clear' });
/** The CSV of the filters in force (a string: the same text for the same filters). */
export const selectExportHref = (s: AuditSnapshot): string => auditExportHref(queryOf(s.context));
