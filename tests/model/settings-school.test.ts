import { createActor, type AnyMachineSnapshot, type AnyEventObject } from 'xstate';
import { expect } from 'vitest';
import {
  selectChatAvailable,
  selectChatEnabled,
  selectFailed,
  selectFieldError,
  selectHasChanges,
  selectLogo,
  selectLogoErrorText,
  selectLogoProblem,
  selectRemovingLogo,
  selectSaving,
  selectUploadingLogo,
  settingsSchoolMachine,
  type SettingsSchoolSnapshot,
} from '../../src/machines/settings/school';
import type { SchoolLogo, SchoolSettings } from '../../shared/school-contract';
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
  logo: null,
};
/** What the server answers after a save: the form as sent. */
const RENAMED: SchoolSettings = { ...SAVED, name: 'Colegio San Andrés' };

const RENAME = { type: 'school.change', field: 'name', value: 'Colegio San Andrés' };
const MEXICO = { type: 'school.change', field: 'country', value: 'MX' };
const CHILE = { type: 'school.change', field: 'country', value: 'CL' };
const PUNTA_ARENAS = { type: 'school.change', field: 'timezone', value: 'America/Punta_Arenas' };
const CHAT_OFF = { type: 'school.chat', enabled: false };

/** Files an administrator may choose: a PNG, an SVG and a JPEG over 512 kB (refused before they travel). */
const PNG = new File([new Uint8Array(2048)], 'escudo.png', { type: 'image/png' });
const SVG = new File(['<svg xmlns="http://www.w3.org/2000/svg"/>'], 'escudo.svg', { type: 'image/svg+xml' });
const BIG = new File([new Uint8Array(512 * 1024 + 1)], 'escudo.jpg', { type: 'image/jpeg' });
// `chosen` only tells the events apart for the path planner, which compares events as JSON (a File is `{}`).
const UPLOAD_PNG = { type: 'logo.upload', file: PNG, chosen: 'png' };
const UPLOAD_SVG = { type: 'logo.upload', file: SVG, chosen: 'svg' };
const UPLOAD_BIG = { type: 'logo.upload', file: BIG, chosen: 'big' };
const REMOVE = { type: 'logo.remove' };
const LOGO: SchoolLogo = { url: '/school/logo?v=0123456789abcdef', content_type: 'image/png', size: 2048, width: 120, height: 40 };
const FILE_REFUSED = failure(415, 'attachment.type', 'no', {
  file: ['El logo debe ser una imagen PNG o JPEG; este archivo no lo es, aunque su nombre lo diga.'],
});

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
      form = formOfSaved(saved);
      editing = true;
    }
    // The logo changes the saved settings' logo alone: nothing typed is touched.
    if (event.type === 'xstate.done.actor.uploadLogo' && saved) saved = { ...saved, logo: event.output as SchoolLogo };
    if (event.type === 'xstate.done.actor.removeLogo' && saved) saved = { ...saved, logo: null };
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
  const { chat_available: _, logo: __, ...rest } = saved;
  return { ...rest };
}

/**
 * The logo by the test's own account: the saved one, whether a call about it runs, and the problem of the
 * last file chosen or the last answer. A file other than a PNG or JPEG up to 512 kB never travels; only a
 * school with a logo can remove it; while a call runs, the logo's buttons do nothing.
 */
function logoAfter(history: readonly AnyEventObject[]) {
  let ready = false;
  let logo: SchoolLogo | null = null;
  let running: 'uploading' | 'removing' | null = null;
  let error: { text: string | null; problem: string | null } = { text: null, problem: null };
  const FILE_TEXT = 'El logo debe ser una imagen PNG o JPEG; este archivo no lo es, aunque su nombre lo diga.';
  for (const event of history) {
    if (event.type === 'xstate.done.actor.fetchSchool' || event.type === 'xstate.done.actor.saveSchool') {
      ready = true;
      logo = (event.output as SchoolSettings).logo;
    }
    if (!ready) continue;
    if (event.type === 'logo.upload' && running === null) {
      if (event.file === SVG) error = { text: null, problem: 'svg' };
      else if (event.file === BIG) error = { text: null, problem: 'tooLarge' };
      else {
        error = { text: null, problem: null };
        running = 'uploading';
      }
    }
    if (event.type === 'logo.remove' && running === null && logo !== null) {
      error = { text: null, problem: null };
      running = 'removing';
    }
    if (event.type === 'xstate.done.actor.uploadLogo') [logo, running] = [event.output as SchoolLogo, null];
    if (event.type === 'xstate.done.actor.removeLogo') [logo, running] = [null, null];
    if (event.type === 'xstate.error.actor.uploadLogo' || event.type === 'xstate.error.actor.removeLogo') {
      running = null;
      error = event.error === FILE_REFUSED ? { text: FILE_TEXT, problem: null } : { text: null, problem: 'failed' };
    }
  }
  return { logo, running, error };
}

function emits({ event }: StepEnv): AnyEventObject[] {
  if (event.type === 'xstate.done.actor.uploadLogo') return [{ type: 'toast', kind: 'success', key: 'school.toast.logoSaved' }];
  // The remove button is gone with the logo: focus to the file chooser.
  if (event.type === 'xstate.done.actor.removeLogo')
    return [
      { type: 'toast', kind: 'success', key: 'school.toast.logoRemoved' },
      { type: 'focus', target: 'school-logo-file' },
    ];
  if (event.type === 'xstate.error.actor.uploadLogo' || event.type === 'xstate.error.actor.removeLogo')
    return [{ type: 'toast', kind: 'error', key: 'school.toast.logoFailed' }];
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
  // The machine's header: load, edit, save only what changed; a refusal or failure back to the form. Beside
  // the form and independent of it, the logo: a PNG or JPEG up to 512 kB is uploaded (another file never
  // travels), an existing logo removed; any answer back to idle.
  oracle: {
    initial: 'loading',
    targets: {
      loading: {
        'xstate.done.actor.fetchSchool': { ready: { form: 'editing', logo: 'idle' } },
        'xstate.error.actor.fetchSchool': 'loadFailed',
      },
      loadFailed: { 'school.retry': 'loading' },
      'ready.form.editing': { 'school.save': ({ context, stay }) => (changed(context) ? 'ready.form.saving' : stay) },
      'ready.form.saving': { 'xstate.done.actor.saveSchool': 'ready.form.editing', 'xstate.error.actor.saveSchool': 'ready.form.editing' },
      'ready.logo.idle': {
        'logo.upload': ({ event, stay }) => (event.file === PNG ? 'ready.logo.uploading' : stay),
        'logo.remove': ({ context, stay }) => (context.saved?.logo ? 'ready.logo.removing' : stay),
      },
      'ready.logo.uploading': { 'xstate.done.actor.uploadLogo': 'ready.logo.idle', 'xstate.error.actor.uploadLogo': 'ready.logo.idle' },
      'ready.logo.removing': { 'xstate.done.actor.removeLogo': 'ready.logo.idle', 'xstate.error.actor.removeLogo': 'ready.logo.idle' },
    },
  },
  traversal: {
    events: [
      RENAME,
      MEXICO,
      CHILE,
      PUNTA_ARENAS,
      CHAT_OFF,
      { type: 'school.save' },
      { type: 'school.reset' },
      { type: 'school.retry' },
      UPLOAD_PNG,
      UPLOAD_SVG,
      UPLOAD_BIG,
      REMOVE,
    ],
    internal: [
      { type: 'xstate.done.actor.uploadLogo', output: LOGO },
      { type: 'xstate.error.actor.uploadLogo', error: FILE_REFUSED },
      { type: 'xstate.error.actor.uploadLogo', error: OFFLINE },
      { type: 'xstate.done.actor.removeLogo', output: null },
      { type: 'xstate.error.actor.removeLogo', error: OFFLINE },
      { type: 'xstate.done.actor.fetchSchool', output: SAVED },
      { type: 'xstate.error.actor.fetchSchool', error: OFFLINE },
      { type: 'xstate.done.actor.saveSchool', output: RENAMED },
      { type: 'xstate.error.actor.saveSchool', error: REFUSED },
      { type: 'xstate.error.actor.saveSchool', error: OFFLINE },
    ],
    // The form is explored with the logo untouched; the logo with the form as loaded or renamed only
    // (typing and saving go on during an upload), so the two do not multiply.
    filterEvents: (snapshot, event) => {
      const { context } = snapshot;
      const logoUntouched = snapshot.matches({ ready: { logo: 'idle' } }) && context.logoError === null && !context.saved?.logo;
      const formAsLoadedOrRenamed =
        context.form.country === 'CL' && context.form.timezone === 'America/Santiago' && context.form.chat_enabled;
      if (event.type === 'logo.upload' || event.type === 'logo.remove') return !snapshot.matches('ready') || formAsLoadedOrRenamed;
      if (event.type === 'school.chat' || (event.type === 'school.change' && (event as AnyEventObject).field !== 'name'))
        return logoUntouched;
      return true;
    },
    serializeState: (snapshot) =>
      JSON.stringify([
        snapshot.value,
        snapshot.context.form,
        Object.keys(snapshot.context.errors),
        snapshot.context.failed,
        snapshot.context.saved?.name,
        snapshot.context.saved?.logo?.url ?? null,
        snapshot.context.logoError,
      ]),
    limit: 20_000,
  },
  createActor: ({ fakes, machine }) =>
    createActor(
      machine.provide({
        actors: { fetchSchool: fakes.promise(), saveSchool: fakes.promise(), uploadLogo: fakes.promise(), removeLogo: fakes.promise() },
      }),
    ),
  states: {
    loading: (snapshot, env) => {
      expect(snapshot.hasTag('busy')).toBe(true);
      expect(env.fakes.isRunning('fetchSchool')).toBe(true);
    },
    loadFailed: (_, env) => {
      expect(env.fakes.isRunning('fetchSchool')).toBe(false);
    },
    ready: (snapshot) => {
      expect(snapshot.matches('ready')).toBe(true);
    },
    'ready.form': (snapshot) => {
      expect(snapshot.matches({ ready: 'logo' })).toBe(true);
    },
    'ready.logo': (snapshot) => {
      expect(snapshot.matches({ ready: 'form' })).toBe(true);
    },
    'ready.form.editing': (snapshot, env) => {
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
    'ready.form.saving': (snapshot, env) => {
      expect(snapshot.hasTag('busy')).toBe(true);
      expect(selectSaving(snap(snapshot))).toBe(true);
      const { form } = formAfter(env.history.slice(0, -1));
      // The whole form, the chat off wherever it is not available.
      expect(env.fakes.inputOf('saveSchool')).toEqual({ ...form, chat_enabled: form.country === 'CL' && form.chat_enabled === true });
    },
    'ready.logo.idle': (snapshot, env) => {
      const { logo, error } = logoAfter(env.history);
      expect(selectLogo(snap(snapshot))).toEqual(logo);
      expect(selectLogoErrorText(snap(snapshot))).toBe(error.text);
      expect(selectLogoProblem(snap(snapshot))).toBe(error.problem);
      expect(selectUploadingLogo(snap(snapshot))).toBe(false);
      expect(selectRemovingLogo(snap(snapshot))).toBe(false);
      // Busy only while the form saves.
      expect(snapshot.hasTag('busy')).toBe(snapshot.matches({ ready: { form: 'saving' } }));
      expect(env.fakes.isRunning('uploadLogo')).toBe(false);
      expect(env.fakes.isRunning('removeLogo')).toBe(false);
    },
    'ready.logo.uploading': (snapshot, env) => {
      expect(logoAfter(env.history).running).toBe('uploading');
      expect(snapshot.hasTag('busy')).toBe(true);
      expect(selectUploadingLogo(snap(snapshot))).toBe(true);
      expect(selectLogoErrorText(snap(snapshot))).toBeNull();
      expect(selectLogoProblem(snap(snapshot))).toBeNull();
      // The file chosen, as chosen.
      expect(env.fakes.inputOf('uploadLogo')).toEqual({ file: PNG });
    },
    'ready.logo.removing': (snapshot, env) => {
      expect(logoAfter(env.history).running).toBe('removing');
      expect(snapshot.hasTag('busy')).toBe(true);
      expect(selectRemovingLogo(snap(snapshot))).toBe(true);
      expect(env.fakes.isRunning('removeLogo')).toBe(true);
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
    'logo.upload': send,
    'logo.remove': send,
    'xstate.done.actor.uploadLogo': settle,
    'xstate.error.actor.uploadLogo': settle,
    'xstate.done.actor.removeLogo': settle,
    'xstate.error.actor.removeLogo': settle,
  },
  emits,
});
