import {
  assign,
  createActor,
  emit,
  initialTransition,
  setup,
  transition,
  type AnyActorRef,
  type AnyMachineSnapshot,
  type AnyEventObject,
} from 'xstate';
import { expect } from 'vitest';
import type { Folder, MessageKind } from '../../shared/codes';
import type { MessageDetail } from '../../shared/messages-contract';
import type { Effect } from '../../src/machines/app/effects';
import {
  destinationAfter,
  messageReaderMachine,
  selectCanEdit,
  selectCanReply,
  selectIsReaderFailed,
  selectIsReaderLoading,
  selectIsReaderNotFound,
  selectLifecycle,
  selectMessage,
  type MessageReaderSnapshot,
} from '../../src/machines/messages/reader';
import { failure } from './fixtures';
import { messageDetail } from '../fixtures/messages';
import { defineModelTests, send, settle, type StepEnv } from './harness';

const snap = (snapshot: AnyMachineSnapshot) => snapshot as unknown as MessageReaderSnapshot;

/** An unread inbox message that can be answered (the variants below move it to other folders). */
const DETAIL = messageDetail({ id: 41, unread: true, allow_replies: true });

/**
 * Stands in for the hosted message-lifecycle (its own model test covers it): states named like its kinds,
 * moved by the test, recording what the reader tells it, and emitting a toast on request.
 */
const KINDS = ['draft', 'scheduled', 'sent', 'received', 'deleted'] as const;
const lifecycleStandIn = setup({
  types: {
    context: {} as { told: string[] },
    events: {} as { type: 'test.go'; to: MessageKind | 'purged' } | { type: 'test.toast' } | { type: 'message.open' | 'message.read' },
    emitted: {} as Effect,
  },
}).createMachine({
  id: 'lifecycleStandIn',
  context: () => ({ told: [] }),
  initial: 'closed',
  on: {
    'test.go': [...KINDS, 'purged' as const].map((to) => ({
      guard: ({ event }: { event: AnyEventObject }) => event.to === to,
      target: `.${to}`,
    })),
    'test.toast': { actions: emit({ type: 'toast', kind: 'success', key: 'messages.deleted', params: { count: 1 } }) },
    'message.open': { actions: assign({ told: ({ context }) => [...context.told, 'message.open'] }) },
    'message.read': { actions: assign({ told: ({ context }) => [...context.told, 'message.read'] }) },
  },
  states: { closed: {}, draft: {}, scheduled: {}, sent: {}, received: {}, deleted: {}, purged: { type: 'final' } },
});

/** The stand-in's snapshot in `kind`, as the reader's `xstate.snapshot.lifecycle` carries it. */
function lifecycleIn(kind: MessageKind) {
  const [initial] = initialTransition(lifecycleStandIn);
  const [moved] = transition(lifecycleStandIn, initial, { type: 'test.go', to: kind });
  return moved;
}

const TOAST = { type: 'toast', kind: 'success', key: 'messages.deleted', params: { count: 1 } };
const lifecycleOf = (env: StepEnv) => selectLifecycle(snap(env.actor.getSnapshot() as AnyMachineSnapshot)) as AnyActorRef | null;

interface Variant {
  /** Tells the variants apart (the reader's input id). */
  name: string;
  folder: Folder;
  detail: MessageDetail;
  /** Kinds the hosted lifecycle reports moving to. */
  kinds: readonly MessageKind[];
}

const variantOf = (env: { actor: AnyActorRef }): Variant =>
  VARIANTS.find((v) => v.detail.id === (env.actor.getSnapshot() as AnyMachineSnapshot).context.id) as Variant;

/**
 * Whom staff may answer: what reached their inbox from a guardian or a student, always; from a
 * colleague, when the colleague allowed replies.
 */
const answerable = (kind: MessageKind | null, detail: MessageDetail) =>
  kind === 'received' && (detail.sender.kind !== 'funcionario' || detail.allow_replies);

function defineReaderTests() {
  defineModelTests({
    name: 'message-reader',
    machine: messageReaderMachine,
    // The header, SPEC §8 and the decision on the reading view: load, then show the message until it leaves
    // the folder it was opened from (or is purged); a 404 is final, any other failure can be retried.
    oracle: {
      initial: 'loading',
      targets: {
        loading: {
          'xstate.done.actor.fetchMessage': 'loaded.open',
          // Someone else's id or a message purged meanwhile: nothing to retry.
          'xstate.error.actor.fetchMessage': ({ event }) => ((event.error as { status?: number }).status === 404 ? 'notFound' : 'failed'),
        },
        failed: { 'reader.retry': 'loading' },
        loaded: {
          // The lifecycle moved it: the view goes only when it is no longer where the address says.
          'xstate.snapshot.lifecycle': ({ event, context, stay }) =>
            FOLDER_OF_KIND[selectKindOf(event.snapshot as AnyMachineSnapshot)] === context.folder ? stay : 'left',
          // Purged: gone for good.
          'xstate.done.actor.lifecycle': 'left',
        },
      },
    },
    traversal: {
      events: [{ type: 'reader.retry' }, { type: 'message.reply' }, { type: 'message.edit' }],
      // Bounded by the kind the lifecycle reports (the context's only growing part is fixed per kind).
      serializeState: (snapshot) => JSON.stringify([snapshot.value, snapshot.context.kind, snapshot.context.notFound]),
      limit: 200,
    },
    // One reading view per folder: what the message is, and where its lifecycle can take it.
    variants: VARIANTS.map(({ name, folder, detail, kinds }) => ({
      name,
      traversal: {
        input: { id: detail.id, folder },
        internal: [
          { type: 'xstate.done.actor.fetchMessage', output: detail },
          { type: 'xstate.error.actor.fetchMessage', error: failure(404, 'not_found') },
          { type: 'xstate.error.actor.fetchMessage', error: failure(500, 'server.error') },
          ...kinds.map((kind) => ({ type: 'xstate.snapshot.lifecycle', snapshot: lifecycleIn(kind) })),
          { type: 'xstate.done.actor.lifecycle' },
          { type: 'effect.relay', effect: TOAST },
        ],
      },
    })),
    createActor: ({ fakes, path, machine }) =>
      createActor(machine.provide({ actors: { fetchMessage: fakes.promise(), lifecycle: lifecycleStandIn as never } }), {
        input: path.input as { id: number; folder: Folder },
      }),
    states: {
      loading: (snapshot, env) => {
        expect(selectIsReaderLoading(snap(snapshot))).toBe(true);
        expect(env.fakes.inputOf('fetchMessage')).toEqual({ id: variantOf(env).detail.id });
        expect(selectLifecycle(snap(snapshot))).toBeNull();
        // Reintentar asks again.
        if (env.event.type === 'reader.retry') expect(env.started).toEqual(env.from.matches('failed') ? ['fetchMessage'] : []);
      },
      loaded: (snapshot, env) => {
        const { folder, detail } = variantOf(env);
        expect(selectMessage(snap(snapshot))).toEqual(detail);
        expect(snapshot.context.notFound).toBe(false);
        // The view gets the hosted lifecycle; reply and edit are offered as the message's kind allows.
        expect(selectLifecycle(snap(snapshot))).not.toBeNull();
        const kind = snapshot.context.kind as MessageKind | null;
        expect(selectCanReply(snap(snapshot))).toBe(answerable(kind, detail));
        expect(selectCanEdit(snap(snapshot))).toBe(kind === 'draft');
        // While shown, the message still belongs to the folder it was opened from.
        expect(destinationAfter(folder, kind)).toBeNull();
        // The kind is the one the lifecycle last reported (none yet: not known), in the test's own account,
        // and the message as shown belongs to the folder of the address.
        const reported = lastReportedKind(env.history);
        expect(kind, 'the kind the lifecycle reported').toBe(reported);
        expect(FOLDER_OF_KIND[reported ?? detail.kind], 'still in the folder opened').toBe(folder);
      },
      'loaded.open': (_, env) => {
        const { detail } = variantOf(env);
        // Opened on the message as loaded; an unread inbox message is marked read at once (SPEC).
        const told = (lifecycleOf(env)?.getSnapshot() as AnyMachineSnapshot | undefined)?.context.told;
        expect(told).toEqual(detail.kind === 'received' && detail.unread ? ['message.open', 'message.read'] : ['message.open']);
      },
      notFound: (snapshot, env) => {
        expect(selectIsReaderNotFound(snap(snapshot))).toBe(true);
        expect(selectMessage(snap(snapshot))).toBeNull();
        expect(env.fakes.isRunning('fetchMessage')).toBe(false);
      },
      failed: (snapshot) => {
        expect(selectIsReaderFailed(snap(snapshot))).toBe(true);
        expect(snapshot.context.notFound).toBe(false);
        expect(snapshot.can({ type: 'reader.retry' })).toBe(true);
      },
      left: (snapshot, env) => {
        // Navigating away: the lifecycle is stopped and nothing is offered any more.
        expect(env.actor.getSnapshot().status).toBe('done');
        expect(selectLifecycle(snap(snapshot))).toBeNull();
      },
    },
    events: {
      'reader.retry': send,
      'message.reply': send,
      'message.edit': send,
      'xstate.done.actor.fetchMessage': settle,
      'xstate.error.actor.fetchMessage': settle,
      // The hosted lifecycle moves (deleted, restored, back to drafts…): its new snapshot reaches the reader.
      'xstate.snapshot.lifecycle': (env) => {
        lifecycleOf(env)?.send({ type: 'test.go', to: selectKindOf(env.event.snapshot as AnyMachineSnapshot) });
      },
      'xstate.done.actor.lifecycle': (env) => lifecycleOf(env)?.send({ type: 'test.go', to: 'purged' }),
      // Its toasts and counter updates pass through the reader to whoever hosts the page.
      'effect.relay': (env) => lifecycleOf(env)?.send({ type: 'test.toast' }),
    },
    emits: (env): AnyEventObject[] => {
      const { from, to, event } = env;
      const { folder, detail } = variantOf(env);
      // Reply and edit act only while the message is shown, as its kind allows.
      const shown = from.matches('loaded');
      switch (event.type) {
        case 'xstate.error.actor.fetchMessage':
          return (event as unknown as { error: { status?: number } }).error.status !== 404
            ? [{ type: 'toast', kind: 'error', key: 'messages.readFailed' }]
            : [];
        case 'message.reply':
          return shown && answerable(from.context.kind, detail) ? [{ type: 'navigate', to: `/new?reply=${detail.id}` }] : [];
        case 'message.edit':
          return shown && from.context.kind === 'draft' ? [{ type: 'navigate', to: `/new?draft=${detail.id}` }] : [];
        case 'xstate.snapshot.lifecycle': {
          const where = destinationAfter(folder, selectKindOf(event.snapshot as AnyMachineSnapshot));
          return to.matches('left') && where ? [{ type: 'navigate', to: where, replace: true }] : [];
        }
        case 'xstate.done.actor.lifecycle':
          return [{ type: 'navigate', to: '/trash', replace: true }];
        case 'effect.relay':
          return [TOAST];
        default:
          return [];
      }
    },
  });
}

const selectKindOf = (snapshot: AnyMachineSnapshot): MessageKind => KINDS.find((kind) => snapshot.matches(kind)) as MessageKind;

/** The folder a message of each kind is listed in (SPEC §3): received mail is the inbox, deleted the trash. */
const FOLDER_OF_KIND: Record<MessageKind, Folder> = {
  draft: 'draft',
  scheduled: 'scheduled',
  sent: 'sent',
  received: 'inbox',
  deleted: 'trash',
};

/** The kind the hosted lifecycle last reported on this path (null: none yet). */
const lastReportedKind = (history: readonly AnyEventObject[]): MessageKind | null => {
  const last = history.findLast((event) => event.type === 'xstate.snapshot.lifecycle');
  return last ? selectKindOf(last.snapshot as AnyMachineSnapshot) : null;
};

const VARIANTS: readonly Variant[] = [
  // An unread inbox message: read on opening, answered, deleted (back to the inbox).
  { name: 'inbox', folder: 'inbox', detail: DETAIL, kinds: ['received', 'deleted'] },
  // A guardian's justificativo (the app writes them without allow-replies): staff answer it all the same.
  {
    name: 'inbox, a guardian',
    folder: 'inbox',
    detail: { ...DETAIL, id: 42, sender: { id: 8, name: 'Rosa Díaz', kind: 'apoderado' }, allow_replies: false },
    kinds: ['received'],
  },
  // A student's message, answered like a guardian's.
  {
    name: 'inbox, a student',
    folder: 'inbox',
    detail: { ...DETAIL, id: 43, unread: false, sender: { id: 9, name: 'Tomás Díaz', kind: 'estudiante' }, allow_replies: false },
    kinds: ['received'],
  },
  // A colleague who did not allow replies is not answered.
  { name: 'inbox, a colleague without replies', folder: 'inbox', detail: { ...DETAIL, id: 44, allow_replies: false }, kinds: ['received'] },
  // A draft: edited, or deleted.
  {
    name: 'draft',
    folder: 'draft',
    detail: { ...DETAIL, id: 45, folder: 'draft', kind: 'draft', unread: false },
    kinds: ['draft', 'deleted'],
  },
  // A trashed draft: restored, it leaves the trash.
  {
    name: 'trash',
    folder: 'trash',
    detail: { ...DETAIL, id: 46, folder: 'trash', kind: 'deleted', unread: false, deleted_from: 'draft' },
    kinds: ['deleted', 'draft'],
  },
  // A scheduled message whose schedule is cancelled goes to drafts.
  {
    name: 'scheduled',
    folder: 'scheduled',
    detail: { ...DETAIL, id: 47, folder: 'scheduled', kind: 'scheduled', unread: false, allow_replies: false },
    kinds: ['scheduled', 'draft'],
  },
];

defineReaderTests();
