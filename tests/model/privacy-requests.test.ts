// A person's requests on their privacy page (privacy-requests/requests.ts): block every message (who asked,
// then confirm), lift it, and erase them (read what goes, type the word, the server's answer). Starts as the
// server says the person is (free, blocked, erased): every transition from each, on the real actor, against a
// hand-written oracle.
import { createActor, type AnyMachineSnapshot } from 'xstate';
import { expect } from 'vitest';
import type { ErasureCounts } from '../../shared/privacy-requests-contract';
import {
  privacyRequestsMachine,
  selectBlockedAt,
  selectCanBlock,
  selectCanErase,
  selectCanLift,
  selectErasureOpen,
  selectImpediment,
  selectFailureText,
  type PrivacyRequestsContext,
  type PrivacyRequestsInput,
  type PrivacyRequestsSnapshot,
} from '../../src/machines/privacy-requests/requests';
import { defineModelTests, send, settle } from './harness';
import { failure } from './fixtures';

const pr = (snapshot: AnyMachineSnapshot) => snapshot as unknown as PrivacyRequestsSnapshot;
const KEY = { kind: 'apoderado' as const, id: 7 };
const FREE: PrivacyRequestsInput = { key: KEY, block: null, erasedAt: null };
const BLOCKED: PrivacyRequestsInput = {
  key: KEY,
  block: { solicitado_por: 'persona', bloqueado_el: '2026-11-01T12:00:00.000Z' },
  erasedAt: null,
};
const ERASED: PrivacyRequestsInput = { key: KEY, block: null, erasedAt: '2026-11-02T12:00:00.000Z' };
const BLOCK = { tipo: 'apoderado', id: 7, solicitado_por: 'apoderado', bloqueado_el: '2026-11-30T12:00:00.000Z' };
const COUNTS: ErasureCounts = {
  mensajes_escritos: 2,
  adjuntos: 1,
  mensajes_recibidos: 40,
  entregas: 80,
  sesiones: 1,
  historial_contacto: 0,
  mensajes_entrantes: 0,
  listas: 1,
};
const RESULT = { tipo: 'apoderado', id: 7, conteos: COUNTS, eliminado_el: '2026-11-30T12:05:00.000Z' };
const WRONG_WORD = failure(422, 'validation', 'Los datos no son válidos.', { confirmacion: ['Escriba ELIMINAR para confirmar.'] });

const IMPEDIMENT = 'No puedes eliminar los datos del único administrador del colegio.';

type Ctx = PrivacyRequestsContext;
const free = (c: Ctx) => c.block === null && c.erasedAt === null;

defineModelTests({
  name: 'privacy-requests',
  machine: privacyRequestsMachine,
  oracle: {
    initial: 'idle',
    targets: {
      idle: {
        'block.start': ({ context, stay }) => (free(context) ? 'choosingRequester' : stay),
        'block.lift': ({ context, stay }) => (context.block !== null && context.erasedAt === null ? 'lifting' : stay),
        'erasure.start': ({ context, stay }) => (context.erasedAt === null ? 'previewing' : stay),
      },
      choosingRequester: {
        'block.choose': 'choosingRequester',
        'block.confirm': ({ context, stay }) => (context.requester !== null ? 'blocking' : stay),
        'block.cancel': 'idle',
      },
      blocking: { 'xstate.done.actor.putPersonBlock': 'idle', 'xstate.error.actor.putPersonBlock': 'choosingRequester' },
      lifting: { 'xstate.done.actor.deletePersonBlock': 'idle', 'xstate.error.actor.deletePersonBlock': 'idle' },
      previewing: { 'xstate.done.actor.fetchErasurePreview': 'confirmingErasure', 'xstate.error.actor.fetchErasurePreview': 'idle' },
      confirmingErasure: {
        'erasure.type': 'confirmingErasure',
        'erasure.confirm': ({ context, stay }) => (context.impediment === null && context.confirmation.trim() !== '' ? 'erasing' : stay),
        'erasure.cancel': 'idle',
      },
      erasing: { 'xstate.done.actor.postErasure': 'erased', 'xstate.error.actor.postErasure': 'confirmingErasure' },
    },
  },
  traversal: {
    input: FREE,
    events: [
      { type: 'block.start' },
      { type: 'block.choose', requester: 'apoderado' },
      { type: 'block.confirm' },
      { type: 'block.cancel' },
      { type: 'block.lift' },
      { type: 'erasure.start' },
      { type: 'erasure.type', text: 'ELIMINAR' },
      { type: 'erasure.type', text: ' ' },
      { type: 'erasure.confirm' },
      { type: 'erasure.cancel' },
    ],
    internal: [
      { type: 'xstate.done.actor.putPersonBlock', output: BLOCK },
      { type: 'xstate.error.actor.putPersonBlock', error: failure(409, 'privacy.erased') },
      { type: 'xstate.done.actor.deletePersonBlock', output: null },
      { type: 'xstate.error.actor.deletePersonBlock', error: failure(500, 'server.error') },
      { type: 'xstate.done.actor.fetchErasurePreview', output: { counts: COUNTS, impediment: null } },
      { type: 'xstate.done.actor.fetchErasurePreview', output: { counts: COUNTS, impediment: IMPEDIMENT } },
      { type: 'xstate.error.actor.fetchErasurePreview', error: failure(409, 'privacy.erased') },
      { type: 'xstate.done.actor.postErasure', output: RESULT },
      { type: 'xstate.error.actor.postErasure', error: WRONG_WORD },
    ],
    serializeState: (s) =>
      JSON.stringify([
        s.value,
        s.context.block?.solicitado_por ?? null,
        s.context.erasedAt,
        s.context.requester,
        s.context.confirmation,
        s.context.preview !== null,
        s.context.impediment,
        s.context.failure?.status ?? null,
      ]),
    limit: 3000,
  },
  variants: [
    { name: 'blocked', traversal: { input: BLOCKED } },
    { name: 'erased', traversal: { input: ERASED } },
  ],
  createActor: ({ fakes, inspect, machine, path }) =>
    createActor(
      machine.provide({
        actors: {
          putPersonBlock: fakes.promise(),
          deletePersonBlock: fakes.promise(),
          fetchErasurePreview: fakes.promise(),
          postErasure: fakes.promise(),
        },
      }),
      { input: path.input as never, inspect },
    ),
  states: {
    idle: (s) => {
      const snap = pr(s);
      const { block, erasedAt } = snap.context;
      // What is offered is what the server said the person is.
      expect(selectCanBlock(snap)).toBe(block === null && erasedAt === null);
      expect(selectCanLift(snap)).toBe(block !== null && erasedAt === null);
      expect(selectCanErase(snap)).toBe(erasedAt === null);
      expect(selectBlockedAt(snap)).toBe(block?.bloqueado_el ?? null);
      expect(selectErasureOpen(snap)).toBe(false);
      expect(s.hasTag('busy')).toBe(false);
    },
    choosingRequester: (s) => {
      expect(s.can({ type: 'block.confirm' })).toBe(pr(s).context.requester !== null);
      expect(s.can({ type: 'erasure.start' })).toBe(false);
      if (pr(s).context.failure) expect(selectFailureText(pr(s))).toBe('privacy.erased');
    },
    blocking: (s, env) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(env.fakes.inputOf('putPersonBlock')).toEqual({ key: KEY, requester: 'apoderado' });
    },
    lifting: (s, env) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(env.fakes.inputOf('deletePersonBlock')).toEqual(KEY);
    },
    previewing: (s, env) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(env.fakes.inputOf('fetchErasurePreview')).toEqual(KEY);
    },
    confirmingErasure: (s) => {
      expect(pr(s).context.preview).toEqual(COUNTS);
      expect(selectErasureOpen(pr(s))).toBe(true);
      expect([null, IMPEDIMENT]).toContain(pr(s).context.impediment);
      // An impeded erasure (the last administrator, oneself) is never offered, whatever is typed.
      expect(s.can({ type: 'erasure.confirm' })).toBe(pr(s).context.impediment === null && pr(s).context.confirmation.trim() !== '');
      expect(selectImpediment(pr(s))).toBe(pr(s).context.impediment);
      // A refused word shows the server's own Spanish sentence.
      if (pr(s).context.failure) expect(selectFailureText(pr(s))).toBe('Escriba ELIMINAR para confirmar.');
    },
    erasing: (s, env) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(env.fakes.inputOf('postErasure')).toEqual({ key: KEY, confirmation: 'ELIMINAR' });
    },
    erased: (s) => {
      expect(s.status).toBe('done');
      expect(s.output).toEqual({ erasedAt: RESULT.eliminado_el });
    },
  },
  events: {
    'block.start': send,
    'block.choose': send,
    'block.confirm': send,
    'block.cancel': send,
    'block.lift': send,
    'erasure.start': send,
    'erasure.type': send,
    'erasure.confirm': send,
    'erasure.cancel': send,
    'xstate.done.actor.putPersonBlock': settle,
    'xstate.error.actor.putPersonBlock': settle,
    'xstate.done.actor.deletePersonBlock': settle,
    'xstate.error.actor.deletePersonBlock': settle,
    'xstate.done.actor.fetchErasurePreview': settle,
    'xstate.error.actor.fetchErasurePreview': settle,
    'xstate.done.actor.postErasure': settle,
    'xstate.error.actor.postErasure': settle,
  },
  emits: () => [],
});
