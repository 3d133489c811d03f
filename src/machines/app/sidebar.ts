// Sidebar (SPEC §2, §4): open or closed; it closes after each navigation.
import { setup, type SnapshotFrom } from 'xstate';

export type SidebarEvent =
  | { type: 'sidebar.toggle' }
  | { type: 'sidebar.open' }
  | { type: 'sidebar.close' }
  /** Forwarded by the app root from the route guard on every location change. */
  | { type: 'route.changed'; path: string };

export const sidebarMachine = setup({
  types: { events: {} as SidebarEvent },
}).createMachine({
  id: 'sidebar',
  initial: 'closed',
  states: {
    closed: {
      on: { 'sidebar.toggle': { target: 'open' }, 'sidebar.open': { target: 'open' } },
    },
    open: {
      on: {
        'sidebar.toggle': { target: 'closed' },
        'sidebar.close': { target: 'closed' },
        'route.changed': { target: 'closed' },
      },
    },
  },
});

export type SidebarSnapshot = SnapshotFrom<typeof sidebarMachine>;

export const selectIsSidebarOpen = (snapshot: SidebarSnapshot): boolean => snapshot.matches('open');
