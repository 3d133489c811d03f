// Small checks of the message machines outside their model suites: starting a lifecycle from a
// summary, and selector reference stability of the folder list.
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { folderListMachine, folderMachine, selectItems, selectSelectedIds } from '../../src/machines/messages/folder';
import { openMessageLifecycle } from '../../src/machines/messages/lifecycle';
import { selectKind } from '../../src/machines/messages/lifecycle-selectors';
import { messagePage, messageSummary } from '../fixtures/messages';
import { fromCursorPage } from '../../src/services/list/pages';

const PAGE = messagePage([messageSummary({ id: 1 }), messageSummary({ id: 2 })]);

describe('openMessageLifecycle', () => {
  it.each([
    [{ id: 1, kind: 'draft', unread: false, deleted_from: null }, { draft: 'idle' }],
    [{ id: 1, kind: 'scheduled', unread: false, deleted_from: null }, { scheduled: 'idle' }],
    [{ id: 1, kind: 'sent', unread: false, deleted_from: null }, { sent: 'delivered' }],
    [{ id: 1, kind: 'received', unread: true, deleted_from: null }, { received: 'unread' }],
    [{ id: 1, kind: 'received', unread: false, deleted_from: null }, { received: 'read' }],
    [{ id: 1, kind: 'deleted', unread: false, deleted_from: 'inbox' }, { deleted: 'idle' }],
    [{ id: 1, kind: 'deleted', unread: false, deleted_from: null }, 'closed'],
  ] as const)('%j starts in %j', (message, value) => {
    const actor = openMessageLifecycle(message);
    expect(actor.getSnapshot().value).toEqual(value);
    actor.stop();
  });

  it('remembers where a trashed message came from', () => {
    const actor = openMessageLifecycle({ id: 1, kind: 'deleted', unread: false, deleted_from: 'inbox' });
    expect(actor.getSnapshot().context.deletedFrom).toBe('received');
    expect(selectKind(actor.getSnapshot())).toBe('deleted');
    actor.stop();
  });
});

describe('folder selectors', () => {
  it('keep their array references until the list or selection changes', async () => {
    const list = folderListMachine.provide({ actors: { fetchPage: fromPromise(async () => fromCursorPage(PAGE)) } });
    const actor = createActor(folderMachine.provide({ actors: { list } }), {
      input: { folder: 'inbox' },
    }).start();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(selectItems(actor.getSnapshot())).toEqual(PAGE.data);
    const items = selectItems(actor.getSnapshot());
    const selection = selectSelectedIds(actor.getSnapshot());
    actor.send({ type: 'folder.toggleSelect', id: 99 });
    actor.send({ type: 'folder.clearSelection' });
    expect(selectSelectedIds(actor.getSnapshot())).toBe(selection);
    actor.send({ type: 'folder.toggleSelect', id: 1 });
    expect(selectItems(actor.getSnapshot())).toBe(items);
    expect(selectSelectedIds(actor.getSnapshot())).toEqual([1]);
    expect(selectSelectedIds(actor.getSnapshot())).not.toBe(selection);
    actor.stop();
  });
});
