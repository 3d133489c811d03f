// /settings/message-quota (settings/quota.ts): the settings load (a failure offers Reintentar), the form
// filled from them, its checks before anything is sent (the first bad field focused, SPEC §5's "review
// the fields" toast), a save of only what changed, SPEC §8's "limit not updated" on any failure with a
// 422's texts on their fields and everything typed kept, the success toast and the form as saved, the
// chart asked again after a save; the chart child crashing and restarting beside it all.
import { createActor, type AnyActorRef, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { expect } from 'vitest';
import {
  selectCanSave,
  selectFailed,
  selectLoading,
  selectSaving,
  selectSettings,
  selectUsageActor,
  selectUsageCrashed,
  settingsQuotaMachine,
  type SettingsQuotaSnapshot,
} from '../../src/machines/settings/quota';
import type { QuotaSettings } from '../../shared/quota-contract';
import { defineModelTests, send, settle, type StepEnv } from './harness';
import { listStandIn } from './doubles';
import { failure } from './fixtures';
import { quotaSettings } from '../fixtures/quota';

const snap = (s: AnyMachineSnapshot) => s as unknown as SettingsQuotaSnapshot;

const SETTINGS = quotaSettings();
const SAVED = quotaSettings({ limit: 6000, remaining: 4766, reserved: 1200, reserve_percent: 20 });
const REFUSED = failure(422, 'validation.failed', 'Los datos no son válidos.', {
  sms_monthly_limit: ['Este mes ya se usaron 1.234 SMS; el límite no puede ser menor.'],
});
const SERVER_DOWN = failure(500, 'server.error');

type Field = 'sms_monthly_limit' | 'reserve_percent' | 'alert_percent';
const FIELDS: Field[] = ['sms_monthly_limit', 'reserve_percent', 'alert_percent'];
const IDS: Record<Field, string> = { sms_monthly_limit: 'quota-limit', reserve_percent: 'quota-reserve', alert_percent: 'quota-alert' };

/** The values a path types, each with what it means (the oracle, written apart from the rules). */
const TYPED: { field: Field; value: string; bad: boolean; sent?: number | null }[] = [
  { field: 'sms_monthly_limit', value: '6.000', bad: false, sent: 6000 },
  { field: 'sms_monthly_limit', value: '1000', bad: true }, // below the 1.234 used
  { field: 'sms_monthly_limit', value: 'mil', bad: true },
  { field: 'reserve_percent', value: '20 %', bad: false, sent: 20 },
  { field: 'reserve_percent', value: '60', bad: true }, // over RESERVE_PERCENT_MAX
  { field: 'alert_percent', value: '', bad: false, sent: null }, // the alert off
  { field: 'alert_percent', value: '0', bad: true },
  // The value it already has: a change of nothing.
  { field: 'alert_percent', value: '10', bad: false },
];
const meaning = (field: string, value: string) => TYPED.find((t) => t.field === field && t.value === value);
const draftOf = (s: AnyMachineSnapshot) => s.context.draft as Record<Field, string>;
const badFields = (s: AnyMachineSnapshot) => FIELDS.filter((f) => meaning(f, draftOf(s)[f])?.bad === true);
/** What a save sends: the typed values that change something. */
function sent(s: AnyMachineSnapshot): Record<string, number | null> {
  const body: Record<string, number | null> = {};
  for (const f of FIELDS) {
    const typed = meaning(f, draftOf(s)[f]);
    if (typed && 'sent' in typed) body[f] = typed.sent as number | null;
  }
  return body;
}
/** Guardar sends when nothing typed is wrong and something typed changes a value (by the meanings above). */
const saves = (draft: Record<Field, string>) =>
  FIELDS.every((f) => meaning(f, draft[f])?.bad !== true) && FIELDS.some((f) => 'sent' in (meaning(f, draft[f]) ?? {}));
const settingsDraft = (settings: QuotaSettings) => ({
  sms_monthly_limit: String(settings.sms.limit),
  reserve_percent: String(settings.sms.reserve_percent),
  alert_percent: settings.sms.alert_percent === null ? '' : String(settings.sms.alert_percent),
});

const EVENTS: AnyEventObject[] = [
  ...TYPED.map(({ field, value }) => ({ type: 'quota.change', field, value })),
  { type: 'quota.save' },
  { type: 'quota.retry' },
  { type: 'quota.restartUsage' },
  { type: 'quota.saved' },
];

const INTERNAL: AnyEventObject[] = [
  { type: 'xstate.done.actor.fetchSettings', output: SETTINGS },
  { type: 'xstate.error.actor.fetchSettings', error: SERVER_DOWN },
  { type: 'xstate.done.actor.saveSettings', output: SAVED },
  { type: 'xstate.error.actor.saveSettings', error: REFUSED },
  { type: 'xstate.error.actor.saveSettings', error: SERVER_DOWN },
  { type: 'xstate.error.actor.usage', error: new Error('usage: a bug') },
];

function emits({ from, event }: StepEnv): AnyEventObject[] {
  switch (event.type) {
    case 'quota.save': {
      if (!from.matches({ settings: { ready: 'idle' } })) return [];
      const bad = badFields(from);
      return bad.length > 0
        ? [
            { type: 'toast', kind: 'error', key: 'quota.toast.review' },
            { type: 'focus', target: IDS[bad[0] as Field] },
          ]
        : [];
    }
    case 'xstate.done.actor.saveSettings':
      return [{ type: 'toast', kind: 'success', key: 'quota.toast.saved' }];
    case 'xstate.error.actor.saveSettings': {
      // SPEC §8 "limit not updated" on any failure; a 422 also focuses its field.
      const failed = { type: 'toast', kind: 'error', key: 'quota.toast.failed' };
      return (event.error as { status: number }).status === 422 ? [failed, { type: 'focus', target: 'quota-limit' }] : [failed];
    }
    default:
      return [];
  }
}

const usageOf = (env: StepEnv) => selectUsageActor(snap(env.actor.getSnapshot() as AnyMachineSnapshot)) as AnyActorRef | undefined;

defineModelTests({
  name: 'settings-quota',
  machine: settingsQuotaMachine,
  // The header, SPEC §5 and §8, decision 0102, each region apart. The settings load (a failure offers
  // Reintentar); Guardar sends a form with nothing wrong and something changed, else it stays (saying what
  // to fix); a save, whatever its answer, returns to the form. The chart runs beside it; a crash of it is
  // offered a restart.
  oracle: {
    initial: { settings: 'loading', usage: 'running' },
    targets: {
      'settings.loading': {
        'xstate.done.actor.fetchSettings': 'settings.ready.idle',
        'xstate.error.actor.fetchSettings': 'settings.failed',
      },
      'settings.failed': { 'quota.retry': 'settings.loading' },
      'settings.ready.idle': { 'quota.save': ({ context, stay }) => (saves(context.draft) ? 'settings.ready.saving' : stay) },
      'settings.ready.saving': {
        'xstate.done.actor.saveSettings': 'settings.ready.idle',
        'xstate.error.actor.saveSettings': 'settings.ready.idle',
      },
      'usage.running': { 'xstate.error.actor.usage': 'usage.crashed' },
      'usage.crashed': { 'quota.restartUsage': 'usage.running' },
    },
  },
  traversal: {
    events: EVENTS,
    internal: INTERNAL,
    // Each field typed at most once from what the settings say; the chart crashes only with the form idle.
    filterEvents: (s, event) => {
      if (event.type === 'quota.change') {
        // Typing is tried on the settings as loaded (after a save the form is the saved one: asserted once).
        if (!s.context.settings || s.context.settings.sms.limit !== SETTINGS.sms.limit) return false;
        const draft = draftOf(s);
        const changedFields = FIELDS.filter((f) => draft[f] !== settingsDraft(s.context.settings)[f]).length;
        const field = (event as AnyEventObject).field as Field;
        return draft[field] === settingsDraft(s.context.settings)[field] && changedFields < 2;
      }
      // The save's answer comes only while saving (the chart's region also listens for it).
      if (event.type === 'xstate.done.actor.saveSettings') return s.matches({ settings: { ready: 'saving' } });
      if (event.type === 'xstate.error.actor.usage') return !s.matches({ settings: { ready: 'saving' } }) && s.context.settings === null;
      return true;
    },
    serializeState: (s) => JSON.stringify([s.value, s.context.settings?.sms.limit ?? null, s.context.draft, Object.keys(s.context.errors)]),
    limit: 3_000,
    input: {},
  },
  createActor: ({ fakes, path, inspect, machine }) =>
    createActor(
      machine.provide({ actors: { fetchSettings: fakes.promise(), saveSettings: fakes.promise(), usage: listStandIn as never } }),
      { input: path.input as object, inspect },
    ),
  states: {
    // The page and its chart live side by side: neither region's state stops the other.
    settings: (snapshot) => expect(snapshot.matches('usage')).toBe(true),
    usage: (snapshot) => expect(snapshot.matches('settings')).toBe(true),
    'settings.loading': (snapshot, env) => {
      expect(selectLoading(snap(snapshot))).toBe(true);
      expect(env.fakes.isRunning('fetchSettings')).toBe(true);
      expect(selectSettings(snap(snapshot))).toBeNull();
      // Reintentar reads once more; nothing else starts a read.
      if (env.event.type !== 'xstate.init')
        expect(env.started, 'requests started').toEqual(env.from.matches({ settings: 'failed' }) ? ['fetchSettings'] : []);
    },
    'settings.failed': (snapshot, env) => {
      expect(selectFailed(snap(snapshot))).toBe(true);
      expect(env.fakes.isRunning('fetchSettings')).toBe(false);
      expect(snapshot.can({ type: 'quota.retry' })).toBe(true);
    },
    'settings.ready': (snapshot) => {
      expect(selectSettings(snap(snapshot))).not.toBeNull();
      expect(selectFailed(snap(snapshot))).toBe(false);
    },
    'settings.ready.idle': (snapshot, env) => {
      expect(selectSaving(snap(snapshot))).toBe(false);
      expect(env.fakes.isRunning('saveSettings')).toBe(false);
      const draft = draftOf(snapshot);
      if (env.event.type === 'xstate.done.actor.fetchSettings' || env.event.type === 'xstate.done.actor.saveSettings') {
        // The form says what the server says, with no errors.
        expect(draft).toEqual(settingsDraft(env.event.output as QuotaSettings));
        expect(snapshot.context.errors).toEqual({});
      }
      if (env.event.type === 'xstate.error.actor.saveSettings') {
        // Nothing typed is lost; a 422's text lands on its field as the server wrote it.
        expect(draft).toEqual(draftOf(env.from));
        const error = env.event.error as { status: number; fieldErrors: Record<string, string[]> };
        expect(snapshot.context.errors).toEqual(
          error.status === 422
            ? { sms_monthly_limit: { key: 'quota.errors.server', params: { message: error.fieldErrors.sms_monthly_limit?.[0] } } }
            : {},
        );
      }
      if (env.event.type === 'quota.change') {
        expect(draft[env.event.field as Field]).toBe(env.event.value);
        expect(snapshot.context.errors[env.event.field as Field]).toBeUndefined();
      }
      if (env.event.type === 'quota.save' && env.from.matches({ settings: { ready: 'idle' } })) {
        expect(Object.keys(snapshot.context.errors).sort()).toEqual(badFields(env.from).sort());
        expect(draft).toEqual(draftOf(env.from));
      }
      // Save is offered when there is something to fix or to send.
      expect(selectCanSave(snap(snapshot))).toBe(badFields(snapshot).length > 0 || Object.keys(sent(snapshot)).length > 0);
    },
    'settings.ready.saving': (snapshot, env) => {
      expect(selectSaving(snap(snapshot))).toBe(true);
      expect(badFields(snapshot)).toEqual([]);
      expect(env.fakes.inputOf('saveSettings')).toEqual(sent(snapshot));
      expect(Object.keys(sent(snapshot)).length).toBeGreaterThan(0);
      expect(selectCanSave(snap(snapshot))).toBe(false);
      // One PATCH per Guardar.
      expect(env.started, 'requests started').toEqual(env.from.matches({ settings: { ready: 'saving' } }) ? [] : ['saveSettings']);
    },
    'usage.running': (snapshot, env) => {
      expect(selectUsageActor(snap(snapshot))).toBeDefined();
      expect(selectUsageCrashed(snap(snapshot))).toBe(false);
      const told = env.delivered.filter((d) => d.to === 'usage' && !/^(test|xstate)\./.test(d.event.type)).map((d) => d.event);
      // A saved limit is this month's bar's: the chart asks again.
      // (`quota.saved` is what a save raises for this region; sent from outside it means the same.)
      const reloads =
        env.event.type === 'xstate.done.actor.saveSettings' || (env.event.type === 'quota.saved' && env.from.matches({ usage: 'running' }));
      expect(told).toEqual(reloads ? [{ type: 'usage.reload' }] : []);
      if (env.event.type === 'xstate.init' || env.from.matches({ usage: 'crashed' }))
        expect((usageOf(env)!.getSnapshot() as AnyMachineSnapshot).context.input).toEqual({});
    },
    'usage.crashed': (snapshot) => {
      expect(selectUsageActor(snap(snapshot))).toBeUndefined();
      expect(selectUsageCrashed(snap(snapshot))).toBe(true);
      expect(snapshot.can({ type: 'quota.restartUsage' })).toBe(true);
    },
  },
  events: {
    'quota.change': send,
    'quota.save': send,
    'quota.retry': send,
    'quota.restartUsage': send,
    'quota.saved': send,
    'xstate.done.actor.fetchSettings': settle,
    'xstate.error.actor.fetchSettings': settle,
    'xstate.done.actor.saveSettings': settle,
    'xstate.error.actor.saveSettings': settle,
    'xstate.error.actor.usage': (env) => usageOf(env)?.send({ type: 'test.crash' }),
  },
  emits,
});
