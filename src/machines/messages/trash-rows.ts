// What a trash screen does with its rows (recipient-lists/trash.ts, news/trash.ts): restore one, or delete
// one forever only after the question; declining gives the focus back (the host's `focusPurge`), a row acted
// on leaves the list (`removeTarget`) with a toast, a failure keeps it with one. The host's `setup` names the
// actions and the guard used here: assignTarget, clearTarget, removeTarget, focusPurge, toastRestored,
// toastPurged, toastFailed, isListed; `restore` and `purge` are its actors' names (also the invoke ids).
export function trashRowStates<R extends string, P extends string>(restore: R, purge: P) {
  const input = ({ context }: { context: { target: number | null } }) => ({ id: context.target as number });
  return {
    idle: {
      on: {
        'trash.restore': { guard: 'isListed', target: 'restoring', actions: 'assignTarget' },
        'trash.purge': { guard: 'isListed', target: 'confirmingPurge', actions: 'assignTarget' },
      },
    },
    confirmingPurge: {
      on: {
        'trash.confirm': { target: 'purging' },
        'trash.cancel': { target: 'idle', actions: ['focusPurge', 'clearTarget'] },
      },
    },
    restoring: {
      tags: 'busy',
      invoke: {
        id: restore,
        src: restore,
        input,
        onDone: { target: 'idle', actions: ['toastRestored', 'removeTarget', 'clearTarget'] },
        onError: { target: 'idle', actions: ['toastFailed', 'clearTarget'] },
      },
    },
    purging: {
      tags: 'busy',
      invoke: {
        id: purge,
        src: purge,
        input,
        onDone: { target: 'idle', actions: ['toastPurged', 'removeTarget', 'clearTarget'] },
        onError: { target: 'idle', actions: ['toastFailed', 'clearTarget'] },
      },
    },
  } as const;
}
