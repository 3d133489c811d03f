// The lifecycle machine with its actions, guards and confirmation states (messages/lifecycle.ts).
import { createActor, type AnyMachineSnapshot, type AnyEventObject } from 'xstate';
import { expect } from 'vitest';
import { canTransition, type MessageAction } from '../../shared/message-rules';
import { messageLifecycleMachine, type MessageLifecycleSnapshot } from '../../src/machines/messages/lifecycle';
import {
  selectDeletedFrom,
  selectDelivery,
  selectErrorCode,
  selectIsBusy,
  selectIsConfirmingCancel,
  selectIsConfirmingPurge,
  selectIsPurged,
  selectIsUnread,
  selectKind,
  selectProgress,
} from '../../src/machines/messages/lifecycle-selectors';
import type { DeliveryProgress } from '../../shared/reception-contract';
import type { LifecycleMessage } from '../../src/machines/messages/lifecycle-rules';
import { defineModelTests, send, settle, type StepEnv } from './harness';
import { failure } from './fixtures';
import { deliveryProgress } from '../fixtures/reception';
import type { MessageKind } from '../../shared/codes';

const ml = (snapshot: AnyMachineSnapshot) => snapshot as unknown as MessageLifecycleSnapshot;

const ID = 42;
const msg = (
  kind: MessageKind,
  unread = false,
  deleted_from: LifecycleMessage['deleted_from'] = null,
  reception: DeliveryProgress | null = null,
): LifecycleMessage => ({ id: ID, kind, unread, deleted_from, reception });

/** Four deliveries, `settled` of them no longer queued; a partial failure is one of them failed. */
const progress = (state: DeliveryProgress['state'], settled: number): DeliveryProgress => {
  const failed = state === 'partially_failed' ? 1 : 0;
  return deliveryProgress({ queued: 4 - settled, received: settled - failed, failed, state });
};
const SENDING = progress('sending', 1);
const DELIVERED = progress('sent', 4);
const PARTIAL = progress('partially_failed', 4);
const PROGRESS_EVENTS = [SENDING, DELIVERED, PARTIAL].map((p) => ({ type: 'delivery.progress', progress: p }));

/** The lifecycle's delivery substate for a progress state (null progress: still waiting for a poll). */
const DELIVERY_OF = { sending: 'sending', sent: 'delivered', partially_failed: 'partiallyFailed' } as const;
const open = (message: LifecycleMessage) => ({ type: 'message.open', message });

const EVENT_OF: Record<MessageAction, AnyEventObject> = {
  save: { type: 'message.save' },
  schedule: { type: 'message.schedule', at: '2026-03-05T11:00:00Z' },
  send: { type: 'message.send' },
  cancelSchedule: { type: 'message.cancelSchedule' },
  read: { type: 'message.read' },
  delete: { type: 'message.delete' },
  restore: { type: 'message.restore' },
  purge: { type: 'message.purge' },
};

const CONFLICT = failure(409, 'message.illegal_transition', 'El mensaje ya no está en esa carpeta.');
/** The progress poller died (it swallows failed polls, so only a bug gets here). */
const POLLER_DIED = failure(0, 'network.error', 'El seguimiento del envío se detuvo.');
const IO_IDS = [
  'saveDraft',
  'scheduleMessage',
  'sendMessage',
  'cancelSchedule',
  'markRead',
  'deleteMessages',
  'restoreMessages',
  'purgeMessages',
];
const DONE_TOAST: Record<string, string | null> = {
  saveDraft: 'messages.saved',
  scheduleMessage: 'messages.scheduled',
  sendMessage: 'messages.sent',
  cancelSchedule: 'messages.scheduleCancelled',
  markRead: null,
  deleteMessages: 'messages.deleted',
  restoreMessages: 'messages.restored',
  purgeMessages: 'messages.purged',
};

const step = (run: (env: StepEnv) => void) => (env: StepEnv) => run(env);

function outcomeOf(event: AnyEventObject): { kind: 'done' | 'error'; id: string } | null {
  const match = /^xstate\.(done|error)\.actor\.(.+)$/.exec(event.type);
  return match ? { kind: match[1] as 'done' | 'error', id: match[2] as string } : null;
}

/** Idle in a kind: exactly the contract's actions are possible (read again is a no-op once read). */
function expectRules(snapshot: AnyMachineSnapshot, kind: MessageKind, env: StepEnv) {
  expect(selectKind(ml(snapshot))).toBe(kind);
  expect(selectIsBusy(ml(snapshot))).toBe(false);
  expectRunning(env, null);
  const real = env.actor.getSnapshot() as AnyMachineSnapshot;
  for (const [action, event] of Object.entries(EVENT_OF) as Array<[MessageAction, AnyEventObject]>) {
    const idempotentRead = action === 'read' && snapshot.matches({ received: 'read' });
    expect(real.can(event), `${kind} can ${action}`).toBe(canTransition(kind, action) && !idempotentRead);
  }
}

/** A question is open: only its answer is taken, nothing runs meanwhile, and it is the question `asking` names. */
function expectAsking(snapshot: AnyMachineSnapshot, env: StepEnv, kind: MessageKind, asking: (s: MessageLifecycleSnapshot) => boolean) {
  expect(selectKind(ml(snapshot))).toBe(kind);
  expect(selectIsBusy(ml(snapshot))).toBe(false);
  expect(asking(ml(snapshot))).toBe(true);
  expectRunning(env, null);
  const real = env.actor.getSnapshot() as AnyMachineSnapshot;
  for (const event of Object.values(EVENT_OF)) expect(real.can(event), `confirming: ${event.type}`).toBe(false);
  expect(real.can({ type: 'message.confirm' })).toBe(true);
  expect(real.can({ type: 'message.cancel' })).toBe(true);
}

/** While a call runs, only it runs, with this message's id, and every other action waits. */
function expectCall(env: StepEnv, id: string, input: unknown) {
  const real = env.actor.getSnapshot() as AnyMachineSnapshot;
  expect(selectIsBusy(ml(real))).toBe(true);
  expectRunning(env, id);
  expect(env.fakes.inputOf(id)).toEqual(input);
  for (const event of Object.values(EVENT_OF)) expect(real.can(event), `busy: ${event.type}`).toBe(false);
}

function expectRunning(env: StepEnv, id: string | null) {
  for (const other of IO_IDS) expect(env.fakes.isRunning(other), `${other} running`).toBe(other === id);
  // The progress poller runs exactly while deliveries are in flight.
  const real = env.actor.getSnapshot() as AnyMachineSnapshot;
  // A poller that died stays gone (its failure kept) until `sending` is entered again.
  const died = real.context.error?.code === POLLER_DIED.code;
  expect(env.fakes.isRunning('watchProgress'), 'watchProgress running').toBe(real.matches({ sent: 'sending' }) && !died);
}

/**
 * A sent message rests where its progress says: opened with a progress, it starts there; each poll
 * moves it on (or keeps it in `sending`, updated); unknown progress (just sent or restored) is in flight.
 */
function expectSentAt(snapshot: AnyMachineSnapshot, env: StepEnv, at: 'sending' | 'delivered' | 'partiallyFailed') {
  expect(selectDelivery(ml(snapshot))).toBe(at);
  const known = selectProgress(ml(snapshot));
  // Unknown progress: in flight after a send or restore; a sent message opened without one has nothing to follow.
  if (known === null) expect(['sending', 'delivered']).toContain(at);
  else expect(DELIVERY_OF[known.state]).toBe(at);
  const event = env.event as AnyEventObject;
  if (event.type === 'message.open' && env.from.matches('closed'))
    expect(known).toEqual((event.message as LifecycleMessage).reception ?? null);
  if (event.type === 'delivery.progress') {
    if (env.from.matches({ sent: 'sending' })) expect(known).toEqual(event.progress);
    // Once settled, later polls cannot arrive (no poller) and change nothing if they do.
    else expect(known).toEqual(env.from.context.progress);
  }
}

/** After a failed call: back where it started, the error kept, nothing changed. */
function expectAfterStep(snapshot: AnyMachineSnapshot, env: StepEnv) {
  const outcome = outcomeOf(env.event);
  // A restore returns the message to the kind it was deleted from, unread again if it was unread.
  if (outcome?.kind === 'done' && outcome.id === 'restoreMessages') {
    expect(selectKind(ml(snapshot))).toBe(env.from.context.deletedFrom);
    expect(snapshot.context.deletedFrom).toBeNull();
  }
  if (outcome?.kind === 'error' && outcome.id === 'watchProgress') {
    // Silent and in place: still sending, with the last progress.
    expect(selectErrorCode(ml(snapshot))).toBe(POLLER_DIED.code);
    expect(snapshot.matches({ sent: 'sending' })).toBe(true);
    expect(selectProgress(ml(snapshot))).toEqual(selectProgress(ml(env.from)));
  } else if (outcome?.kind === 'error') {
    expect(selectErrorCode(ml(snapshot))).toBe('message.illegal_transition');
    expect(selectKind(ml(snapshot)), 'a failed call stays in its kind').toBe(selectKind(ml(env.from)));
  }
  // Starting another call forgets the previous failure (asking to confirm a purge starts none yet).
  if (
    env.event.type.startsWith('message.') &&
    env.event.type !== 'message.open' &&
    selectIsBusy(ml(snapshot)) &&
    !snapshot.matches(env.from.value as never)
  ) {
    expect(selectErrorCode(ml(snapshot))).toBeNull();
  }
}

defineModelTests({
  name: 'message-lifecycle',
  machine: messageLifecycleMachine,
  // SPEC §4, the contract's rule table and the machine's header, as the reader of one message lives it.
  // A question or a call is its own state; a failed call goes back to where it started.
  oracle: {
    initial: 'closed',
    targets: {
      closed: {
        'message.open': ({ event: { message }, stay }) => {
          switch (message.kind) {
            case 'draft':
              return 'draft.idle';
            case 'scheduled':
              return 'scheduled.idle';
            // Opened from a list (no progress), a sent message counts as delivered.
            case 'sent':
              return message.reception ? `sent.${DELIVERY_OF[message.reception.state]}` : 'sent.delivered';
            case 'received':
              return message.unread ? 'received.unread' : 'received.read';
            // A trashed message that does not say where from cannot be restored: nothing to open.
            case 'deleted':
              return message.deleted_from ? 'deleted.idle' : stay;
          }
        },
      },
      'draft.idle': {
        'message.save': 'draft.saving',
        'message.schedule': 'draft.scheduling',
        'message.send': 'draft.sending',
        'message.delete': 'draft.deleting',
      },
      'draft.saving': { 'xstate.done.actor.saveDraft': 'draft.idle', 'xstate.error.actor.saveDraft': 'draft.idle' },
      'draft.scheduling': { 'xstate.done.actor.scheduleMessage': 'scheduled.idle', 'xstate.error.actor.scheduleMessage': 'draft.idle' },
      // Just sent: its deliveries are in flight until a poll says otherwise.
      'draft.sending': { 'xstate.done.actor.sendMessage': 'sent.sending', 'xstate.error.actor.sendMessage': 'draft.idle' },
      'draft.deleting': { 'xstate.done.actor.deleteMessages': 'deleted.idle', 'xstate.error.actor.deleteMessages': 'draft.idle' },
      // Taking a message out of its schedule asks first.
      'scheduled.idle': { 'message.cancelSchedule': 'scheduled.confirmingCancel', 'message.delete': 'scheduled.deleting' },
      'scheduled.confirmingCancel': { 'message.confirm': 'scheduled.cancelling', 'message.cancel': 'scheduled.idle' },
      'scheduled.cancelling': { 'xstate.done.actor.cancelSchedule': 'draft.idle', 'xstate.error.actor.cancelSchedule': 'scheduled.idle' },
      'scheduled.deleting': { 'xstate.done.actor.deleteMessages': 'deleted.idle', 'xstate.error.actor.deleteMessages': 'scheduled.idle' },
      // Each poll moves a message in flight to where its progress says; a dead poller changes nothing.
      'sent.sending': {
        'delivery.progress': ({ event }) => `sent.${DELIVERY_OF[event.progress.state]}`,
        'message.delete': 'sent.deleting',
      },
      'sent.delivered': { 'message.delete': 'sent.deleting' },
      'sent.partiallyFailed': { 'message.delete': 'sent.deleting' },
      'sent.deleting': {
        'xstate.done.actor.deleteMessages': 'deleted.idle',
        // Back where its progress says (unknown: still in flight).
        'xstate.error.actor.deleteMessages': ({ context }) => `sent.${DELIVERY_OF[context.progress?.state ?? 'sending']}`,
      },
      // Reading again is idempotent: only an unread message is marked.
      'received.unread': { 'message.read': 'received.markingRead', 'message.delete': 'received.deleting' },
      'received.markingRead': { 'xstate.done.actor.markRead': 'received.read', 'xstate.error.actor.markRead': 'received.unread' },
      'received.read': { 'message.delete': 'received.deleting' },
      'received.deleting': {
        'xstate.done.actor.deleteMessages': 'deleted.idle',
        'xstate.error.actor.deleteMessages': ({ context }) => (context.unread ? 'received.unread' : 'received.read'),
      },
      // Forever asks first.
      'deleted.idle': { 'message.restore': 'deleted.restoring', 'message.purge': 'deleted.confirmingPurge' },
      'deleted.confirmingPurge': { 'message.confirm': 'deleted.purging', 'message.cancel': 'deleted.idle' },
      'deleted.restoring': {
        // Back to the kind it was deleted from, as it was there (unread again; deliveries unchanged, so a
        // sent message of unknown progress is in flight again).
        'xstate.done.actor.restoreMessages': ({ context }) => {
          switch (context.deletedFrom) {
            case 'draft':
              return 'draft.idle';
            case 'scheduled':
              return 'scheduled.idle';
            case 'sent':
              return `sent.${DELIVERY_OF[context.progress?.state ?? 'sending']}`;
            default:
              return context.unread ? 'received.unread' : 'received.read';
          }
        },
        'xstate.error.actor.restoreMessages': 'deleted.idle',
      },
      'deleted.purging': { 'xstate.done.actor.purgeMessages': 'purged', 'xstate.error.actor.purgeMessages': 'deleted.idle' },
    },
  },
  traversal: {
    events: [
      open(msg('draft')),
      open(msg('scheduled')),
      open(msg('sent')),
      open(msg('sent', false, null, SENDING)),
      open(msg('sent', false, null, DELIVERED)),
      open(msg('sent', false, null, PARTIAL)),
      open(msg('received', true)),
      open(msg('received', false)),
      open(msg('deleted', false, 'sent')),
      open(msg('deleted', false, null)),
      ...Object.values(EVENT_OF),
      { type: 'message.confirm' },
      { type: 'message.cancel' },
      ...PROGRESS_EVENTS,
    ],
    internal: [
      ...IO_IDS.flatMap((id) => [
        { type: `xstate.done.actor.${id}`, output: id === 'markRead' ? { id: ID } : 1 },
        { type: `xstate.error.actor.${id}`, error: CONFLICT },
      ]),
      { type: 'xstate.error.actor.watchProgress', error: POLLER_DIED },
    ],
    // A dead poller cannot die again.
    filterEvents: (snapshot, event) =>
      event.type !== 'xstate.error.actor.watchProgress' || snapshot.context.error?.code !== POLLER_DIED.code,
    // `message.open` only matters before the message is known; after that it is offered once per vertex anyway.
    serializeState: (snapshot) =>
      JSON.stringify([
        snapshot.value,
        snapshot.context.unread,
        snapshot.context.deletedFrom,
        snapshot.context.error !== null,
        snapshot.context.progress?.state ?? null,
      ]),
    limit: 5000,
  },
  createActor: ({ fakes, machine }) =>
    createActor(
      machine.provide({
        actors: {
          ...Object.fromEntries(IO_IDS.map((id) => [id, fakes.promise()])),
          // Progress arrives as `delivery.progress` events from the model (the poller itself is a service
          // test); a pending fake lets the model see it running and make it die.
          watchProgress: fakes.promise(),
        } as never,
      }),
    ),
  states: {
    closed: (snapshot, env) => {
      expect(selectKind(ml(snapshot))).toBeNull();
      expect(selectProgress(ml(snapshot))).toBeNull();
      expect(snapshot.context.id).toBeNull();
      expectRunning(env, null);
    },
    draft: (snapshot, env) => {
      expect(snapshot.context.id).toBe(ID);
      expectAfterStep(snapshot, env);
    },
    'draft.idle': (snapshot, env) => expectRules(snapshot, 'draft', env),
    'draft.saving': (_, env) => expectCall(env, 'saveDraft', { id: ID }),
    'draft.scheduling': (_, env) => expectCall(env, 'scheduleMessage', { id: ID, at: '2026-03-05T11:00:00Z' }),
    'draft.sending': (_, env) => expectCall(env, 'sendMessage', { id: ID }),
    'draft.deleting': (_, env) => expectCall(env, 'deleteMessages', { ids: [ID] }),
    scheduled: (snapshot, env) => expectAfterStep(snapshot, env),
    'scheduled.idle': (snapshot, env) => expectRules(snapshot, 'scheduled', env),
    // Taking a message out of its schedule asks first.
    'scheduled.confirmingCancel': (snapshot, env) => expectAsking(snapshot, env, 'scheduled', selectIsConfirmingCancel),
    'scheduled.cancelling': (_, env) => {
      // Only once confirmed.
      expect(env.from.matches({ scheduled: 'confirmingCancel' }) || env.from.matches({ scheduled: 'cancelling' })).toBe(true);
      expectCall(env, 'cancelSchedule', { id: ID });
    },
    'scheduled.deleting': (_, env) => expectCall(env, 'deleteMessages', { ids: [ID] }),
    sent: (snapshot, env) => expectAfterStep(snapshot, env),
    'sent.sending': (snapshot, env) => {
      expectRules(snapshot, 'sent', env);
      expectSentAt(snapshot, env, 'sending');
    },
    'sent.delivered': (snapshot, env) => {
      expectRules(snapshot, 'sent', env);
      expectSentAt(snapshot, env, 'delivered');
    },
    'sent.partiallyFailed': (snapshot, env) => {
      expectRules(snapshot, 'sent', env);
      expectSentAt(snapshot, env, 'partiallyFailed');
    },
    'sent.deleting': (_, env) => expectCall(env, 'deleteMessages', { ids: [ID] }),
    received: (snapshot, env) => expectAfterStep(snapshot, env),
    'received.unread': (snapshot, env) => {
      expectRules(snapshot, 'received', env);
      expect(selectIsUnread(ml(snapshot))).toBe(true);
      expect(snapshot.context.unread).toBe(true);
    },
    'received.markingRead': (_, env) => expectCall(env, 'markRead', { id: ID }),
    'received.read': (snapshot, env) => {
      expectRules(snapshot, 'received', env);
      expect(selectIsUnread(ml(snapshot))).toBe(false);
      expect(snapshot.context.unread).toBe(false);
    },
    'received.deleting': (_, env) => expectCall(env, 'deleteMessages', { ids: [ID] }),
    deleted: (snapshot, env) => {
      // A trashed message always knows where a restore takes it.
      expect(selectDeletedFrom(ml(snapshot))).not.toBeNull();
      if (outcomeOf(env.event)?.id === 'deleteMessages') expect(selectDeletedFrom(ml(snapshot))).toBe(selectKind(ml(env.from as never)));
      expectAfterStep(snapshot, env);
    },
    'deleted.idle': (snapshot, env) => expectRules(snapshot, 'deleted', env),
    'deleted.restoring': (_, env) => expectCall(env, 'restoreMessages', { ids: [ID] }),
    // Forever asks first.
    'deleted.confirmingPurge': (snapshot, env) => expectAsking(snapshot, env, 'deleted', selectIsConfirmingPurge),
    'deleted.purging': (_, env) => expectCall(env, 'purgeMessages', { ids: [ID] }),
    purged: (snapshot, env) => {
      expect(selectIsPurged(ml(snapshot))).toBe(true);
      expect(env.actor.getSnapshot().status).toBe('done');
      expectRunning(env, null);
    },
  },
  events: {
    'message.open': step(send),
    'message.save': step(send),
    'message.schedule': step(send),
    'message.send': step(send),
    'message.cancelSchedule': step(send),
    'message.read': step(send),
    'message.delete': step(send),
    'message.restore': step(send),
    'message.purge': step(send),
    'message.confirm': step(send),
    'message.cancel': step(send),
    'delivery.progress': step(send),
    ...Object.fromEntries(
      IO_IDS.flatMap((id) => [
        [`xstate.done.actor.${id}`, step(settle)],
        [`xstate.error.actor.${id}`, step(settle)],
      ]),
    ),
    'xstate.error.actor.watchProgress': step(settle),
  },
  emits: ({ event, from }): AnyEventObject[] => {
    // Not confirming a purge gives keyboard focus back to the button that asked.
    if (event.type === 'message.cancel' && from.matches({ deleted: 'confirmingPurge' }))
      return [{ type: 'focus', target: 'message-purge' }];
    // Keeping the schedule gives it back to "Cancelar envío programado".
    if (event.type === 'message.cancel' && from.matches({ scheduled: 'confirmingCancel' }))
      return [{ type: 'focus', target: 'message-cancel-schedule' }];
    const outcome = outcomeOf(event);
    if (!outcome) return [];
    if (outcome.kind === 'done') {
      const key = DONE_TOAST[outcome.id];
      // Deleted: the toast offers "Deshacer", which asks the app to restore this message.
      const undo = outcome.id === 'deleteMessages' ? { action: { label: 'toast.undo', event: { type: 'undo.restore', ids: [ID] } } } : {};
      const toast = key ? [{ type: 'toast', kind: 'success', key, params: { count: 1 }, ...undo }] : [];
      // Every finished step but a re-save changes a folder's counters (SPEC §7), after its toast.
      return outcome.id === 'saveDraft' ? toast : [...toast, { type: 'counts.changed' }];
    }
    // Reading and the progress poller are silent; a failed send has its own text (SPEC §8).
    if (outcome.id === 'markRead' || outcome.id === 'watchProgress') return [];
    return [{ type: 'toast', kind: 'error', key: outcome.id === 'sendMessage' ? 'error.send' : 'error.request' }];
  },
});
