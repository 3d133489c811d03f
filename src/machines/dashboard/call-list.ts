// "Lista de llamados" of one course (child of dashboard/course-connectivity.ts): the guardians not reached
// among their last N messages (1–CALL_LIST_MESSAGES_MAX, COVERAGE_MESSAGES by default), as the server
// lists them; another N asks again (the last list stays on screen meanwhile); a failure offers Reintentar,
// another school's course (404) is not found, with nothing to retry.
// The CSV is the same list from the server (a plain download link, `selectCsvUrl`).
import { assertEvent, assign, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { callListCsvUrl, fetchCallList } from '../../services/dashboard/connectivity';
import { CALL_LIST_MESSAGES_MAX, COVERAGE_MESSAGES, type CallList, type CallListRow } from '../../../shared/dashboard-contract';
import { toApiFailure, type ApiFailure } from '../../services/http/client';
import { memoPerOwner } from '../app/memo';

export interface CallListInput {
  courseId: number;
  /** N to start with (the print view's `?messages=`); COVERAGE_MESSAGES when absent or out of bounds. */
  messages?: number;
}

/** A whole N within 1–CALL_LIST_MESSAGES_MAX. */
const isMessagesCount = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= CALL_LIST_MESSAGES_MAX;

export interface CallListContext {
  courseId: number;
  messages: number;
  list: CallList | null;
}

export type CallListEvent = { type: 'callList.messages'; messages: number } | { type: 'callList.retry' };

/** Rows per printed A4 page of the print view (portrait, with the page's heading). */
export const CALL_LIST_PAGE_ROWS = 25;

/** The rows cut into printed pages of `size` rows; none for no rows. */
export function pagesOf<T>(rows: readonly T[], size = CALL_LIST_PAGE_ROWS): T[][] {
  const pages: T[][] = [];
  for (let i = 0; i < rows.length; i += size) pages.push(rows.slice(i, i + size));
  return pages;
}

/** The choices offered for N. */
export const CALL_LIST_CHOICES: readonly number[] = [1, 3, 5, 10, CALL_LIST_MESSAGES_MAX];

export const callListMachine = setup({
  types: {
    input: {} as CallListInput,
    context: {} as CallListContext,
    events: {} as CallListEvent,
  },
  actors: { fetchCallList },
  actions: {
    assignList: assign((_, list: CallList) => ({ list })),
    assignMessages: assign({
      messages: ({ event }) => {
        assertEvent(event, 'callList.messages');
        return event.messages;
      },
    }),
  },
  guards: {
    isNotFound: (_, failure: ApiFailure) => failure.status === 404,
    /** A whole number of messages within the contract's bounds, not the one shown. */
    canAskMessages: ({ context, event }) => {
      assertEvent(event, 'callList.messages');
      return isMessagesCount(event.messages) && event.messages !== context.messages;
    },
  },
}).createMachine({
  id: 'callList',
  context: ({ input }) => ({
    courseId: input.courseId,
    messages: isMessagesCount(input.messages) ? input.messages : COVERAGE_MESSAGES,
    list: null,
  }),
  initial: 'loading',
  on: {
    'callList.messages': { guard: 'canAskMessages', target: '.loading', reenter: true, actions: 'assignMessages' },
  },
  states: {
    loading: {
      tags: 'busy',
      invoke: {
        id: 'fetchCallList',
        src: 'fetchCallList',
        input: ({ context }) => ({ courseId: context.courseId, messages: context.messages }),
        onDone: { target: 'shown', actions: { type: 'assignList', params: ({ event }) => event.output } },
        // Another school's course (404): nothing to retry; anything else offers Reintentar.
        onError: [
          { guard: { type: 'isNotFound', params: ({ event }) => toApiFailure(event.error) }, target: 'notFound' },
          { target: 'failed' },
        ],
      },
    },
    shown: {},
    notFound: {},
    failed: {
      on: { 'callList.retry': { target: 'loading' } },
    },
  },
});

export type CallListSnapshot = SnapshotFrom<typeof callListMachine>;
export type CallListActor = ActorRefFrom<typeof callListMachine>;

export const selectList = (s: CallListSnapshot): CallList | null => s.context.list;
export const selectMessages = (s: CallListSnapshot): number => s.context.messages;
export const selectListLoading = (s: CallListSnapshot): boolean => s.hasTag('busy');
export const selectListFailed = (s: CallListSnapshot): boolean => s.matches('failed');
export const selectListNotFound = (s: CallListSnapshot): boolean => s.matches('notFound');
/** The CSV of the list shown (the N asked), for the download link. */
export const selectCsvUrl = (s: CallListSnapshot): string => callListCsvUrl({ courseId: s.context.courseId, messages: s.context.messages });

const NO_PAGES: CallListRow[][] = [];
const printPages = memoPerOwner((list: CallList): CallListRow[][] => pagesOf(list.rows));
/** The list's rows in printed pages (none before it comes or when nobody is missed); the same array for the same list. */
export const selectPrintPages = (s: CallListSnapshot): CallListRow[][] => (s.context.list ? printPages(s.context.list) : NO_PAGES);
