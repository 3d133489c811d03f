import { createActor } from 'xstate';
import { expect } from 'vitest';
import { selectIsSidebarOpen, sidebarMachine } from '../../src/machines/app/sidebar';
import { defineModelTests, send } from './harness';

/**
 * Whether the sidebar is open after these events, in the test's own words (SPEC §2, §4): it starts
 * closed, the menu button flips it, open and close set it, and every navigation closes it.
 */
const openAfter = (events: readonly { type: string }[]): boolean =>
  events.reduce((open, event) => {
    if (event.type === 'sidebar.toggle') return !open;
    if (event.type === 'sidebar.open') return true;
    if (event.type === 'sidebar.close' || event.type === 'route.changed') return false;
    return open;
  }, false);

defineModelTests({
  name: 'sidebar',
  machine: sidebarMachine,
  oracle: {
    initial: 'closed',
    targets: {
      closed: { 'sidebar.toggle': 'open', 'sidebar.open': 'open' },
      open: { 'sidebar.toggle': 'closed', 'sidebar.close': 'closed', 'route.changed': 'closed' },
    },
  },
  traversal: {
    events: [{ type: 'sidebar.toggle' }, { type: 'sidebar.open' }, { type: 'sidebar.close' }, { type: 'route.changed', path: '/inbox' }],
    limit: 50,
  },
  createActor: ({ machine }) => createActor(machine),
  // What the view reads, against the test's account of the events so far (not the machine's own state).
  states: {
    closed: (snapshot, env) => {
      expect(openAfter(env.history), 'open after these events').toBe(false);
      expect(selectIsSidebarOpen(snapshot as never)).toBe(false);
    },
    open: (snapshot, env) => {
      expect(openAfter(env.history), 'open after these events').toBe(true);
      expect(selectIsSidebarOpen(snapshot as never)).toBe(true);
    },
  },
  events: {
    'sidebar.toggle': send,
    'sidebar.open': send,
    'sidebar.close': send,
    'route.changed': send,
  },
  // The sidebar has no effects.
  emits: () => [],
});
