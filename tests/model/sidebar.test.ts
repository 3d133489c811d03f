import { createActor } from 'xstate';
import { expect } from 'vitest';
import { selectIsSidebarOpen, sidebarMachine } from '../../src/machines/app/sidebar';
import { defineModelTests, send } from './harness';

defineModelTests({
  name: 'sidebar',
  machine: sidebarMachine,
  traversal: {
    events: [
      { type: 'sidebar.toggle' },
      { type: 'sidebar.open' },
      { type: 'sidebar.close' },
      { type: 'route.changed', path: '/inbox' },
    ],
    limit: 50,
  },
  createActor: () => createActor(sidebarMachine),
  states: {
    closed: (snapshot) => expect(selectIsSidebarOpen(snapshot as never)).toBe(false),
    open: (snapshot) => expect(selectIsSidebarOpen(snapshot as never)).toBe(true),
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
