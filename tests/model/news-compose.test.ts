// The news compose machine (news/compose.ts) on the harness: load (new, or a post edited with a newer
// backup), every edit re-checked as typed with shared/news-rules.ts's texts and written to the backup,
// save refused in place (toast, focus on the first refused field), a 422's texts on their fields, a failed
// save keeping the form, success (toast, backup cleared, to /mural), and «¿Descartar los cambios?».
import { isDeepStrictEqual } from 'node:util';
import { createActor, emit, sendTo, setup, type AnyActorRef, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { expect, vi } from 'vitest';
import type { AttachmentEntry } from '../../src/machines/compose/rules';
import { hasNewsChanges, newsComposeMachine, type NewsComposeContext } from '../../src/machines/news/compose';
import {
  selectChosenCount,
  selectIsLoading,
  selectIsLocked,
  selectLoadFailed,
  selectSaveFailed,
} from '../../src/machines/news/compose-selectors';
import {
  backupOf,
  firstInvalidField,
  newsFormErrors,
  newsInputOf,
  savedToast,
  serverNewsErrors,
} from '../../src/machines/news/compose-rules';
import { loadNewsBackup, saveNewsBackup } from '../../src/services/news/compose';
import { NEWS_MESSAGES } from '../../shared/news-rules';
import type { AttachmentSummary } from '../../shared/messages-contract';
import { newsComposeStart, newsPost } from '../fixtures/news-compose';
import { attachmentSummary } from '../fixtures/messages';
import { failure } from './fixtures';
import { defineModelTests, send, settle, T0, type StepEnv } from './harness';
import { installMemoryStorage } from './memory-storage';

const store = installMemoryStorage();
// The rules read the clock (a publish date in the past, an end date passed): paths are planned at T0 too,
// as they run (the harness's fake timers start there).
vi.useFakeTimers({ now: T0, toFake: ['Date'] });
const KEY = 'news:7:new';
const EDIT_KEY = 'news:7:42';
const TZ = 'America/Santiago';
const ctx = (s: AnyMachineSnapshot) => s.context as NewsComposeContext;

const PHOTO = attachmentSummary(501, { name: 'feria.jpg', content_type: 'image/jpeg', size: 2048 });
const UPLOADED: AttachmentEntry[] = [{ key: 'attachment-1', size: PHOTO.size, status: 'uploaded', attachment: PHOTO }];
const FAILED: AttachmentEntry[] = [{ key: 'attachment-1', size: 10, status: 'failed', attachment: null }];
const EXE = new File(['x'], 'virus.exe');
const UPLOAD_TOAST = { type: 'toast', kind: 'error', key: 'compose.attachment.uploadFailed' } as const;
const PUBLISHED = newsPost({ id: 77, status: 'published' });
const SCHEDULED = newsPost({ id: 78, status: 'scheduled', publish_at: '2026-03-10T11:00:00.000Z' });
const ENDS_REFUSED = failure(422, 'validation.failed', 'Los datos enviados no son válidos.', { ends_at: [NEWS_MESSAGES.endsPast] });
const SERVER_FAILED = failure(500, 'server.error');
const LEAVE = { type: 'page.leave', to: '/inbox' } as const;

/** Reports what the test gives it and emits an upload toast; what compose tells it is not this test's concern. */
const listStandIn = setup({
  types: {
    input: {} as { parent: AnyActorRef; restored: AttachmentSummary[] },
    context: {} as { parent: AnyActorRef },
    events: {} as { type: 'test.report'; entries: AttachmentEntry[] } | { type: 'test.toast' },
    emitted: {} as AnyEventObject,
  },
}).createMachine({
  id: 'listStandIn',
  context: ({ input }) => ({ parent: input.parent }),
  on: {
    'test.report': {
      actions: sendTo(
        ({ context }) => context.parent,
        ({ event }) => ({ type: 'attachments.changed', entries: event.entries }),
      ),
    },
    'test.toast': { actions: emit(UPLOAD_TOAST) },
  },
});

const childOf = (env: StepEnv) => (env.actor.getSnapshot() as AnyMachineSnapshot).children.attachments as AnyActorRef;
const errorOf = (event: AnyEventObject) => event.error as Parameters<typeof serverNewsErrors>[0];
const all = (c: NewsComposeContext) => newsFormErrors(c.form, c.timezone, T0, c.postId === null);

function emits(env: StepEnv): AnyEventObject[] {
  const { from, event } = env;
  const c = ctx(from);
  switch (event.type) {
    case 'news.save': {
      if (!from.matches('editing')) return [];
      const errors = all(c);
      const target = firstInvalidField(errors);
      return target === null
        ? []
        : [
            { type: 'toast', kind: 'error', key: 'compose.errors.review' },
            { type: 'focus', target },
          ];
    }
    case 'effect.relay':
      return [UPLOAD_TOAST];
    case 'news.discard':
      return from.matches('confirmingLeave') ? [{ type: 'navigate', to: c.leaving?.to }] : [];
    case 'xstate.done.actor.saveNewsPost': {
      const post = event.output as typeof PUBLISHED;
      return [
        { type: 'toast', kind: 'success', ...savedToast(post, c.postId === null, TZ) },
        { type: 'navigate', to: c.leaving?.to ?? '/mural' },
      ];
    }
    case 'xstate.error.actor.saveNewsPost': {
      const error = errorOf(event);
      if (error.status !== 422) return [{ type: 'toast', kind: 'error', key: 'error.request' }];
      const target = firstInvalidField(serverNewsErrors(error));
      return [{ type: 'toast', kind: 'error', key: 'compose.errors.review' }, ...(target ? [{ type: 'focus', target }] : [])];
    }
    default:
      return [];
  }
}

/** On the school's clock (Santiago, UTC−3 in March) T0 is this wall time; the test's dates compare as text. */
const NOW_AT_SCHOOL = '2026-03-02T09:00';
type Wall = { date: string; time: string } | null;
const wall = (at: Wall) => (at ? `${at.date}T${at.time}` : null);

/**
 * What Publicar refuses of this test's forms (decision 0095, the shared news rules in short): a title and a
 * text, an audience (the whole school, or some level or course), an end date still to come and after the
 * publication, a new post not published in the past, and no file failed or still uploading.
 */
function refused(c: NewsComposeContext): boolean {
  const { form } = c;
  const publish = wall(form.publishAt) ?? NOW_AT_SCHOOL;
  const ends = wall(form.endsAt);
  const noAudience = form.audience.scope === 'groups' && form.audience.level_ids.length + form.audience.course_ids.length === 0;
  return (
    form.title.trim() === '' ||
    form.body.trim() === '' ||
    noAudience ||
    (ends !== null && (ends <= NOW_AT_SCHOOL || ends <= publish)) ||
    (c.postId === null && publish < NOW_AT_SCHOOL) ||
    form.attachments.some((entry) => entry.status === 'failed' || entry.status === 'uploading')
  );
}

/** What the server holds of this test's forms: nothing for a new post; the edited post as it was loaded. */
const HELD = {
  new: {
    title: '',
    body: '',
    categoryId: null,
    audience: { scope: 'school', level_ids: [], course_ids: [] },
    publishAt: null,
    endsAt: null,
    pinned: false,
  },
  edit: {
    title: newsPost().title,
    body: newsPost().body,
    categoryId: 3,
    audience: newsPost().audience,
    // Its publication, 2026-03-01T12:00Z, on the school's clock.
    publishAt: { date: '2026-03-01', time: '09:00' },
    endsAt: null,
    pinned: false,
  },
};
/** Something typed or a file picked that the server does not have: leaving asks first. */
function unsaved(c: NewsComposeContext): boolean {
  const { attachments, ...fields } = c.form;
  const held = c.postId === null ? HELD.new : HELD.edit;
  return !isDeepStrictEqual({ ...fields }, held) || attachments.some((entry) => entry.status !== 'removing');
}

const CHILD_EVENTS = new Set(['attachments.changed', 'effect.relay']);
const EDITS = new Set([
  'news.change',
  'news.setCategory',
  'news.setScope',
  'news.toggleGroup',
  'news.setPublish',
  'news.setEnds',
  'news.setPinned',
  'attachments.changed',
]);

defineModelTests({
  name: 'news-compose',
  machine: newsComposeMachine,
  // The header and decision 0095: loading (Reintentar after a failure), then the form; Publicar asks only
  // when nothing is refused, and a refused or failed save returns to the form; leaving with something the
  // server does not have asks first, otherwise the navigation goes through without the machine.
  oracle: {
    initial: 'loading',
    targets: {
      loading: { 'xstate.done.actor.loadNewsCompose': 'editing', 'xstate.error.actor.loadNewsCompose': 'loadFailed' },
      loadFailed: { 'news.retry': 'loading' },
      editing: {
        'news.save': ({ context, stay }) => (refused(context) ? stay : 'saving'),
        'page.leave': ({ context, stay }) => (unsaved(context) ? 'confirmingLeave' : stay),
      },
      // A navigation asked for meanwhile waits for the save.
      saving: { 'xstate.done.actor.saveNewsPost': 'saved', 'xstate.error.actor.saveNewsPost': 'editing' },
      confirmingLeave: { 'news.discard': 'left', 'news.stay': 'editing' },
    },
  },
  traversal: {
    input: { postId: null, backupKey: KEY, timezone: TZ },
    events: [
      { type: 'news.change', field: 'title', value: 'Feria científica' },
      { type: 'news.change', field: 'body', value: 'El jueves exponen.' },
      { type: 'news.change', field: 'title', value: '  ' },
      { type: 'news.setCategory', id: 4 },
      { type: 'news.setScope', scope: 'groups' },
      { type: 'news.toggleGroup', kind: 'level', id: 1 },
      { type: 'news.setPublish', at: { date: '2026-03-10', time: '08:00' } },
      { type: 'news.setEnds', at: { date: '2026-03-01', time: '10:00' } },
      { type: 'news.setEnds', at: null },
      { type: 'news.setPinned', pinned: true },
      { type: 'attachment.add', files: [EXE] },
      { type: 'attachment.remove', key: 'attachment-1' },
      { type: 'attachment.retry', key: 'attachment-1' },
      { type: 'attachments.changed', entries: UPLOADED },
      { type: 'attachments.changed', entries: FAILED },
      { type: 'effect.relay', effect: UPLOAD_TOAST },
      { type: 'news.dismissRestored' },
      { type: 'news.save' },
      { type: 'news.retry' },
      { type: 'news.discard' },
      { type: 'news.stay' },
      LEAVE,
    ],
    internal: [
      { type: 'xstate.done.actor.loadNewsCompose', output: newsComposeStart() },
      { type: 'xstate.error.actor.loadNewsCompose', error: SERVER_FAILED },
      { type: 'xstate.done.actor.saveNewsPost', output: PUBLISHED },
      { type: 'xstate.done.actor.saveNewsPost', output: SCHEDULED },
      { type: 'xstate.error.actor.saveNewsPost', error: ENDS_REFUSED },
      { type: 'xstate.error.actor.saveNewsPost', error: SERVER_FAILED },
    ],
    // Coarse on purpose: the mode, what is unsaved, which fields are refused and shown, the held navigation.
    serializeState: (s) => {
      const c = ctx(s);
      return JSON.stringify([
        s.value,
        s.status,
        hasNewsChanges(c),
        Object.keys(all(c)).length === 0,
        Object.keys(c.errors).length === 0,
        c.leaving?.to ?? null,
        c.restored,
        c.failure?.status ?? null,
        c.form.attachments.map((e) => e.status),
      ]);
    },
    // The list child exists once the form is shown, and stops with the machine.
    filterEvents: (s, event) =>
      !(CHILD_EVENTS.has(event.type) && (s.status !== 'active' || s.matches('loading') || s.matches('loadFailed'))),
    limit: 4000,
  },
  variants: [
    { name: 'new', traversal: {} },
    {
      name: 'edit, newer backup',
      traversal: {
        input: { postId: 42, backupKey: EDIT_KEY, timezone: TZ },
        events: [{ type: 'news.dismissRestored' }, { type: 'news.save' }, LEAVE, { type: 'news.stay' }],
        internal: [
          {
            type: 'xstate.done.actor.loadNewsCompose',
            output: newsComposeStart({
              post: newsPost(),
              backup: {
                ...backupOf({ ...newsComposeStartForm(), title: 'Feria científica 2026' }, 42, T0),
                savedAt: Date.parse('2026-03-02T00:00:00Z'),
              },
            }),
          },
          { type: 'xstate.done.actor.saveNewsPost', output: newsPost({ title: 'Feria científica 2026' }) },
        ],
      },
    },
  ],
  createActor: ({ fakes, path, inspect, machine }) => {
    store.clear();
    return createActor(
      machine.provide({
        actors: { fetchNewsComposeStart: fakes.promise(), saveNewsPost: fakes.promise(), attachmentList: listStandIn as never },
      }),
      {
        input: path.input as never,
        inspect,
      },
    );
  },
  states: {
    loading: (s, env) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(env.fakes.isRunning('loadNewsCompose')).toBe(true);
      // Each entry loads once (Reintentar loads again); an ignored event lets the call run.
      const entered = env.event.type === 'xstate.init' || !env.from.matches('loading');
      expect(env.started, 'requests started').toEqual(entered ? ['loadNewsCompose'] : []);
      // What the page reads: a spinner, and a form nobody can type into yet.
      expect([selectIsLoading(s), selectIsLocked(s), selectLoadFailed(s)]).toEqual([true, true, false]);
    },
    loadFailed: (s, env) => {
      expect([selectIsLoading(s), selectLoadFailed(s)]).toEqual([false, true]);
      expect(env.fakes.isRunning('loadNewsCompose')).toBe(false);
      expect(s.can({ type: 'news.retry' })).toBe(true);
      expect(s.can({ type: 'news.save' })).toBe(false);
    },
    editing: (s, env) => {
      const c = ctx(s);
      expect(env.fakes.isRunning('saveNewsPost')).toBe(false);
      expect(c.leaving).toBeNull();
      expect(s.can({ type: 'news.save' })).toBe(true);
      expect(selectIsLocked(s)).toBe(false);
      expect(selectSaveFailed(s)).toBe(c.failure !== null);
      expect(selectChosenCount(s)).toBe(c.form.audience.level_ids.length + c.form.audience.course_ids.length);
      // The root lets a navigation through at once unless something typed is unsaved.
      expect(s.can(LEAVE)).toBe(hasNewsChanges(c));
      expect(s.can(LEAVE), 'leaving asks').toBe(unsaved(c));
      if (EDITS.has(env.event.type)) {
        // Written to the browser as typed: a reload loses nothing.
        const { savedAt: _, ...kept } = loadNewsBackup(c.backupKey) ?? { savedAt: 0 };
        const { savedAt: __, ...expected } = backupOf(c.form, c.postId, T0);
        expect(kept).toEqual(expected);
      }
      if (env.event.type === 'news.setEnds' && env.event.at) expect(c.errors.ends_at).toEqual({ text: NEWS_MESSAGES.endsPast });
      if (env.event.type === 'news.change' && env.event.field === 'title' && env.event.value === '  ')
        expect(c.errors.title).toEqual({ text: NEWS_MESSAGES.titleRequired });
      if (env.event.type === 'attachment.add')
        expect(c.errors.attachment_ids).toEqual({ key: 'compose.attachment.type', params: { name: 'virus.exe' } });
      if (env.event.type === 'news.save') expect(c.errors).toEqual(all(c));
      if (env.event.type === 'news.save') expect(refused(c), 'Publicar stayed on a refused form').toBe(true);
      if (env.event.type === 'xstate.error.actor.saveNewsPost') {
        expect(c.form).toEqual(ctx(env.from).form);
        if (errorOf(env.event).status === 422) expect(c.errors).toEqual({ ends_at: { text: NEWS_MESSAGES.endsPast } });
        else expect(c.failure?.status).toBe(500);
      }
      if (env.event.type === 'xstate.done.actor.loadNewsCompose' && c.postId === 42) {
        // The newer backup wins over the post, and says so.
        expect(c.form.title).toBe('Feria científica 2026');
        expect(c.restored).toBe(true);
      }
    },
    saving: (s, env) => {
      expect(s.hasTag('busy')).toBe(true);
      const c = ctx(s);
      // What is sent is the form as it stood on Publicar (a file finishing meanwhile is the next save's).
      if (env.event.type === 'news.save')
        expect(env.fakes.inputOf('saveNewsPost')).toEqual({ id: c.postId, input: newsInputOf(c.form, TZ) });
      else expect(env.fakes.isRunning('saveNewsPost')).toBe(true);
      // Checked when sent (a file reporting meanwhile is the next save's concern).
      if (env.event.type === 'news.save' && env.from.matches('editing'))
        expect(refused(c), 'only a form the rules accept is sent').toBe(false);
    },
    confirmingLeave: (s) => {
      expect(ctx(s).leaving?.to).toBe('/inbox');
      expect(s.can({ type: 'news.discard' })).toBe(true);
    },
    saved: (s) => {
      expect(s.status).toBe('done');
      expect(loadNewsBackup(ctx(s).backupKey)).toBeNull();
    },
    left: (s) => {
      expect(s.status).toBe('done');
      expect(loadNewsBackup(ctx(s).backupKey)).toBeNull();
    },
  },
  events: {
    'news.change': send,
    'news.setCategory': send,
    'news.setScope': send,
    'news.toggleGroup': send,
    'news.setPublish': send,
    'news.setEnds': send,
    'news.setPinned': send,
    'news.dismissRestored': send,
    'news.save': send,
    'news.retry': send,
    'news.discard': send,
    'news.stay': send,
    'page.leave': send,
    'attachment.add': send,
    'attachment.remove': send,
    'attachment.retry': send,
    'attachments.changed': (env) => childOf(env).send({ type: 'test.report', entries: env.event.entries }),
    'effect.relay': (env) => childOf(env).send({ type: 'test.toast' }),
    'xstate.done.actor.loadNewsCompose': (env) => {
      // The loader reads the backup; the fake hands over what the path's output says it read.
      const output = env.event.output as ReturnType<typeof newsComposeStart>;
      if (output.backup) saveNewsBackup(EDIT_KEY, output.backup);
      settle(env);
    },
    'xstate.error.actor.loadNewsCompose': settle,
    'xstate.done.actor.saveNewsPost': settle,
    'xstate.error.actor.saveNewsPost': settle,
  },
  emits,
});

function newsComposeStartForm() {
  const post = newsPost();
  return {
    title: post.title,
    body: post.body,
    categoryId: 3,
    audience: post.audience,
    publishAt: { date: '2026-03-01', time: '09:00' },
    endsAt: null,
    pinned: false,
    attachments: [],
  };
}
