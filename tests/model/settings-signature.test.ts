// The signature settings screen (settings/signature.ts): load the school's signature, edit its text and
// switch, save with one PATCH (is_active 1 or 0); SPEC §8's toasts; a failed save keeps the typed text and
// the signature in use; a 422's text lands on the field; a school without a signature row never PATCHes;
// leaving with unsaved changes asks (through the root's `page.leave`), a save running meanwhile finishes first.
import { createActor, fromPromise, waitFor, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { describe, expect, it } from 'vitest';
import { SIGNATURE_MESSAGES, signatureError, signatureLength } from '../../shared/signature-rules';
import {
  hasChanges,
  previewSignature,
  saveInputOf,
  selectFailed,
  selectPreviewEmail,
  selectPreviewSms,
  selectSmsCost,
  selectSmsLimit,
  selectTextLength,
  settingsSignatureMachine,
  signaturePreview,
  smsCostOf,
  smsLimitOf,
  SIGNATURE_FIELD_ID,
  SIGNATURE_KEEP_EDITING_ID,
  type SettingsSignatureContext,
} from '../../src/machines/settings/signature';
import { signature } from '../fixtures/compose';
import { failure } from './fixtures';
import { defineModelTests, send, settle, type StepEnv } from './harness';

const ctx = (snapshot: AnyMachineSnapshot) => snapshot.context as SettingsSignatureContext;
const SIG = signature({ id: 7, signature: 'CSA', is_active: true });
const SAVED = signature({ id: 7, signature: 'LBV', is_active: false });
const TEXT_REFUSED = failure(422, 'validation.failed', 'Los datos enviados no son válidos.', {
  signature: [SIGNATURE_MESSAGES.characters],
});
const STATE_REFUSED = failure(422, 'validation.failed', 'Los datos enviados no son válidos.', { is_active: [SIGNATURE_MESSAGES.isActive] });
const SERVER_FAILED = failure(500, 'server.error');
const LEAVE = { type: 'page.leave', to: '/new' } as const;

/** A sigla is 3 to 4 characters, blanks around it ignored (this test types letters only, so length is the rule). */
const fits = (typed: string) => typed.trim().length >= 3 && typed.trim().length <= 4;
/** The form differs from the signature in use, the text as a save would send it (none in use: nothing to save). */
const unsaved = (c: Pick<SettingsSignatureContext, 'saved' | 'text' | 'active'>) =>
  c.saved !== null && (c.text.trim() !== c.saved.signature || c.active !== c.saved.is_active);

function running(env: StepEnv, id: string | null) {
  for (const other of ['fetchSignature', 'saveSignature']) expect(env.fakes.isRunning(other), other).toBe(other === id);
}

const errorOf = (event: AnyEventObject) => event.error as { status: number; fieldErrors: Record<string, string[]> };

function emits(env: StepEnv): AnyEventObject[] {
  const { from, event } = env;
  const c = ctx(from);
  switch (event.type) {
    case 'signature.save':
      // Only a text the shared rule refuses answers a save in place: its field takes the focus.
      return from.matches('editing') && signatureError(c.text) !== null ? [{ type: 'focus', target: SIGNATURE_FIELD_ID }] : [];
    case 'page.leave':
      return from.matches('editing') && hasChanges(c) ? [{ type: 'focus', target: SIGNATURE_KEEP_EDITING_ID }] : [];
    case 'signature.stay':
      return from.matches('confirmingLeave') ? [{ type: 'focus', target: SIGNATURE_FIELD_ID }] : [];
    case 'signature.discard':
      return from.matches('confirmingLeave') ? [{ type: 'navigate', to: c.leaving?.to }] : [];
    case 'xstate.done.actor.saveSignature':
      return [
        { type: 'toast', kind: 'success', key: 'signature.toast.saved' },
        ...(c.leaving ? [{ type: 'navigate', to: c.leaving.to }] : []),
      ];
    case 'xstate.error.actor.saveSignature': {
      const failed = { type: 'toast', kind: 'error', key: 'signature.toast.failed' };
      if (errorOf(event).fieldErrors.signature) return [failed, { type: 'focus', target: SIGNATURE_FIELD_ID }];
      return c.leaving ? [failed, { type: 'focus', target: SIGNATURE_KEEP_EDITING_ID }] : [failed];
    }
    default:
      return [];
  }
}

defineModelTests({
  name: 'settings-signature',
  machine: settingsSignatureMachine,
  // The header, SPEC §5 and §8, decision 0104: a school with a signature edits it, one without gets nothing
  // to edit; Guardar sends a valid, changed form, a text that breaks the rule is refused in place;
  // leaving with unsaved changes asks, and a save under way finishes first, then leaves (or asks again if
  // it failed for another reason than the text, which drops the navigation: there is something to fix).
  oracle: {
    initial: 'loading',
    targets: {
      loading: {
        'xstate.done.actor.fetchSignature': ({ event }) => (event.output ? 'editing' : 'missing'),
        'xstate.error.actor.fetchSignature': 'loadFailed',
      },
      loadFailed: { 'signature.retry': 'loading' },
      missing: { 'signature.retry': 'loading' },
      editing: {
        'signature.save': ({ context, stay }) => (fits(context.text) && unsaved(context) ? 'saving' : stay),
        'page.leave': ({ context, stay }) => (unsaved(context) ? 'confirmingLeave' : stay),
      },
      saving: {
        'xstate.done.actor.saveSignature': ({ context }) => (context.leaving ? 'left' : 'editing'),
        'xstate.error.actor.saveSignature': ({ event, context }) =>
          event.error !== TEXT_REFUSED && context.leaving ? 'confirmingLeave' : 'editing',
      },
      confirmingLeave: { 'signature.discard': 'left', 'signature.stay': 'editing' },
    },
  },
  traversal: {
    events: [
      { type: 'signature.change', value: 'AB' },
      { type: 'signature.change', value: ' LBV ' },
      { type: 'signature.change', value: 'CSA' },
      { type: 'signature.toggle', active: false },
      { type: 'signature.toggle', active: true },
      { type: 'signature.save' },
      { type: 'signature.reset' },
      { type: 'signature.retry' },
      { type: 'signature.discard' },
      { type: 'signature.stay' },
      LEAVE,
    ],
    internal: [
      { type: 'xstate.done.actor.fetchSignature', output: SIG },
      { type: 'xstate.done.actor.fetchSignature', output: null },
      { type: 'xstate.error.actor.fetchSignature', error: SERVER_FAILED },
      { type: 'xstate.done.actor.saveSignature', output: SAVED },
      { type: 'xstate.error.actor.saveSignature', error: TEXT_REFUSED },
      { type: 'xstate.error.actor.saveSignature', error: STATE_REFUSED },
      { type: 'xstate.error.actor.saveSignature', error: SERVER_FAILED },
    ],
    serializeState: (s) => {
      const c = ctx(s);
      return JSON.stringify([
        s.value,
        c.saved?.signature ?? null,
        c.saved?.is_active ?? null,
        c.text,
        c.active,
        c.error,
        c.failed,
        c.leaving?.to ?? null,
        s.status,
      ]);
    },
    limit: 5000,
  },
  createActor: ({ fakes, inspect, machine }) =>
    createActor(machine.provide({ actors: { fetchSignature: fakes.promise(), saveSignature: fakes.promise() } }), { inspect }),
  states: {
    loading: (s, env) => {
      running(env, 'fetchSignature');
      expect(s.hasTag('busy')).toBe(true);
      // Reintentar reads once more; nothing else starts a read.
      if (env.event.type !== 'xstate.init')
        expect(env.started, 'requests started').toEqual(env.from.matches('loading') ? [] : ['fetchSignature']);
      expect(s.can({ type: 'signature.save' })).toBe(false);
    },
    loadFailed: (s, env) => {
      running(env, null);
      expect(s.can({ type: 'signature.retry' })).toBe(true);
      expect(s.can({ type: 'signature.save' })).toBe(false);
    },
    // No signature row: nothing is offered but reading again, and nothing is ever PATCHed (SPEC §5).
    missing: (s, env) => {
      running(env, null);
      expect(ctx(s).saved).toBeNull();
      expect(s.can({ type: 'signature.save' })).toBe(false);
      expect(s.can({ type: 'signature.change', value: 'ABC' })).toBe(false);
      expect(s.can(LEAVE)).toBe(false);
      expect(env.fakes.calls.some((call) => call.id === 'saveSignature')).toBe(false);
    },
    editing: (s, env) => {
      running(env, null);
      const c = ctx(s);
      const before = ctx(env.from);
      expect(c.leaving).toBeNull();
      // Offered only when there is something to save or a refusal to show.
      expect(s.can({ type: 'signature.save' })).toBe(hasChanges(c) || signatureError(c.text) !== null);
      // The root lets a navigation through at once unless something typed is unsaved.
      expect(s.can(LEAVE)).toBe(hasChanges(c));
      expect(s.can(LEAVE), 'asks before leaving, by the test').toBe(unsaved(c));
      const type = env.event.type;
      if (type === 'xstate.done.actor.fetchSignature')
        expect(c).toMatchObject({ saved: SIG, text: 'CSA', active: true, error: null, failed: false });
      if (type === 'signature.change') {
        const value = env.event.value as string;
        expect(c.text).toBe(value);
        // Live: the server's own Spanish text as soon as the text breaks the rule.
        expect(c.error).toBe(signatureError(value));
      }
      if (type === 'signature.toggle')
        expect({ active: c.active, error: c.error }).toEqual({ active: env.event.active, error: signatureError(c.text) });
      // Editing again puts away the notice of a failed save: it was about what was there before.
      if (type === 'signature.change' || type === 'signature.toggle') expect(selectFailed(s as never), 'save failed notice').toBe(false);
      if (type === 'signature.save') expect(c.error).toBe(signatureError(c.text));
      if (type === 'signature.reset' && hasChanges(before))
        expect(c).toMatchObject({ text: before.saved?.signature, active: before.saved?.is_active, error: null });
      if (type === 'xstate.done.actor.saveSignature')
        expect(c).toMatchObject({ saved: SAVED, text: 'LBV', active: false, error: null, failed: false });
      if (type === 'xstate.error.actor.saveSignature') {
        // Nothing typed is lost and the signature in use stays the previous one.
        expect({ text: c.text, active: c.active, saved: c.saved }).toEqual({
          text: before.text,
          active: before.active,
          saved: before.saved,
        });
        const error = errorOf(env.event);
        if (error.fieldErrors.signature)
          expect({ error: c.error, failed: c.failed }).toEqual({ error: error.fieldErrors.signature[0], failed: false });
        else expect({ error: c.error, failed: c.failed }).toEqual({ error: null, failed: true });
      }
      if (type === 'signature.stay') expect(c.text).toBe(before.text);
    },
    saving: (s, env) => {
      running(env, 'saveSignature');
      expect(s.hasTag('busy')).toBe(true);
      // One PATCH per Guardar; a navigation meanwhile starts nothing.
      expect(env.started, 'requests started').toEqual(env.from.matches('saving') ? [] : ['saveSignature']);
      const c = ctx(s);
      // One PATCH of the school's row: the text trimmed as the server keeps it, is_active as 1 or 0.
      expect(env.fakes.inputOf('saveSignature')).toEqual({ id: SIG.id, signature: c.text.trim(), is_active: c.active ? 1 : 0 });
      expect(signatureError(c.text)).toBeNull();
      // Typing waits for the answer (the answer replaces the form).
      expect(s.can({ type: 'signature.change', value: 'X' })).toBe(false);
    },
    confirmingLeave: (s, env) => {
      running(env, null);
      expect(ctx(s).leaving).toEqual({ to: '/new' });
      expect(s.can({ type: 'signature.discard' })).toBe(true);
      expect(ctx(s).text).toBe(ctx(env.from).text);
    },
    left: (s) => {
      expect(s.status).toBe('done');
    },
  },
  events: {
    'signature.change': send,
    'signature.toggle': send,
    'signature.save': send,
    'signature.reset': send,
    'signature.retry': send,
    'signature.discard': send,
    'signature.stay': send,
    'page.leave': send,
    'xstate.done.actor.fetchSignature': settle,
    'xstate.error.actor.fetchSignature': settle,
    'xstate.done.actor.saveSignature': settle,
    'xstate.error.actor.saveSignature': settle,
  },
  emits,
});

describe('settings-signature rules', () => {
  it('sends is_active as 1 or 0 and the text as the server keeps it', () => {
    expect(saveInputOf({ saved: SIG, text: ' LBV ', active: false })).toEqual({ id: 7, signature: 'LBV', is_active: 0 });
    expect(saveInputOf({ saved: SIG, text: 'LBV', active: true })).toEqual({ id: 7, signature: 'LBV', is_active: 1 });
  });

  it('previews with the one rule compose and delivery use: a blank line, then the sigla; 6 characters of each SMS', () => {
    expect(previewSignature({ text: ' LBV ', active: true })).toBe('LBV');
    expect(previewSignature({ text: 'AB', active: true })).toBeNull();
    expect(previewSignature({ text: 'LBV', active: false })).toBeNull();
    expect(signaturePreview('Reunión mañana', 'CSA')).toEqual({
      sms: 'Reunion mañana\n\nCSA',
      email: 'Reunión mañana\n\nCSA',
      limit: 154,
      cost: 6,
    });
    expect(signaturePreview('Hola', 'ABCD')).toMatchObject({ limit: 154, cost: 6 });
    expect(signaturePreview('Hola', null)).toEqual({ sms: 'Hola', email: 'Hola', limit: 160, cost: 0 });
    // What one SMS leaves as the form stands: the switch off gives all 160; on, the signature's 6 even while
    // its text is still being typed; a sigla with an escaped character takes what it needs.
    expect(smsLimitOf({ text: 'CSA', active: false })).toBe(160);
    expect(smsLimitOf({ text: 'CSA', active: true })).toBe(154);
    expect(smsLimitOf({ text: 'C', active: true })).toBe(154);
    expect(smsLimitOf({ text: 'A€B€', active: true })).toBe(152);
    // What it takes from each SMS ("La firma usa 6 caracteres…"): nothing while off, 8 for "A€B€".
    expect(smsCostOf({ text: 'CSA', active: false })).toBe(0);
    expect(smsCostOf({ text: 'CSA', active: true })).toBe(6);
    expect(smsCostOf({ text: 'C', active: true })).toBe(6);
    expect(smsCostOf({ text: 'A€B€', active: true })).toBe(8);
  });

  it('counts the typed length as the rule does: trimmed, in characters as seen (an emoji is one)', () => {
    expect([' LBV ', 'ABCD', '', '  ', 'A👍B', 'ÑÚ'].map(signatureLength)).toEqual([3, 4, 0, 0, 3, 2]);
    expect(signatureError('A👍B👍C')).toBe(SIGNATURE_MESSAGES.length);
  });

  it('gives the screen its figures and previews through selectors, from the form as it stands', async () => {
    const machine = settingsSignatureMachine.provide({
      actors: { fetchSignature: fromPromise(async (): Promise<typeof SIG | null> => SIG) },
    });
    const actor = createActor(machine).start();
    await waitFor(actor, (s) => s.matches('editing'));
    const figures = () => {
      const s = actor.getSnapshot();
      return {
        length: selectTextLength(s),
        cost: selectSmsCost(s),
        limit: selectSmsLimit(s),
        sms: selectPreviewSms(s, 'Reunión mañana'),
        email: selectPreviewEmail(s, 'Reunión mañana'),
      };
    };
    expect(figures()).toEqual({ length: 3, cost: 6, limit: 154, sms: 'Reunion mañana\n\nCSA', email: 'Reunión mañana\n\nCSA' });
    actor.send({ type: 'signature.change', value: ' A€B€ ' });
    expect(figures()).toEqual({ length: 4, cost: 8, limit: 152, sms: 'Reunion mañana\n\nA€B€', email: 'Reunión mañana\n\nA€B€' });
    // Not a valid signature yet: SPEC's 6 are still reserved, the preview ends with no signature.
    actor.send({ type: 'signature.change', value: 'AB' });
    expect(figures()).toEqual({ length: 2, cost: 6, limit: 154, sms: 'Reunion mañana', email: 'Reunión mañana' });
    actor.send({ type: 'signature.change', value: 'LBV' });
    actor.send({ type: 'signature.toggle', active: false });
    expect(figures()).toEqual({ length: 3, cost: 0, limit: 160, sms: 'Reunion mañana', email: 'Reunión mañana' });
    actor.stop();
  });
});
