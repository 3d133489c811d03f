// The retention settings screen (retention/retention.ts): loads the school's periods with the next sweep's
// preview, edits them as typed, saves them whole with one PUT whose answer is the new preview; a 422 puts the
// server's Spanish messages on their kinds' fields (an edit clears its own); any other failure keeps the form
// and says so; a save toasts.
import { createActor, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { expect } from 'vitest';
import { RETENTION_DEFAULTS, RETENTION_KINDS, type RetentionSettings } from '../../shared/retention-contract';
import {
  periodsOf,
  retentionMachine,
  selectFailed,
  selectNextDate,
  selectNothingNext,
  selectRemovedCount,
  selectSaving,
  type RetentionContext,
} from '../../src/machines/retention/retention';
import { failure } from './fixtures';
import { defineModelTests, send, settle, type StepEnv } from './harness';

const ctx = (snapshot: AnyMachineSnapshot) => snapshot.context as RetentionContext;
const snap = (snapshot: AnyMachineSnapshot) => snapshot as Parameters<typeof selectSaving>[0];

const removal = (cantidad: number) => ({ cantidad, anteriores_a: '2021-12-01T03:00:00.000Z' });
const STORED: RetentionSettings = {
  periodos: RETENTION_DEFAULTS,
  personalizados: false,
  proxima: {
    fecha: '2026-12-01T03:00:00.000Z',
    tipos: {
      mensajes: removal(1240),
      respuestas: removal(3),
      entregas: removal(0),
      adjuntos: removal(1),
      recibidos: removal(0),
      auditoria: removal(0),
    },
  },
};
const SHORTER: RetentionSettings = {
  periodos: { ...RETENTION_DEFAULTS, mensajes: 36, respuestas: 36 },
  personalizados: true,
  proxima: { ...STORED.proxima, tipos: { ...STORED.proxima.tipos, mensajes: removal(0), respuestas: removal(0), adjuntos: removal(0) } },
};
const REFUSED = failure(422, 'validation.failed', 'Los datos enviados no son válidos.', {
  'periodos.entregas': ['Debe ser de al menos 12 meses: el año escolar en curso se guarda siempre completo.'],
});
const SERVER_FAILED = failure(500, 'server.error');

function running(env: StepEnv, id: string | null) {
  for (const other of ['fetchRetention', 'saveRetention']) expect(env.fakes.isRunning(other), other).toBe(other === id);
}

defineModelTests({
  name: 'retention',
  machine: retentionMachine,
  oracle: {
    initial: 'loading',
    targets: {
      loading: { 'xstate.done.actor.fetchRetention': 'editing', 'xstate.error.actor.fetchRetention': 'loadFailed' },
      loadFailed: { 'retention.retry': 'loading' },
      editing: { 'retention.save': 'saving' },
      saving: { 'xstate.done.actor.saveRetention': 'editing', 'xstate.error.actor.saveRetention': 'editing' },
    },
  },
  traversal: {
    events: [
      { type: 'retention.edit', kind: 'entregas', value: '6' },
      { type: 'retention.edit', kind: 'mensajes', value: '' },
      { type: 'retention.save' },
      { type: 'retention.retry' },
    ],
    internal: [
      { type: 'xstate.done.actor.fetchRetention', output: STORED },
      { type: 'xstate.error.actor.fetchRetention', error: SERVER_FAILED },
      { type: 'xstate.done.actor.saveRetention', output: SHORTER },
      { type: 'xstate.error.actor.saveRetention', error: REFUSED },
      { type: 'xstate.error.actor.saveRetention', error: SERVER_FAILED },
    ],
    serializeState: (s) => JSON.stringify([s.value, s.context]),
    limit: 5000,
  },
  createActor: ({ fakes, inspect, machine }) =>
    createActor(machine.provide({ actors: { fetchRetention: fakes.promise(), saveRetention: fakes.promise() } }), { inspect }),
  states: {
    loading: (_snapshot, env) => running(env, 'fetchRetention'),
    loadFailed: (_snapshot, env) => running(env, null),
    editing: (snapshot, env) => {
      running(env, null);
      expect(selectSaving(snap(snapshot))).toBe(false);
      const { event } = env;
      const c = ctx(snapshot);
      // Loaded or saved: the form is the server's answer, and so is the preview shown.
      if (event.type === 'xstate.done.actor.fetchRetention' || event.type === 'xstate.done.actor.saveRetention') {
        const answer = event.output as RetentionSettings;
        expect(c.form).toEqual(Object.fromEntries(RETENTION_KINDS.map((k) => [k, String(answer.periodos[k])])));
        expect(c.errors).toEqual({});
        expect(selectNextDate(snap(snapshot))).toBe(answer.proxima.fecha);
        for (const k of RETENTION_KINDS) expect(selectRemovedCount(k)(snap(snapshot))).toBe(answer.proxima.tipos[k].cantidad);
        expect(selectNothingNext(snap(snapshot))).toBe(answer === SHORTER);
      }
      if (event.type === 'xstate.error.actor.saveRetention') {
        const refused = event.error === REFUSED;
        expect(c.errors).toEqual(
          refused ? { entregas: 'Debe ser de al menos 12 meses: el año escolar en curso se guarda siempre completo.' } : {},
        );
        expect(selectFailed(snap(snapshot))).toBe(!refused);
        // Everything typed stays, and so does the last preview.
        expect(c.form).toEqual(ctx(env.from).form);
        expect(c.saved).toBe(ctx(env.from).saved);
      }
      if (event.type === 'retention.edit') {
        expect(c.form[event.kind as 'entregas']).toBe(event.value);
        expect(c.errors[event.kind as 'entregas']).toBeUndefined();
      }
    },
    saving: (snapshot, env) => {
      running(env, 'saveRetention');
      expect(selectSaving(snap(snapshot))).toBe(true);
      expect(selectFailed(snap(snapshot))).toBe(false);
      // Every period goes up, as numbers; an empty field as NaN, which the server refuses with its message.
      const sent = env.fakes.inputOf('saveRetention') as Record<string, number>;
      expect(sent).toEqual(periodsOf(ctx(snapshot).form));
      for (const k of RETENTION_KINDS) {
        const typed = ctx(snapshot).form[k];
        if (typed === '') expect(sent[k]).toBeNaN();
        else expect(sent[k]).toBe(Number(typed));
      }
    },
  },
  events: {
    'retention.edit': send,
    'retention.save': send,
    'retention.retry': send,
    'xstate.done.actor.fetchRetention': settle,
    'xstate.error.actor.fetchRetention': settle,
    'xstate.done.actor.saveRetention': settle,
    'xstate.error.actor.saveRetention': settle,
  },
  emits: (env: StepEnv): AnyEventObject[] =>
    env.event.type === 'xstate.done.actor.saveRetention' ? [{ type: 'toast', kind: 'success', key: 'retention.toast.saved' }] : [],
});
