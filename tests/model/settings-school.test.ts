import { createActor, type AnyMachineSnapshot, type AnyEventObject } from 'xstate';
import { expect } from 'vitest';
import {
  selectChatAvailable,
  selectChatEnabled,
  selectFailed,
  selectFieldError,
  selectHasChanges,
  selectSaving,
  settingsSchoolMachine,
  type SettingsSchoolSnapshot,
} from '../../src/machines/settings/school';
import type { SchoolSettings } from '../../shared/school-contract';
import { failure } from './fixtures';
import { defineModelTests, send, settle, type StepEnv } from './harness';

const snap = (snapshot: AnyMachineSnapshot) => snapshot as unknown as SettingsSchoolSnapshot;

const SAVED: SchoolSettings = {
  name: 'Colegio San Andrés de Ñuñoa',
  country: 'CL',
  timezone: 'America/Santiago',
  locale: 'es-CL',
  home_url: 'https://www.sanandres.cl',
  chat_enabled: true,
  chat_available: true,
};
/** What the server answers after a save: the form as sent. */
const RENAMED: SchoolSettings = { ...SAVED, name: 'Colegio San Andrés' };

const RENAME = { type: 'school.change', field: 'name', value: 'Colegio San Andrés' };
const MEXICO = { type: 'school.change', field: 'country', value: 'MX' };
const CHILE = { type: 'school.change', field: 'country', value: 'CL' };
const PUNTA_ARENAS = { type: 'school.change', field: 'timezone', value: 'America/Punta_Arenas' };
const CHAT_OFF = { type: 'school.chat', enabled: false };

const REFUSED = failure(422, 'validation.failed', 'invalid', { home_url: ['El enlace de inicio es obligatorio.'] });
const OFFLINE = failure(0, 'network', 'Failed to fetch');

/** The form by the test's own account: the saved settings, then what was typed while editing. */
function formAfter(history: readonly AnyEventObject[]) {
  let saved: SchoolSettings | null = null;
  let form: Record<string, string | boolean> = {};
  let editing = false;
  for (const event of history) {
    if (event.type === 'xstate.done.actor.fetchSchool' || event.type === 'xstate.done.actor.saveSchool') {
      saved = event.output as SchoolSettings;
      const { chat_available: _, ...rest } = saved;
      form = { ...rest };
      editing = true;
    }
    if (event.type === 'xstate.error.actor.saveSchool') editing = true;
    if (event.type === 'school.save' && editing && saved && JSON.stringify(form) !== JSON.stringify(formOfSaved(saved))) editing = false;
    if (!editing) continue;
    if (event.type === 'school.reset' && saved) form = formOfSaved(saved);
    if (event.type === 'school.chat') form.chat_enabled = event.enabled;
    if (event.type === 'school.change') {
      form[event.field] = event.value;
      // Mexico: none of Chile's zones is Mexican, so its capital's; Chile again: Santiago, Chilean Spanish.
      if (event.field === 'country' && event.value === 'MX') Object.assign(form, { timezone: 'America/Mexico_City', locale: 'es-MX' });
      if (event.field === 'country' && event.value === 'CL') {
        form.locale = 'es-CL';
        if (!['America/Santiago', 'America/Punta_Arenas', 'Pacific/Easter'].includes(String(form.timezone)))
          form.timezone = 'America/Santiago';
      }
    }
  }
  return { saved, form };
}

function formOfSaved(saved: SchoolSettings): Record<string, string | boolean> {
  const { chat_available: _, ...rest } = saved;
  return { ...rest };
}

function emits({ event }: StepEnv): AnyEventObject[] {
  if (event.type === 'xstate.done.actor.saveSchool') return [{ type: 'toast', kind: 'success', key: 'school.toast.saved' }];
  if (event.type === 'xstate.error.actor.saveSchool')
    return event.error === REFUSED
      ? [
          { type: 'toast', kind: 'error', key: 'school.toast.failed' },
          { type: 'focus', target: 'school-home-url' },
        ]
      : [{ type: 'toast', kind: 'error', key: 'school.toast.failed' }];
  return [];
}

const changed = (context: { form: object; saved: SchoolSettings | null }) =>
  context.saved !== null && JSON.stringify(context.form) !== JSON.stringify(formOfSaved(context.saved));

defineModelTests({
  name: 'settings-school',
  machine: settingsSchoolMachine,
  // The machine's header: load, edit, save only what changed; a refusal or failure back to the form.
  oracle: {
    initial: 'loading',
    targets: {
      loading: { 'xstate.done.actor.fetchSchool': 'editing', 'xstate.error.actor.fetchSchool': 'loadFailed' },
      loadFailed: { 'school.retry': 'loading' },
      editing: { 'school.save': ({ context, stay }) => (changed(context) ? 'saving' : stay) },
      saving: { 'xstate.done.actor.saveSchool': 'editing', 'xstate.error.actor.saveSchool': 'editing' },
    },
  },
  traversal: {
    events: [RENAME, MEXICO, CHILE, PUNTA_ARENAS, CHAT_OFF, { type: 'school.save' }, { type: 'school.reset' }, { type: 'school.retry' }],
    internal: [
      { type: 'xstate.done.actor.fetchSchool', output: SAVED },
      { type: 'xstate.error.actor.fetchSchool', error: OFFLINE },
      { type: 'xstate.done.actor.saveSchool', output: RENAMED },
      { type: 'xstate.error.actor.saveSchool', error: REFUSED },
      { type: 'xstate.error.actor.saveSchool', error: OFFLINE },
    ],
    serializeState: (snapshot) =>
      JSON.stringify([
        snapshot.value,
        snapshot.context.form,
        Object.keys(snapshot.context.errors),
        snapshot.context.failed,
        snapshot.context.saved?.name,
      ]),
    limit: 20_000,
  },
  createActor: ({ fakes, machine }) =>
    createActor(machine.provide({ actors: { fetchSchool: fakes.promise(), saveSchool: fakes.promise() } })),
  states: {
    loading: (snapshot, env) => {
      expect(snapshot.hasTag('busy')).toBe(true);
      expect(env.fakes.isRunning('fetchSchool')).toBe(true);
    },
    loadFailed: (_, env) => {
      expect(env.fakes.isRunning('fetchSchool')).toBe(false);
    },
    editing: (snapshot, env) => {
      const { saved, form } = formAfter(env.history);
      expect(snapshot.context.saved).toEqual(saved);
      // Nothing typed is lost, whatever the server answered.
      expect(snapshot.context.form).toEqual(form);
      expect(selectHasChanges(snap(snapshot))).toBe(saved !== null && JSON.stringify(form) !== JSON.stringify(formOfSaved(saved)));
      // The support chat is Chile's only: off and unavailable while the form says Mexico.
      expect(selectChatAvailable(snap(snapshot))).toBe(form.country === 'CL');
      expect(selectChatEnabled(snap(snapshot))).toBe(form.country === 'CL' && form.chat_enabled === true);
      if (env.event.type === 'xstate.error.actor.saveSchool') {
        expect(selectFieldError(snap(snapshot), 'home_url')).toBe(
          env.event.error === REFUSED ? 'El enlace de inicio es obligatorio.' : null,
        );
        expect(selectFailed(snap(snapshot))).toBe(env.event.error !== REFUSED);
      }
    },
    saving: (snapshot, env) => {
      expect(selectSaving(snap(snapshot))).toBe(true);
      const { form } = formAfter(env.history.slice(0, -1));
      // The whole form, the chat off wherever it is not available.
      expect(env.fakes.inputOf('saveSchool')).toEqual({ ...form, chat_enabled: form.country === 'CL' && form.chat_enabled === true });
    },
  },
  events: {
    'school.change': send,
    'school.chat': send,
    'school.save': send,
    'school.reset': send,
    'school.retry': send,
    'xstate.done.actor.fetchSchool': settle,
    'xstate.error.actor.fetchSchool': settle,
    'xstate.done.actor.saveSchool': settle,
    'xstate.error.actor.saveSchool': settle,
  },
  emits,
});
