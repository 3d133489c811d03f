// "Usar plantilla" in compose, and "Usar en mensaje nuevo" arriving from /templates (`/new?template=ID`):
// a child compose spawns once its form is shown. It shows the templates in a dialog (the list pattern's
// child, all three repositories or one, with the search), and hands the chosen one to compose as
// `template.apply` (title from the name, the content as is). When compose's form already has text (compose
// says so when it opens the picker or passes the start's template), it first asks «¿Reemplazar el título y
// el contenido?»: nothing typed is replaced without a yes. Its toasts and focus moves are emitted and
// relayed by compose.
import { and, assertEvent, assign, emit, enqueueActions, setup, type ActorRefFrom, type AnyActorRef, type SnapshotFrom } from 'xstate';
import { fetchTemplate, type TemplateQuery } from '../../services/templates/templates';
import type { Template, TemplateRepositoryCode } from '../../../shared/templates-contract';
import { FIELD_IDS } from './rules';
import type { FocusEvent, NavigateEvent, ToastEvent } from '../app/effects';
import { listChild, listHostActions } from '../list/list';
import { templateListMachine, templateQueryOf, type TemplateListActor } from '../templates/templates';
import { templateApplyOf } from '../templates/rules';

/** Compose's "Usar plantilla" button, where focus returns when the picker closes without a choice. */
export const USE_TEMPLATE_BUTTON_ID = 'compose-use-template';

export interface TemplatePickerInput {
  /** Compose: it gets `template.apply`. */
  parent: AnyActorRef;
}

export interface TemplatePickerContext {
  parent: AnyActorRef;
  repository: TemplateRepositoryCode | null;
  q: string;
  items: Template[];
  /** Compose's form had text when the picker opened (or the start's template came). */
  replaces: boolean;
  /** The template chosen, waiting for the answer to the question. */
  chosen: Template | null;
}

/** What compose sends it. */
type TemplatePickerCommand =
  | { type: 'templates.open'; replaces: boolean }
  /** The start's template (`/new?template=ID`). */
  | { type: 'templates.use'; id: number; replaces: boolean };

export type TemplatePickerEvent =
  | TemplatePickerCommand
  | { type: 'templates.search'; q: string }
  | { type: 'templates.repository'; repository: TemplateRepositoryCode | null }
  | { type: 'templates.retry' }
  | { type: 'templates.choose'; id: number }
  | { type: 'templates.close' }
  | { type: 'templates.confirm' }
  | { type: 'templates.cancel' }
  | { type: 'xstate.snapshot.list'; snapshot: SnapshotFrom<typeof templateListMachine> };

/** What it tells compose: replace the title and the content. */
interface TemplateApplyEvent {
  type: 'template.apply';
  title: string;
  content: string;
}

export type TemplatePickerEmitted = ToastEvent | FocusEvent | NavigateEvent;

const NO_ROWS: Template[] = [];

export const templatePickerMachine = setup({
  types: {
    input: {} as TemplatePickerInput,
    context: {} as TemplatePickerContext,
    events: {} as TemplatePickerEvent,
    emitted: {} as TemplatePickerEmitted,
    children: {} as { list: 'list' },
  },
  actors: { list: templateListMachine, fetchTemplate },
  actions: {
    assignReplaces: assign({
      replaces: ({ event }) => {
        assertEvent(event, ['templates.open', 'templates.use']);
        return event.replaces;
      },
    }),
    resetQuery: assign({ repository: null, q: '', items: NO_ROWS, chosen: null }),
    ...listHostActions<TemplatePickerContext, TemplatePickerEvent, TemplateQuery>(templateQueryOf),
    /** Its rows, as the list's last snapshot had them (the same array). */
    assignItems: assign({
      items: ({ event }) => {
        assertEvent(event, 'xstate.snapshot.list');
        return event.snapshot.context.items;
      },
    }),
    assignSearch: assign(({ event }) => {
      assertEvent(event, 'templates.search');
      return { q: event.q };
    }),
    assignRepository: assign(({ event }) => {
      assertEvent(event, 'templates.repository');
      return { repository: event.repository };
    }),
    chooseListed: assign({
      chosen: ({ context, event }) => {
        assertEvent(event, 'templates.choose');
        return context.items.find((item) => item.id === event.id) ?? null;
      },
    }),
    chooseFetched: assign((_, chosen: Template | null) => ({ chosen })),
    /** The chosen template to compose: its name as the title, its content. */
    // Typed by hand: inferred, it would read this very actions map and loop.
    apply: enqueueActions<
      TemplatePickerContext,
      TemplatePickerEvent,
      undefined,
      TemplatePickerEvent,
      never,
      never,
      never,
      never,
      TemplatePickerEmitted
    >(({ context, enqueue }) => {
      if (context.chosen !== null)
        enqueue.sendTo(context.parent, { type: 'template.apply', ...templateApplyOf(context.chosen) } satisfies TemplateApplyEvent);
    }),
    clearChosen: assign({ chosen: null }),
    focusContent: emit({ type: 'focus', target: FIELD_IDS.content }),
    focusButton: emit({ type: 'focus', target: USE_TEMPLATE_BUTTON_ID }),
    /** The start's template is used once: a reload of `/new?template=ID` must not ask again. */
    dropFromAddress: emit({ type: 'navigate', to: '/new', replace: true }),
    toastNotFound: emit({ type: 'toast', kind: 'error', key: 'templates.toast.notFound' }),
    toastRequestError: emit({ type: 'toast', kind: 'error', key: 'error.request' }),
  },
  guards: {
    isListed: ({ context, event }) => {
      assertEvent(event, 'templates.choose');
      return context.items.some((item) => item.id === event.id);
    },
    replaces: ({ context }) => context.replaces,
    /** `/new?template=ID` names a template the user cannot see (or none). */
    isMissing: (_, template: Template | null) => template === null,
  },
}).createMachine({
  id: 'templatePicker',
  initial: 'closed',
  context: ({ input }) => ({ parent: input.parent, repository: null, q: '', items: NO_ROWS, replaces: false, chosen: null }),
  states: {
    closed: {
      on: {
        'templates.open': { target: 'open', actions: ['assignReplaces', 'resetQuery'] },
        'templates.use': { target: 'fetching', actions: ['assignReplaces', 'resetQuery'] },
      },
    },
    // The dialog: every template the user can see, with the search and the repository filter.
    open: {
      invoke: { ...listChild(templateQueryOf), onError: { target: 'closed', actions: ['toastRequestError', 'focusButton'] } },
      on: {
        'templates.search': { actions: ['assignSearch', 'askQuery'] },
        'templates.repository': { actions: ['assignRepository', 'askQuery'] },
        'templates.retry': { actions: 'askReload' },
        'templates.choose': [
          { guard: and(['isListed', 'replaces']), target: 'confirming', actions: 'chooseListed' },
          { guard: 'isListed', target: 'closed', actions: ['chooseListed', 'apply', 'focusContent', 'clearChosen'] },
        ],
        'templates.close': { target: 'closed', actions: 'focusButton' },
      },
    },
    // `/new?template=ID`: that template, from the list of all.
    fetching: {
      tags: 'busy',
      invoke: {
        id: 'fetchTemplate',
        src: 'fetchTemplate',
        input: ({ event }) => {
          assertEvent(event, 'templates.use');
          return { id: event.id };
        },
        onDone: [
          {
            guard: { type: 'isMissing', params: ({ event }) => event.output },
            target: 'closed',
            actions: ['toastNotFound', 'dropFromAddress'],
          },
          {
            guard: 'replaces',
            target: 'confirming',
            actions: [{ type: 'chooseFetched', params: ({ event }) => event.output }, 'dropFromAddress'],
          },
          {
            target: 'closed',
            actions: [
              { type: 'chooseFetched', params: ({ event }) => event.output },
              'apply',
              'focusContent',
              'clearChosen',
              'dropFromAddress',
            ],
          },
        ],
        onError: { target: 'closed', actions: ['toastRequestError', 'dropFromAddress'] },
      },
    },
    // A template is chosen over text already typed: «¿Reemplazar el título y el contenido?». (On an empty
    // form it is applied at once, without this question.)
    confirming: {
      on: {
        'templates.confirm': { target: 'closed', actions: ['apply', 'focusContent', 'clearChosen'] },
        'templates.cancel': { target: 'closed', actions: ['focusButton', 'clearChosen'] },
      },
    },
  },
});

export type TemplatePickerSnapshot = SnapshotFrom<typeof templatePickerMachine>;
export type TemplatePickerActor = ActorRefFrom<typeof templatePickerMachine>;

export const selectPickerOpen = (s: TemplatePickerSnapshot): boolean => s.matches('open');
export const selectPickerList = (s: TemplatePickerSnapshot): TemplateListActor | undefined => s.children.list;
export const selectPickerItems = (s: TemplatePickerSnapshot): Template[] => s.context.items;
export const selectPickerQuery = (s: TemplatePickerSnapshot): string => s.context.q;
export const selectPickerRepository = (s: TemplatePickerSnapshot): TemplateRepositoryCode | null => s.context.repository;
export const selectAsksReplace = (s: TemplatePickerSnapshot): boolean => s.matches('confirming');
export const selectChosenName = (s: TemplatePickerSnapshot): string => s.context.chosen?.name ?? '';
export const selectPickerFetching = (s: TemplatePickerSnapshot): boolean => s.matches('fetching');
