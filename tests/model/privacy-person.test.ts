// A person's data page (privacy/person.ts): read once as it opens; a failure offers Reintentar, a 404 says
// there is no such person here. Every transition on the real actor, against a hand-written oracle.
import { createActor, type AnyMachineSnapshot } from 'xstate';
import { expect } from 'vitest';
import { PRIVACY_SECTIONS, type PrivacyInventory, type PrivacyRow, type PrivacySection } from '../../shared/privacy-contract';
import {
  privacyPersonMachine,
  selectHeldTotal,
  selectPersonFailed,
  selectPersonNotFound,
  type PrivacyPersonSnapshot,
} from '../../src/machines/privacy/person';
import { defineModelTests, send, settle } from './harness';
import { failure } from './fixtures';

const pp = (snapshot: AnyMachineSnapshot) => snapshot as unknown as PrivacyPersonSnapshot;
const INPUT = { kind: 'apoderado' as const, id: 7 };
const sections = Object.fromEntries(PRIVACY_SECTIONS.map((section) => [section, [] as PrivacyRow[]])) as Record<
  PrivacySection,
  PrivacyRow[]
>;
sections.mensajes_recibidos = [
  { mensaje_id: 1, asunto: 'Reunión' },
  { mensaje_id: 2, asunto: 'Paseo' },
];
sections.sesiones_app = [{ sesion_id: 3 }];
const INVENTORY: PrivacyInventory = {
  person: {
    kind: 'apoderado',
    id: 7,
    name: 'Rosa Núñez Soto',
    first_names: 'Rosa',
    last_name_father: 'Núñez',
    last_name_mother: 'Soto',
    dni: '12.345.678-5',
    email: 'rosa@example.cl',
    phone: '+56987654321',
    birth_date: null,
    withdrawn_at: null,
  },
  bloqueo: null,
  eliminado_el: null,
  read_at: '2026-11-30T12:00:00.000Z',
  sections,
};

defineModelTests({
  name: 'privacy-person',
  machine: privacyPersonMachine,
  oracle: {
    initial: 'loading',
    targets: {
      loading: { 'xstate.done.actor.fetchPrivacyInventory': 'shown', 'xstate.error.actor.fetchPrivacyInventory': 'failed' },
      failed: { 'person.retry': 'loading' },
      shown: { 'xstate.done.actor.privacyRequests': 'loading', 'xstate.error.actor.privacyRequests': 'failed' },
    },
  },
  traversal: {
    input: INPUT,
    events: [{ type: 'person.retry' }],
    internal: [
      { type: 'xstate.done.actor.fetchPrivacyInventory', output: INVENTORY },
      { type: 'xstate.error.actor.fetchPrivacyInventory', error: failure(500, 'server.error') },
      { type: 'xstate.error.actor.fetchPrivacyInventory', error: failure(404, 'not_found') },
      { type: 'xstate.done.actor.privacyRequests', output: { erasedAt: '2026-11-30T12:30:00.000Z' } },
      { type: 'xstate.error.actor.privacyRequests', error: failure(500, 'server.error') },
    ],
    serializeState: (s) => JSON.stringify([s.value, s.context.notFound, s.context.inventory !== null]),
    limit: 500,
  },
  createActor: ({ fakes, inspect, machine }) =>
    createActor(machine.provide({ actors: { fetchPrivacyInventory: fakes.promise(), privacyRequests: fakes.promise() as never } }), {
      input: INPUT as never,
      inspect,
    }),
  states: {
    loading: (s, env) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(env.fakes.inputOf('fetchPrivacyInventory')).toEqual(INPUT);
    },
    shown: (s, env) => {
      expect(pp(s).context.inventory).toEqual(INVENTORY);
      // The person's requests run beside them, from what the server said of their block and erasure.
      expect(env.fakes.inputOf('privacyRequests')).toEqual({ key: INPUT, block: null, erasedAt: null });
      expect(selectHeldTotal(pp(s))).toBe(3);
      expect(s.can({ type: 'person.retry' })).toBe(false);
    },
    failed: (s, env) => {
      if (env.event.type === 'xstate.error.actor.fetchPrivacyInventory') {
        const status = (env.event.error as { status: number }).status;
        expect(selectPersonNotFound(pp(s))).toBe(status === 404);
        expect(selectPersonFailed(pp(s))).toBe(status !== 404);
      }
      expect(s.can({ type: 'person.retry' })).toBe(true);
    },
  },
  events: {
    'person.retry': send,
    'xstate.done.actor.fetchPrivacyInventory': settle,
    'xstate.error.actor.fetchPrivacyInventory': settle,
    'xstate.done.actor.privacyRequests': settle,
    'xstate.error.actor.privacyRequests': settle,
  },
  emits: () => [],
});
