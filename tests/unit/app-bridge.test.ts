// app/bridge.ts: where a child's effect goes. Counts go to the root as they are (it refreshes folderCounts);
// every UI effect is wrapped for the edge, so no view listens to a child directly.
import { describe, expect, it } from 'vitest';
import { appEventOf } from '../../src/machines/app/bridge';

describe('appEventOf', () => {
  it('keeps counts.changed for the root and wraps UI effects for the edge', () => {
    expect(appEventOf({ type: 'counts.changed' })).toEqual({ type: 'counts.changed' });
    const toast = { type: 'toast', kind: 'success', key: 'messages.deleted' } as never;
    expect(appEventOf(toast)).toEqual({ type: 'app.relay', event: toast });
  });
});
