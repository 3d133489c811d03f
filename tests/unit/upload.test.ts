// The upload (XMLHttpRequest, for its progress) goes through the app's HTTP client: a 401 is refreshed away
// once and the file sent again; a 401 the refresh cannot cure tells the session. Run in a small actor system
// that holds a client, as the app root does, with a fake XMLHttpRequest the test answers.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { assign, createActor, setup, waitFor } from 'xstate';
import type { AttachmentSummary } from '../../shared/messages-contract';
import { uploadAttachment } from '../../src/services/compose/upload';
import { number, type } from 'superstruct';
import {
  createHttpClient,
  HTTP_SYSTEM_ID,
  httpClientLogic,
  toApiFailure,
  type ApiFailure,
  type HttpSession,
} from '../../src/services/http/client';
import { uploadForm } from '../../src/services/http/upload';
import { FakeXhr } from '../fixtures/fake-xhr';

const STORED: AttachmentSummary = { id: 9, name: 'acta.pdf', size: 8, content_type: 'application/pdf', url: '/attachments/9' };
const UNAUTHENTICATED = { message: 'Unauthenticated.', code: 'auth.unauthenticated' };

/** A host holding the client as the app root does (systemId `http`) and running one upload. */
function uploadIn(session: HttpSession) {
  const host = setup({
    types: { context: {} as { stored: AttachmentSummary | null; failure: ApiFailure | null } },
    actors: { http: httpClientLogic, uploadAttachment },
  }).createMachine({
    context: { stored: null, failure: null },
    invoke: { id: 'http', systemId: HTTP_SYSTEM_ID, src: 'http', input: { session } },
    initial: 'uploading',
    states: {
      uploading: {
        invoke: {
          id: 'upload',
          src: 'uploadAttachment',
          input: { file: new File(['12345678'], 'acta.pdf', { type: 'application/pdf' }) },
          onDone: { target: 'done', actions: assign({ stored: ({ event }) => event.output }) },
          onError: { target: 'done', actions: assign({ failure: ({ event }) => toApiFailure(event.error) }) },
        },
      },
      done: {},
    },
  });
  return createActor(host).start();
}

beforeEach(() => {
  FakeXhr.sent = [];
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  document.cookie = 'XSRF-TOKEN-HERMES=before; Path=/';
});
afterEach(() => {
  vi.unstubAllGlobals();
  document.cookie = 'XSRF-TOKEN-HERMES=; Max-Age=0; Path=/';
});

describe('the upload through the client', () => {
  it('a 401 with a live refresh token refreshes once and sends the file again, with the XSRF token as it is then', async () => {
    const refresh = vi.fn(async () => {
      document.cookie = 'XSRF-TOKEN-HERMES=after; Path=/';
      return true;
    });
    const unauthorized = vi.fn();
    const host = uploadIn({ refresh, unauthorized });
    await vi.waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
    FakeXhr.sent[0]!.respond(401, UNAUTHENTICATED);
    await vi.waitFor(() => expect(FakeXhr.sent).toHaveLength(2));
    FakeXhr.sent[1]!.respond(201, { data: STORED });
    const done = await waitFor(host, (snapshot) => snapshot.matches('done'));
    expect(done.context).toEqual({ stored: STORED, failure: null });
    expect(FakeXhr.sent.map((xhr) => xhr.headers['X-XSRF-TOKEN'])).toEqual(['before', 'after']);
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(unauthorized).not.toHaveBeenCalled();
  });

  it('a 401 whose refresh fails is the upload’s failure, and the session is told once', async () => {
    const refresh = vi.fn(async () => false);
    const unauthorized = vi.fn();
    const host = uploadIn({ refresh, unauthorized });
    await vi.waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
    FakeXhr.sent[0]!.respond(401, UNAUTHENTICATED);
    const done = await waitFor(host, (snapshot) => snapshot.matches('done'));
    expect(done.context.failure).toMatchObject({ status: 401, code: 'auth.unauthenticated' });
    expect(FakeXhr.sent).toHaveLength(1);
    expect(unauthorized).toHaveBeenCalledTimes(1);
  });
});

describe('an answer told as JSON lines', () => {
  const BODY = { data: STORED };
  const call = (onServerProgress: (progress: unknown) => void) =>
    uploadForm(
      createHttpClient(),
      { path: '/attachments', form: () => '{}', size: 0, struct: type({ data: type({ id: number() }) }), onServerProgress },
      new AbortController().signal,
    );

  it('asks for lines, hands on each progress once as whole lines arrive (a line cut between chunks waits), and resolves with the answer', async () => {
    const told: unknown[] = [];
    const done = call((progress) => told.push(progress));
    await vi.waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
    const xhr = FakeXhr.sent[0]!;
    expect(xhr.headers.Accept).toBe('application/x-ndjson, application/json');
    expect(xhr.headers['Content-Type']).toBe('application/json');
    xhr.status = 200;
    xhr.responseHeaders = { 'content-type': 'application/x-ndjson; charset=utf-8' };
    xhr.responseText = '{"progress":{"done":1}}\n{"progress":{"do';
    xhr.onprogress?.();
    expect(told).toEqual([{ done: 1 }]);
    xhr.responseText += 'ne":2}}\n';
    xhr.onprogress?.();
    xhr.onprogress?.();
    expect(told).toEqual([{ done: 1 }, { done: 2 }]);
    xhr.lines([{ answer: { status: 200, body: BODY } }], true);
    expect(await done).toEqual(BODY);
    expect(told).toEqual([{ done: 1 }, { done: 2 }]);
  });

  it("fails with the answer line's status and error, and as a network failure when the lines stop without one", async () => {
    const refused = call(() => {});
    await vi.waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
    FakeXhr.sent[0]!.lines([{ answer: { status: 409, body: { message: 'Ya aplicada.', code: 'roster.state' } } }], true);
    await expect(refused).rejects.toMatchObject({ status: 409, code: 'roster.state', message: 'Ya aplicada.' });
    const cut = call(() => {});
    await vi.waitFor(() => expect(FakeXhr.sent).toHaveLength(2));
    FakeXhr.sent[1]!.lines([{ progress: { done: 1 } }], true);
    await expect(cut).rejects.toMatchObject({ status: 0, code: 'network' });
  });
});
